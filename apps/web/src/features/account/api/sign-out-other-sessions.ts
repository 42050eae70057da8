import { type EndedSessions, EndedSessionsSchema } from '@patientsim/domain/account/sessions.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { SESSIONS_QUERY_KEY } from './get-sessions';

/** Signs out every session of the person but this browser's. */
export function signOutOtherSessions(): Promise<EndedSessions> {
  return apiFetch('/api/users/account/sessions/sign-out-others', { method: 'POST', schema: EndedSessionsSchema });
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'sign-out-other-sessions'],
    mutationFn: signOutOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}
