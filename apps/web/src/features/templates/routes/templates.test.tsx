import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TemplateCase } from '@patientsim/domain/cases/template-case.schemas';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { type FakeRequest, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { TemplatesRoute } from './templates';

const template = (overrides: Partial<TemplateCase> & Pick<TemplateCase, 'id' | 'name'>): TemplateCase => ({
  tags: null,
  dispatch: null,
  _avatar: { id: 'a1', key: 'adult-male', name: { en: 'Adult Male' }, picture: { url: '/media/a1' } },
  _startLocation: { name: { en: 'Living Room' }, picture: { url: '/media/s1' } },
  _endLocation: { name: { en: 'Ambulance' }, picture: { url: '/media/s2' } },
  errorsCount: 0,
  warningsCount: 0,
  published: false,
  applab: false,
  ...overrides,
});

const STROKE = template({
  id: 'c-stroke',
  name: 'Stroke',
  tags: 'neuro, adult',
  warningsCount: 2,
  errorsCount: 1,
  published: true,
  dispatch: {
    learningObjectives: { caption: { en: 'Recognise a stroke early.' }, displayed: true },
    chiefComplaint: { caption: { en: 'Slurred speech since this morning.' }, displayed: true },
  },
});
const ASTHMA = template({ id: 'c-asthma', name: 'asthma attack' });
const BURNS = template({ id: 'c-burns', name: 'Burns', applab: true });

type Operation = { query: string; variables: Record<string, unknown> };
const operation = (request: FakeRequest) => request.body as Operation;

function renderTemplates(respond: (op: Operation) => Response, { path = '/auth/access/templates' }: { path?: string } = {}) {
  writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
  const api = stubApi([{ method: 'POST', path: '/api/graphql', respond: (request) => respond(operation(request)) }]);
  renderRoutes([{ path: '/access/templates', element: <TemplatesRoute /> }], path);
  return { api, user: userEvent.setup() };
}

const list = (cases: TemplateCase[]) => jsonResponse({ data: { templateCases: cases } });
const graphqlCalls = (api: ReturnType<typeof stubApi>) => api.callsTo('POST', '/api/graphql').map(operation);

// Several user-event steps and a confirmation dialog per test: slower than the default 5 s on a busy machine.
describe('TemplatesRoute', { timeout: 20_000 }, () => {
  it('lists the EMS templates by name with their published and App Lab state, and previews the first', async () => {
    const { api } = renderTemplates(() => list([STROKE, ASTHMA, BURNS]));
    const table = await screen.findByRole('table', { name: 'EMS templates' });
    await within(table).findByRole('button', { name: 'Stroke' });
    const names = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]?.textContent);
    expect(names).toEqual(['asthma attack', 'Burns', 'Stroke']);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Scenario Name', 'Avatar', 'Published', 'AppLab']);
    expect(within(table).getByRole('checkbox', { name: 'Published: Stroke' })).toBeChecked();
    expect(within(table).getByRole('checkbox', { name: 'AppLab: Burns' })).toBeChecked();
    expect(within(table).getByRole('checkbox', { name: 'AppLab: Stroke' })).not.toBeChecked();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();

    const preview = screen.getByRole('region', { name: 'Preview of asthma attack' });
    expect(within(preview).getByText('No tags')).toBeInTheDocument();
    expect(within(preview).getByRole('button', { name: 'Add To Templates' })).toBeInTheDocument();
    expect(within(preview).getByRole('button', { name: 'Make Available To App Lab Users' })).toBeInTheDocument();

    const [first] = graphqlCalls(api);
    expect(first?.query).toContain('templateCases(productType: $productType)');
    expect(first?.variables).toEqual({ productType: 'EMS' });
    expect(api.requests[0]?.headers.get('Authorization')).toBe('Bearer header.payload.signature');
  });

  it('previews the chosen case: counts, avatar, scenes, tags, learning objectives and scenario information', async () => {
    const { user } = renderTemplates(() => list([STROKE, ASTHMA]));
    await user.click(await screen.findByRole('button', { name: 'Stroke' }));
    const preview = screen.getByRole('region', { name: 'Preview of Stroke' });
    expect(within(preview).getByText('2 warnings')).toBeInTheDocument();
    expect(within(preview).getByText('1 error')).toBeInTheDocument();
    expect(within(preview).getByRole('img', { name: 'Adult Male' })).toHaveAttribute('src', '/media/a1');
    expect(within(preview).getByRole('img', { name: 'Scene 1: Living Room' })).toHaveAttribute('src', '/media/s1');
    expect(within(preview).getByRole('img', { name: 'Scene 2: Ambulance' })).toHaveAttribute('src', '/media/s2');
    expect(within(preview).getByText('neuro, adult')).toBeInTheDocument();
    expect(within(preview).getByText('Recognise a stroke early.')).toBeInTheDocument();
    expect(within(preview).getByText('Slurred speech since this morning.')).toBeInTheDocument();
    expect(within(preview).getByRole('button', { name: 'Remove From Templates' })).toBeInTheDocument();
  });

  it('previews only the texts the author shows, each cut at 20 words, as the scenario library does', async () => {
    const words = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, index) => `${prefix}${index + 1}`).join(' ');
    const hidden = template({
      id: 'c-hidden',
      name: 'Hidden complaint',
      dispatch: {
        learningObjectives: { caption: { en: words(25, 'goal') }, displayed: true },
        chiefComplaint: { caption: { en: 'The secret diagnosis' }, displayed: false },
      },
    });
    const { user } = renderTemplates(() => list([hidden]));
    const preview = await screen.findByRole('region', { name: 'Preview of Hidden complaint' });
    expect(within(preview).queryByText('The secret diagnosis')).not.toBeInTheDocument();
    expect(within(preview).queryByRole('heading', { name: 'Scenario information' })).not.toBeInTheDocument();
    const objectives = within(preview).getByRole('heading', { name: 'Learning objectives' }).parentElement as HTMLElement;
    expect(objectives).toHaveTextContent(`${words(20, 'goal')}…`);
    expect(objectives).not.toHaveTextContent('goal21');
    await user.click(within(objectives).getByRole('button', { name: 'Show more' }));
    expect(objectives).toHaveTextContent(words(25, 'goal'));
  });

  it('publishes only after a confirmation that says every customer is affected', async () => {
    let published = false;
    const { api, user } = renderTemplates((op) => {
      if (op.query.includes('publishTemplate')) {
        published = op.variables.published === true;
        return jsonResponse({ data: { publishTemplate: { ...ASTHMA, published } } });
      }
      return list([{ ...ASTHMA, published }]);
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Published: asthma attack' }));
    const dialog = screen.getByRole('dialog', { name: 'Add To Templates' });
    expect(dialog).toHaveTextContent('Every customer is affected');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(graphqlCalls(api).some((op) => op.query.includes('publishTemplate'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Add To Templates' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Add To Templates' })).getByRole('button', { name: 'Add To Templates' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(graphqlCalls(api).find((op) => op.query.includes('publishTemplate'))?.variables).toEqual({
      id: 'c-asthma',
      published: true,
    });
    expect(await screen.findByRole('checkbox', { name: 'Published: asthma attack' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Remove From Templates' })).toBeInTheDocument();
    expect(screen.getByText('“asthma attack” added to the EMS templates')).toBeInTheDocument();
  });

  it('removes a case from App Lab users, and shows a refusal in the dialog', async () => {
    const { api, user } = renderTemplates((op) =>
      op.query.includes('setTemplateAppLab')
        ? jsonResponse({
            data: null,
            errors: [
              { message: 'Only templates can change this way', extensions: { code: 'CASE_NOT_TEMPLATE', statusCode: 422 } },
            ],
          })
        : list([BURNS]),
    );
    await user.click(await screen.findByRole('button', { name: 'Remove From All App Lab Users' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove From All App Lab Users' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove From All App Lab Users' }));
    expect(await within(dialog).findByText('Only templates can change this way')).toBeInTheDocument();
    expect(graphqlCalls(api).find((op) => op.query.includes('setTemplateAppLab'))?.variables).toEqual({
      id: 'c-burns',
      applab: false,
    });
  });

  it('switches libraries with the tabs, kept in the address', async () => {
    const { api, user } = renderTemplates((op) => list(op.variables.productType === 'NURSING' ? [ASTHMA] : [STROKE]));
    await screen.findByRole('table', { name: 'EMS templates' });
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['EMS', 'Nursing', 'Military']);
    await user.click(screen.getByRole('tab', { name: 'Nursing' }));
    expect(screen.getByRole('tab', { name: 'Nursing' })).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table', { name: 'Nursing templates' });
    expect(await within(table).findByRole('button', { name: 'asthma attack' })).toBeInTheDocument();
    expect(graphqlCalls(api).map((op) => op.variables.productType)).toEqual(['EMS', 'NURSING']);
  });

  it('opens the tab the address names', async () => {
    const { api } = renderTemplates(() => list([]), { path: '/auth/access/templates?tab=military' });
    expect(await screen.findByText('No scenarios in this template library.')).toBeInTheDocument();
    expect(graphqlCalls(api)[0]?.variables).toEqual({ productType: 'MILITARY' });
  });

  it("shows 'Error when loading cases' with the first error's message, and retries", async () => {
    let calls = 0;
    const { user } = renderTemplates(() => {
      calls += 1;
      return calls === 1
        ? jsonResponse({ data: null, errors: [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN', statusCode: 403 } }] })
        : list([STROKE]);
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error when loading cases');
    expect(alert).toHaveTextContent('Forbidden');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Stroke' })).toBeInTheDocument();
  });

  it("shows 'Unknown error' when the answer carries no message", async () => {
    renderTemplates(() => new Response('<html>bad gateway</html>', { status: 502 }));
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('Error when loading cases');
    expect(alert).toHaveTextContent('Unknown error');
  });
});
