import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { clearGuest, setGuestSession } from '../../../lib/guest-storage';
import { json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, planJson } from '../../plans/test-fixtures';
import { ideaJson } from '../test-fixtures';
import { fakeIdeasServer } from '../test-server';

const hal = { id: '0e9c2f4a-1111-4222-8333-444455556666', name: 'Hal Guest', isGuest: true };
const plan = planJson({ title: 'Friday night' });

beforeEach(() => clearGuest());

function open(route: string, as: 'guest' | 'member' | 'nobody') {
  if (as === 'guest') setGuestSession({ id: hal.id, name: hal.name, planId: 'p1', secret: 'device-secret' });
  if (as === 'member') localStorage.setItem('authToken', 'test-token');
  const fake = fakeIdeasServer({
    caller: as === 'guest' ? hal : as === 'member' ? { id: ada.id, name: 'Ada Lovelace', isGuest: false } : null,
    ideas: [
      ideaJson({ id: 'i1', text: 'Bowling', voteCount: 1 }),
      ideaJson({ id: 'i2', text: 'Karaoke', voteCount: 2, createdAt: '2026-03-01T11:00:00.000Z' }),
    ],
  });
  const network = mockFetch(
    fake.routes({
      'GET /api/auth/me': as === 'member' ? meRoute(ada) : () => text('Not signed in', 401),
      'GET /api/plans/p1': () => json(plan),
      'GET /api/plans/slug/abcDEF12': () => json(plan),
    }),
  );
  return { ...network, ...renderWithProviders(<AppRoutes />, { route }) };
}

async function expectIdeasPage() {
  expect(await screen.findByRole('heading', { level: 1, name: 'Plan Ideas' })).toBeInTheDocument();
  expect(await screen.findByText('Friday night')).toBeInTheDocument();
  expect(screen.getByRole('progressbar', { name: 'Planning steps' })).toHaveAttribute('aria-valuetext', 'Step 1 of 3');
  expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
  const karaoke = await screen.findByRole('article', { name: 'Karaoke' });
  expect(within(karaoke).getByText('Top Idea')).toBeInTheDocument();
  expect(screen.getAllByRole('article').map((a) => within(a).getByText(/^(Bowling|Karaoke)$/).textContent)).toEqual([
    'Karaoke',
    'Bowling',
  ]);
  expect(screen.getByRole('textbox', { name: 'Suggest a new idea' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Suggest Idea' })).toBeInTheDocument();
}

describe('ideas page (step 1 of 3)', () => {
  it('shows a guest the ideas, the save-your-votes card and the way on at /l/{slug}/ideas', async () => {
    open('/l/abcDEF12/ideas', 'guest');
    await expectIdeasPage();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/l/abcDEF12');
    const save = screen.getByRole('complementary', { name: 'Save your votes' });
    expect(within(save).getByRole('link', { name: 'Create Account' })).toHaveAttribute(
      'href',
      '/auth?returnTo=/l/abcDEF12/ideas',
    );
    expect(screen.getByRole('link', { name: 'Continue to Availability' })).toHaveAttribute('href', '/l/abcDEF12/availability');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('lets a guest vote there', async () => {
    const { user, calls } = open('/l/abcDEF12/ideas', 'guest');
    const bowling = await screen.findByRole('article', { name: 'Bowling' });
    await user.click(within(bowling).getByRole('button', { name: 'Vote for Bowling (1 vote)' }));
    expect(await within(bowling).findByRole('button', { name: 'Vote for Bowling (2 votes)' })).toHaveAttribute('aria-pressed', 'true');
    expect(calls('POST', '/api/ideas/i1/vote')[0]!.body).toEqual({ guestId: hal.id });
  });

  it('sends a visitor who is neither signed in nor a guest of the plan to /l/{slug}', async () => {
    const { location } = open('/l/abcDEF12/ideas', 'nobody');
    await waitFor(() => expect(location()).toBe('/l/abcDEF12'));
  });

  it('shows a member /plan/{id}/ideas with the app navigation, back to /home, and no save card', async () => {
    open('/plan/p1/ideas', 'member');
    await expectIdeasPage();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/home');
    expect(screen.queryByText('Save your votes')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue to Availability' })).toHaveAttribute('href', '/plan/p1/availability');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it("shows 'Plan not found' for an unknown plan", async () => {
    localStorage.setItem('authToken', 'test-token');
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans/nope': () => text('Plan not found', 404) });
    renderWithProviders(<AppRoutes />, { route: '/plan/nope/ideas' });
    expect(await screen.findByRole('heading', { name: 'Plan not found' })).toBeInTheDocument();
  });
});
