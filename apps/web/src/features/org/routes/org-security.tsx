import Typography from '@mui/material/Typography';
import { ScreenHeader } from '../../../components/screen-header';
import { useCurrentUser } from '../../../lib/use-session';
import { TwoFactorRequirementCard } from '../components/two-factor-requirement-card';

/**
 * /org/security: which roles of the active organisation must sign in with a second factor
 * (decision 0066), for every admin of it, not only the key owner who has the Org. Profile.
 */
export function OrgSecurityRoute() {
  const organisation = useCurrentUser()?.activeOrg ?? null;
  return (
    <>
      <ScreenHeader title="Security" />
      {organisation ? (
        <>
          <Typography sx={{ mb: 2 }}>How the members of {organisation.name} sign in.</Typography>
          <TwoFactorRequirementCard orgId={organisation.id} />
        </>
      ) : (
        <Typography>You are not a member of an organization.</Typography>
      )}
    </>
  );
}
