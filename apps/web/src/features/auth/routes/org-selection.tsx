import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/use-session';
import { OrgSelectionForm } from '../components/org-selection-form';

/** /org-selection: pick the organisation to sign in with, then verifyEmail. */
export function OrgSelectionRoute() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  if (!user) return null;

  return (
    <>
      <PageTitle title="Select an organization">Select an organization</PageTitle>
      <Typography sx={{ mb: 1 }}>You are a member of several organizations. Choose the one to work in.</Typography>
      <OrgSelectionForm
        organisations={user.organisations}
        initialOrgId={user.activeOrg?.id ?? null}
        onSelected={() => void navigate(paths.verifyEmail, { replace: true })}
      />
    </>
  );
}
