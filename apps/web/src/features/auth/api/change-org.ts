import { mutationOptions, useMutation } from '@tanstack/react-query';
import { changeActiveOrg } from '../../../lib/active-org';

export const changeOrgMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'change-org'], mutationFn: changeActiveOrg });

export function useChangeOrg() {
  return useMutation(changeOrgMutationOptions());
}
