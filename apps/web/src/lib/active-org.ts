import type { ChangeOrgBody } from '@patientsim/domain/auth/auth.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import type { LoginResult } from '@patientsim/domain/identity/token.schemas';
import { apiFetch } from './api-client';
import { renewSession } from './id-token';

/**
 * Makes `orgId` the active organisation, then renews the token so it carries the new one. Used
 * by org selection and by every way of joining an organisation (spec section 4, Invite).
 */
export async function changeActiveOrg(body: ChangeOrgBody): Promise<LoginResult> {
  await apiFetch('/api/users/auth/changeOrg', { method: 'POST', body, schema: OkSchema });
  return renewSession();
}
