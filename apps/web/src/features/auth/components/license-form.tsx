import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { LICENSE_VERSION } from '@patientsim/domain/common/constants';
import { useId } from 'react';
import { useController, useForm } from 'react-hook-form';
import { z } from 'zod';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useAcceptLicense } from '../api/accept-license';

export const AGREE_LABEL = 'I agree with the license agreement';
export const DISAGREE_LABEL = 'I do not agree with the license agreement';

/**
 * Only agreeing goes on (spec section 5): Next stays disabled on anything else, so this never has a
 * message to show. The token and the version come from the link and the build, not from a field.
 */
export const LicenseFormSchema = z.object({ choice: z.string().pipe(z.literal('agree')) });
type LicenseFormInput = z.input<typeof LicenseFormSchema>;
type LicenseFormValues = z.output<typeof LicenseFormSchema>;

/** The agree / do not agree choice; Next is enabled only on agree (spec section 5). */
export function LicenseForm({ token, onAccepted }: { token: string; onAccepted: () => void }) {
  const accept = useAcceptLicense();
  const { control, handleSubmit } = useForm<LicenseFormInput, unknown, LicenseFormValues>({
    resolver: zodResolver(LicenseFormSchema),
    defaultValues: { choice: '' },
  });
  const { field } = useController({ control, name: 'choice' });
  const labelId = useId();

  return (
    <Box
      component="form"
      noValidate
      onSubmit={handleSubmit(() => accept.mutate({ token, version: LICENSE_VERSION }, { onSuccess: onAccepted }))}
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
          name={field.name}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
        >
          <FormControlLabel value="agree" control={<Radio />} label={AGREE_LABEL} />
          <FormControlLabel value="disagree" control={<Radio />} label={DISAGREE_LABEL} />
        </RadioGroup>
      </FormControl>
      <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={field.value !== 'agree'} loading={accept.isPending}>
          Next
        </Button>
      </Box>
    </Box>
  );
}
