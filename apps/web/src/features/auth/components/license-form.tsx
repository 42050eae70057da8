import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { LICENSE_VERSION } from '@patientsim/domain/common/constants';
import { useId, useState } from 'react';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useAcceptLicense } from '../api/accept-license';

export const AGREE_LABEL = 'I agree with the license agreement';
export const DISAGREE_LABEL = 'I do not agree with the license agreement';

type Choice = 'agree' | 'disagree';

/** The agree / do not agree choice; Next is enabled only on agree (spec section 5). */
export function LicenseForm({ token, onAccepted }: { token: string; onAccepted: () => void }) {
  const accept = useAcceptLicense();
  const [choice, setChoice] = useState<Choice | null>(null);
  const labelId = useId();

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (choice === 'agree') accept.mutate({ token, version: LICENSE_VERSION }, { onSuccess: onAccepted });
      }}
    >
      {accept.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(accept.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      <FormControl>
        <FormLabel id={labelId}>License agreement</FormLabel>
        <RadioGroup
          aria-labelledby={labelId}
          name="license"
          value={choice ?? ''}
          onChange={(event) => setChoice(event.target.value === 'agree' ? 'agree' : 'disagree')}
        >
          <FormControlLabel value="agree" control={<Radio />} label={AGREE_LABEL} />
          <FormControlLabel value="disagree" control={<Radio />} label={DISAGREE_LABEL} />
        </RadioGroup>
      </FormControl>
      <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={choice !== 'agree'} loading={accept.isPending}>
          Next
        </Button>
      </Box>
    </Box>
  );
}
