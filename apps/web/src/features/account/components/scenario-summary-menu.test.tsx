import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../../../lib/browser';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { stubApi } from '../../../testing/fake-api';
import { renderWithRouter } from '../../../testing/render';
import { SUMMARY_ALL_MEMBERS_LABEL, SUMMARY_SELF_LABEL, ScenarioSummaryMenu } from './scenario-summary-menu';

vi.mock(import('../../../lib/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  saveBlob: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(saveBlob).mockClear();
});

const SUMMARY_PATH = '/api/users/account/scenario-summary';

describe('ScenarioSummaryMenu', () => {
  it.each([
    [SUMMARY_SELF_LABEL, 'false'],
    [SUMMARY_ALL_MEMBERS_LABEL, 'true'],
  ])('%s downloads summary.csv (showAllUsers=%s)', async (label, showAllUsers) => {
    writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
    const api = stubApi([
      {
        method: 'POST',
        path: SUMMARY_PATH,
        respond: () => new Response('email,plays\n', { headers: { 'Content-Type': 'text/csv' } }),
      },
    ]);
    const user = userEvent.setup();
    renderWithRouter(<ScenarioSummaryMenu />);

    await user.click(screen.getByRole('button', { name: 'Summaries' }));
    await user.click(screen.getByRole('menuitem', { name: label }));

    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    const [request] = api.callsTo('POST', SUMMARY_PATH);
    expect(request?.url.searchParams.get('showAllOrgs')).toBe('true');
    expect(request?.url.searchParams.get('showAllUsers')).toBe(showAllUsers);
    expect(request?.headers.get('Authorization')).toBe('Bearer header.payload.signature');
    const [blob, fileName] = vi.mocked(saveBlob).mock.calls[0] ?? [];
    expect(fileName).toBe('summary.csv');
    expect(await (blob as Blob).text()).toBe('email,plays\n');
  });
});
