import { type AuthorizationRedirect, AuthorizationRedirectSchema } from '@patientsim/domain/auth/auth.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * The person's answer on the consent page (decision 0065): the OpenID provider verifies the signed
 * request and answers with the application's redirect address (a code when allowed, an
 * access_denied error otherwise).
 */
export function answerConsent({ oauthQuery, accept }: { oauthQuery: string; accept: boolean }): Promise<AuthorizationRedirect> {
  return apiFetch('/api/auth/oauth2/consent', {
    method: 'POST',
    body: { accept, oauth_query: oauthQuery },
    schema: AuthorizationRedirectSchema,
  });
}

export function useAnswerConsent() {
  return useMutation({ mutationKey: ['oauth', 'consent'], mutationFn: answerConsent });
}
