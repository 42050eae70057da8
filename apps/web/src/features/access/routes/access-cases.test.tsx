import { CASE_COPY_MAX } from '@patientsim/domain/cases/case-copy.schemas';
import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { errorResponse, type FakeRequest, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { caseLabel } from '../components/case-picker';
import { diffLines, stableJson } from '../components/case-diff';
import { AccessCasesRoute, howToConfigure } from './access-cases';

const ENVIRONMENTS = {
  method: 'GET',
  path: '/api/cases/tool/environments',
  respond: () =>
    jsonResponse({
      environments: [
        { name: 'dev', current: true, configured: true },
        { name: 'stable', current: false, configured: false },
        { name: 'staging', current: false, configured: true },
        { name: 'app', current: false, configured: false },
      ],
    }),
};

const CASES = [
  { id: 'case-1', name: 'Chest Pain', organisation: 'Riverside EMS Academy' },
  { id: 'case-2', name: 'Chest Trauma', organisation: 'Riverside EMS Academy' },
];

/** Case search on any environment: the cases whose name holds the term. */
const CASE_SEARCH = {
  method: 'GET',
  path: '/api/cases/tool/cases',
  respond: (request: FakeRequest) => {
    const term = (request.url.searchParams.get('q') ?? '').toLowerCase();
    return jsonResponse({ cases: CASES.filter((found) => found.name.toLowerCase().includes(term) || found.id === term) });
  },
};

const ORGANISATION_SEARCH = {
  method: 'GET',
  path: '/api/cases/tool/organisations',
  respond: () => jsonResponse({ organisations: [{ id: 'org-9', name: 'Riverside on staging' }] }),
};

/** A streamed answer of JSON lines, as the copy route sends it. */
function linesResponse(lines: unknown[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Split mid-line too: the reader must join the pieces.
      const text = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
      const middle = Math.floor(text.length / 2);
      controller.enqueue(encoder.encode(text.slice(0, middle)));
      controller.enqueue(encoder.encode(text.slice(middle)));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });
}

function signIn() {
  writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
}

type User = ReturnType<typeof userEvent.setup>;

/** Types a term into a search field and picks the option with that label. */
async function pick(user: User, field: HTMLElement, term: string, label: string) {
  await user.click(field);
  await user.type(field, term);
  await user.click(await screen.findByRole('option', { name: label }, { timeout: 3000 }));
}

async function fillCopy(user: User) {
  await user.selectOptions(await screen.findByLabelText(/Source environment/), 'dev');
  const cases = screen.getByLabelText(/Cases to copy/);
  await pick(user, cases, 'chest', caseLabel(CASES[0]!));
  await pick(user, cases, 'trauma', caseLabel(CASES[1]!));
  await user.selectOptions(screen.getByLabelText(/Target environment/), 'staging');
  await pick(user, screen.getByLabelText(/Target organization/), 'river', 'Riverside on staging');
}

describe('the Cases tool screen', { timeout: 60_000 }, () => {
  it('lists dev, stable, staging and app; one not configured is disabled with one line saying how to configure it', async () => {
    signIn();
    stubApi([ENVIRONMENTS], { withShell: false });
    renderWithRouter(<AccessCasesRoute />);
    const list = await screen.findByRole('region', { name: 'Environments' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['devThis deployment', `stable${howToConfigure('stable')}`, 'stagingConfigured', `app${howToConfigure('app')}`]);
    const source = screen.getByLabelText(/Source environment/);
    const options = within(source).getAllByRole<HTMLOptionElement>('option');
    expect(options.map((option) => [option.value, option.disabled])).toEqual([
      ['', false],
      ['dev', false],
      ['stable', true],
      ['staging', false],
      ['app', true],
    ]);
  });

  it('picks cases and the target organisation by name, copies with progress, then shows the new ids and compares a copy in one click', async () => {
    signIn();
    const api = stubApi(
      [
        ENVIRONMENTS,
        CASE_SEARCH,
        ORGANISATION_SEARCH,
        {
          method: 'POST',
          path: '/api/cases/tool/copy',
          respond: () =>
            linesResponse([
              { type: 'progress', caseId: 'case-1', step: 'dumped', done: 0, total: 2 },
              { type: 'progress', caseId: 'case-1', step: 'restored', done: 0, total: 2 },
              { type: 'progress', caseId: 'case-1', step: 'compared', done: 1, total: 2 },
              { type: 'progress', caseId: 'case-2', step: 'dumped', done: 1, total: 2 },
              { type: 'progress', caseId: 'case-2', step: 'restored', done: 1, total: 2 },
              { type: 'progress', caseId: 'case-2', step: 'compared', done: 2, total: 2 },
              {
                type: 'done',
                message: CASE_TEXTS.copied,
                created: [
                  { sourceId: 'case-1', targetId: 'new-1' },
                  { sourceId: 'case-2', targetId: 'new-2' },
                ],
              },
            ]),
        },
        {
          method: 'POST',
          path: '/api/cases/tool/diff',
          respond: () => jsonResponse({ same: true, message: CASE_TEXTS.same, a: {}, b: {}, mediaA: {}, mediaB: {} }),
        },
      ],
      { withShell: false },
    );
    const user = userEvent.setup();
    renderWithRouter(<AccessCasesRoute />);
    expect(await screen.findByRole('heading', { name: 'Copy a case between organizations' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Show difference between two cases' })).toBeInTheDocument();
    const copy = screen.getByRole('button', { name: 'Copy' });
    expect(copy).toBeDisabled();
    await fillCopy(user);
    expect(api.callsTo('GET', '/api/cases/tool/cases')[0]?.url.searchParams.get('env')).toBe('dev');
    expect(api.callsTo('GET', '/api/cases/tool/organisations')[0]?.url.searchParams.get('env')).toBe('staging');
    await user.click(copy);

    expect(await screen.findByText(CASE_TEXTS.copied)).toBeInTheDocument();
    const bars = screen.getAllByRole('progressbar');
    expect(bars.map((bar) => bar.getAttribute('aria-valuenow'))).toEqual(['100', '100']);
    expect(screen.getByText('Chest Pain: copied as new-1')).toBeInTheDocument();
    const request = api.requests.find((item) => item.path === '/api/cases/tool/copy');
    expect(request?.body).toEqual({
      source: 'dev',
      target: 'staging',
      caseIds: ['case-1', 'case-2'],
      targetOrg: 'org-9',
      ignoreDifferences: false,
    });

    const copied = screen.getByRole('list', { name: 'Copied cases' });
    expect(copied).toHaveTextContent('new case id new-2 in staging');
    await user.click(within(copied).getByRole('button', { name: 'Compare Chest Trauma with its copy' }));
    expect(await within(copied).findByText(CASE_TEXTS.same)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/cases/tool/diff')[0]?.body).toEqual({
      envA: 'dev',
      idA: 'case-2',
      envB: 'staging',
      idB: 'new-2',
    });
  });

  it('says which case failed and why, and what became of the others: never "waiting"', async () => {
    signIn();
    stubApi(
      [
        ENVIRONMENTS,
        CASE_SEARCH,
        ORGANISATION_SEARCH,
        {
          method: 'POST',
          path: '/api/cases/tool/copy',
          respond: () =>
            linesResponse([
              { type: 'progress', caseId: 'case-1', step: 'dumped', done: 0, total: 2 },
              { type: 'progress', caseId: 'case-1', step: 'restored', done: 0, total: 2 },
              {
                type: 'error',
                statusCode: 502,
                code: 'CASE_TARGET_FETCH_FAILED',
                message: `${CASE_TEXTS.targetFetchError}: dump.name: Required`,
                caseId: 'case-2',
              },
            ]),
        },
      ],
      { withShell: false },
    );
    const user = userEvent.setup();
    renderWithRouter(<AccessCasesRoute />);
    await fillCopy(user);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(
      await screen.findByText(`Chest Trauma: failed: ${CASE_TEXTS.targetFetchError}: dump.name: Required`),
    ).toBeInTheDocument();
    expect(screen.getByText('Chest Pain: not copied: removed again when the copy failed')).toBeInTheDocument();
    expect(screen.queryByText(/waiting/)).toBeNull();
    expect(screen.queryByRole('list', { name: 'Copied cases' })).toBeNull();
  });

  it('shows the mismatch with a side-by-side diff, then copies again ignoring differences', async () => {
    signIn();
    let calls = 0;
    const api = stubApi(
      [
        ENVIRONMENTS,
        CASE_SEARCH,
        ORGANISATION_SEARCH,
        {
          method: 'POST',
          path: '/api/cases/tool/copy',
          respond: () => {
            calls += 1;
            return calls === 1
              ? linesResponse([
                  {
                    type: 'error',
                    statusCode: 422,
                    code: 'CASE_JSON_NOT_EQUAL',
                    message: CASE_TEXTS.notEqualAfterCopy,
                    caseId: 'case-2',
                    details: {
                      caseId: 'case-2',
                      source: { name: '  Padded  ' },
                      target: { name: 'Padded' },
                      sourceMedia: { '/media/p1': { contentType: 'image/png', size: 10, sha256: 'ab'.repeat(32) } },
                      targetMedia: { '/media/p1': null },
                    },
                  },
                ])
              : linesResponse([{ type: 'done', message: CASE_TEXTS.copied, created: [] }]);
          },
        },
      ],
      { withShell: false },
    );
    const user = userEvent.setup();
    renderWithRouter(<AccessCasesRoute />);
    await fillCopy(user);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText(CASE_TEXTS.notEqualAfterCopy)).toBeInTheDocument();
    const diff = screen.getByRole('region', { name: 'Difference between the two case documents' });
    const cells = within(diff)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toContain('-   "name": "  Padded  "');
    expect(cells).toContain('+   "name": "Padded"');
    // The picture that did not arrive shows as a changed line too.
    expect(cells).toContain(`- /media/p1: image/png, 10 bytes, sha256 ${'ab'.repeat(8)}`);
    expect(cells).toContain('+ /media/p1: missing');

    await user.click(screen.getByLabelText('Ignore differences'));
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText(CASE_TEXTS.copied)).toBeInTheDocument();
    const last = api.requests.filter((item) => item.path === '/api/cases/tool/copy').at(-1);
    expect(last?.body).toMatchObject({ ignoreDifferences: true });
  });

  it('shows a refusal before the copy starts inline', async () => {
    signIn();
    stubApi(
      [
        ENVIRONMENTS,
        CASE_SEARCH,
        ORGANISATION_SEARCH,
        {
          method: 'POST',
          path: '/api/cases/tool/copy',
          respond: () =>
            errorResponse(400, 'CASE_ENVIRONMENT_UNKNOWN', 'The environment staging is not configured on this deployment.'),
        },
      ],
      { withShell: false },
    );
    const user = userEvent.setup();
    renderWithRouter(<AccessCasesRoute />);
    await fillCopy(user);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('The environment staging is not configured on this deployment.')).toBeInTheDocument();
  });

  it(`refuses more than ${CASE_COPY_MAX} cases under the picker, and sends nothing`, async () => {
    signIn();
    const many = Array.from({ length: CASE_COPY_MAX + 1 }, (_item, index) => ({
      id: `many-${index + 1}`,
      name: `Many ${index + 1}`,
      organisation: 'Riverside EMS Academy',
    }));
    const api = stubApi(
      [
        ENVIRONMENTS,
        { method: 'GET', path: '/api/cases/tool/cases', respond: () => jsonResponse({ cases: many }) },
        ORGANISATION_SEARCH,
      ],
      { withShell: false },
    );
    const user = userEvent.setup();
    renderWithRouter(<AccessCasesRoute />);
    await user.selectOptions(await screen.findByLabelText(/Source environment/), 'dev');
    const cases = screen.getByLabelText(/Cases to copy/);
    await user.click(cases);
    await user.type(cases, 'many');
    for (const found of many) {
      if (!screen.queryByRole('listbox')) await user.keyboard('{ArrowDown}');
      await user.click(await screen.findByRole('option', { name: caseLabel(found) }, { timeout: 3000 }));
    }
    await user.selectOptions(screen.getByLabelText(/Target environment/), 'staging');
    await pick(user, screen.getByLabelText(/Target organization/), 'river', 'Riverside on staging');
    await user.click(screen.getByRole('button', { name: 'Copy' }));

    expect(await screen.findByText(`At most ${CASE_COPY_MAX} cases at once`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeDisabled();
    expect(api.callsTo('POST', '/api/cases/tool/copy')).toHaveLength(0);
  });

  it('sends no comparison before both environments and cases are chosen', async () => {
    signIn();
    const api = stubApi([ENVIRONMENTS, CASE_SEARCH], { withShell: false });
    renderWithRouter(<AccessCasesRoute />);
    const compare = await screen.findByRole('button', { name: 'Compare' });
    expect(compare).toBeDisabled();
    fireEvent.submit(compare.closest('form') as HTMLFormElement);

    // The form's check refused it: the first missing field is marked and takes the focus.
    const first = screen.getByLabelText(/First environment/);
    await waitFor(() => expect(first).toHaveFocus());
    expect(first).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/cases/tool/diff')).toHaveLength(0);
  });

  it('compares two cases: same, different, and the fetch error', async () => {
    signIn();
    const answers = [
      jsonResponse({ same: true, message: CASE_TEXTS.same, a: { name: 'A' }, b: { name: 'A' }, mediaA: {}, mediaB: {} }),
      jsonResponse({
        same: false,
        message: CASE_TEXTS.different,
        a: { name: 'A', tags: '' },
        b: { name: 'A', tags: 'x' },
        mediaA: {},
        mediaB: {},
      }),
      errorResponse(502, 'CASE_SOURCE_FETCH_FAILED', `${CASE_TEXTS.sourceFetchError}: Case not found.`),
    ];
    const api = stubApi(
      [ENVIRONMENTS, CASE_SEARCH, { method: 'POST', path: '/api/cases/tool/diff', respond: () => answers.shift() as Response }],
      { withShell: false },
    );
    const user = userEvent.setup();
    renderWithRouter(<AccessCasesRoute />);
    await user.selectOptions(await screen.findByLabelText(/First environment/), 'dev');
    await pick(user, screen.getByLabelText(/First case/), 'chest pain', caseLabel(CASES[0]!));
    await user.selectOptions(screen.getByLabelText(/Second environment/), 'staging');
    await pick(user, screen.getByLabelText(/Second case/), 'trauma', caseLabel(CASES[1]!));
    const compare = screen.getByRole('button', { name: 'Compare' });
    await user.click(compare);
    expect(api.callsTo('POST', '/api/cases/tool/diff')[0]?.body).toEqual({
      envA: 'dev',
      idA: 'case-1',
      envB: 'staging',
      idB: 'case-2',
    });
    expect(await screen.findByText(CASE_TEXTS.same)).toBeInTheDocument();
    await user.click(compare);
    expect(await screen.findByText(CASE_TEXTS.different)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Difference between the two case documents' })).toHaveTextContent('+ "tags": "x"');
    await user.click(compare);
    expect(await screen.findByText(`${CASE_TEXTS.sourceFetchError}: Case not found.`)).toBeInTheDocument();
  });
});

describe('the line diff', () => {
  it('aligns equal lines and marks removed and added ones; key order does not count', () => {
    expect(stableJson({ b: 1, a: { d: 2, c: 3 } })).toBe(stableJson({ a: { c: 3, d: 2 }, b: 1 }));
    const rows = diffLines('a\nb\nc\nd', 'a\nc\nx\nd');
    expect(rows).toEqual([
      { left: 'a', right: 'a', changed: false },
      { left: 'b', right: null, changed: true },
      { left: 'c', right: 'c', changed: false },
      { left: null, right: 'x', changed: true },
      { left: 'd', right: 'd', changed: false },
    ]);
    expect(diffLines('same', 'same')).toEqual([{ left: 'same', right: 'same', changed: false }]);
  });

  it('shows a changed line as the removed line first, then the added one', () => {
    expect(diffLines('a\nold\nz', 'a\nnew\nz')).toEqual([
      { left: 'a', right: 'a', changed: false },
      { left: 'old', right: null, changed: true },
      { left: null, right: 'new', changed: true },
      { left: 'z', right: 'z', changed: false },
    ]);
  });
});
