import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type Passkey, PasskeyRegisterBodySchema } from '@patientsim/domain/auth/two-factor.schemas';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field';
import { passkeyErrorMessage } from '../../../lib/passkey-errors';
import { useAddPasskey } from '../api/add-passkey';

export const ADD_PASSKEY_LABEL = 'Add passkey';

/** The name part of the registration, checked with the server's rule before the browser is asked. */
const PasskeyNameSchema = PasskeyRegisterBodySchema.pick({ name: true });
type PasskeyName = z.output<typeof PasskeyNameSchema>;

/**
 * A name for the passkey (so it can be told apart in the list later), then the browser's own
 * dialog creates it on this device or a security key.
 */
export function PasskeyForm({ onAdded, onCancel }: { onAdded: (passkey: Passkey) => void; onCancel?: () => void }) {
  const add = useAddPasskey();
  const { control, handleSubmit } = useForm<z.input<typeof PasskeyNameSchema>, unknown, PasskeyName>({
    resolver: zodResolver(PasskeyNameSchema),
    defaultValues: { name: '' },
  });
  return (
    <Box component="form" noValidate onSubmit={handleSubmit((values) => add.mutate(values, { onSuccess: onAdded }))}>
      {add.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {passkeyErrorMessage(add.error)}
        </Alert>
      ) : null}
      <FormTextField
        control={control}
        name="name"
        label="Passkey name"
        hint="For example: Work laptop, or Phone"
        autoComplete="off"
        required
      />
      <Box sx={{ mt: 1, display: 'flex', gap: 1 }}>
        {onCancel ? (
          <Button onClick={onCancel} disabled={add.isPending}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" variant="contained" loading={add.isPending}>
          {ADD_PASSKEY_LABEL}
        </Button>
      </Box>
    </Box>
  );
}
