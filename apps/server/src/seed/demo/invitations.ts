/** Pending invitations of the demo. */
import { INVITATION_TOKEN_SECONDS } from '@patientsim/domain/common/constants';
import type { Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import { invitation } from '../../db/schema/index.js';
import { buildInvitation } from '../builders.js';
import { type DemoContext, daysAgo, idOf } from './context.js';
import type { DemoOrgKey, DemoSubgroupKey } from './organisations.js';

/** invitee@demo.test has no account yet; instructor@demo.test is invited to a second organisation. */
const DEMO_INVITATIONS: readonly {
  email: string;
  org: DemoOrgKey;
  role: Role;
  inviter: string;
  subgroups?: readonly DemoSubgroupKey[];
}[] = [
  { email: 'invitee@demo.test', org: 'northgate', role: 'STUDENT', inviter: 'nurse@demo.test', subgroups: ['cohort2027'] },
  { email: 'instructor@demo.test', org: 'northgate', role: 'USER', inviter: 'nurse@demo.test' },
];

/** Inserts the invitations, sent a day ago and valid for the standard lifetime from now. */
export async function seedInvitations(db: Database, { now, userIds, orgIds, subgroupIds }: DemoContext): Promise<void> {
  await db.insert(invitation).values(
    DEMO_INVITATIONS.map((invite) =>
      buildInvitation({
        orgId: orgIds[invite.org],
        email: invite.email,
        role: invite.role,
        inviterId: idOf(userIds, invite.inviter),
        groupIds: (invite.subgroups ?? []).map((key) => subgroupIds[key]),
        expiresAt: new Date(now.getTime() + INVITATION_TOKEN_SECONDS * 1000),
        createdAt: daysAgo(now, 1),
      }),
    ),
  );
}
