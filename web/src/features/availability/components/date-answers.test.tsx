import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DateAnswer, TimeSlot } from '../../../../../supabase/functions/_shared/contract/dates';
import { clearGuest, setGuestSession } from '../../../lib/guest-storage';
import { formatLongDate, formatShortDate } from '../../../lib/local-date';
import { json, mockFetch, text, type RecordedRequest } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { planJson } from '../../plans/test-fixtures';
import { localToday, plusDays } from '../date-window';
import { slotJson, votersJson } from '../test-fixtures';
import { DashboardAvailabilityTab } from './dashboard-availability-tab';

// A date's answers on the screens (docs/decisions/0109-if-need-be-on-the-screens.md):
// the switch that says what a tap means, "if need be" shown apart from yes in
// the grid, the date list, the voter avatars and the Date Picker, and "None of
// these dates work for me". The server below keeps the API's toggle table.

const NOW = new Date(2026, 10, 23, 12);
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  clearGuest();
});
afterEach(() => vi.useRealTimers());

const today = localToday(NOW);
const d1 = plusDays(today, 1);
const d2 = plusDays(today, 2);
const d3 = plusDays(today, 3);

const dayButton = (date: string) => screen.getByRole('button', { name: new RegExp(`^${formatLongDate(date)}:`) });

/** Gwen, a guest, on the dashboard's Availability tab; Ada said yes to d1 and Hal if need be. */
function openAnswers(initial: [string, DateAnswer][] = []) {
  setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
  const slots: TimeSlot[] = [{ ...slotJson('s1', d1, 1), ifNeedBeCount: 1 }];
  const others = votersJson('Ada', 'Hal (guest)').map((voter, i) => ({ ...voter, answer: (i === 0 ? 'yes' : 'ifneedbe') as DateAnswer }));
  const mine = new Map<string, DateAnswer>(initial);
  const state = { noDates: false };
  const count = (slot: TimeSlot, answer: DateAnswer | undefined, by: number) => {
    if (answer === 'yes') slot.voteCount += by;
    if (answer === 'ifneedbe') slot.ifNeedBeCount = (slot.ifNeedBeCount ?? 0) + by;
  };
  for (const [slotId, answer] of initial) count(slots.find((slot) => slot.id === slotId)!, answer, 1);
  const voteDate = (request: RecordedRequest) => {
    const { date, answer = 'yes' } = request.body as { date: string; answer?: DateAnswer };
    let slot = slots.find((s) => s.date === date && !s.period);
    if (!slot) slots.push((slot = { ...slotJson(`s${slots.length + 1}`, date, 0), ifNeedBeCount: 0 }));
    const before = mine.get(slot.id);
    count(slot, before, -1);
    const after = before === answer ? null : answer;
    if (after) mine.set(slot.id, after);
    else mine.delete(slot.id);
    count(slot, after ?? undefined, 1);
    if (after) state.noDates = false;
    return json({ voted: after !== null, timeSlotId: slot.id, voteCount: slot.voteCount, ifNeedBeCount: slot.ifNeedBeCount, answer: after });
  };
  const network = mockFetch({
    'GET /api/auth/me': () => text('Not signed in', 401),
    'GET /api/plans/p1/timeslots': () => json(slots.map((slot) => ({ ...slot }))),
    'GET /api/plans/p1/my-votes': () =>
      json({ answers: [...mine].map(([timeSlotId, answer]) => ({ timeSlotId, answer })), noDates: state.noDates }),
    'GET /api/timeslots/s1/voters': () =>
      json([...others, ...(mine.has('s1') ? [{ id: 'g1', name: 'Gwen', isGuest: true, answer: mine.get('s1') }] : [])]),
    'POST /api/plans/p1/vote-date': voteDate,
    'POST /api/plans/p1/no-dates': () => {
      state.noDates = !state.noDates;
      if (state.noDates) {
        for (const [slotId, answer] of mine) count(slots.find((slot) => slot.id === slotId)!, answer, -1);
        mine.clear();
      }
      return json({ noDates: state.noDates });
    },
  });
  const view = renderWithProviders(<DashboardAvailabilityTab plan={planJson()} />, { route: '/l/abcDEF12/dashboard' });
  return { ...network, ...view, state };
}

describe('answers on dates', () => {
  it('says yes on a tap as ever, and "if need be" once the switch says so (by keyboard too)', async () => {
    const { user, calls } = openAnswers();
    await waitFor(() => expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 1 yes, 1 if need be`));
    const switcher = screen.getByRole('radiogroup', { name: 'A tap says' });
    expect(within(switcher).getByRole('radio', { name: 'Yes' })).toBeChecked();

    // By keyboard: the arrows move the switch to "If need be".
    within(switcher).getByRole('radio', { name: 'Yes' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(within(switcher).getByRole('radio', { name: 'If need be' })).toBeChecked();

    await user.click(dayButton(d2));
    await waitFor(() => expect(dayButton(d2)).toHaveAttribute('aria-pressed', 'mixed'));
    expect(dayButton(d2)).toHaveAccessibleName(`${formatLongDate(d2)}: 0 yes, 1 if need be, you're free if need be`);
    expect(dayButton(d2)).toHaveAttribute('data-ifneedbe');
    expect(calls('POST', '/api/plans/p1/vote-date')[0]!.body).toEqual({ date: d2, guestId: 'g1', answer: 'ifneedbe' });
  });

  it('replaces the other answer on a tap, and removes the same one', async () => {
    const { user, calls } = openAnswers([['s1', 'ifneedbe']]);
    await waitFor(() => expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'mixed'));
    // A tap says yes (the body is spec §7's, no answer): it replaces "if need be".
    await user.click(dayButton(d1));
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 2 yes, 1 if need be, you're free`);
    await waitFor(() => expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'true'));
    expect(calls('POST', '/api/plans/p1/vote-date')[0]!.body).toEqual({ date: d1, guestId: 'g1' });

    // The same answer again removes it.
    await user.click(dayButton(d1));
    await waitFor(() => expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'false'));
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 1 yes, 1 if need be`);
  });

  it('shows "if need be" apart in the date list and its voter avatars', async () => {
    const { user } = openAnswers();
    const row = await screen.findByRole('listitem', { name: formatShortDate(d1) });
    expect(row).toHaveTextContent('1 yes, 1 if need be');
    expect(await within(row).findByRole('img', { name: '1 yes, 1 if need be: Ada, Hal (Guest) (if need be)' })).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'If need be' }));
    await user.click(within(row).getByRole('button', { name: "I'm free" }));
    const mine = await within(row).findByRole('button', { name: "I'm free if need be" });
    expect(mine).toHaveAttribute('aria-pressed', 'mixed');
    expect(await within(row).findByRole('img', { name: '1 yes, 2 if need be: Ada, Hal (Guest) (if need be), Gwen (Guest) (if need be)' })).toBeInTheDocument();
  });

  it("marks the Date Picker's if-need-be days, and OK says the switch's answer, skipping days already given it", async () => {
    const { user, calls } = openAnswers([['s1', 'ifneedbe']]);
    await waitFor(() => expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'mixed'));
    await user.click(screen.getByRole('radio', { name: 'If need be' }));
    await user.click(screen.getByRole('button', { name: /Date Picker/ }));
    expect(screen.getByText('OK marks them "if need be".')).toBeInTheDocument();
    const calendar = within(screen.getByRole('region', { name: 'Date Picker' }));
    await calendar.findByRole('button', { name: 'Next month' });
    const marked = await calendar.findByRole('button', { name: `${formatLongDate(d1)}, you're free if need be` });
    expect(marked.querySelector('[data-answer="ifneedbe"]')).not.toBeNull();
    await user.click(marked);
    await user.click(calendar.getByRole('button', { name: formatLongDate(d3) }));
    await user.click(screen.getByRole('button', { name: 'OK (2 dates)' }));
    await waitFor(() => expect(calls('POST', '/api/plans/p1/vote-date')).toHaveLength(1));
    expect(calls('POST', '/api/plans/p1/vote-date')[0]!.body).toEqual({ date: d3, guestId: 'g1', answer: 'ifneedbe' });
  });

  it("says none of these dates work, which clears the visitor's marks; a vote on a date takes it back", async () => {
    const { user, calls, state } = openAnswers([['s1', 'yes']]);
    await waitFor(() => expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'true'));
    const none = screen.getByRole('switch', { name: 'None of these dates work for me' });
    expect(none).not.toBeChecked();
    await user.click(none);
    // At once: on, and the visitor's yes on d1 gone from the day and its count.
    expect(none).toBeChecked();
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 1 yes, 1 if need be`);
    await waitFor(() => expect(state.noDates).toBe(true));
    expect(calls('POST', '/api/plans/p1/no-dates')[0]!.body).toEqual({ guestId: 'g1' });
    expect(screen.getByText("The host sees that you can't make any of these.")).toBeInTheDocument();
    await waitFor(() => expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'false'));

    await user.click(dayButton(d2));
    // At once, before the server's answer is read back.
    expect(none).not.toBeChecked();
    await waitFor(() => expect(dayButton(d2)).toHaveAttribute('aria-pressed', 'true'));
    expect(state.noDates).toBe(false);
  });
});
