import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../../supabase/functions/_shared/contract/idempotency';
import type { DateAnswer, TimeSlot } from '../../../../../supabase/functions/_shared/contract/dates';
import { clearGuest, getGuestVotes, setGuestSession } from '../../../lib/guest-storage';
import { formatLongDate } from '../../../lib/local-date';
import { parseAction, resetOfflineActions } from '../../../lib/offline-actions';
import { json, mockFetch, text, type RecordedRequest } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { planJson } from '../../plans/test-fixtures';
import { localToday, plusDays } from '../date-window';
import { slotJson, votersJson } from '../test-fixtures';
import { DashboardAvailabilityTab } from './dashboard-availability-tab';

// Date votes made with no network (docs/offline.md "Offline votes and
// comments"): the day shows the vote at once, marked as waiting, also a first
// vote on a day nobody chose yet; kept through a reload; sent in order when
// the network is back.

const today = localToday();
const d1 = plusDays(today, 1);
const d2 = plusDays(today, 2);

const dayButton = (date: string) => screen.getByRole('button', { name: new RegExp(`^${formatLongDate(date)}:`) });

function openDates() {
  setGuestSession({ id: 'g1', name: 'Gwen', planId: 'p1', secret: 'device-secret' });
  const slots: TimeSlot[] = [slotJson('s1', d1, 2)];
  const mine = new Map<string, DateAnswer>();
  const state = { down: false, refuse: null as Response | null, noDates: false };
  const voteDate = (request: RecordedRequest) => {
    if (state.down) throw new TypeError('Failed to fetch');
    if (state.refuse) return state.refuse.clone();
    const { date, answer = 'yes' } = request.body as { date: string; answer?: DateAnswer };
    let slot = slots.find((s) => s.date === date && !s.period);
    if (!slot) slots.push((slot = slotJson(`s${slots.length + 1}`, date, 0)));
    const before = mine.get(slot.id);
    const after = before === answer ? null : answer;
    if (before === 'yes') slot.voteCount -= 1;
    if (before === 'ifneedbe') slot.ifNeedBeCount = (slot.ifNeedBeCount ?? 0) - 1;
    if (after === 'yes') slot.voteCount += 1;
    if (after === 'ifneedbe') slot.ifNeedBeCount = (slot.ifNeedBeCount ?? 0) + 1;
    if (after) mine.set(slot.id, after);
    else mine.delete(slot.id);
    if (after) state.noDates = false;
    return json({ voted: after !== null, timeSlotId: slot.id, voteCount: slot.voteCount, ifNeedBeCount: slot.ifNeedBeCount ?? 0, answer: after });
  };
  const network = mockFetch({
    'GET /api/auth/me': () => text('Not signed in', 401),
    'GET /api/plans/p1/timeslots': () => json(slots.map((slot) => ({ ...slot }))),
    'GET /api/plans/p1/my-votes': () =>
      json({ answers: [...mine].map(([timeSlotId, answer]) => ({ timeSlotId, answer })), noDates: state.noDates }),
    'GET /api/timeslots/s1/voters': () => json(votersJson('Ada', 'Ben', ...(mine.has('s1') ? ['Gwen (guest)'] : []))),
    'GET /api/timeslots/s2/voters': () => json(votersJson('Gwen (guest)')),
    'POST /api/plans/p1/vote-date': voteDate,
    'POST /api/plans/p1/no-dates': () => {
      if (state.down) throw new TypeError('Failed to fetch');
      state.noDates = !state.noDates;
      return json({ noDates: state.noDates });
    },
  });
  const render = () => renderWithProviders(<DashboardAvailabilityTab plan={planJson()} />, { route: '/l/abcDEF12/dashboard' });
  const setOnline = (online: boolean) => {
    state.down = !online;
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  };
  return { ...network, ...render(), render, state, setOnline, slots, mine };
}

const stored = () =>
  Object.keys(localStorage)
    .filter((name) => name.startsWith('offlineAction:'))
    .map((name) => parseAction(localStorage.getItem(name))!);

beforeEach(() => clearGuest());
afterEach(() => vi.restoreAllMocks());

describe('offline date votes', () => {
  it('shows a day voted with no network at once, waiting, through a reload, and sends each once in order when back online', async () => {
    const opened = openDates();
    const { user, calls, setOnline } = opened;
    await screen.findByRole('heading', { name: 'When are you free?' });
    await waitFor(() => expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 2 votes`));
    setOnline(false);

    await user.click(dayButton(d1)); // a day with votes
    await user.click(dayButton(d2)); // a day nobody chose yet
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 3 votes, you're free, waiting for connection`);
    expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'true');
    expect(dayButton(d2)).toHaveAccessibleName(`${formatLongDate(d2)}: 1 vote, you're free, waiting for connection`);
    expect(dayButton(d2)).toBeEnabled();
    expect(screen.getByRole('status', { name: 'Your date votes are waiting for connection' })).toHaveTextContent('Waiting for connection');
    expect(calls('POST', '/api/plans/p1/vote-date')).toEqual([]);
    const keys = stored()
      .sort((a, b) => a.seq - b.seq)
      .map((action) => action.key);
    expect(keys).toHaveLength(2);

    // A reload, still offline (the reads come from what the device saved).
    opened.unmount();
    resetOfflineActions();
    opened.render();
    await waitFor(() =>
      expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 3 votes, you're free, waiting for connection`),
    );
    expect(dayButton(d2)).toHaveAccessibleName(`${formatLongDate(d2)}: 1 vote, you're free, waiting for connection`);

    setOnline(true);
    await waitFor(() => expect(stored()).toEqual([]));
    const sent = calls('POST', '/api/plans/p1/vote-date');
    expect(sent.map((r) => r.body)).toEqual([
      { date: d1, guestId: 'g1' },
      { date: d2, guestId: 'g1' },
    ]);
    expect(sent.map((r) => r.headers.get(IDEMPOTENCY_KEY_HEADER))).toEqual(keys);
    await waitFor(() => expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 3 votes, you're free`));
    await waitFor(() => expect(dayButton(d2)).toHaveAccessibleName(`${formatLongDate(d2)}: 1 vote, you're free`));
    expect(screen.queryByRole('status', { name: 'Your date votes are waiting for connection' })).not.toBeInTheDocument();
    expect([...opened.mine.keys()].sort()).toEqual(['s1', 's2']);
    expect(getGuestVotes().timeSlotIds.sort()).toEqual(['s1', 's2']);
  });

  it("puts a date vote refused on arrival back as it was, with the server's sentence", async () => {
    const { user, setOnline, state } = openDates();
    await screen.findByRole('heading', { name: 'When are you free?' });
    await waitFor(() => expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 2 votes`));
    setOnline(false);
    await user.click(dayButton(d1));
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 3 votes, you're free, waiting for connection`);

    state.refuse = text('Voting is closed: the host locked the plan', 409);
    setOnline(true);
    expect(await screen.findByText('Voting is closed: the host locked the plan')).toBeInTheDocument();
    expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 2 votes`);
    expect(dayButton(d1)).toHaveAttribute('aria-pressed', 'false');
    expect(stored()).toEqual([]);
  });

  it('keeps an "if need be" and "none of these dates work" made offline, and sends each once with its key and answer', async () => {
    const { user, calls, setOnline, state, mine } = openDates();
    await waitFor(() => expect(dayButton(d1)).toHaveAccessibleName(`${formatLongDate(d1)}: 2 votes`));
    setOnline(false);

    await user.click(screen.getByRole('switch', { name: 'None of these dates work for me' }));
    expect(screen.getByRole('switch', { name: 'None of these dates work for me' })).toBeChecked();
    expect(screen.getByRole('status', { name: 'Your answer is waiting for connection' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'If need be' }));
    await user.click(dayButton(d2)); // a day nobody chose yet: shown as the visitor's if need be
    expect(dayButton(d2)).toHaveAccessibleName(`${formatLongDate(d2)}: 0 yes, 1 if need be, you're free if need be, waiting for connection`);
    expect(dayButton(d2)).toHaveAttribute('aria-pressed', 'mixed');
    const keys = stored()
      .sort((a, b) => a.seq - b.seq)
      .map((action) => action.key);
    expect(keys).toHaveLength(2);

    setOnline(true);
    await waitFor(() => expect(stored()).toEqual([]));
    const sent = [...calls('POST', '/api/plans/p1/no-dates'), ...calls('POST', '/api/plans/p1/vote-date')];
    expect(sent.map((r) => r.body)).toEqual([{ guestId: 'g1' }, { date: d2, guestId: 'g1', answer: 'ifneedbe' }]);
    expect(sent.map((r) => r.headers.get(IDEMPOTENCY_KEY_HEADER))).toEqual(keys);
    // The vote cleared "none work" on the server, and the screen follows.
    expect(state.noDates).toBe(false);
    expect(mine.get('s2')).toBe('ifneedbe');
    await waitFor(() => expect(screen.getByRole('switch', { name: 'None of these dates work for me' })).not.toBeChecked());
    await waitFor(() => expect(dayButton(d2)).toHaveAccessibleName(`${formatLongDate(d2)}: 0 yes, 1 if need be, you're free if need be`));
  });
});
