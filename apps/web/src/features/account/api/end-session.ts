import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { SESSIONS_QUERY_KEY } from './get-sessions';

/** Signs out one of the person's other sessions: that browser is signed out on its next request. */
export async function endSession(sessionId: string): Promise<void> {
  await apiFetch(`/api/users/account/sessions/${encodeURIComponent(sessionId)}`, { method: 'DELETE', schema: OkSchema });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'end-session'],
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}
