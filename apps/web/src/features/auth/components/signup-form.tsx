import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { InviteUnaffiliatedBody, InviteUnaffiliatedBodySchema } from '@patientsim/domain/auth/auth.schemas';
import { SIGNUP_ACCOUNT_TYPES, SIGNUP_ACCOUNT_TYPE_LABEL } from '@patientsim/domain/product/product-types';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormNativeSelectField } from '../../../components/form-native-select-field';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { lazyZodResolver } from '../../../lib/lazy-zod-resolver';
import { useInviteUnaffiliated } from '../api/invite-unaffiliated';

export const INVITATION_SENT_MESSAGE =
  'An invitation has been sent to the specified email. Check your email and follow the instructions within.';

/** Checked with the server's schema, loaded with zod at the first submit (`lazyZodResolver`). */
const signupResolver = lazyZodResolver<z.input<typeof InviteUnaffiliatedBodySchema>, InviteUnaffiliatedBody>(
  async () => (await import('@patientsim/domain/auth/auth.schemas')).InviteUnaffiliatedBodySchema,
);

/** Plain sign-up (decision 9): e-mail and account type; the e-mailed link continues the sign-up. */
export function SignupForm() {
  const invite = useInviteUnaffiliated();
  const { control, handleSubmit } = useForm<z.input<typeof InviteUnaffiliatedBodySchema>, unknown, InviteUnaffiliatedBody>({
    resolver: signupResolver,
    defaultValues: { email: '', accountType: 'EMS' },
  });

  if (invite.isSuccess) {
    return (
      <Alert severity="success" role="status">
        {INVITATION_SENT_MESSAGE}
      </Alert>
    );
  }

  return (
    <Box component="form" method="post" noValidate onSubmit={handleSubmit((values) => invite.mutate(values))}>
      {invite.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {errorMessage(invite.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" required />
      <FormNativeSelectField control={control} name="accountType" label="Account type">
        {SIGNUP_ACCOUNT_TYPES.map((type) => (
          <option key={type} value={type}>
            {SIGNUP_ACCOUNT_TYPE_LABEL[type]}
          </option>
        ))}
      </FormNativeSelectField>
      <Button type="submit" variant="contained" size="large" fullWidth loading={invite.isPending} sx={{ mt: 2 }}>
        Sign Up
      </Button>
    </Box>
  );
}
