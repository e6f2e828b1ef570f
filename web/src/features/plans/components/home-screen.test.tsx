import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { deferred, json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, participantJson, planSummaryJson } from '../test-fixtures';

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

describe('home', () => {
  it('shows the shell, the welcome line and the empty state', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => json([]) });
    renderWithProviders(<AppRoutes />, { route: '/home' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Your Plans' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back, Ada Lovelace!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Hangplan home' })).toHaveAttribute('href', '/');
    const avatar = screen.getByRole('link', { name: 'Profile of Ada Lovelace' });
    expect(avatar).toHaveAttribute('href', '/profile');
    expect(avatar).toHaveTextContent('AL');

    expect(await screen.findByRole('heading', { name: 'Ready to make plans?' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Your First Plan' })).toHaveAttribute('href', '/create-plan');
    expect(screen.getByRole('link', { name: 'Create Plan' })).toHaveAttribute('href', '/create-plan');

    const nav = screen.getByRole('navigation', { name: 'Main' });
    const tabs = within(nav).getAllByRole('link');
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('href')])).toEqual([
      ['Home', '/home'],
      ['Profile', '/profile'],
      ['Interests', '/interests'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current');
  });

  it('shows card-shaped skeletons while the plans load', async () => {
    const plans = deferred();
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => plans.promise });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    expect(await screen.findByRole('status', { name: 'Loading your plans' })).toBeInTheDocument();
    plans.resolve(json([]));
    expect(await screen.findByRole('heading', { name: 'Ready to make plans?' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading your plans' })).not.toBeInTheDocument();
  });

  it('treats a 404 from the plans list as a failure, not as "no plans"', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => text('Not found', 404) });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    expect(await screen.findByText("Couldn't load your plans")).toBeInTheDocument();
    expect(screen.queryByText('Ready to make plans?')).not.toBeInTheDocument();
  });

  it('shows each plan as a card opening the plan, in the server order', async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans': () =>
        json([
          planSummaryJson({ id: 'p2', title: 'Picnic', lockedIdeaId: 'i1', lockedIdeaText: 'Park by the lake' }),
          planSummaryJson({ id: 'p1', title: 'Friday night' }),
        ]),
    });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    const friday = await screen.findByRole('link', { name: /Friday night/ });
    expect(friday).toHaveAttribute('href', '/plan/p1');
    expect(friday).toHaveTextContent('TBD');
    const picnic = screen.getByRole('link', { name: /Picnic/ });
    expect(picnic).toHaveAttribute('href', '/plan/p2');
    expect(picnic).toHaveTextContent('Park by the lake');
    expect(picnic).not.toHaveTextContent('TBD');
    const cards = within(screen.getByRole('list')).getAllByRole('link');
    expect(cards.map((card) => card.getAttribute('href'))).toEqual(['/plan/p2', '/plan/p1']);
    expect(screen.queryByText('Ready to make plans?')).not.toBeInTheDocument();
  });

  it('shows the locked time of a completed plan only', async () => {
    const slot = { id: 's1', date: '2026-03-14', period: '19:00' };
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans': () =>
        json([
          planSummaryJson({
            id: 'p1',
            title: 'Dinner',
            status: 'completed',
            eventTime: '7:00 PM',
            lockedTimeSlot: slot,
            lockedIdeaText: 'Tacos',
            answers: { going: 5, maybe: 2, headcount: 7 },
          }),
          planSummaryJson({ id: 'p2', title: 'Hike', status: 'time_range_locked', lockedTimeSlot: slot }),
        ]),
    });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    const dinner = await screen.findByRole('link', { name: /Dinner/ });
    expect(dinner).toHaveTextContent('Tacos');
    expect(within(dinner).getByText('Sat, Mar 14 · 7:00 PM')).toBeInTheDocument();
    // A set plan says who is going (docs/decisions/0103).
    expect(within(dinner).getByText('5 going')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Hike/ })).not.toHaveTextContent('Mar 14');
    expect(screen.getByRole('link', { name: /Hike/ })).not.toHaveTextContent('going');
  });

  it('says Cancelled on the card of a cancelled plan, and only there (docs/decisions/0100-cancelling-a-plan.md)', async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans': () =>
        json([
          planSummaryJson({ id: 'p1', title: 'Dinner', status: 'cancelled', cancelMessage: 'Rain', cancelledAt: '2026-03-10T12:00:00.000Z' }),
          planSummaryJson({ id: 'p2', title: 'Hike' }),
        ]),
    });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    const dinner = await screen.findByRole('link', { name: /Dinner/ });
    expect(within(dinner).getByText('Cancelled')).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: /Hike/ })).queryByText('Cancelled')).not.toBeInTheDocument();
  });

  it("shows up to 6 participant names, then '+N', with every name in the title", async () => {
    const names = ['Ada', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'];
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans': () =>
        json([
          planSummaryJson({
            id: 'p1',
            title: 'Party',
            participantCount: 8,
            participants: names.map((name, index) => participantJson(name, index, index === 7)),
          }),
          planSummaryJson({ id: 'p2', title: 'Duo', participants: [participantJson('Ada', 0), participantJson('Ben', 1)] }),
        ]),
    });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    const summary = await screen.findByText('Ada, Ben, Cy, Dee, Eve, Fay +2');
    expect(summary).toHaveAttribute('title', names.join(', '));
    expect(within(screen.getByRole('link', { name: /Duo/ })).getByText('Ada, Ben')).toHaveAttribute('title', 'Ada, Ben');
  });

  it('says so when the plans cannot be loaded, and retries', async () => {
    let answer = text('Something went wrong', 500);
    mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => answer });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/home' });
    expect(await screen.findByText("Couldn't load your plans")).toBeInTheDocument();
    answer = json([]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Ready to make plans?' })).toBeInTheDocument();
  });

  it('greets by e-mail and uses its initials without a name', async () => {
    mockFetch({
      'GET /api/auth/me': meRoute({ id: 'u2', email: 'zoe@example.com', firstName: null, lastName: null }),
      'GET /api/plans': () => json([]),
    });
    renderWithProviders(<AppRoutes />, { route: '/home' });
    expect(await screen.findByText('Welcome back, zoe!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Profile of zoe' })).toHaveTextContent('ZO');
  });
});

describe('home: live', () => {
  it('follows every plan it lists: a change to one refetches the list', async () => {
    let plans = [planSummaryJson({ id: 'p1', title: 'Board games' }), planSummaryJson({ id: 'p2', title: 'Hike' })];
    const { calls } = mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => json(plans) });
    const { live } = renderWithProviders(<AppRoutes />, { route: '/home' });
    expect(await screen.findByRole('link', { name: /Board games/ })).toBeInTheDocument();
    await waitFor(() => expect(live.myPlans()?.watched).toEqual(['p1', 'p2']));

    act(() => live.sendMyPlans({ type: 'ready', planIds: ['p1', 'p2'] }));
    expect(calls('GET', '/api/plans')).toHaveLength(1);

    plans = [planSummaryJson({ id: 'p1', title: 'Board games', lockedIdeaText: 'Catan' }), plans[1]!];
    act(() => live.sendMyPlans({ type: 'change', change: { planId: 'p1', version: 4, parts: ['plan'] } }));
    expect(await screen.findByText('Catan')).toBeInTheDocument();

    // Votes do not show on the cards: no refetch.
    act(() => live.sendMyPlans({ type: 'change', change: { planId: 'p2', version: 2, parts: ['dates'], slotIds: ['s1'] } }));
    plans = [plans[0]!];
    act(() => live.sendMyPlans({ type: 'change', change: { planId: 'p2', version: 3, parts: ['deleted'] } }));
    await waitFor(() => expect(screen.queryByRole('link', { name: /Hike/ })).not.toBeInTheDocument());
    expect(calls('GET', '/api/plans')).toHaveLength(3);
    await waitFor(() => expect(live.myPlans()?.watched).toEqual(['p1']));
  });

  it('reads the list again after the feed reconnects (it cannot resume)', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': meRoute(ada), 'GET /api/plans': () => json([planSummaryJson({ id: 'p1' })]) });
    const { live } = renderWithProviders(<AppRoutes />, { route: '/home' });
    await waitFor(() => expect(live.myPlans()).not.toBeNull());
    act(() => live.sendMyPlans({ type: 'ready', planIds: ['p1'] }));
    act(() => live.sendMyPlans({ type: 'status', status: 'reconnecting' }));
    act(() => live.sendMyPlans({ type: 'ready', planIds: ['p1'] }));
    await waitFor(() => expect(calls('GET', '/api/plans')).toHaveLength(2));
  });
});
