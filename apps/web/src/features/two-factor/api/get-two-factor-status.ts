import { type TwoFactorStatus, TwoFactorStatusSchema } from '@patientsim/domain/auth/two-factor.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * The person's second factors and who requires one. The session cookie alone answers it, so the
 * set-up an organisation requires reads it before there is an ID token.
 */
export function getTwoFactorStatus(): Promise<TwoFactorStatus> {
  return apiFetch('/api/users/account/two-factor', { schema: TwoFactorStatusSchema });
}

export const TWO_FACTOR_STATUS_QUERY_KEY = ['account', 'two-factor'] as const;

export const twoFactorStatusQueryOptions = () =>
  queryOptions({ queryKey: TWO_FACTOR_STATUS_QUERY_KEY, queryFn: getTwoFactorStatus });

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQueryOptions());
}
