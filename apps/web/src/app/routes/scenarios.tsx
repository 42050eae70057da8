import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PRODUCT_TYPE_LABEL, isProductType } from '@patientsim/domain/product/product-types';
import { useId } from 'react';
import { ScreenHeader } from '../../components/screen-header';
import { useCurrentUser, useSession } from '../../lib/use-session';
import { ProviderContact } from '../../features/account/components/provider-contact';
import { CaseLibrary } from '../../features/cases/components/case-library';
import { ScenarioLibraryRoute } from '../../features/cases/routes/scenario-library';
import { PendingInvitations } from '../../features/invitations/components/pending-invitations';

/** The words a person without an organisation reads first (decision 18). */
export const NO_ORGANISATION_TEXT = 'You are not a member of any organization yet.';

/**
 * /authoring/cases (decision 1): the active organisation's scenario library; for a person with no
 * organisation (decisions 9 and 18), their first day instead: what to do next (their pending
 * invitations with Accept, how to be invited, how to reach the provider), and the published
 * scenarios of the public content organisation of the account type they chose (spec section 1).
 */
export function ScenariosRoute() {
  const user = useCurrentUser();
  if (!user) return null;
  return user.activeOrg ? <ScenarioLibraryRoute /> : <FirstDay />;
}

function FirstDay() {
  const user = useCurrentUser();
  const { result } = useSession();
  const nextId = useId();
  const publicId = useId();
  if (!user || !result) return null;
  const { productType } = result.idTokenPayload;
  const label = isProductType(productType) ? PRODUCT_TYPE_LABEL[productType] : productType;
  return (
    <>
      <ScreenHeader title="Scenarios" />
      <Paper variant="outlined" component="section" aria-labelledby={nextId} sx={{ p: 3, mb: 3, maxWidth: 880 }}>
        <Typography id={nextId} component="h2" variant="h2" gutterBottom>
          What to do next
        </Typography>
        <Typography variant="body1" gutterBottom>
          {NO_ORGANISATION_TEXT} Your organization's scenarios, classes and assignments open once you join it.
        </Typography>
        <Typography variant="body1" gutterBottom>
          To join, ask your organization's administrator or instructor to invite {user.email}. The invitation arrives by email:
          follow its link, or accept it below once it is listed.
        </Typography>
        <ProviderContact />
      </Paper>
      <PendingInvitations userId={user.id} email={user.email} />
      <Paper variant="outlined" component="section" aria-labelledby={publicId} sx={{ p: 3, mb: 3 }}>
        <Typography id={publicId} component="h2" variant="h2" gutterBottom>
          Public {label} scenarios
        </Typography>
        <Typography variant="body1" color="text.secondary" sx={{ mb: 2 }}>
          Your account type is {label}: meanwhile, you can open the scenarios the provider publishes for everyone.
        </Typography>
        <CaseLibrary productType={productType} isStudent isReadOnly />
      </Paper>
    </>
  );
}
