import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setDeviceTimeZone } from '../../../test/device-zone';
import { formatLongDate } from '../../../lib/local-date';
import { deferred, json, text, type Routes } from '../../../test/mock-fetch';
import { ada, ben, planJson } from '../../plans/test-fixtures';
import { openPlanPage } from '../../plans/test-plan-page';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { localToday, plusDays } from '../date-window';
import { myAnswersJson, slotJson, votersJson } from '../test-fixtures';

const d1 = plusDays(localToday(), 1);
const d2 = plusDays(localToday(), 2);

const pickedIdea = { lockedIdeaId: 'i1', lockedIdeaText: 'Board games' } satisfies Partial<Plan>;
const dateLocked = planJson({ ...pickedIdea, status: 'time_range_locked', lockedTimeSlotDate: d1 });
const completed = planJson({
  ...pickedIdea,
  status: 'completed',
  lockedTimeSlotDate: d1,
  lockedTimeSlotId: 's9',
  eventTime: '7:30 PM',
  lockedTimeSlot: { id: 's9', date: d1, period: '19:30' },
});

/** The plan page as the host (Ada) or a member (Ben), on the Availability tab. */
function openPlan(initial: Plan, { user = ada, routes = {} }: { user?: object; routes?: Routes } = {}) {
  const page = openPlanPage(initial, {
    user,
    route: '/plan/p1?tab=availability',
    routes: {
      'GET /api/plans/p1/timeslots': () => json([slotJson('s1', d1, 2), slotJson('s2', d2, 0)]),
      'GET /api/plans/p1/my-votes': () => json(myAnswersJson([])),
      'GET /api/timeslots/s1/voters': () => json(votersJson('Ben', 'Cy')),
      ...routes,
    },
  });
  return { ...page, setPlan: page.answer };
}

describe('host: Pick Date', () => {
  it('locks a date with votes, then shows the Set Event Time panel instead of Pick Date', async () => {
    const { user, calls } = openPlan(planJson(pickedIdea), {
      routes: { 'POST /api/plans/p1/lock-date': () => json(dateLocked) },
    });
    // Only the day with votes can be picked.
    const picks = await screen.findAllByRole('button', { name: 'Pick Date' });
    // Teal 9 under white text: AA contrast (the default teal 7 is 3.1:1).
    expect(picks[0]).toHaveStyle({ '--button-bg': 'var(--mantine-color-teal-9)' });
    expect(picks).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Set Event Time' })).not.toBeInTheDocument();
    await user.click(picks[0]!);
    expect(calls('POST', '/api/plans/p1/lock-date')[0]!.body).toEqual({ date: d1 });

    const panel = await screen.findByRole('region', { name: 'Set Event Time' });
    expect(within(panel).getByText(formatLongDate(d1))).toBeInTheDocument();
    expect(screen.getByText('Date picked!')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pick Date' })).not.toBeInTheDocument();
    // The status card shows the date too.
    expect(screen.getByRole('region', { name: 'Plan Status' })).toHaveTextContent(formatLongDate(d1));
  });

  it("marks the API's leading date 'Leading' for the host: its ranking, never the screen's own", async () => {
    // The API ranks (most yes, then most if need be, then earliest): here it says d2 leads.
    const slots = [
      { ...slotJson('s1', d1, 2), ifNeedBeCount: 0, leading: false },
      { ...slotJson('s2', d2, 2), ifNeedBeCount: 1, leading: true },
    ];
    const routes = {
      'GET /api/plans/p1/timeslots': () => json(slots),
      'GET /api/timeslots/s2/voters': () => json(votersJson('Ben', 'Cy', 'Dee')),
    };
    openPlan(planJson(pickedIdea), { routes });
    const leading = await screen.findByText('Leading');
    expect(leading.closest('li')).toHaveTextContent('2 yes, 1 if need be');
    expect(screen.getAllByText('Leading')).toHaveLength(1);
  });

  it("shows no Pick Date to members", async () => {
    openPlan(planJson(), { user: ben });
    await screen.findByRole('heading', { name: 'When are you free?' });
    await screen.findByRole('img', { name: '2 votes: Ben, Cy' });
    expect(screen.queryByRole('button', { name: 'Pick Date' })).not.toBeInTheDocument();
  });

  it('shows no Pick Date once a date is locked (date_locked reads the same)', async () => {
    openPlan(planJson({ ...dateLocked, status: 'date_locked' }));
    expect(await screen.findByRole('region', { name: 'Set Event Time' })).toBeInTheDocument();
    await screen.findByRole('img', { name: '2 votes: Ben, Cy' });
    expect(screen.queryByRole('button', { name: 'Pick Date' })).not.toBeInTheDocument();
  });

  it("shows 'Failed to lock date' or the server's sentence", async () => {
    let answer = new Response(null, { status: 500 });
    const { user } = openPlan(planJson(), { routes: { 'POST /api/plans/p1/lock-date': () => answer } });
    await user.click(await screen.findByRole('button', { name: 'Pick Date' }));
    expect(await screen.findByText('Failed to lock date')).toBeInTheDocument();
    answer = text('Unlock the plan before locking another date', 409);
    await user.click(screen.getByRole('button', { name: 'Pick Date' }));
    expect(await screen.findByText('Unlock the plan before locking another date')).toBeInTheDocument();
  });
});

describe('host: Set Event Time', () => {
  it("sends 'HH:mm' with the phone's time zone, shows it in 12-hour form, and then 'Final Time Set'", async () => {
    setDeviceTimeZone('America/Denver');
    const answer = deferred();
    const { user, calls } = openPlan(dateLocked, { routes: { 'POST /api/plans/p1/set-event-time': () => answer.promise } });
    const panel = within(await screen.findByRole('region', { name: 'Set Event Time' }));
    const setTime = panel.getByRole('button', { name: 'Set Time' });
    expect(setTime).toBeDisabled();
    const input = panel.getByLabelText('Event time');
    await user.type(input, '19:30');
    expect(panel.getByText('Everyone will see 7:30 PM.')).toBeInTheDocument();
    expect(setTime).toBeEnabled();
    await user.click(setTime);
    expect(calls('POST', '/api/plans/p1/set-event-time')[0]!.body).toEqual({ time: '19:30', timeZone: 'America/Denver' });
    answer.resolve(json(completed));

    const final = await screen.findByRole('region', { name: 'Final Time Set' });
    expect(final).toHaveTextContent(`${formatLongDate(d1)} at 7:30PM`);
    expect(final).toHaveTextContent('All participants have been notified of the final event time.');
    expect(screen.queryByRole('region', { name: 'Set Event Time' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Plan Status' })).toHaveTextContent(`${formatLongDate(d1)} at 7:30 PM`);
  });

  it("shows the server's sentence, else 'Failed to set event time'", async () => {
    let answer = text('Time must be HH:mm (24-hour)', 400);
    const { user } = openPlan(dateLocked, { routes: { 'POST /api/plans/p1/set-event-time': () => answer } });
    const panel = within(await screen.findByRole('region', { name: 'Set Event Time' }));
    await user.type(panel.getByLabelText('Event time'), '08:05');
    expect(panel.getByText('Everyone will see 8:05 AM.')).toBeInTheDocument();
    await user.click(panel.getByRole('button', { name: 'Set Time' }));
    expect(await screen.findByText('Time must be HH:mm (24-hour)')).toBeInTheDocument();
    answer = new Response(null, { status: 502 });
    await user.click(panel.getByRole('button', { name: 'Set Time' }));
    expect(await screen.findByText('Failed to set event time')).toBeInTheDocument();
  });

  it('is not shown to members', async () => {
    openPlan(dateLocked, { user: ben });
    expect(await screen.findByText('The host picked a date')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Set Event Time' })).not.toBeInTheDocument();
  });

  it("'Change Date' unlocks so the host can pick again", async () => {
    const { user, calls, setPlan } = openPlan(dateLocked, {
      routes: { 'POST /api/plans/p1/unlock': () => setPlan(planJson(pickedIdea)) },
    });
    const panel = within(await screen.findByRole('region', { name: 'Set Event Time' }));
    await user.click(panel.getByRole('button', { name: 'Change Date' }));
    expect(calls('POST', '/api/plans/p1/unlock')[0]!.body).toEqual({});
    expect(await screen.findByRole('button', { name: 'Pick Date' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Set Event Time' })).not.toBeInTheDocument();
  });
});

describe('host: Final Time Set', () => {
  it("'Unlock & Revote' returns to voting and refreshes the slots", async () => {
    const { user, calls, setPlan } = openPlan(completed, {
      routes: { 'POST /api/plans/p1/unlock': () => setPlan(planJson(pickedIdea)) },
    });
    const final = within(await screen.findByRole('region', { name: 'Final Time Set' }));
    expect(screen.queryByRole('heading', { name: 'When are you free?' })).not.toBeInTheDocument();
    await user.click(final.getByRole('button', { name: 'Unlock & Revote' }));
    expect(calls('POST', '/api/plans/p1/unlock')).toHaveLength(1);
    expect(await screen.findByRole('heading', { name: 'When are you free?' })).toBeInTheDocument();
    expect(screen.getByText('Plan unlocked')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pick Date' })).toBeInTheDocument();
    await waitFor(() => expect(calls('GET', '/api/plans/p1/timeslots').length).toBeGreaterThanOrEqual(1));
  });

  it("'Share Details' copies what, when, where and the link when there is no share sheet", async () => {
    const { user } = openPlan({ ...completed, location: "Ada's place" });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(await screen.findByRole('button', { name: 'Share Details' }));
    expect(await screen.findByText('Details copied!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(
      [
        'Friday night',
        'What: Board games',
        `When: ${formatLongDate(d1)} at 7:30PM`,
        "Where: Ada's place",
        `${window.location.origin}/l/abcDEF12`,
      ].join('\n'),
    );
  });

  it("'Share Details' opens the native share sheet where there is one", async () => {
    const share = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    try {
      const { user } = openPlan(completed);
      await user.click(await screen.findByRole('button', { name: 'Share Details' }));
      expect(share).toHaveBeenCalledWith({ title: 'Friday night', text: expect.stringContaining('What: Board games') });
    } finally {
      // @ts-expect-error test cleanup of a property jsdom does not have
      delete navigator.share;
    }
  });

  it("shows members the confirmed card instead", async () => {
    openPlan(completed, { user: ben });
    const card = await screen.findByRole('region', { name: 'Event Time Confirmed!' });
    expect(card).toHaveTextContent('The host has set the final event time. See you there!');
    expect(screen.queryByRole('button', { name: 'Unlock & Revote' })).not.toBeInTheDocument();
  });
});
