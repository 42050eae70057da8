import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { applicationsKey } from './get-applications';

/** Removes an application: it can no longer sign anyone in, and its tokens stop working. */
export function removeApplication(id: string) {
  return apiFetch(`/api/users/applications/${encodeURIComponent(id)}`, { method: 'DELETE', schema: OkSchema });
}

export function useRemoveApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['applications', 'remove'],
    mutationFn: removeApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey }),
  });
}
