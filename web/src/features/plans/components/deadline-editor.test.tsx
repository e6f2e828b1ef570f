import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setGuestSession } from '../../../lib/guest-storage';
import { AppRoutes } from '../../../app/app-routes';
import { json, mockFetch, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { openPlanPage as openPlan } from '../test-plan-page';
import { ben, planJson } from '../test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

// Only Date is fixed (timers run): "now" is Thu, Nov 26, 2026, 12:00 PM local.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 26, 12, 0));
});
afterEach(() => vi.useRealTimers());

/** Sat, Nov 28, 2026, 7:00 PM local: 2 days and 7 hours away. */
const SATURDAY_7PM = new Date(2026, 10, 28, 19, 0).toISOString();
const withDeadline = (overrides: Partial<Plan> = {}) => planJson({ deadline: SATURDAY_7PM, autoLock: false, ...overrides });


const statusCard = async () => within(await screen.findByRole('region', { name: 'Plan Status' }));
/** The <dd> of a status row. */
const definition = (card: ReturnType<typeof within>, term: string) =>
  card.getByText(term, { selector: 'dt' }).nextElementSibling as HTMLElement;

describe('Decide by: the host sets, changes and removes the deadline', () => {
  it('sends the local date and time as an ISO instant with autoLock, then shows it counting down', async () => {
    const { user, calls, answer } = openPlan(planJson(), {
      routes: {
        'POST /api/plans/p1/deadline': ({ body }) => answer(planJson(body as Partial<Plan>)),
      },
    });
    const card = await statusCard();
    expect(definition(card, 'Decide by')).toHaveTextContent('No deadline yet');
    await user.click(card.getByRole('button', { name: 'Set deadline' }));

    const input = card.getByLabelText('Decide by');
    expect(input).toHaveAttribute('type', 'datetime-local');
    expect(input).toHaveFocus();
    expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(card.queryByRole('button', { name: 'Remove deadline' })).not.toBeInTheDocument();
    const autoLock = card.getByRole('checkbox', { name: 'Lock automatically at the deadline' });
    expect(autoLock).not.toBeChecked();
    expect(autoLock).toHaveAccessibleDescription('The most-voted idea and date will be locked for everyone then.');

    await user.type(input, '2026-11-28T19:00');
    await user.click(autoLock);
    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(calls('POST', '/api/plans/p1/deadline')[0]!.body).toEqual({ deadline: SATURDAY_7PM, autoLock: true });

    await waitFor(() => expect(card.queryByLabelText('Decide by')).not.toBeInTheDocument());
    const row = definition(card, 'Decide by');
    expect(row).toHaveTextContent('Sat, Nov 28, 7:00 PM · 2 days left');
    expect(row).toHaveTextContent('The top idea and date will be locked automatically.');
    expect(card.getByRole('button', { name: 'Edit deadline' })).toBeInTheDocument();
  });

  it("shows the server's sentence under the field and keeps the form open", async () => {
    const sentence = 'The deadline must be at most a year ahead';
    const { user, calls } = openPlan(planJson(), { routes: { 'POST /api/plans/p1/deadline': () => text(sentence, 400) } });
    const card = await statusCard();
    await user.click(card.getByRole('button', { name: 'Set deadline' }));
    const input = card.getByLabelText('Decide by');
    await user.type(input, '2028-01-05T09:30');
    await user.click(card.getByRole('button', { name: 'Save' }));

    expect(await card.findByText(sentence)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(sentence);
    expect(input).toHaveValue('2028-01-05T09:30');
    expect(calls('POST', '/api/plans/p1/deadline')[0]!.body).toEqual({
      deadline: new Date(2028, 0, 5, 9, 30).toISOString(),
      autoLock: false,
    });
    // No toast: the sentence is said once, where it applies.
    expect(screen.getAllByText(sentence)).toHaveLength(1);
  });

  it('refuses a time in the past without asking the server', async () => {
    const { user, calls } = openPlan(planJson());
    const card = await statusCard();
    await user.click(card.getByRole('button', { name: 'Set deadline' }));
    await user.type(card.getByLabelText('Decide by'), '2026-11-26T11:00');
    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(await card.findByText('The deadline must be in the future')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/deadline')).toHaveLength(0);
  });

  it('opens a set deadline with its values; Remove deadline posts null', async () => {
    const { user, calls, answer } = openPlan(withDeadline({ autoLock: true }), {
      routes: { 'POST /api/plans/p1/deadline': () => answer(planJson({ deadline: null, autoLock: false })) },
    });
    const card = await statusCard();
    await user.click(card.getByRole('button', { name: 'Edit deadline' }));
    expect(card.getByLabelText('Decide by')).toHaveValue('2026-11-28T19:00');
    expect(card.getByRole('checkbox', { name: 'Lock automatically at the deadline' })).toBeChecked();

    await user.click(card.getByRole('button', { name: 'Remove deadline' }));
    expect(calls('POST', '/api/plans/p1/deadline')[0]!.body).toEqual({ deadline: null });
    await waitFor(() => expect(definition(card, 'Decide by')).toHaveTextContent('No deadline yet'));
    expect(card.getByRole('button', { name: 'Set deadline' })).toBeInTheDocument();
  });

  it('Cancel closes the form and sends nothing', async () => {
    const { user, calls } = openPlan(withDeadline());
    const card = await statusCard();
    await user.click(card.getByRole('button', { name: 'Edit deadline' }));
    await user.clear(card.getByLabelText('Decide by'));
    await user.click(card.getByRole('button', { name: 'Cancel' }));
    expect(definition(card, 'Decide by')).toHaveTextContent('Sat, Nov 28, 7:00 PM · 2 days left');
    expect(calls('POST', '/api/plans/p1/deadline')).toHaveLength(0);
  });

  it('is gone once a date is locked', async () => {
    openPlan(withDeadline({ status: 'time_range_locked', lockedTimeSlotDate: '2026-12-04' }));
    const card = await statusCard();
    expect(card.queryByText('Decide by')).not.toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Set deadline' })).not.toBeInTheDocument();
  });
});

describe('Decide by: what everyone sees', () => {
  it('shows members the deadline and time left, without the controls', async () => {
    openPlan(withDeadline(), { user: ben });
    const card = await statusCard();
    const row = definition(card, 'Decide by');
    expect(row).toHaveTextContent('Sat, Nov 28, 7:00 PM · 2 days left');
    expect(row).not.toHaveTextContent('locked automatically');
    expect(card.queryByRole('button', { name: /deadline/ })).not.toBeInTheDocument();
  });

  it('shows nothing to members without a deadline', async () => {
    openPlan(planJson(), { user: ben });
    const card = await statusCard();
    expect(card.getByText("When we're meeting")).toBeInTheDocument();
    expect(card.queryByText('Decide by')).not.toBeInTheDocument();
  });

  it('shows guests the deadline, hours left and the auto-lock on the dashboard', async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    const plan = withDeadline({ deadline: new Date(2026, 10, 26, 17, 30).toISOString(), autoLock: true });
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'GET /api/plans/slug/abcDEF12': () => json(plan),
      'GET /api/plans/p1/ideas': () => json([]),
      'GET /api/plans/p1/timeslots': () => json([]),
      'GET /api/plans/p1/my-votes': () => json({ answers: [], noDates: false }),
      'GET /api/plans/p1/participants': () => json([]),
    });
    renderWithProviders(<AppRoutes />, { route: '/l/abcDEF12/dashboard' });
    const card = await statusCard();
    const row = definition(card, 'Decide by');
    expect(row).toHaveTextContent('Thu, Nov 26, 5:30 PM · 5 hours left');
    expect(row).toHaveTextContent('The top idea and date will be locked automatically.');
    expect(card.queryByRole('button', { name: /deadline/ })).not.toBeInTheDocument();
  });

  it('says when the deadline has passed, without promising the auto-lock', async () => {
    openPlan(withDeadline({ deadline: new Date(2026, 10, 26, 11, 0).toISOString(), autoLock: true }), { user: ben });
    const row = definition(await statusCard(), 'Decide by');
    expect(row).toHaveTextContent('Thu, Nov 26, 11:00 AM · Deadline passed');
    expect(row).not.toHaveTextContent('locked automatically');
  });
});
