import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
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
  const [orgId, setOrgId] = useState(initialOrgId ?? organisations[0]?.id ?? '');
  const selected = organisations.find((org) => org.id === orgId);

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (selected) changeOrg.mutate({ orgId: selected.id }, { onSuccess: onSelected });
      }}
    >
      {changeOrg.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {errorMessage(changeOrg.error, ORG_SELECTION_FALLBACK_ERROR)}
        </Alert>
      ) : null}
      <TextField
        select
        label="Organization"
        value={orgId}
        onChange={(event) => setOrgId(event.target.value)}
        slotProps={{ select: { native: true } }}
      >
        {organisations.map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
      </TextField>
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
