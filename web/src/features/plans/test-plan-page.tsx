import { AppRoutes } from '../../app/app-routes';
import { json, meRoute, mockFetch, type Routes } from '../../test/mock-fetch';
import { renderWithProviders } from '../../test/test-utils';
import { ada, planSummaryJson } from './test-fixtures';
import type { Plan } from '../../../../supabase/functions/_shared/contract/plans';

// The plan page (/plan/p1) for component tests, signed in as `user` (the host
// Ada by default), against routes that answer the plan and an empty plan
// around it; `routes` adds or replaces some. `answer(next)` makes `next` the
// plan every later read sees and answers it (a host action's reply).
export function openPlanPage(
  initial: Plan,
  { user = ada, routes = {}, route = '/plan/p1' }: { user?: object; routes?: Routes; route?: string } = {},
) {
  localStorage.setItem('authToken', 'test-token');
  let plan = initial;
  const network = mockFetch({
    'GET /api/auth/me': meRoute(user),
    'GET /api/plans/p1': () => json(plan),
    'GET /api/plans/p1/participants': () => json([]),
    'GET /api/plans': () => json([planSummaryJson(plan)]),
    'GET /api/plans/p1/ideas': () => json([]),
    ...routes,
  });
  const answer = (next: Plan) => {
    plan = next;
    return json(next);
  };
  return { ...network, answer, ...renderWithProviders(<AppRoutes />, { route }) };
}
