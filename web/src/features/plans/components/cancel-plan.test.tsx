// Cancelling a plan on the web (docs/decisions/0100-cancelling-a-plan.md): the
// host's Cancel Plan (asked first, with an optional message), "Cancelled"
// with the message on the plan page, Reopen Plan (unlock), and a cancelled
// plan's ideas that can no longer be voted on, commented or added to.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { json, meRoute, mockFetch, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ideaJson } from '../../ideas/test-fixtures';
import { ada, ben, planJson, planSummaryJson } from '../test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

beforeEach(() => localStorage.setItem('authToken', 'test-token'));

const cancelled = (extra: Partial<Plan> = {}) =>
  planJson({ status: 'cancelled', cancelMessage: 'Kenji is closed that day.', cancelledAt: '2026-03-10T12:00:00.000Z', ...extra });

function openPlan({ plan = planJson(), user = ada, routes = {} }: { plan?: Plan; user?: object; routes?: Routes } = {}) {
  const network = mockFetch({
    'GET /api/auth/me': meRoute(user),
    'GET /api/plans/p1': () => json(plan),
    'GET /api/plans/p1/participants': () => json([]),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json({ answers: [], noDates: false }),
    'GET /api/plans/p1/ideas': () => json([ideaJson({ voteCount: 2 })]),
    'GET /api/plans': () => json([planSummaryJson({ ...plan })]),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<AppRoutes />, { route: '/plan/p1' }) };
}

const statusCard = async () => within(await screen.findByRole('region', { name: 'Plan Status' }));

describe('Cancel Plan (the host)', () => {
  it('asks first, sends the message, then shows "Cancelled" with it and offers Reopen Plan', async () => {
    const { user, calls } = openPlan({
      routes: { 'POST /api/plans/p1/cancel': () => json(cancelled({ cancelMessage: 'Rain all weekend' })) },
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this plan?' });
    // Keep Plan closes without asking the server.
    await user.click(within(dialog).getByRole('button', { name: 'Keep Plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('POST', '/api/plans/p1/cancel')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel Plan' }));
    const asked = await screen.findByRole('dialog', { name: 'Cancel this plan?' });
    await user.type(within(asked).getByLabelText('Message to everyone (optional)'), '  Rain all weekend ');
    await user.click(within(asked).getByRole('button', { name: 'Cancel Plan' }));

    const card = await statusCard();
    expect(await card.findByText('Cancelled')).toBeInTheDocument();
    expect(card.getByText('Rain all weekend')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/cancel').map((r) => r.body)).toEqual([{ message: 'Rain all weekend' }]);
    expect(card.getByRole('button', { name: 'Reopen Plan' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Plan' })).not.toBeInTheDocument();
  });

  it('no message sends none; Reopen Plan unlocks the plan', async () => {
    const { user, calls } = openPlan({
      plan: cancelled({ cancelMessage: null }),
      routes: { 'POST /api/plans/p1/unlock': () => json(planJson()) },
    });
    const card = await statusCard();
    expect(await card.findByText('The host cancelled this plan.')).toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Reopen Plan' }));
    await waitFor(() => expect(card.queryByText('Cancelled')).not.toBeInTheDocument());
    expect(calls('POST', '/api/plans/p1/unlock')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Cancel Plan' })).toBeInTheDocument();
  });
});

describe('a cancelled plan for everyone else', () => {
  it('says Cancelled with the message; no Cancel or Reopen for a member', async () => {
    openPlan({ plan: cancelled(), user: ben });
    const card = await statusCard();
    expect(await card.findByText('Cancelled')).toBeInTheDocument();
    expect(card.getByText('Kenji is closed that day.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reopen Plan' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Plan' })).not.toBeInTheDocument();
  });

  it('its ideas stay in view but cannot be voted on, and no new idea can be added', async () => {
    openPlan({ plan: cancelled(), user: ben });
    const vote = await screen.findByRole('button', { name: 'Vote for Bowling (2 votes)' });
    expect(vote).toBeDisabled();
    expect(screen.queryByPlaceholderText('Share your idea')).not.toBeInTheDocument();
  });

  it('a plan that is on: Vote and the add form are there (the same page, not cancelled)', async () => {
    openPlan({ user: ben });
    expect(await screen.findByRole('button', { name: 'Vote for Bowling (2 votes)' })).toBeEnabled();
    expect(screen.getByPlaceholderText('Share your idea')).toBeInTheDocument();
  });
});
