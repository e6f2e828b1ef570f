import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ada, planJson, planSummaryJson } from '../features/plans/test-fixtures';
import { json, meRoute, mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/test-utils';
import { AppRoutes } from './app-routes';

// Every screen that shows a plan follows it live, through exactly one
// connection per plan; screens without a plan open none.

beforeEach(() => {
  localStorage.setItem('authToken', 'test-token');
  const plan = planJson({ slug: 'abcDEF12' });
  mockFetch({
    'GET /api/auth/me': meRoute(ada),
    'GET /api/plans/p1': () => json(plan),
    'GET /api/plans/slug/abcDEF12': () => json(plan),
    'GET /api/plans/p1/participants': () => json([]),
    'GET /api/plans/p1/ideas': () => json([]),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json({ answers: [], noDates: false }),
    'GET /api/plans/p1/activity-suggestions': () => json({ suggestions: [] }),
    'GET /api/plans': () => json([planSummaryJson(plan)]),
    'GET /api/users/me/interests': () => json([]),
    'GET /api/interests/catalog': () => json([]),
  });
});

describe('live screens', () => {
  it.each([
    '/plan/p1',
    '/plan/p1/share',
    '/plan/p1/ideas',
    '/plan/p1/availability',
    '/l/abcDEF12',
    '/l/abcDEF12/dashboard',
    '/l/abcDEF12/ideas',
    '/l/abcDEF12/availability',
  ])('%s follows plan p1', async (route) => {
    const { live } = renderWithProviders(<AppRoutes />, { route });
    await waitFor(() => expect(live.opened).toEqual(['p1']));
    expect(live.myPlans()).toBeNull();
  });

  it('/home follows the plans it lists', async () => {
    const { live } = renderWithProviders(<AppRoutes />, { route: '/home' });
    await waitFor(() => expect(live.myPlans()?.watched).toEqual(['p1']));
    expect(live.opened).toEqual([]);
  });

  it('/profile follows nothing', async () => {
    const { live } = renderWithProviders(<AppRoutes />, { route: '/profile' });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(live.opened).toEqual([]);
    expect(live.myPlans()).toBeNull();
  });
});
