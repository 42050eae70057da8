import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetchBlob } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/browser';

export const SCENARIO_SUMMARY_FILE_NAME = 'summary.csv';

/** Downloads the scenario summary CSV: the user's own plays, or those of every member. */
export async function downloadScenarioSummary({ allMembers }: { allMembers: boolean }): Promise<void> {
  const csv = await apiFetchBlob('/api/users/account/scenario-summary', {
    method: 'POST',
    query: { showAllOrgs: true, showAllUsers: allMembers },
    accept: 'text/csv',
  });
  saveBlob(csv, SCENARIO_SUMMARY_FILE_NAME);
}

export const downloadScenarioSummaryMutationOptions = () =>
  mutationOptions({ mutationKey: ['account', 'scenario-summary'], mutationFn: downloadScenarioSummary });

export function useDownloadScenarioSummary() {
  return useMutation(downloadScenarioSummaryMutationOptions());
}
