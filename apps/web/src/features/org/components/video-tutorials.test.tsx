import type { Tutorial } from '@patientsim/domain/tutorials/tutorial.schemas';
import type { Role } from '@patientsim/domain/roles/roles';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { OrgLayout } from './org-layout';
import { CLOSE_TUTORIALS_LABEL, NO_TUTORIALS_MESSAGE, TUTORIALS_ERROR_TITLE, VIDEO_TUTORIALS_TITLE } from './video-tutorials';

const TUTORIALS_PATH = '/api/users/tutorials';

function buildTutorial(overrides: Partial<Tutorial> & Pick<Tutorial, '_id' | 'title' | 'category'>): Tutorial {
  return {
    mediaId: `media-${overrides._id}`,
    mediaUrl: `/media/media-${overrides._id}`,
    productType: 'EMS',
    ordinal: 1,
    ...overrides,
  };
}

const TUTORIALS: Tutorial[] = [
  buildTutorial({ _id: 't1', title: 'Building your first scenario', category: 'SCENARIO_BUILDER', ordinal: 1 }),
  buildTutorial({ _id: 't2', title: 'Inviting your students', category: 'ORG_MANAGEMENT', ordinal: 1 }),
  buildTutorial({ _id: 't3', title: 'Adding vital sign trends', category: 'SCENARIO_BUILDER', ordinal: 2 }),
  buildTutorial({ _id: 't4', title: 'Reviewing the grading archive', category: 'ORG_MANAGEMENT', productType: null, ordinal: 3 }),
  buildTutorial({ _id: 't5', title: 'Effect chains explained', category: 'SCENARIO_LOGIC', ordinal: 1 }),
];

function renderOrgArea(role: Role, respond: () => Response = () => jsonResponse({ data: { tutorials: TUTORIALS } })) {
  writeLoginResult(buildLoginResult({ role }));
  const api = stubApi([{ method: 'GET', path: TUTORIALS_PATH, respond }], { withShell: false });
  renderWithRouter(<OrgLayout />);
  return { api, user: userEvent.setup() };
}

async function openDrawer(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: VIDEO_TUTORIALS_TITLE }));
  return screen.findByRole('dialog', { name: VIDEO_TUTORIALS_TITLE });
}

describe('VideoTutorials', () => {
  it('lists the four categories in order, the first open, each tutorial a video of its media URL', async () => {
    const { api, user } = renderOrgArea('ADMIN');
    expect(api.callsTo('GET', TUTORIALS_PATH)).toHaveLength(0);
    const drawer = await openDrawer(user);

    const summaries = await within(drawer).findAllByRole('button', { expanded: true });
    expect(summaries.map((summary) => summary.textContent)).toEqual(['Scenario Builder']);
    const categories = within(drawer)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(categories).toEqual(['Scenario Builder', 'Scenario Select', 'Scenario Logic', 'Org Management']);
    expect(within(drawer).getByRole('button', { name: 'Scenario Select' })).toHaveAttribute('aria-expanded', 'false');

    const builder = within(drawer).getByRole('region', { name: 'Scenario Builder' });
    const videos = builder.querySelectorAll('video');
    expect([...videos].map((video) => video.getAttribute('src'))).toEqual(['/media/media-t1', '/media/media-t3']);
    const first = within(builder).getByLabelText('Building your first scenario');
    expect(first.tagName).toBe('VIDEO');
    expect(first).toHaveAttribute('controls');
    expect(first).toHaveAttribute('preload', 'none');
    expect(within(builder).getByText('Adding vital sign trends')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Org Management' }));
    const orgManagement = within(drawer).getByRole('region', { name: 'Org Management' });
    expect([...orgManagement.querySelectorAll('video')].map((video) => video.getAttribute('src'))).toEqual([
      '/media/media-t2',
      '/media/media-t4',
    ]);
    const [request] = api.callsTo('GET', TUTORIALS_PATH);
    expect(request?.headers.get('Authorization')).toBe('Bearer header.payload.signature');
  });

  it('says so for a category without tutorials, once opened', async () => {
    const { user } = renderOrgArea('USER');
    const drawer = await openDrawer(user);
    await user.click(await within(drawer).findByRole('button', { name: 'Scenario Select' }));
    const select = within(drawer).getByRole('region', { name: 'Scenario Select' });
    expect(within(select).getByText(NO_TUTORIALS_MESSAGE)).toBeVisible();
  });

  it('closes with Esc and with its close button', async () => {
    const { user } = renderOrgArea('ADMIN');
    await openDrawer(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: VIDEO_TUTORIALS_TITLE })).toHaveFocus();

    const drawer = await openDrawer(user);
    await user.click(within(drawer).getByRole('button', { name: CLOSE_TUTORIALS_LABEL }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('is not offered to a student', () => {
    const { api } = renderOrgArea('STUDENT');
    expect(screen.getByRole('navigation', { name: 'Org management' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: VIDEO_TUTORIALS_TITLE })).not.toBeInTheDocument();
    expect(api.callsTo('GET', TUTORIALS_PATH)).toHaveLength(0);
  });

  it("shows 'An error occurred' with the server's message, and retries", async () => {
    let isFailing = true;
    const { api, user } = renderOrgArea('ADMIN', () =>
      isFailing
        ? errorResponse(403, 'FORBIDDEN', 'You are not allowed to do this.')
        : jsonResponse({ data: { tutorials: TUTORIALS } }),
    );
    const drawer = await openDrawer(user);
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent(TUTORIALS_ERROR_TITLE);
    expect(alert).toHaveTextContent('You are not allowed to do this.');

    isFailing = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(drawer).findByRole('button', { name: 'Scenario Builder' })).toHaveAttribute('aria-expanded', 'true');
    expect(api.callsTo('GET', TUTORIALS_PATH)).toHaveLength(2);
  });
});
