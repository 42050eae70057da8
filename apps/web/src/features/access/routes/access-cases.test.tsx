import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { diffLines, stableJson } from '../components/case-diff';
import { AccessCasesRoute, parseCaseIds } from './access-cases';

const ENVIRONMENTS = {
  method: 'GET',
  path: '/api/cases/tool/environments',
  respond: () =>
    jsonResponse({
      environments: [
        { name: 'dev', current: true },
        { name: 'staging', current: false },
      ],
    }),
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

async function fillCopy(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(await screen.findByLabelText(/Source environment/), 'dev');
  await user.type(screen.getByLabelText(/Case ids/), 'case-1, case-2');
  await user.selectOptions(screen.getByLabelText(/Target environment/), 'staging');
  await user.type(screen.getByLabelText(/Target organization id/), 'org-9');
}

describe('the Cases tool screen', { timeout: 60_000 }, () => {
  it('copies with a progress bar per case and shows the success alert', async () => {
    signIn();
    const api = stubApi(
      [
        ENVIRONMENTS,
        {
          method: 'POST',
          path: '/api/cases/tool/copy',
          respond: () =>
            linesResponse([
              { type: 'progress', caseId: 'case-1', step: 'dumped', done: 0, total: 2 },
              { type: 'progress', caseId: 'case-1', step: 'restored', done: 0, total: 2 },
              { type: 'progress', caseId: 'case-1', step: 'compared', done: 1, total: 2 },
              { type: 'progress', caseId: 'case-2', step: 'dumped', done: 1, total: 2 },
              { type: 'done', message: CASE_TEXTS.copied, created: [] },
            ]),
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
    await user.click(copy);

    expect(await screen.findByText(CASE_TEXTS.copied)).toBeInTheDocument();
    const bars = screen.getAllByRole('progressbar');
    expect(bars.map((bar) => bar.getAttribute('aria-valuenow'))).toEqual(['100', '33']);
    const request = api.requests.find((item) => item.path === '/api/cases/tool/copy');
    expect(request?.body).toEqual({
      source: 'dev',
      target: 'staging',
      caseIds: ['case-1', 'case-2'],
      targetOrg: 'org-9',
      ignoreDifferences: false,
    });
  });

  it('shows the mismatch with a side-by-side diff, then copies again ignoring differences', async () => {
    signIn();
    let calls = 0;
    const api = stubApi(
      [
        ENVIRONMENTS,
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
                    details: { caseId: 'case-2', source: { name: '  Padded  ' }, target: { name: 'Padded' } },
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

  it('compares two cases: same, different, and the fetch error', async () => {
    signIn();
    const answers = [
      jsonResponse({ same: true, message: CASE_TEXTS.same, a: { name: 'A' }, b: { name: 'A' } }),
      jsonResponse({ same: false, message: CASE_TEXTS.different, a: { name: 'A', tags: '' }, b: { name: 'A', tags: 'x' } }),
      errorResponse(502, 'CASE_SOURCE_FETCH_FAILED', `${CASE_TEXTS.sourceFetchError}: Case not found.`),
    ];
    stubApi([ENVIRONMENTS, { method: 'POST', path: '/api/cases/tool/diff', respond: () => answers.shift() as Response }], {
      withShell: false,
    });
    const user = userEvent.setup();
    renderWithRouter(<AccessCasesRoute />);
    await user.selectOptions(await screen.findByLabelText(/First environment/), 'dev');
    await user.type(screen.getByLabelText(/First case id/), 'case-a');
    await user.selectOptions(screen.getByLabelText(/Second environment/), 'staging');
    await user.type(screen.getByLabelText(/Second case id/), 'case-b');
    const compare = screen.getByRole('button', { name: 'Compare' });
    await user.click(compare);
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

  it('reads case ids separated by lines, commas or spaces, each once', () => {
    expect(parseCaseIds(' a1,b2\nc3  a1 ;d4 ')).toEqual(['a1', 'b2', 'c3', 'd4']);
  });
});
