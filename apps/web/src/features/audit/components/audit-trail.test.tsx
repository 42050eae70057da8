import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEvent } from '@patientsim/domain/audit/audit.schemas';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../../../lib/browser';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { defaultDayRange, toInstantRange } from '../utils/date-range';
import { AuditTrail } from './audit-trail';

vi.mock(import('../../../lib/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  saveBlob: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(saveBlob).mockClear();
});

const ORG = 'a1b2c3d4e5f6a1b2c3d4e5f6';
const LIST_PATH = `/api/users/extension/groups/${ORG}/audit-events`;
const EXPORT_PATH = `${LIST_PATH}/export`;

const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
  id: 'e1',
  action: 'group.delete',
  actor: { id: 'u1', name: 'Ada Admin', email: 'admin@example.test' },
  viewingAs: null,
  target: { type: 'group', id: 'g1', label: 'Night Shift' },
  organisation: { id: ORG, name: 'Riverside EMS Academy' },
  reason: null,
  createdAt: '2026-03-05T09:07:30.000Z',
  ...overrides,
});

function stubTrail(items: AuditEvent[]) {
  return stubApi([
    { method: 'GET', path: LIST_PATH, respond: () => jsonResponse({ total: items.length, page: 0, pageSize: 50, items }) },
    {
      method: 'GET',
      path: EXPORT_PATH,
      respond: () => new Response('Time (UTC)\r\n', { headers: { 'Content-Type': 'text/csv' } }),
    },
  ]);
}

describe('AuditTrail', () => {
  it('asks for the last 90 days and shows readable actions and target names', async () => {
    writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
    const api = stubTrail([
      event({}),
      event({ id: 'e2', action: 'case.ec-update', target: { type: 'case', id: 'c1', label: null } }),
    ]);
    renderWithRouter(<AuditTrail organisationId={ORG} />);

    const table = await screen.findByRole('table', { name: 'Audit trail' });
    await within(table).findByText('Night Shift');
    expect(within(table).getByText('Deleted group')).toBeInTheDocument();
    expect(within(table).getByText('Answered effect chain update')).toBeInTheDocument();
    expect(within(table).queryByText('case.ec-update')).toBeNull();
    expect(within(table).getByText('Case, name not recorded')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('2 events');
    const range = toInstantRange(defaultDayRange().from, defaultDayRange().to);
    const [request] = api.callsTo('GET', LIST_PATH);
    expect(request?.url.searchParams.get('from')).toBe(range.from);
    expect(request?.url.searchParams.get('to')).toBe(range.to);
  });

  it('names an admin signing a member out everywhere, and filters on it', async () => {
    writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
    const api = stubTrail([event({ action: 'org.user.sign-out', target: { type: 'user', id: 'u2', label: 'Sam Student' } })]);
    renderWithRouter(<AuditTrail organisationId={ORG} />);
    const table = await screen.findByRole('table', { name: 'Audit trail' });
    expect(await within(table).findByText('Signed member out everywhere')).toBeInTheDocument();
    expect(within(table).getByText('Sam Student')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Signed member out everywhere' }));
    await waitFor(() => expect(api.callsTo('GET', LIST_PATH).at(-1)?.url.searchParams.get('action')).toBe('org.user.sign-out'));
  });

  it('exports with the filters on screen, under the name of the range', async () => {
    writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
    const api = stubTrail([event({})]);
    const user = userEvent.setup();
    renderWithRouter(<AuditTrail organisationId={ORG} />);
    await screen.findByText('Night Shift');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-31' } });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    const [request] = api.callsTo('GET', EXPORT_PATH);
    const range = toInstantRange('2026-01-01', '2026-03-31');
    expect(request?.url.searchParams.get('from')).toBe(range.from);
    expect(request?.url.searchParams.get('to')).toBe(range.to);
    expect(request?.headers.get('Authorization')).toBe('Bearer header.payload.signature');
    expect(vi.mocked(saveBlob).mock.calls[0]?.[1]).toBe('audit-trail-2026-01-01-to-2026-03-31.csv');
  });

  it('explains a reversed range and sends nothing for it', async () => {
    writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
    const api = stubTrail([event({})]);
    renderWithRouter(<AuditTrail organisationId={ORG} />);
    await screen.findByText('Night Shift');
    const asked = api.callsTo('GET', LIST_PATH).length;
    // After today, the end the trail opens on.
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2099-01-01' } });

    expect(await screen.findByText('The start date is after the end date.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    expect(api.callsTo('GET', LIST_PATH)).toHaveLength(asked);
  });
});
