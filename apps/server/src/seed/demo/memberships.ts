/** Who belongs where: organisations, sub-groups, and the archive of removed members. */
import type { Database } from '../../db/client.js';
import { groupMember } from '../../db/schema/index.js';
import { buildMembership } from '../builders.js';
import { accountCreatedAt, DEMO_ACCOUNTS } from './accounts.js';
import { type DemoContext, daysAgo, idOf } from './context.js';
import { DEMO_SUBGROUPS } from './organisations.js';

/**
 * Inserts the memberships of every demo account: in a sub-group with the role the account has in
 * the parent organisation, and archived (removed 30 days ago) where the account was removed.
 */
export async function seedMemberships(db: Database, { now, userIds, orgIds, subgroupIds }: DemoContext): Promise<void> {
  const memberships = DEMO_ACCOUNTS.flatMap((demo, index) => {
    const userId = idOf(userIds, demo.email);
    const joinedAt = accountCreatedAt(now, index);
    const organisations = demo.memberships.map(({ org, role }) =>
      buildMembership({ groupId: orgIds[org], userId, role }, { createdAt: joinedAt }),
    );
    const classes = (demo.subgroups ?? []).map((key) => {
      const parentRole = demo.memberships.find(({ org }) => org === DEMO_SUBGROUPS[key].parent)?.role ?? demo.role;
      return buildMembership({ groupId: subgroupIds[key], userId, role: parentRole }, { createdAt: joinedAt });
    });
    const removed = (demo.removedFrom ?? []).map((org) =>
      buildMembership({ groupId: orgIds[org], userId, role: demo.role }, { createdAt: joinedAt, removedAt: daysAgo(now, 30) }),
    );
    return [...organisations, ...classes, ...removed];
  });
  await db.insert(groupMember).values(memberships);
}
