import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { clearGuest, setGuestSession } from '../../../lib/guest-storage';
import { formatLongDate } from '../../../lib/local-date';
import { deferred, json, meRoute, mockFetch, text, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ada, ben, planJson, planSummaryJson } from '../../plans/test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { localToday, plusDays } from '../date-window';
import { myAnswersJson, slotJson, votersJson } from '../test-fixtures';
import { DashboardAvailabilityTab } from './dashboard-availability-tab';

// A fixed clock (Date only: timers stay real), as in calendar-import.test.tsx:
// today is Monday 23 November 2026, so yesterday is in the month the Date
// Picker opens on, and every check of the window runs on every day of the year.
const NOW = new Date(2026, 10, 23, 12);
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  // guest-storage caches what it read: go through it, not localStorage directly.
  clearGuest();
});
afterEach(() => vi.useRealTimers());

const today = localToday(NOW);
const d1 = plusDays(today, 1);
const d2 = plusDays(today, 2);
const d3 = plusDays(today, 3);

const dayButton = (date: string) => screen.getByRole('button', { name: new RegExp(`^${formatLongDate(date)}:`) });

/** The plan page, signed in as `user`, on the Availability tab. */
function openPlanTab({ plan = planJson(), user = ben, routes = {} }: { plan?: Plan; user?: object; routes?: Routes } = {}) {
  localStorage.setItem('authToken', 'test-token');
  const network = mockFetch({
    'GET /api/auth/me': meRoute(user),
    'GET /api/plans/p1': () => json(plan),
    'GET /api/plans/p1/participants': () => json([]),
    'GET /api/plans': () => json([planSummaryJson(plan)]),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json(myAnswersJson([])),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<AppRoutes />, { route: '/plan/p1?tab=availability' }) };
}

function openDashboardTab({ plan = planJson(), routes = {} }: { plan?: Plan; routes?: Routes } = {}) {
  const network = mockFetch({
    'GET /api/auth/me': () => text('Not signed in', 401),
    'GET /api/plans/p1/timeslots': () => json([]),
    'GET /api/plans/p1/my-votes': () => json(myAnswersJson([])),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<DashboardAvailabilityTab plan={plan} />, { route: '/l/abcDEF12/dashboard' }) };
}

const fetchedUrls = () => vi.mocked(fetch).mock.calls.map(([url]) => String(url));

describe('availability voting', () => {

  it("shows 'Next 2 Weeks' from today with vote counts and the visitor's own votes", async () => {
    openPlanTab({
      routes: {
        'GET /api/plans/p1/timeslots': () => json([slotJson('s1', d1, 2), slotJson('s2', d2, 1)]),
        'GET /api/plans/p1/my-votes': () => json(myAnswersJson(['s2'])),
        'GET /api/timeslots/s1/voters': () => json(votersJson('Ada Lovelace', 'Cy (guest)')),
        'GET /api/timeslots/s2/voters': () => json(votersJson('Ben')),
      },
    });
    expect(await screen.findByRole('heading', { name: 'When are you free?' })).toBeInTheDocument();
    const grid = within(screen.getByRole('region', { name: 'Next 2 Weeks' }));
    expect(grid.getAllByRole('button')).toHaveLength(14);
    expect(grid.getAllByRole('button')[0]).toHaveAccessibleName(`${formatLongDate(today)}: 0 votes`);
    expect(grid.getAllByRole('button')[13]).toHaveAccessibleName(`${formatLongDate(plusDays(today, 13))}: 0 votes`);
    await waitFor(() => expect(dayButton(d2)).toHaveAttribute('aria-pressed', 'true'));
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 2 votes`);
    expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'false');
    expect(dayButton(d2)).toHaveAccessibleName(`${formatLongDate(d2)}: 1 vote, you're free`);
    // The date list names the voters.
    expect(await screen.findByRole('img', { name: '2 votes: Ada Lovelace, Cy (Guest)' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '1 vote: Ben' })).toBeInTheDocument();
  });

  it('votes and unvotes a day as a member, then refreshes the counts', async () => {
    let slots = [slotJson('s1', d1, 1)];
    let mine: string[] = [];
    const { user, calls } = openPlanTab({
      routes: {
        'GET /api/plans/p1/timeslots': () => json(slots),
        'GET /api/plans/p1/my-votes': () => json(myAnswersJson(mine)),
        'GET /api/timeslots/s1/voters': () => json(votersJson(...(mine.length ? ['Ada Lovelace', 'Ben'] : ['Ada Lovelace']))),
        'POST /api/plans/p1/vote-date': ({ body }) => {
          const voted = mine.length === 0;
          mine = voted ? ['s1'] : [];
          slots = [slotJson('s1', d1, voted ? 2 : 1)];
          expect(body).toEqual({ date: d1 });
          return json({ voted, timeSlotId: 's1', voteCount: slots[0]!.voteCount });
        },
      },
    });
    await screen.findByRole('heading', { name: 'When are you free?' });
    await waitFor(() => expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 1 vote`));

    await user.click(dayButton(d1));
    await waitFor(() => expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'true'));
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 2 votes, you're free`);
    expect(await screen.findByRole('img', { name: '2 votes: Ada Lovelace, Ben' })).toBeInTheDocument();
    // A member acts by token: no guestId anywhere, and nothing mirrored locally.
    expect(calls('POST', '/api/plans/p1/vote-date')[0]!.headers.get('Authorization')).toBe('Bearer test-token');
    expect(localStorage.getItem('guestVotes')).toBeNull();

    await user.click(dayButton(d1));
    await waitFor(() => expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'false'));
    expect(calls('POST', '/api/plans/p1/vote-date')).toHaveLength(2);
  });

  it('shows a vote on a day with votes at once, then settles on the answer', async () => {
    let slots = [slotJson('s1', d1, 1)];
    let mine: string[] = [];
    const gate = deferred();
    const { user } = openPlanTab({
      routes: {
        'GET /api/plans/p1/timeslots': () => json(slots),
        'GET /api/plans/p1/my-votes': () => json(myAnswersJson(mine)),
        'GET /api/timeslots/s1/voters': () => json(votersJson('Ada Lovelace')),
        'POST /api/plans/p1/vote-date': async () => {
          await gate.promise;
          // Cy voted meanwhile too.
          mine = ['s1'];
          slots = [slotJson('s1', d1, 3)];
          return json({ voted: true, timeSlotId: 's1', voteCount: 3 });
        },
      },
    });
    await screen.findByRole('heading', { name: 'When are you free?' });
    await waitFor(() => expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 1 vote`));
    await user.click(dayButton(d1));
    // Before the server answers: the day is the visitor's, with one more vote.
    expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'true');
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 2 votes, you're free`);
    expect(dayButton(d1)).toHaveAttribute('aria-busy', 'true');
    expect(dayButton(d1)).toBeEnabled();
    gate.resolve(new Response());
    await waitFor(() => expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 3 votes, you're free`));
    expect(dayButton(d1)).not.toHaveAttribute('aria-busy');
  });

  it('puts a refused vote on a day back as it was, with the toast', async () => {
    const answer = deferred();
    const { user } = openPlanTab({
      routes: {
        'GET /api/plans/p1/timeslots': () => json([slotJson('s1', d1, 2)]),
        'GET /api/plans/p1/my-votes': () => json(myAnswersJson(['s1'])),
        'GET /api/timeslots/s1/voters': () => json(votersJson('Ada Lovelace', 'Ben')),
        'POST /api/plans/p1/vote-date': () => answer.promise,
      },
    });
    await screen.findByRole('heading', { name: 'When are you free?' });
    await waitFor(() => expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'true'));
    await user.click(dayButton(d1));
    expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'false');
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 1 vote`);
    answer.resolve(text('Too many votes in a minute, please wait 30 seconds', 429));
    expect(await screen.findByText('Too many votes in a minute, please wait 30 seconds')).toBeInTheDocument();
    expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'true');
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 2 votes, you're free`);
  });

  it('votes as the guest of this plan, with its guestId, and mirrors the vote locally', async () => {
    setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
    let voted = false;
    const { user, calls } = openDashboardTab({
      routes: {
        'GET /api/plans/p1/timeslots': () => json(voted ? [slotJson('s9', d3, 1)] : []),
        'GET /api/plans/p1/my-votes': () => json(myAnswersJson(voted ? ['s9'] : [])),
        'GET /api/timeslots/s9/voters': () => json(votersJson('Gwen (guest)')),
        'POST /api/plans/p1/vote-date': () => {
          voted = !voted;
          return json({ voted, timeSlotId: 's9', voteCount: voted ? 1 : 0 });
        },
      },
    });
    await screen.findByRole('heading', { name: 'When are you free?' });
    await waitFor(() => expect(fetchedUrls()).toContain('/api/plans/p1/my-votes?answers=true&guestId=g1'));

    await user.click(dayButton(d3));
    await waitFor(() => expect(dayButton(d3)).toHaveAttribute('aria-pressed', 'true'));
    expect(calls('POST', '/api/plans/p1/vote-date')[0]!.body).toEqual({ date: d3, guestId: 'g1' });
    expect(JSON.parse(localStorage.getItem('guestVotes')!)).toEqual({ planIdeaIds: [], timeSlotIds: ['s9'] });

    await user.click(dayButton(d3));
    await waitFor(() => expect(dayButton(d3)).toHaveAttribute('aria-pressed', 'false'));
    expect(JSON.parse(localStorage.getItem('guestVotes')!)).toEqual({ planIdeaIds: [], timeSlotIds: [] });
  });

  it('sends a visitor who has not joined to the join page to vote', async () => {
    const { user, calls, location } = openDashboardTab();
    await screen.findByRole('heading', { name: 'When are you free?' });
    await user.click(dayButton(d1));
    expect(await screen.findByText('Please join the plan first to vote')).toBeInTheDocument();
    expect(location()).toBe('/l/abcDEF12');
    expect(calls('POST', '/api/plans/p1/vote-date')).toHaveLength(0);
  });

  it("shows the server's sentence, else 'Failed to vote on date'", async () => {
    let answer = text('Date must not be in the past', 400);
    const { user } = openPlanTab({ routes: { 'POST /api/plans/p1/vote-date': () => answer } });
    await screen.findByRole('heading', { name: 'When are you free?' });
    await user.click(dayButton(d1));
    expect(await screen.findByText('Date must not be in the past')).toBeInTheDocument();
    answer = new Response(null, { status: 500 });
    await user.click(dayButton(d1));
    expect(await screen.findByText('Failed to vote on date')).toBeInTheDocument();
  });

  it("votes on a set time's slot through the slot, 'Failed to vote on time slot' on failure", async () => {
    const { user, calls } = openPlanTab({
      routes: {
        'GET /api/plans/p1/timeslots': () => json([slotJson('s1', d1, 1, '19:30')]),
        'GET /api/timeslots/s1/voters': () => json(votersJson('Ada Lovelace')),
        'POST /api/timeslots/s1/vote': () => new Response(null, { status: 500 }),
      },
    });
    const row = await screen.findByRole('listitem', { name: new RegExp('7:30PM') });
    await user.click(within(row).getByRole('button', { name: "I'm free" }));
    expect(await screen.findByText('Failed to vote on time slot')).toBeInTheDocument();
    expect(calls('POST', '/api/timeslots/s1/vote')[0]!.body).toEqual({});
  });

  it('fetches voters only for slots with votes, and shows 4 avatars then +N', async () => {
    openPlanTab({
      routes: {
        'GET /api/plans/p1/timeslots': () => json([slotJson('s1', d1, 6), slotJson('s0', d2, 0)]),
        'GET /api/plans/p1/my-votes': () => json(myAnswersJson(['s0'])),
        'GET /api/timeslots/s1/voters': () => json(votersJson('Ada Lovelace', 'Ben', 'Cy Young', 'Dee', 'Eve', 'Fay')),
      },
    });
    const group = await screen.findByRole('img', { name: /^6 votes:/ });
    expect(within(group).getByText('AL')).toBeInTheDocument();
    expect(within(group).getByText('DE')).toBeInTheDocument();
    expect(within(group).queryByText('EV')).not.toBeInTheDocument();
    expect(within(group).getByText('+2')).toBeInTheDocument();
    expect(fetchedUrls()).not.toContain('/api/timeslots/s0/voters');
  });

  it("toasts 'Failed to fetch voters' when the voters cannot be read", async () => {
    openPlanTab({
      routes: {
        'GET /api/plans/p1/timeslots': () => json([slotJson('s1', d1, 1)]),
        'GET /api/timeslots/s1/voters': () => new Response(null, { status: 500 }),
      },
    });
    expect(await screen.findByText('Failed to fetch voters')).toBeInTheDocument();
  });

  it('shows a loading state until the dates arrive', async () => {
    const slots = deferred();
    openPlanTab({ routes: { 'GET /api/plans/p1/timeslots': () => slots.promise } });
    expect(await screen.findByRole('status', { name: 'Loading availability' })).toBeInTheDocument();
    slots.resolve(json([]));
    expect(await screen.findByRole('heading', { name: 'When are you free?' })).toBeInTheDocument();
    expect(screen.getByText("No votes yet. Be the first to say when you're free!")).toBeInTheDocument();
  });
});

describe("the Date Picker and 'OK (n dates)'", () => {
  /** Clicks a day of the calendar, moving to the next month when needed. */
  async function chooseDay(user: ReturnType<typeof openPlanTab>['user'], date: string) {
    const picker = within(screen.getByRole('region', { name: 'Date Picker' }));
    // The calendar opens a moment after the toggle (a slow machine shows it late).
    await picker.findByRole('button', { name: 'Next month' });
    const name = new RegExp(`^${formatLongDate(date)}`);
    for (const move of ['Previous month', 'Next month', 'Next month']) {
      if (picker.queryByRole('button', { name })) break;
      await user.click(picker.getByRole('button', { name: move }));
    }
    await user.click(picker.getByRole('button', { name }));
  }

  it('votes each chosen date in turn, then closes; Cancel clears the selection', async () => {
    const answers: Array<ReturnType<typeof deferred>> = [];
    const { user, calls } = openPlanTab({
      routes: {
        'POST /api/plans/p1/vote-date': () => {
          const answer = deferred();
          answers.push(answer);
          return answer.promise;
        },
      },
    });
    await screen.findByRole('heading', { name: 'When are you free?' });
    const toggle = screen.getByRole('button', { name: /Date Picker/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    // Only the allowed window: yesterday is disabled. The calendar opens a
    // moment after the toggle (a slow machine shows it late).
    const picker = within(screen.getByRole('region', { name: 'Date Picker' }));
    await picker.findByRole('button', { name: 'Next month' });
    expect(picker.getByRole('button', { name: new RegExp(`^${formatLongDate(plusDays(today, -1))}`) })).toBeDisabled();
    expect(picker.getByRole('button', { name: new RegExp(`^${formatLongDate(today)}`) })).toBeEnabled();

    const ok = screen.getByRole('button', { name: 'OK (0 dates)' });
    expect(ok).toBeDisabled();
    await chooseDay(user, d1);
    expect(screen.getByRole('button', { name: 'OK (1 date)' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'OK (0 dates)' })).toBeDisabled();

    await chooseDay(user, plusDays(today, 20));
    await chooseDay(user, d2);
    await user.click(screen.getByRole('button', { name: 'OK (2 dates)' }));
    expect(await screen.findByRole('button', { name: 'Voting...' })).toBeDisabled();
    // In turn: the second vote waits for the first answer. Earliest date first.
    await waitFor(() => expect(calls('POST', '/api/plans/p1/vote-date')).toHaveLength(1));
    expect(calls('POST', '/api/plans/p1/vote-date')[0]!.body).toEqual({ date: d2 });
    answers[0]!.resolve(json({ voted: true, timeSlotId: 'a', voteCount: 1 }));
    await waitFor(() => expect(calls('POST', '/api/plans/p1/vote-date')).toHaveLength(2));
    expect(calls('POST', '/api/plans/p1/vote-date')[1]!.body).toEqual({ date: plusDays(today, 20) });
    answers[1]!.resolve(json({ voted: true, timeSlotId: 'b', voteCount: 1 }));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'false'));
    expect(screen.getByRole('button', { name: 'OK (0 dates)', hidden: true })).toBeDisabled();
  });

  it('stops at the first failure and keeps the dates not yet voted', async () => {
    let count = 0;
    const { user, calls } = openPlanTab({
      routes: {
        'POST /api/plans/p1/vote-date': () =>
          ++count === 1 ? json({ voted: true, timeSlotId: 'a', voteCount: 1 }) : text('Date must be at most 366 days ahead', 400),
      },
    });
    await screen.findByRole('heading', { name: 'When are you free?' });
    await user.click(screen.getByRole('button', { name: /Date Picker/ }));
    await chooseDay(user, d1);
    await chooseDay(user, d2);
    await chooseDay(user, d3);
    await user.click(screen.getByRole('button', { name: 'OK (3 dates)' }));
    expect(await screen.findByText('Date must be at most 366 days ahead')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/vote-date')).toHaveLength(2);
    expect(await screen.findByRole('button', { name: 'OK (2 dates)' })).toBeEnabled();
  });

  it('skips dates the visitor already voted for, so OK never removes a vote', async () => {
    const { user, calls } = openPlanTab({
      routes: {
        'GET /api/plans/p1/timeslots': () => json([slotJson('s1', d1, 1)]),
        'GET /api/plans/p1/my-votes': () => json(myAnswersJson(['s1'])),
        'GET /api/timeslots/s1/voters': () => json(votersJson('Ben')),
        'POST /api/plans/p1/vote-date': () => json({ voted: true, timeSlotId: 's2', voteCount: 1 }),
      },
    });
    await waitFor(() => expect(screen.getByRole('button', { name: /you're free$/ })).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: /Date Picker/ }));
    await chooseDay(user, d1);
    await chooseDay(user, d2);
    await user.click(screen.getByRole('button', { name: 'OK (2 dates)' }));
    await waitFor(() => expect(calls('POST', '/api/plans/p1/vote-date')).toHaveLength(1));
    expect(calls('POST', '/api/plans/p1/vote-date')[0]!.body).toEqual({ date: d2 });
  });
});

describe('the availability page (step 2 of 3)', () => {
  it("submits with a toast and goes back to the plan; members get no 'Don't lose your choices'", async () => {
    localStorage.setItem('authToken', 'test-token');
    mockFetch({
      'GET /api/auth/me': meRoute(ben),
      'GET /api/plans/p1': () => json(planJson()),
      'GET /api/plans/p1/timeslots': () => json([]),
      'GET /api/plans/p1/my-votes': () => json(myAnswersJson([])),
      'GET /api/plans/p1/participants': () => json([]),
      'GET /api/plans': () => json([]),
    });
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/plan/p1/availability' });
    expect(await screen.findByRole('heading', { level: 1, name: 'When are you free?' })).toBeInTheDocument();
    expect(screen.getByText('Step 2 of 3')).toBeInTheDocument();
    expect(screen.queryByText("Don't lose your choices")).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the plan' })).toHaveAttribute('href', '/plan/p1');
    await user.click(screen.getByRole('button', { name: 'Submit Availability' }));
    expect(await screen.findByText('Availability submitted!')).toBeInTheDocument();
    expect(screen.getByText("You'll be notified when the host makes a decision.")).toBeInTheDocument();
    await waitFor(() => expect(location()).toBe('/plan/p1'));
  });

  it("shows a guest 'Don't lose your choices' and goes back to /l/{slug}", async () => {
    setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
    mockFetch({
      'GET /api/auth/me': () => text('Not signed in', 401),
      'GET /api/plans/slug/abcDEF12': () => json(planJson()),
      'GET /api/plans/p1/timeslots': () => json([]),
      'GET /api/plans/p1/my-votes': () => json(myAnswersJson([])),
    });
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/l/abcDEF12/availability' });
    expect(await screen.findByRole('heading', { level: 1, name: 'When are you free?' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: "Don't lose your choices" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Account' })).toHaveAttribute(
      'href',
      '/auth?returnTo=/l/abcDEF12/availability',
    );
    expect(screen.queryByRole('button', { name: 'Pick Date' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Availability' }));
    await waitFor(() => expect(location()).toMatch(/^\/l\/abcDEF12/));
  });

  it('recognises a signed-in host on /l/{slug}/availability (spec §6)', async () => {
    localStorage.setItem('authToken', 'test-token');
    mockFetch({
      'GET /api/auth/me': meRoute(ada),
      'GET /api/plans/slug/abcDEF12': () => json(planJson()),
      'GET /api/plans/p1/timeslots': () => json([slotJson('s1', d1, 1)]),
      'GET /api/plans/p1/my-votes': () => json(myAnswersJson([])),
      'GET /api/timeslots/s1/voters': () => json(votersJson('Ben')),
    });
    renderWithProviders(<AppRoutes />, { route: '/l/abcDEF12/availability' });
    expect(await screen.findByRole('button', { name: 'Pick Date' })).toBeInTheDocument();
  });
});
