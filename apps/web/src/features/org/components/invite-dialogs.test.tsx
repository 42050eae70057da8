import { seatFigures } from '@patientsim/domain/groups/seats';
import type { AddressStanding, InviteResult } from '@patientsim/domain/invitations/invite-users.schemas';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildGroup, buildLoginResult, RIVERSIDE_ID } from '../../../testing/factories';
import { errorResponse, type FakeRoute, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { BulkInviteDialog } from './bulk-invite-dialog';
import { InviteButtons } from './invite-buttons';
import { FULL_SEATS_TOOLTIP, SEATS_EXCEEDED_TEXT, SUBSCRIBED_INVITE_CONFIRM } from './seat-summary';

// jsdom has no Web Worker: here the file is read in the page (the browser tests read it in the worker).
vi.mock('./read-sheet-in-worker', async () => {
  const { readSheet } = await import('./read-sheet');
  const { describeColumns } = await import('./invite-emails');
  return {
    readFileColumnsInWorker: async (file: File, options?: { onProgress?: Parameters<typeof readSheet>[1] }) =>
      describeColumns(await readSheet(file, options?.onProgress)),
  };
});

const INVITE_PATH = '/api/users/invitations/invite';
const ADDRESSES_PATH = `/api/users/invites/org/${RIVERSIDE_ID}/addresses`;
const sent = (email: string): InviteResult => ({ user: { email, hasAccount: false }, createdOrg: null, outcome: 'sent' });

/** The fake of POST invites/org/{id}/addresses: every address `new` unless `standings` says otherwise. */
const addressesRoute = (standings: Record<string, AddressStanding> = {}): FakeRoute => ({
  method: 'POST',
  path: ADDRESSES_PATH,
  respond: (request) =>
    jsonResponse({
      addresses: (request.body as { emails: string[] }).emails.map((email) => ({ email, standing: standings[email] ?? 'new' })),
    }),
});

/** Seat figures as the server answers them: `used` seat-holders and no pending invitation unless told. */
const figuresOf = ({ used, seats, pending = 0 }: { used: number; seats: number; pending?: number }) =>
  seatFigures(seats, { seatHolders: used - pending, pendingSeatInvitations: pending });

function renderBulk({
  taken = 10,
  seats = 50,
  subscribed = false,
  standings = {},
}: {
  taken?: number;
  seats?: number;
  subscribed?: boolean;
  standings?: Record<string, AddressStanding>;
} = {}) {
  writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
  const api = stubApi(
    [
      addressesRoute(standings),
      {
        method: 'POST',
        path: INVITE_PATH,
        respond: (request) => {
          const { users } = request.body as { users: Array<{ email: string }> };
          return jsonResponse(
            users.map((entry, index) =>
              index === 1
                ? { ...sent(entry.email), outcome: 'already-member', message: 'Already a member of this organization.' }
                : sent(entry.email),
            ),
          );
        },
      },
    ],
    { withShell: false },
  );
  const onInvited = vi.fn();
  renderWithRouter(
    <BulkInviteDialog
      isOpen
      onClose={() => {}}
      orgId={RIVERSIDE_ID}
      inviterRole="ADMIN"
      isSubscribed={subscribed}
      figures={subscribed ? null : figuresOf({ used: taken, seats })}
      onInvited={onInvited}
    />,
  );
  return { api, onInvited };
}

function paste(text: string) {
  fireEvent.change(screen.getByRole('textbox', { name: 'Emails' }), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Add' }));
}

const rowsList = () => screen.getByRole('list', { name: 'Addresses to invite' });

afterEach(() => {
  vi.useRealTimers();
});

describe('BulkInviteDialog', () => {
  it('puts the focus in the Emails field when it opens', async () => {
    renderBulk();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Emails' })).toHaveFocus());
  });

  it('labels each role choice "Role", naming its address only for assistive technology', () => {
    renderBulk();
    paste('ann@example.test');
    const role = screen.getByRole('combobox', { name: 'Role for ann@example.test' });
    // The visible label fits the control; the address stands beside it in the row.
    const label = document.getElementById(role.getAttribute('aria-labelledby')?.split(' ')[0] ?? '');
    const shown = Array.from(label?.childNodes ?? []).filter((node) => node.nodeType === Node.TEXT_NODE);
    expect(
      shown
        .map((node) => node.textContent)
        .join('')
        .trim(),
    ).toBe('Role');
  });

  it('shows each refused address as a failure, with an error icon and the server message', async () => {
    const user = userEvent.setup();
    writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
    stubApi(
      [
        addressesRoute(),
        {
          method: 'POST',
          path: INVITE_PATH,
          respond: () =>
            jsonResponse([
              sent('ann@example.test'),
              { ...sent('bob@example.test'), outcome: 'refused', message: 'This address belongs to another organization.' },
            ]),
        },
      ],
      { withShell: false },
    );
    renderWithRouter(
      <BulkInviteDialog
        isOpen
        onClose={() => {}}
        orgId={RIVERSIDE_ID}
        inviterRole="ADMIN"
        isSubscribed={false}
        figures={figuresOf({ used: 10, seats: 50 })}
        onInvited={vi.fn()}
      />,
    );
    paste('ann@example.test bob@example.test');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const results = await screen.findByRole('list', { name: 'Invitation results' });
    const [ann, bob] = within(results).getAllByRole('listitem');
    expect(within(ann!).getByRole('img', { name: 'Sent' })).toBeInTheDocument();
    expect(within(ann!).queryByRole('img', { name: 'Failed' })).not.toBeInTheDocument();
    expect(within(bob!).getByRole('img', { name: 'Failed' })).toBeInTheDocument();
    expect(within(bob!).getByText('Not sent: This address belongs to another organization.')).toBeInTheDocument();
    expect(screen.getByText('1 of 2 invitations failed.')).toBeInTheDocument();
  });

  it('adds pasted addresses as rows, marks invalid ones, and shows a repeat for 2500 ms', async () => {
    vi.useFakeTimers();
    renderBulk();
    paste('ann@example.test, not-an-email\nANN@example.test bob@example.test');
    const list = rowsList();
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    expect(within(list).getByText('Invalid email address')).toBeInTheDocument();
    expect(within(list).getByText('Already in list')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await act(async () => {
      vi.advanceTimersByTime(2499);
    });
    expect(within(list).getByText('Already in list')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(within(rowsList()).queryByText('Already in list')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove not-an-email' }));
    expect(within(rowsList()).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    expect(screen.getByText('10 + 2 = 12 of 50 seats')).toBeInTheDocument();
  });

  it('disables Send with the spec text when the invitations exceed the open seats', () => {
    renderBulk({ taken: 48, seats: 50 });
    paste('a@example.test b@example.test c@example.test');
    expect(screen.getByText('48 + 3 = 51 of 50 seats')).toBeInTheDocument();
    expect(screen.getByText(SEATS_EXCEEDED_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Remove c@example.test' }));
    expect(screen.getByText('48 + 2 = 50 of 50 seats')).toBeInTheDocument();
    expect(screen.queryByText(SEATS_EXCEEDED_TEXT)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('counts no new seat for the members and pending invitees of the list, as the server says, and notes why', async () => {
    const { api } = renderBulk({
      taken: 48,
      seats: 50,
      standings: { 'ann@example.test': 'invited', 'cy@example.test': 'member' },
    });
    paste('ann@example.test bob@example.test cy@example.test dee@example.test');
    // Until the server answers, every address counts as a new seat.
    expect(screen.getByText('48 + 4 = 52 of 50 seats')).toBeInTheDocument();
    expect(await screen.findByText('48 + 2 = 50 of 50 seats')).toBeInTheDocument();
    expect(screen.queryByText(SEATS_EXCEEDED_TEXT)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    const [ann, , cy] = within(rowsList()).getAllByRole('listitem');
    expect(ann).toHaveTextContent('Invitation pending: sent again, takes no new seat');
    expect(cy).toHaveTextContent('Already a member: takes no new seat');
    expect(api.callsTo('POST', ADDRESSES_PATH).at(-1)?.body).toEqual({
      emails: ['ann@example.test', 'bob@example.test', 'cy@example.test', 'dee@example.test'],
    });
  });

  it('asks nothing about the addresses of subscribed invitations', () => {
    const { api } = renderBulk({ subscribed: true });
    paste('ann@example.test');
    expect(api.callsTo('POST', ADDRESSES_PATH)).toHaveLength(0);
  });

  it('sends every row in one request with its role, then lists each result', async () => {
    const user = userEvent.setup();
    const { api, onInvited } = renderBulk();
    paste('ann@example.test bob@example.test');
    await user.click(screen.getByRole('combobox', { name: 'Role for bob@example.test' }));
    await user.click(await screen.findByRole('option', { name: 'Instructor' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const results = await screen.findByRole('dialog', { name: 'Invitations Sent' });
    expect(api.callsTo('POST', INVITE_PATH)[0]?.body).toEqual({
      users: [
        { email: 'ann@example.test', role: 'STUDENT' },
        { email: 'bob@example.test', role: 'USER' },
      ],
      org: RIVERSIDE_ID,
      throughSubscription: false,
      groupMembership: [],
    });
    expect(within(results).getByText('Invitation sent')).toBeInTheDocument();
    expect(within(results).getByText('Already a member: Already a member of this organization.')).toBeInTheDocument();
    await user.click(within(results).getByRole('button', { name: 'Done' }));
    expect(onInvited).toHaveBeenCalledWith('Invitations Sent');
  });

  it('asks the subscription confirmation and shows no seat line for subscribed invitations', async () => {
    const user = userEvent.setup();
    const { api } = renderBulk({ subscribed: true });
    paste('ann@example.test');
    expect(screen.queryByText(/seats$/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const confirm = await screen.findByRole('dialog', { name: 'Subscribed Invite' });
    expect(within(confirm).getByText(SUBSCRIBED_INVITE_CONFIRM)).toBeInTheDocument();
    expect(api.callsTo('POST', INVITE_PATH)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Send' }));
    await screen.findByRole('dialog', { name: 'Invitations Sent' });
    expect(api.callsTo('POST', INVITE_PATH)[0]?.body).toMatchObject({ throughSubscription: true });
  });

  it('lets the user pick the column of a several-column file by its sample values', async () => {
    const user = userEvent.setup();
    renderBulk();
    const csv = new File(['Name,Email\nAnn,ann@example.test\nBob,bob@example.test\n'], 'people.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('Upload a csv, xls or xlsx file'), csv);
    await user.click(await screen.findByRole('radio', { name: 'Email, ann@example.test, bob@example.test' }));
    expect(within(rowsList()).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
  });

  it('says so when a file has no valid address, cannot be read, or has more than 50', async () => {
    const user = userEvent.setup();
    renderBulk({ seats: 100 });
    const input = screen.getByLabelText('Upload a csv, xls or xlsx file');
    await user.upload(input, new File(['Name\nAnn\nBob\n'], 'names.csv'));
    expect(await screen.findByText('Unable to find valid emails in file')).toBeInTheDocument();
    await user.upload(input, new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 9, 9])], 'broken.xlsx'));
    expect(await screen.findByText('Problem parsing input file')).toBeInTheDocument();
    const many = Array.from({ length: 55 }, (_, i) => `p${i}@example.test`).join('\n');
    await user.upload(input, new File([many], 'many.csv'));
    expect(await screen.findByText('Can only load first 50 emails')).toBeInTheDocument();
    expect(within(rowsList()).getAllByRole('listitem')).toHaveLength(50);
  });

  it('refuses a file above 5 MB or with more than 10,000 rows, and keeps the list', async () => {
    const user = userEvent.setup();
    renderBulk({ seats: 100 });
    const input = screen.getByLabelText('Upload a csv, xls or xlsx file');
    await user.upload(input, new File(['ann@example.test\n'], 'one.csv'));
    await waitFor(() => expect(within(rowsList()).getAllByRole('listitem')).toHaveLength(1));
    await user.upload(input, new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.xlsx'));
    expect(await screen.findByText('Can only load files up to 5 MB')).toBeInTheDocument();
    const rows = Array.from({ length: 10_001 }, (_, i) => `p${i}@example.test`).join('\n');
    await user.upload(input, new File([rows], 'long.csv'));
    expect(await screen.findByText('Can only load files up to 10,000 rows')).toBeInTheDocument();
    expect(within(rowsList()).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

function renderButtons({
  memberCount,
  seatHolders,
  seats,
  pending = 0,
  subscribed = false,
  role = 'ADMIN' as const,
}: {
  memberCount: number;
  seatHolders?: number;
  seats: number;
  pending?: number;
  subscribed?: boolean;
  role?: 'ADMIN' | 'USER';
}) {
  writeLoginResult(buildLoginResult({ role }));
  const api = stubApi(
    [
      {
        method: 'GET',
        path: /\/extension\/users\/[^/]+\/groups$/,
        respond: () =>
          jsonResponse([
            buildGroup(
              {},
              { memberCount, seats, pendingSeatInvitations: pending, ...(seatHolders === undefined ? {} : { seatHolders }) },
            ),
          ]),
      },
      addressesRoute(),
      { method: 'POST', path: INVITE_PATH, respond: () => errorResponse(422, 'SEATS_EXCEEDED', SEATS_EXCEEDED_TEXT) },
    ],
    { withShell: false },
  );
  renderWithRouter(<InviteButtons isSubscribed={subscribed} />);
  return { api, user: userEvent.setup() };
}

describe('InviteButtons', () => {
  it('are aria-disabled at full seats, with the spec tooltip, and open nothing', async () => {
    const { user } = renderButtons({ memberCount: 25, seats: 25 });
    const button = await screen.findByRole('button', { name: 'Invite User' });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Invite User' })).toHaveAccessibleDescription(FULL_SEATS_TOOLTIP),
    );
    expect(screen.getByRole('button', { name: 'Bulk Invite' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(button);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stay enabled for subscribed invitations at full seats', async () => {
    const { user } = renderButtons({ memberCount: 25, seats: 25, subscribed: true });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Invite User' })).not.toHaveAttribute('aria-disabled'));
    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    expect(await screen.findByRole('dialog', { name: 'Invite User' })).toBeInTheDocument();
    expect(screen.queryByText(/of 25 seats/)).not.toBeInTheDocument();
  });

  it('count pending invitations in the single dialog’s seat line and show the server’s refusal', async () => {
    const { user } = renderButtons({ memberCount: 20, seats: 25, pending: 3 });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Invite User' })).not.toHaveAttribute('aria-disabled'));
    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveFocus());
    expect(within(dialog).getByText('23 + 1 = 24 of 25 seats')).toBeInTheDocument();
    expect(within(dialog).getByText('20 members, 3 pending invitations, 2 open seats')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveTextContent('Student');
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'new@example.test');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(SEATS_EXCEEDED_TEXT)).toBeInTheDocument();
  });

  it('count seat-holders, not subscribed members, against the seats (decision 0035)', async () => {
    const { user } = renderButtons({ memberCount: 30, seatHolders: 20, seats: 25, pending: 3 });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Invite User' })).not.toHaveAttribute('aria-disabled'));
    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveFocus());
    expect(within(dialog).getByText('23 + 1 = 24 of 25 seats')).toBeInTheDocument();
  });

  it('stay unavailable, never falling back to a subscribed invitation, when the answer carries no seat figures', async () => {
    writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
    const { pendingSeatInvitations: _pending, openSeats: _open, ...withoutFigures } = JSON.parse(buildGroup().description);
    const api = stubApi(
      [
        {
          method: 'GET',
          path: /\/extension\/users\/[^/]+\/groups$/,
          respond: () => jsonResponse([{ ...buildGroup(), description: JSON.stringify(withoutFigures) }]),
        },
      ],
      { withShell: false },
    );
    renderWithRouter(<InviteButtons />);
    const button = await screen.findByRole('button', { name: 'Invite User' });
    await waitFor(() => expect(api.callsTo('GET', /\/groups$/)).toHaveLength(1));
    await act(async () => {});
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await userEvent.setup().click(button);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('are not shown to instructors', async () => {
    renderButtons({ memberCount: 1, seats: 25, role: 'USER' });
    await act(async () => {});
    expect(screen.queryByRole('button', { name: 'Invite User' })).not.toBeInTheDocument();
  });
});
