import { ProfileSchema, type UpdateProfileBody } from '@patientsim/domain/account/account.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';
import { renewSession } from '../../../lib/id-token';

export const UpdatedProfileSchema = ProfileSchema.extend({ emailChanged: z.boolean() });
export type UpdatedProfile = z.infer<typeof UpdatedProfileSchema>;

/**
 * Saves the changed fields of the signed-in user's profile. A new e-mail address ends every
 * session of the user and sends a verification link to it (server side).
 */
export function updateProfile({ userId, changes }: { userId: string; changes: UpdateProfileBody }): Promise<UpdatedProfile> {
  return apiFetch(`/api/users/users/${encodeURIComponent(userId)}`, {
    method: 'PATCH',
    body: changes,
    schema: UpdatedProfileSchema,
  });
}

/**
 * Saves the profile; when the e-mail address stayed the same, renews the token so the app shows
 * the new names at once. (A new address has ended the session: the caller logs out.)
 */
export async function saveProfile(params: { userId: string; changes: UpdateProfileBody }): Promise<UpdatedProfile> {
  const profile = await updateProfile(params);
  if (!profile.emailChanged) await renewSession();
  return profile;
}

export const updateProfileMutationOptions = () =>
  mutationOptions({ mutationKey: ['account', 'update-profile'], mutationFn: saveProfile });

export function useUpdateProfile() {
  return useMutation(updateProfileMutationOptions());
}
