import { hasPermission } from '@patientsim/domain/roles/permissions';
import { Outlet } from 'react-router';
import { SectionLayout } from '../../../components/section-layout';
import { SectionMenu, type SectionMenuItem } from '../../../components/section-menu';
import { paths } from '../../../config/paths';
import type { CurrentUser } from '../../../lib/current-user';
import { useCurrentUser } from '../../../lib/use-session';
import { VideoTutorials } from './video-tutorials';

/**
 * The org management menu (spec section 2): Org. Profile for the key owner, user lists for admins
 * and instructors, Groups for all; the audit trail and the second factor's requirement for admins.
 */
export function orgMenuItems(user: CurrentUser): SectionMenuItem[] {
  const items: SectionMenuItem[] = [];
  if (user.isKeyOwner) items.push({ label: 'Org. Profile', to: paths.orgProfile });
  if (hasPermission(user.role, 'org:members:read')) {
    items.push(
      { label: 'Users', to: paths.orgInvite },
      { label: 'Subscribed Users', to: paths.orgInviteSubscribed },
      { label: 'Grading Archive', to: paths.orgArchivedUsers },
    );
  }
  items.push({ label: 'Groups', to: paths.orgGroups });
  if (hasPermission(user.role, 'org:audit:read')) items.push({ label: 'Audit', to: paths.orgAudit });
  if (hasPermission(user.role, 'org:two-factor:require')) items.push({ label: 'Security', to: paths.orgSecurity });
  return items;
}

export function OrgLayout() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <SectionLayout
      menu={
        <>
          <SectionMenu label="Org management" items={orgMenuItems(user)} />
          {hasPermission(user.role, 'org:tutorials:read') ? <VideoTutorials activeOrgId={user.activeOrg?.id ?? null} /> : null}
        </>
      }
    >
      <Outlet />
    </SectionLayout>
  );
}
