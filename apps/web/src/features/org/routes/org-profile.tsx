import { useNavigate } from 'react-router';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/use-session';
import { OrganisationOverview } from '../components/organisation-overview';

/** /org/profile: the key owner's organisation info and seats cards (no user list). */
export function OrgProfileRoute() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  if (!user) return null;
  return (
    <>
      <ScreenHeader title="Org. Profile" />
      <OrganisationOverview
        orgId={user.activeOrg?.id ?? ''}
        viewer={user}
        // No longer key owner: the org profile is not theirs any more (spec section 2).
        onKeyOwnerChanged={() => void navigate(paths.orgInvite)}
      />
    </>
  );
}
