import {
  type RegisterApplicationBody,
  type RegisteredApplication,
  RegisteredApplicationSchema,
} from '@patientsim/domain/applications/application.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { applicationsKey } from './get-applications';

/** Registers an application; a confidential one's client secret comes back this once. */
export function registerApplication(body: RegisterApplicationBody): Promise<RegisteredApplication> {
  return apiFetch('/api/users/applications', { method: 'POST', body, schema: RegisteredApplicationSchema });
}

export function useRegisterApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['applications', 'register'],
    mutationFn: registerApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey }),
  });
}
