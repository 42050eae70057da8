import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { UpdateProfileBody } from '@patientsim/domain/account/account.schemas';
import { EmailSchema, PasswordSchema } from '@patientsim/domain/auth/auth.schemas';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormPasswordField } from '../../../components/form-password-field';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { useLogout } from '../../../lib/logout';
import { useUpdateProfile } from '../api/update-profile';

/** Verbatim from the spec (sections 4 and 8). */
export const EMAIL_CHANGE_TITLE = 'Email Change';
export const VERIFICATION_SENT_TO_NEW_ADDRESS_MESSAGE = 'Verification email sent to new address';

export const EMAIL_CHANGE_WARNING =
  'Changing your email address will log you out. A verification email will be sent to the new address: follow its link, then log in with the new address.';
export const CURRENT_PASSWORD_LABEL = 'Current password';
export const CURRENT_PASSWORD_HINT = 'For your security, enter your password to change your email address.';
export const PROFILE_SAVED_MESSAGE = 'Your profile has been saved.';
export const NOTHING_TO_SAVE_MESSAGE = 'There are no changes to save.';

const NameFieldSchema = (message: string) => z.string().trim().min(1, message).max(100);

export const ProfileFormSchema = z.object({
  given_name: NameFieldSchema('Must specify a first name.'),
  family_name: NameFieldSchema('Must specify a last name.'),
  email: EmailSchema,
  // Asked for in the Email Change dialog only.
  currentPassword: z.string(),
});
/** In the Email Change dialog the current password is needed too, as the server's UpdateProfileBodySchema asks with a new address. */
const EmailChangeFormSchema = ProfileFormSchema.extend({ currentPassword: PasswordSchema });
type ProfileFormInput = z.input<typeof ProfileFormSchema>;
type ProfileFormValues = z.output<typeof ProfileFormSchema>;
type ProfileFields = Omit<ProfileFormValues, 'currentPassword'>;

/** Only the fields that differ from the saved profile (spec section 5); empty when nothing changed. */
export function profileChanges(saved: ProfileFields, edited: ProfileFields): UpdateProfileBody {
  const changes: UpdateProfileBody = {};
  if (edited.given_name !== saved.given_name) changes.given_name = edited.given_name;
  if (edited.family_name !== saved.family_name) changes.family_name = edited.family_name;
  if (edited.email !== saved.email.toLowerCase()) changes.email = edited.email;
  return changes;
}

type Status = 'saved' | 'unchanged' | null;

/** First name, last name and e-mail with Save (spec section 2). */
export function ProfileForm({ userId, saved }: { userId: string; saved: ProfileFields }) {
  const update = useUpdateProfile();
  const logout = useLogout();
  const [status, setStatus] = useState<Status>(null);
  const [isConfirmingEmail, setIsConfirmingEmail] = useState(false);
  const { control, handleSubmit, reset, resetField, setError } = useForm<ProfileFormInput, unknown, ProfileFormValues>({
    resolver: zodResolver(isConfirmingEmail ? EmailChangeFormSchema : ProfileFormSchema),
    defaultValues: { ...saved, currentPassword: '' },
  });
  const currentPassword = useWatch({ control, name: 'currentPassword' });

  const closeEmailChange = () => {
    setIsConfirmingEmail(false);
    resetField('currentPassword');
  };
  // A wrong current password keeps the dialog open, its message under the field rather than above the form.
  const isWrongPassword = isApiError(update.error) && update.error.code === 'CURRENT_PASSWORD_WRONG';

  const save = (changes: UpdateProfileBody) => {
    update.mutate(
      { userId, changes },
      {
        onSuccess: (profile) => {
          closeEmailChange();
          if (profile.emailChanged) {
            // The server ended every session of the user: sign in again once the new address is verified.
            void logout({ notice: VERIFICATION_SENT_TO_NEW_ADDRESS_MESSAGE });
            return;
          }
          reset({ given_name: profile.given_name, family_name: profile.family_name, email: profile.email, currentPassword: '' });
          setStatus('saved');
        },
        onError: (error) => {
          if (isApiError(error) && error.code === 'CURRENT_PASSWORD_WRONG')
            setError('currentPassword', { message: errorMessage(error, UNKNOWN_ERROR_MESSAGE) });
          else closeEmailChange();
        },
      },
    );
  };

  // Save submits the form; with a new address, Accept in the Email Change dialog submits it again with the password.
  const onSubmit = handleSubmit(({ currentPassword: password, ...values }) => {
    const changes = profileChanges(saved, values);
    if (isConfirmingEmail) {
      save({ ...changes, currentPassword: password });
      return;
    }
    setStatus(null);
    update.reset();
    if (Object.keys(changes).length === 0) {
      setStatus('unchanged');
      return;
    }
    if (changes.email !== undefined) {
      setIsConfirmingEmail(true);
      return;
    }
    save(changes);
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ maxWidth: 480 }}>
      {update.isError && !isWrongPassword ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {errorMessage(update.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      {status ? (
        <Alert severity={status === 'saved' ? 'success' : 'info'} role="status" sx={{ mb: 1 }}>
          {status === 'saved' ? PROFILE_SAVED_MESSAGE : NOTHING_TO_SAVE_MESSAGE}
        </Alert>
      ) : null}
      <FormTextField control={control} name="given_name" label="First name" autoComplete="given-name" required />
      <FormTextField control={control} name="family_name" label="Last name" autoComplete="family-name" required />
      <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" required />
      <Button type="submit" variant="contained" loading={update.isPending && !isConfirmingEmail} sx={{ mt: 2 }}>
        Save
      </Button>
      <ConfirmDialog
        isOpen={isConfirmingEmail}
        title={EMAIL_CHANGE_TITLE}
        confirmLabel="Accept"
        isPending={update.isPending}
        isConfirmDisabled={currentPassword === ''}
        initialFocus="content"
        onCancel={() => {
          update.reset();
          closeEmailChange();
        }}
        onConfirm={() => void onSubmit()}
      >
        {EMAIL_CHANGE_WARNING}
        <FormPasswordField
          control={control}
          name="currentPassword"
          label={CURRENT_PASSWORD_LABEL}
          autoComplete="current-password"
          hint={CURRENT_PASSWORD_HINT}
          required
          autoFocus
        />
      </ConfirmDialog>
    </Box>
  );
}
