import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type ResetRequestBody, ResetRequestBodySchema } from '@patientsim/domain/auth/auth.schemas';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useRequestPasswordReset } from '../api/request-password-reset';

export const RESET_EMAIL_SENT_MESSAGE =
  'A password reset email has been sent. Please follow the link in that email to change your password.';

/** Reset password, first step: the e-mail to send the link to. */
export function ResetRequestForm() {
  const request = useRequestPasswordReset();
  const { control, handleSubmit } = useForm<z.input<typeof ResetRequestBodySchema>, unknown, ResetRequestBody>({
    resolver: zodResolver(ResetRequestBodySchema),
    defaultValues: { email: '' },
  });

  if (request.isSuccess) {
    return (
      <Alert severity="success" role="status">
        {RESET_EMAIL_SENT_MESSAGE}
      </Alert>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={handleSubmit((values) => request.mutate(values))}>
      {request.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {errorMessage(request.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" required />
      <Button type="submit" variant="contained" size="large" fullWidth loading={request.isPending} sx={{ mt: 2 }}>
        Send reset email
      </Button>
    </Box>
  );
}
