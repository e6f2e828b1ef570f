import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { deferred, json, meRoute, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { planListQueryOptions } from '../queries';
import { ada, planJson, planSummaryJson } from '../test-fixtures';

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

const created = planJson({ id: 'p9', slug: 'newSLUG99', title: 'Board games', isOpenInvite: false });

describe('create plan', () => {
  it('has the title field, open invitations on by default, and a way back home', async () => {
    mockFetch({ 'GET /api/auth/me': meRoute(ada) });
    renderWithProviders(<AppRoutes />, { route: '/create-plan' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Create New Plan' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/home');
    expect(screen.getByRole('textbox', { name: /What are you planning\?/ })).toHaveValue('');
    const openInvitations = screen.getByRole('switch', { name: 'Open Invitations' });
    expect(openInvitations).toBeChecked();
    expect(openInvitations).toHaveAccessibleDescription('Allow invited people to invite others');
  });

  it('keeps submit disabled until the title has more than blanks', async () => {
    const { calls } = mockFetch({ 'GET /api/auth/me': meRoute(ada) });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/create-plan' });
    const submit = await screen.findByRole('button', { name: 'Create & Share Plan' });
    expect(submit).toBeDisabled();

    const title = screen.getByRole('textbox', { name: /What are you planning\?/ });
    await user.type(title, '   ');
    expect(submit).toBeDisabled();
    await user.type(title, '{Enter}');
    expect(calls('POST', '/api/plans')).toHaveLength(0);

    await user.type(title, 'x');
    expect(submit).toBeEnabled();
  });

  it('creates the plan, says so, refreshes the list and opens the share page', async () => {
    const answer = deferred();
    let listed = [] as unknown[];
    const { calls } = mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'POST /api/plans': () => answer.promise,
      'GET /api/plans': () => json(listed),
    });
    const { user, location, queryClient } = renderWithProviders(<AppRoutes />, { route: '/create-plan' });
    // The list is already cached, as it is after visiting home.
    await queryClient.fetchQuery(planListQueryOptions());

    await user.type(await screen.findByRole('textbox', { name: /What are you planning\?/ }), '  Board games ');
    await user.click(screen.getByRole('switch', { name: 'Open Invitations' }));
    await user.click(screen.getByRole('button', { name: 'Create & Share Plan' }));

    expect(await screen.findByRole('button', { name: 'Creating...' })).toBeDisabled();
    expect(calls('POST', '/api/plans')[0]!.body).toEqual({ title: 'Board games', isOpenInvite: false });

    listed = [planSummaryJson({ ...created })];
    answer.resolve(json(created, 201));

    expect(await screen.findByText('Plan created!')).toBeInTheDocument();
    expect(screen.getByText('Your plan is ready to share')).toBeInTheDocument();
    await waitFor(() => expect(location()).toBe('/plan/p9/share'));
    // The share page shows the new plan without fetching it again.
    expect(await screen.findByRole('heading', { level: 1, name: 'Board games' })).toBeInTheDocument();
    expect(calls('GET', '/api/plans/p9')).toHaveLength(0);

    // The cached list was invalidated: home shows the new plan.
    await user.click(screen.getByRole('link', { name: 'Hangplan home' }));
    expect(await screen.findByRole('link', { name: /Board games/ })).toHaveAttribute('href', '/plan/p9');
    expect(calls('GET', '/api/plans')).toHaveLength(2);
  });

  it("shows the server's sentence when creating fails", async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'POST /api/plans': () => text('Title must be at most 120 characters', 400),
    });
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/create-plan' });
    await user.type(await screen.findByRole('textbox', { name: /What are you planning\?/ }), 'Trip');
    await user.click(screen.getByRole('button', { name: 'Create & Share Plan' }));

    expect(await screen.findByText('Title must be at most 120 characters')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(location()).toBe('/create-plan');
    expect(screen.getByRole('button', { name: 'Create & Share Plan' })).toBeEnabled();
  });

  it('falls back to "Failed to create plan"', async () => {
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'POST /api/plans': () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/create-plan' });
    await user.type(await screen.findByRole('textbox', { name: /What are you planning\?/ }), 'Trip');
    await user.click(screen.getByRole('button', { name: 'Create & Share Plan' }));
    expect(await screen.findByText('Failed to create plan')).toBeInTheDocument();
  });
});
