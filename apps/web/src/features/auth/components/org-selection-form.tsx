import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type ChangeOrgBody, ChangeOrgBodySchema } from '@patientsim/domain/auth/auth.schemas';
import { useForm, useWatch } from 'react-hook-form';
import { FormNativeSelectField } from '../../../components/form-native-select-field';
import { errorMessage } from '../../../lib/api-client';
import type { Organisation } from '../../../lib/current-user';
import { useChangeOrg } from '../api/change-org';

/** Verbatim from the spec, spelling included. */
export const ORG_SELECTION_FALLBACK_ERROR = 'Unkown error during org selection';

/** A dropdown of the user's organisations and 'Sign in with {org}'. */
export function OrgSelectionForm({
  organisations,
  initialOrgId,
  onSelected,
}: {
  organisations: readonly Organisation[];
  initialOrgId: string | null;
  onSelected: () => void;
}) {
  const changeOrg = useChangeOrg();
  const { control, handleSubmit } = useForm<ChangeOrgBody>({
    resolver: zodResolver(ChangeOrgBodySchema),
    defaultValues: { orgId: initialOrgId ?? organisations[0]?.id ?? '' },
  });
  const orgId = useWatch({ control, name: 'orgId' });
  const selected = organisations.find((org) => org.id === orgId);

  return (
    <Box component="form" noValidate onSubmit={handleSubmit((body) => changeOrg.mutate(body, { onSuccess: onSelected }))}>
      {changeOrg.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {errorMessage(changeOrg.error, ORG_SELECTION_FALLBACK_ERROR)}
        </Alert>
      ) : null}
      <FormNativeSelectField control={control} name="orgId" label="Organization">
        {organisations.map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
      </FormNativeSelectField>
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={!selected}
        loading={changeOrg.isPending}
        sx={{ mt: 2 }}
      >
        {selected ? `Sign in with ${selected.name}` : 'Sign in'}
      </Button>
    </Box>
  );
}
