import { type Passkey, PasskeySchema, WebAuthnJsonSchema } from '@patientsim/domain/auth/two-factor.schemas';
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { TWO_FACTOR_STATUS_QUERY_KEY } from './get-two-factor-status';

/**
 * Adds a passkey: the server's registration options, the browser's ceremony (the person creates
 * the passkey on this device or a security key), then the server checks and stores it under `name`.
 * A ceremony the person cancelled throws the browser's error.
 */
export async function addPasskey({ name }: { name: string }): Promise<Passkey> {
  const options = await apiFetch('/api/users/account/passkeys/options', { method: 'POST', schema: WebAuthnJsonSchema });
  const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return apiFetch('/api/users/account/passkeys', { method: 'POST', body: { name, response }, schema: PasskeySchema });
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'two-factor', 'add-passkey'],
    mutationFn: addPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_STATUS_QUERY_KEY }),
  });
}
