import type { CaseListItem } from '@patientsim/domain/cases/case-library.schemas';
import { TOO_MANY_COLUMNS_TEXT } from '@patientsim/domain/cases/case-list';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { type FakeRequest, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { caseListKey } from '../api/get-case-configurations';
import { CaseLibrary } from './case-library';

function buildCase(overrides: Partial<CaseListItem> = {}): CaseListItem {
  return {
    id: 'case-1',
    name: 'Chest pain at the gym',
    tags: 'cardiac, adult',
    dispatch: null,
    author: { id: 'u1', name: 'Olive Owner' },
    _avatar: { id: 'a1', name: { en: 'Maria Lopez' }, picture: null },
    _startLocation: { name: { en: 'Gym' }, picture: null },
    _endLocation: { name: { en: 'Emergency room' }, picture: null },
    isTemplate: false,
    isFavorite: false,
    lastPlayed: null,
    lastAccessed: '2026-10-02T08:00:00.000Z',
    createdAt: '2026-01-15T10:30:00.000Z',
    needsEcUpdate: false,
    ignoreEcUpdate: false,
    updateStatus: null,
    errorsCount: 0,
    warningsCount: 0,
    origin: null,
    published: false,
    applab: false,
    canUpdate: true,
    ...overrides,
  };
}

type GraphqlBody = { query: string; variables: Record<string, unknown> };
const bodyOf = (request: FakeRequest) => request.body as GraphqlBody;

function stubCases(items: CaseListItem[], onMutation?: (body: GraphqlBody) => Response, onCase?: (id: string) => Response) {
  return stubApi([
    {
      method: 'POST',
      path: '/api/graphql',
      respond: (request) => {
        const body = bodyOf(request);
        if (body.query.startsWith('mutation') && onMutation) return onMutation(body);
        if (body.query.includes('caseConfiguration(id:') && onCase) return onCase(String(body.variables.id));
        return jsonResponse({
          data: { caseConfigurations: { items, nextCursor: null, totalCount: items.length, totalCountCapped: false } },
        });
      },
    },
  ]);
}

function renderLibrary({ isStudent = false, path = '/authoring/cases' } = {}) {
  writeLoginResult(buildLoginResult());
  return renderWithRouter(<CaseLibrary productType="EMS" isStudent={isStudent} />, { path });
}

const listCalls = (api: ReturnType<typeof stubApi>) =>
  api.callsTo('POST', '/api/graphql').filter((request) => bodyOf(request).query.startsWith('query'));

// MUI tables are slow to render in jsdom on a busy machine.
describe('CaseLibrary', { timeout: 40_000 }, () => {
  it('shows the first four columns in the spec order, with dates as YYYY-MM-DD', async () => {
    stubCases([buildCase()]);
    renderLibrary();
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Favorite', 'Name', 'Patient', 'Scene 1', 'Origin', 'Creation Date', 'Update']);
    expect(within(table).getByText('2026-01-15')).toBeInTheDocument();
    expect(within(table).getByText('Maria Lopez')).toBeInTheDocument();
  });

  it('refuses a fifth column with the spec text, and keeps the choice per product type', async () => {
    const user = userEvent.setup();
    stubCases([buildCase()]);
    renderLibrary();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(screen.getByRole('menuitemcheckbox', { name: 'Published' }));
    expect(screen.getByText(TOO_MANY_COLUMNS_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('menuitemcheckbox', { name: 'Published' })).toHaveAttribute('aria-checked', 'false');

    await user.click(screen.getByRole('menuitemcheckbox', { name: 'Origin' }));
    await user.click(screen.getByRole('menuitemcheckbox', { name: 'Published' }));
    expect(screen.getByRole('menuitemcheckbox', { name: 'Published' })).toHaveAttribute('aria-checked', 'true');
    expect(window.localStorage.getItem('patientsim.EMS.caseList.columns')).toBe(
      JSON.stringify(['patient', 'scene1', 'createdAt', 'published']),
    );
    await user.keyboard('{Escape}');
    expect(screen.getByRole('columnheader', { name: 'Published' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Origin' })).not.toBeInTheDocument();
  });

  it('sorts by a column: a new column ascending, the same column flipped; Origin is not sortable', async () => {
    const user = userEvent.setup();
    const api = stubCases([buildCase()]);
    renderLibrary();
    await screen.findByRole('table');
    expect(screen.getByText(/^Default order: cases that need an update first/)).toBeInTheDocument();
    expect(listCalls(api)[0]?.body).toMatchObject({ variables: { sortBy: null } });
    expect(within(screen.getByRole('columnheader', { name: 'Origin' })).queryByRole('button')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Creation Date' }));
    await waitFor(() => expect(listCalls(api)).toHaveLength(2));
    expect(bodyOf(listCalls(api)[1] as FakeRequest).variables.sortBy).toEqual({ field: 'CREATED_AT', direction: 'ASC' });
    expect(screen.getByRole('columnheader', { name: 'Creation Date' })).toHaveAttribute('aria-sort', 'ascending');

    await user.click(screen.getByRole('button', { name: 'Creation Date' }));
    await waitFor(() => expect(listCalls(api)).toHaveLength(3));
    expect(bodyOf(listCalls(api)[2] as FakeRequest).variables.sortBy).toEqual({ field: 'CREATED_AT', direction: 'DESC' });
    expect(screen.getByRole('columnheader', { name: 'Creation Date' })).toHaveAttribute('aria-sort', 'descending');

    await user.click(screen.getByRole('button', { name: 'Patient' }));
    await waitFor(() => expect(listCalls(api)).toHaveLength(4));
    expect(bodyOf(listCalls(api)[3] as FakeRequest).variables.sortBy).toEqual({ field: 'AVATAR_NAME', direction: 'ASC' });
    expect(screen.getByRole('columnheader', { name: 'Creation Date' })).not.toHaveAttribute('aria-sort');
  });

  it('confirms the Y/N choices in the bar, then shows each status and the failures above the list', async () => {
    const user = userEvent.setup();
    const api = stubCases(
      [
        buildCase({ id: 'c1', name: 'Case one', needsEcUpdate: true }),
        buildCase({ id: 'c2', name: 'Case two', needsEcUpdate: true }),
        buildCase({ id: 'c3', name: 'Case three', needsEcUpdate: true }),
        buildCase({ id: 'c4', name: 'Case four', errorsCount: 2 }),
      ],
      () =>
        jsonResponse({
          data: {
            updateEffectChains: [
              { id: 'c1', updateStatus: 'UPDATED', ignoreEcUpdate: false, error: null },
              { id: 'c2', updateStatus: 'DECLINED', ignoreEcUpdate: true, error: null },
              { id: 'c3', updateStatus: 'ERRORED', ignoreEcUpdate: false, error: 'Validation failed' },
            ],
          },
        }),
    );
    renderLibrary();
    await screen.findByRole('table');
    expect(screen.queryByText('Confirm selection(s)?')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Case information needs updated' })).toBeInTheDocument();

    const groupOf = (name: string) => screen.getByRole('group', { name: `Update ${name}` });
    await user.click(within(groupOf('Case one')).getByRole('button', { name: 'Yes, update' }));
    await user.click(within(groupOf('Case two')).getByRole('button', { name: 'No, decline' }));
    await user.click(within(groupOf('Case three')).getByRole('button', { name: 'Yes, update' }));
    expect(within(groupOf('Case one')).getByRole('button', { name: 'Yes, update' })).toHaveAttribute('aria-pressed', 'true');

    const bar = screen.getByRole('region', { name: 'Confirm selection(s)?' });
    expect(
      within(bar).getByText('Updating is permanent. Declined updates can be updated in Medications panel or Case Logic panel.'),
    ).toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(screen.queryByText('Confirm selection(s)?')).not.toBeInTheDocument());
    const mutation = api.callsTo('POST', '/api/graphql').find((request) => bodyOf(request).query.startsWith('mutation'));
    expect(mutation && bodyOf(mutation).variables).toEqual({
      decisions: [
        { id: 'c1', choice: 'YES' },
        { id: 'c2', choice: 'NO' },
        { id: 'c3', choice: 'YES' },
      ],
    });
    expect(screen.getByText('Case three: Validation failed')).toBeInTheDocument();
    const rowOf = (name: string) => screen.getByRole('button', { name }).closest('tr') as HTMLElement;
    expect(within(rowOf('Case four')).getByText('No Action')).toBeInTheDocument();
  });

  it('offers Y/N only for cases that need an update the user has not declined', async () => {
    stubCases([
      buildCase({ id: 'c1', name: 'Needs one', needsEcUpdate: true }),
      // Updated before, and needing an update again since.
      buildCase({ id: 'c2', name: 'Needs another', needsEcUpdate: true, updateStatus: 'UPDATED' }),
      buildCase({ id: 'c3', name: 'Declined one', needsEcUpdate: true, ignoreEcUpdate: true, updateStatus: 'DECLINED' }),
      buildCase({ id: 'c4', name: 'Updated one', updateStatus: 'UPDATED' }),
      buildCase({ id: 'c5', name: 'Errored one', updateStatus: 'ERRORED', errorsCount: 1 }),
      buildCase({ id: 'c6', name: 'Clean one' }),
    ]);
    renderLibrary();
    await screen.findByRole('table');
    const updateCellOf = (name: string) =>
      (screen.getByRole('button', { name }).closest('tr') as HTMLElement).querySelector('td:last-child') as HTMLElement;
    for (const name of ['Needs one', 'Needs another']) {
      expect(within(updateCellOf(name)).getByRole('group', { name: `Update ${name}` })).toBeInTheDocument();
    }
    expect(updateCellOf('Declined one')).toHaveTextContent(/^Declined$/);
    expect(updateCellOf('Updated one')).toHaveTextContent(/^Updated$/);
    expect(updateCellOf('Errored one')).toHaveTextContent(/^Error$/);
    expect(updateCellOf('Clean one')).toHaveTextContent(/^No Action$/);
    expect(screen.getAllByRole('group', { name: /^Update / })).toHaveLength(2);
  });

  it("shows a colleague's case its status, not Y/N, and says who can update it", async () => {
    const user = userEvent.setup();
    stubCases([
      buildCase({ id: 'c1', name: 'My case', needsEcUpdate: true }),
      buildCase({
        id: 'c2',
        name: 'COPD Exacerbation',
        needsEcUpdate: true,
        canUpdate: false,
        author: { id: 'u2', name: 'Dana Reyes' },
      }),
      buildCase({ id: 'c3', name: 'Their updated case', updateStatus: 'UPDATED', canUpdate: false, author: null }),
    ]);
    renderLibrary();
    await screen.findByRole('table');
    const updateCellOf = (name: string) =>
      (screen.getByRole('button', { name }).closest('tr') as HTMLElement).querySelector('td:last-child') as HTMLElement;
    expect(screen.getAllByRole('group', { name: /^Update / })).toHaveLength(1);
    expect(within(updateCellOf('My case')).getByRole('group', { name: 'Update My case' })).toBeInTheDocument();
    expect(updateCellOf('COPD Exacerbation')).toHaveTextContent(/^No Action$/);
    const status = within(updateCellOf('COPD Exacerbation')).getByText('No Action');
    await user.hover(status);
    expect(
      await screen.findByRole('tooltip', {
        name: 'Only Dana Reyes (the author), or someone they gave edit access, can update this case.',
      }),
    ).toBeInTheDocument();
    expect(status).toHaveAccessibleDescription(
      'Only Dana Reyes (the author), or someone they gave edit access, can update this case.',
    );
    expect(within(updateCellOf('Their updated case')).getByText('Updated')).toHaveAccessibleDescription(
      "Only the case's author, or someone they gave edit access, can update this case.",
    );
  });

  it('names the reason of a refused decision, as the server gives it', async () => {
    const user = userEvent.setup();
    stubCases([buildCase({ id: 'c1', name: 'Case one', needsEcUpdate: true })], () =>
      jsonResponse({
        data: {
          updateEffectChains: [
            {
              id: 'c1',
              updateStatus: null,
              ignoreEcUpdate: false,
              error: "Only the case's author, or someone they gave edit access, can update this case.",
              errorCode: 'CASE_UPDATE_REFUSED',
            },
          ],
        },
      }),
    );
    renderLibrary();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Yes, update' }));
    await user.click(
      within(screen.getByRole('region', { name: 'Confirm selection(s)?' })).getByRole('button', { name: 'Confirm' }),
    );
    expect(
      await screen.findByText("Case one: Only the case's author, or someone they gave edit access, can update this case."),
    ).toBeInTheDocument();
  });

  it('drops a Y/N choice when the case no longer offers it after a refetch', async () => {
    const user = userEvent.setup();
    let isDeclinedElsewhere = false;
    stubApi([
      {
        method: 'POST',
        path: '/api/graphql',
        respond: () => {
          const item = buildCase({ id: 'c1', name: 'Case one', needsEcUpdate: true, ignoreEcUpdate: isDeclinedElsewhere });
          return jsonResponse({
            data: { caseConfigurations: { items: [item], nextCursor: null, totalCount: 1, totalCountCapped: false } },
          });
        },
      },
    ]);
    renderLibrary();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Yes, update' }));
    expect(screen.getByRole('region', { name: 'Confirm selection(s)?' })).toHaveTextContent('1 case selected');
    // Another author declined it meanwhile; the next answer says so.
    isDeclinedElsewhere = true;
    await user.click(screen.getByRole('button', { name: 'Favorited' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Confirm selection(s)?' })).not.toBeInTheDocument());
    expect(screen.getByRole('cell', { name: 'Declined' })).toBeInTheDocument();
  });

  it('stars a case at once and rolls back when the save fails', async () => {
    const user = userEvent.setup();
    stubCases([buildCase()], () =>
      jsonResponse({ data: null, errors: [{ message: 'Case not found', extensions: { code: 'NOT_FOUND', statusCode: 404 } }] }),
    );
    renderLibrary();
    const star = await screen.findByRole('button', { name: 'Favorite Chest pain at the gym' });
    expect(star).toHaveAttribute('aria-pressed', 'false');
    await user.click(star);
    expect(await screen.findByText('Case not found')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Favorite Chest pain at the gym' })).toHaveAttribute('aria-pressed', 'false'),
    );
  });

  it('previews a case: its scenario information and learning objectives cut at 20 words, only the texts its author shows', async () => {
    const user = userEvent.setup();
    const words = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, index) => `${prefix}${index + 1}`).join(' ');
    stubCases([
      buildCase({
        id: 'c1',
        name: 'Long texts',
        dispatch: {
          chiefComplaint: { caption: { en: words(25, 'info') }, displayed: true },
          learningObjectives: { caption: { en: 'Recognise a STEMI' }, displayed: true },
        },
      }),
      buildCase({
        id: 'c2',
        name: 'Hidden texts',
        tags: '',
        dispatch: {
          chiefComplaint: { caption: { en: 'The secret diagnosis' }, displayed: false },
          learningObjectives: { caption: { en: 'The hidden objectives' }, displayed: false },
        },
      }),
    ]);
    renderLibrary();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Long texts' }));
    let preview = await screen.findByRole('dialog', { name: 'Long texts' });
    const information = within(preview).getByRole('heading', { name: 'Scenario information' }).parentElement as HTMLElement;
    expect(information).toHaveTextContent(`${words(20, 'info')}…`);
    expect(information).not.toHaveTextContent('info21');
    await user.click(within(information).getByRole('button', { name: 'Show more' }));
    expect(information).toHaveTextContent(words(25, 'info'));
    expect(within(preview).getByRole('heading', { name: 'Learning objectives' }).parentElement).toHaveTextContent(
      'Recognise a STEMI',
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Hidden texts' }));
    preview = await screen.findByRole('dialog', { name: 'Hidden texts' });
    expect(within(preview).getByText('No tags')).toBeInTheDocument();
    expect(within(preview).queryByText('The secret diagnosis')).not.toBeInTheDocument();
    expect(within(preview).queryByText('The hidden objectives')).not.toBeInTheDocument();
  });

  it('opens the preview of the case a ?caseId= link names, fetched when not loaded; closing drops the parameter', async () => {
    const user = userEvent.setup();
    const farAway = buildCase({ id: 'case-far', name: 'Far down the list', tags: 'trauma' });
    const api = stubCases([buildCase()], undefined, (id) =>
      jsonResponse({ data: { caseConfiguration: id === farAway.id ? farAway : null } }),
    );
    const { router } = renderLibrary({ path: '/authoring/cases?caseId=case-far' });
    const preview = await screen.findByRole('dialog', { name: 'Far down the list' });
    expect(within(preview).getByText('trauma')).toBeInTheDocument();
    const caseCalls = api
      .callsTo('POST', '/api/graphql')
      .filter((request) => bodyOf(request).query.includes('caseConfiguration(id:'));
    expect(caseCalls.map((request) => bodyOf(request).variables)).toEqual([{ id: 'case-far' }]);

    await user.click(within(preview).getByRole('button', { name: 'Close preview' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('');

    // Opened from a row, the preview is a link to share.
    await user.click(screen.getByRole('button', { name: 'Chest pain at the gym' }));
    expect(await screen.findByRole('dialog', { name: 'Chest pain at the gym' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?caseId=case-1');
  });

  it('keeps the preview open, without a flicker, when a refreshed list no longer holds its case', async () => {
    const user = userEvent.setup();
    const shown = buildCase({ id: 'case-shown', name: 'Shown in the preview' });
    const other = buildCase({ id: 'case-other', name: 'Still listed' });
    let listed = [shown, other];
    let answerCase: (() => void) | null = null;
    const api = stubApi([
      {
        method: 'POST',
        path: '/api/graphql',
        respond: (request) => {
          if (bodyOf(request).query.includes('caseConfiguration(id:')) {
            // The case read on its own answers only when the test says so.
            return new Promise<Response>((resolve) => {
              answerCase = () => resolve(jsonResponse({ data: { caseConfiguration: shown } }));
            });
          }
          const page = { items: listed, nextCursor: null, totalCount: listed.length, totalCountCapped: false };
          return jsonResponse({ data: { caseConfigurations: page } });
        },
      },
    ]);
    const { queryClient } = renderLibrary();
    await user.click(await screen.findByRole('button', { name: 'Shown in the preview' }));
    expect(await screen.findByRole('dialog', { name: 'Shown in the preview' })).toBeInTheDocument();

    listed = [other];
    await queryClient.invalidateQueries({ queryKey: caseListKey });
    await waitFor(() => expect(listCalls(api)).toHaveLength(2));
    await waitFor(() => expect(screen.queryByText('Showing 1 of 1 scenario')).toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Shown in the preview' })).toBeInTheDocument();
    (answerCase as (() => void) | null)?.();
    expect(await screen.findByRole('dialog', { name: 'Shown in the preview' })).toBeInTheDocument();
  });

  it('says so inline when the case a ?caseId= link names does not exist or cannot be read', async () => {
    const user = userEvent.setup();
    stubCases([buildCase()], undefined, () => jsonResponse({ data: { caseConfiguration: null } }));
    const { router } = renderLibrary({ path: '/authoring/cases?caseId=case-gone' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This scenario does not exist, or you do not have access to it.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('table')).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('');
  });

  it('says so inline when a ?caseId= link is refused', async () => {
    stubCases([buildCase()], undefined, () =>
      jsonResponse({
        data: null,
        errors: [{ message: 'Invalid id', extensions: { code: 'VALIDATION_ERROR', statusCode: 400 } }],
      }),
    );
    renderLibrary({ path: '/authoring/cases?caseId=bad%20id' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This scenario does not exist, or you do not have access to it.');
  });

  it("shows 'Error when loading cases' with the first error message", async () => {
    stubApi([
      {
        method: 'POST',
        path: '/api/graphql',
        respond: () =>
          jsonResponse({
            data: null,
            errors: [{ message: 'Access denied', extensions: { code: 'FORBIDDEN', statusCode: 403 } }],
          }),
      },
    ]);
    renderLibrary();
    expect(await screen.findByText('Error when loading cases')).toBeInTheDocument();
    expect(screen.getByText('Access denied')).toBeInTheDocument();
  });

  it('gives a student no columns, no Update column and no template filter', async () => {
    stubCases([buildCase()]);
    renderLibrary({ isStudent: true });
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Favorite', 'Name']);
    expect(screen.queryByRole('button', { name: 'Columns' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'template' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Favorited' })).toBeInTheDocument();
  });

  it('filters with chips, clears them all, and counts the results', async () => {
    const user = userEvent.setup();
    const api = stubCases([buildCase()]);
    renderLibrary();
    expect(await screen.findByText('Showing 1 of 1 scenario')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Favorited' }));
    await waitFor(() => expect(listCalls(api)).toHaveLength(2));
    expect(bodyOf(listCalls(api)[1] as FakeRequest).variables.filters).toEqual({ favorited: true });
    expect(screen.getByRole('button', { name: 'Favorited' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(screen.getByRole('button', { name: 'Favorited' })).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('CaseLibrary with hundreds of cases', { timeout: 60_000 }, () => {
  const manyCases = (from: number, count: number) =>
    Array.from({ length: count }, (_, offset) => {
      const number = from + offset;
      return buildCase({ id: `case-${number}`, name: `Case ${number}` });
    });

  function stubPages() {
    return stubApi([
      {
        method: 'POST',
        path: '/api/graphql',
        respond: (request) => {
          const isSecondPage = bodyOf(request).variables.after === 'page-2';
          const page = isSecondPage
            ? { items: manyCases(500, 100), nextCursor: null, totalCount: 600, totalCountCapped: false }
            : { items: manyCases(0, 500), nextCursor: 'page-2', totalCount: 600, totalCountCapped: false };
          return jsonResponse({ data: { caseConfigurations: page } });
        },
      },
    ]);
  }
  const dataRows = () => screen.getAllByRole('row').filter((row) => row.closest('tbody'));
  const rowIndexOf = (element: Element) => Number(element.closest('tr')?.getAttribute('aria-rowindex'));

  it('renders only a window of the 500 loaded rows, with the table semantics of all of them', async () => {
    const user = userEvent.setup();
    stubPages();
    renderLibrary();
    expect(await screen.findByText('Showing 500 of 600 scenarios')).toBeInTheDocument();
    const table = screen.getByRole('table');
    // The header and every case of the list, loaded or not.
    expect(table).toHaveAttribute('aria-rowcount', '601');
    const rendered = dataRows();
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(50);
    expect(rendered.map((row) => row.getAttribute('aria-rowindex'))).toEqual(rendered.map((_row, index) => String(index + 2)));
    expect(screen.queryByRole('button', { name: 'Case 499' })).not.toBeInTheDocument();

    // Load more still adds the next page; the window stays a window.
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Showing 600 of 600 scenarios')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(dataRows().length).toBe(rendered.length);
  });

  it('says there are more than the server counts, and an unknown row count, past 1,000 cases', async () => {
    stubApi([
      {
        method: 'POST',
        path: '/api/graphql',
        respond: () =>
          jsonResponse({
            data: {
              caseConfigurations: { items: manyCases(0, 50), nextCursor: 'page-2', totalCount: 1000, totalCountCapped: true },
            },
          }),
      },
    ]);
    renderLibrary();
    expect(await screen.findByText('Showing 50 of 1,000+ scenarios')).toBeInTheDocument();
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '-1');
  });

  it('moves with the keyboard to rows outside the window, and Esc on the preview returns focus to the row', async () => {
    const user = userEvent.setup();
    stubPages();
    renderLibrary();
    await screen.findByText('Showing 500 of 600 scenarios');
    const firstWindow = dataRows();
    const lastShown = firstWindow.at(-1) as HTMLElement;
    const lastIndex = rowIndexOf(lastShown);
    within(lastShown)
      .getByRole('button', { name: `Case ${lastIndex - 2}` })
      .focus();

    // Each row holds the star and the name: ten rows further on, well past the first window.
    for (let step = 0; step < 20; step += 1) await user.tab();
    const name = `Case ${lastIndex - 2 + 10}`;
    expect(document.activeElement).toBe(screen.getByRole('button', { name }));
    expect(rowIndexOf(document.activeElement as Element)).toBe(lastIndex + 10);
    expect(firstWindow.some((row) => row.contains(document.activeElement))).toBe(false);
    // Rows left behind are let go again.
    expect(dataRows().length).toBeLessThan(firstWindow.length + 5);

    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: `Favorite ${name}` }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: `Case ${lastIndex - 2 + 9}` }));

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: `Case ${lastIndex - 2 + 9}` })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: `Case ${lastIndex - 2 + 9}` }));
  });

  it('renders only a window of the cards on a phone, each saying its place in the list', async () => {
    vi.stubGlobal('innerWidth', 390);
    stubPages();
    renderLibrary();
    expect(await screen.findByText('Showing 500 of 600 scenarios')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Scenarios' })).getAllByRole('listitem');
    expect(cards.length).toBeGreaterThan(2);
    expect(cards.length).toBeLessThan(30);
    expect(cards.map((card) => [card.getAttribute('aria-posinset'), card.getAttribute('aria-setsize')])).toEqual(
      cards.map((_card, index) => [String(index + 1), '600']),
    );
  });
});

describe('CaseLibrary read-only (a person without an organisation)', () => {
  it('lists the public scenarios with no columns, filters, stars or update choices, and opens one', async () => {
    stubCases([buildCase({ needsEcUpdate: true, canUpdate: false })]);
    writeLoginResult(buildLoginResult({ role: 'STUDENT', groupsData: [], org: null }));
    renderWithRouter(<CaseLibrary productType="EMS" isStudent isReadOnly />, { path: '/authoring/cases' });
    const name = await screen.findByRole('button', { name: 'Chest pain at the gym' });
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Name']);
    expect(screen.queryByRole('button', { name: /^Favorite / })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Filters' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Columns' })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: /^Update / })).not.toBeInTheDocument();
    await userEvent.click(name);
    expect(await screen.findByRole('dialog', { name: 'Chest pain at the gym' })).toBeInTheDocument();
  });
});
