import type { EndViewAsBody } from '@patientsim/domain/auth/view-as.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { apiFetch } from './api-client';

/** How long before a View-As-User token expires its end is recorded (the token still works then). */
export const VIEW_END_LEAD_MS = 5000;

/**
 * Ends the View-As-User session of `idToken` on the server (its token is refused from then on, and
 * the end is audited with its optional reason).
 */
export function endViewAs(idToken: string, body: EndViewAsBody = {}): Promise<unknown> {
  return apiFetch('/api/users/auth/loginAs/end', { method: 'POST', body, token: idToken, schema: OkSchema });
}
