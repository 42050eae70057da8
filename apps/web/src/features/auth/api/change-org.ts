import type { ChangeOrgBody } from '@patientsim/domain/auth/auth.schemas';
import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRevalidator } from 'react-router';
import { changeActiveOrg } from '../../../lib/active-org';
import { resetAllData } from '../../../lib/query-client';

export const changeOrgMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'change-org'], mutationFn: changeActiveOrg });

export function useChangeOrg() {
  return useMutation(changeOrgMutationOptions());
}

/**
 * Switches the active organisation without a sign-out, staying on the current page: the session is
 * renewed for the new organisation, the route guards run again (a page the new role may not see
 * sends the user where the guard says) and every cached query is dropped and fetched again, so no
 * screen keeps showing the previous organisation's data. Pending until all of that is done.
 */
export function useSwitchOrg() {
  const queryClient = useQueryClient();
  const { revalidate } = useRevalidator();
  return useMutation({
    mutationKey: ['auth', 'switch-org'],
    mutationFn: async (body: ChangeOrgBody) => {
      await changeActiveOrg(body);
      await revalidate();
      await resetAllData(queryClient);
    },
  });
}
