import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { UpdateProfileBody } from '@patientsim/domain/account/account.schemas';
import { EmailSchema } from '@patientsim/domain/auth/auth.schemas';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from '../../../components/confirm-dialog';
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
});
type ProfileFormInput = z.input<typeof ProfileFormSchema>;
type ProfileFormValues = z.output<typeof ProfileFormSchema>;

/** Only the fields that differ from the saved profile (spec section 5); empty when nothing changed. */
export function profileChanges(saved: ProfileFormValues, edited: ProfileFormValues): UpdateProfileBody {
  const changes: UpdateProfileBody = {};
  if (edited.given_name !== saved.given_name) changes.given_name = edited.given_name;
  if (edited.family_name !== saved.family_name) changes.family_name = edited.family_name;
  if (edited.email !== saved.email.toLowerCase()) changes.email = edited.email;
  return changes;
}

type Status = 'saved' | 'unchanged' | null;

/** First name, last name and e-mail with Save (spec section 2). */
export function ProfileForm({ userId, saved }: { userId: string; saved: ProfileFormValues }) {
  const update = useUpdateProfile();
  const logout = useLogout();
  const [status, setStatus] = useState<Status>(null);
  const [emailChange, setEmailChange] = useState<UpdateProfileBody | null>(null);
  const [currentPassword, setCurrentPassword] = useState('');
  const { control, handleSubmit, reset } = useForm<ProfileFormInput, unknown, ProfileFormValues>({
    resolver: zodResolver(ProfileFormSchema),
    defaultValues: saved,
  });

  const closeEmailChange = () => {
    setEmailChange(null);
    setCurrentPassword('');
  };
  // A wrong current password keeps the dialog open with the message under the field.
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
          reset({ given_name: profile.given_name, family_name: profile.family_name, email: profile.email });
          setStatus('saved');
        },
        onError: (error) => {
          if (!(isApiError(error) && error.code === 'CURRENT_PASSWORD_WRONG')) closeEmailChange();
        },
      },
    );
  };

  const onSubmit = handleSubmit((values) => {
    setStatus(null);
    update.reset();
    const changes = profileChanges(saved, values);
    if (Object.keys(changes).length === 0) {
      setStatus('unchanged');
      return;
    }
    if (changes.email !== undefined) {
      setEmailChange(changes);
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
      <Button type="submit" variant="contained" loading={update.isPending && emailChange === null} sx={{ mt: 2 }}>
        Save
      </Button>
      <ConfirmDialog
        isOpen={emailChange !== null}
        title={EMAIL_CHANGE_TITLE}
        confirmLabel="Accept"
        isPending={update.isPending}
        isConfirmDisabled={currentPassword === ''}
        initialFocus="content"
        onCancel={() => {
          update.reset();
          closeEmailChange();
        }}
        onConfirm={() => {
          if (emailChange) save({ ...emailChange, currentPassword });
        }}
      >
        {EMAIL_CHANGE_WARNING}
        <TextField
          label={CURRENT_PASSWORD_LABEL}
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
          error={isWrongPassword}
          helperText={isWrongPassword ? errorMessage(update.error, UNKNOWN_ERROR_MESSAGE) : CURRENT_PASSWORD_HINT}
          required
          fullWidth
          autoFocus
          sx={{ mt: 2 }}
        />
      </ConfirmDialog>
    </Box>
  );
}
