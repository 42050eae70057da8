import { type AuthorizationRedirect, AuthorizationRedirectSchema } from '@patientsim/domain/auth/auth.schemas';
import { apiFetch } from '../../../lib/api-client';

/**
 * Continues another application's sign-in (decision 0065) once the person is signed in and has
 * done the product's own steps (the license): the OpenID provider verifies the signed request and
 * answers with the application's redirect address, carrying the authorization code.
 */
export function continueAuthorization(oauthQuery: string): Promise<AuthorizationRedirect> {
  return apiFetch('/api/auth/oauth2/continue', {
    method: 'POST',
    body: { postLogin: true, oauth_query: oauthQuery },
    schema: AuthorizationRedirectSchema,
  });
}
