import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { clearGuest } from '../../../lib/guest-storage';
import { json, meRoute, mockFetch, text, type Routes } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';
import { ben, planJson, planSummaryJson } from '../../plans/test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { myAnswersJson, slotJson } from '../test-fixtures';
import google from '../test-calendars/google.ics?raw';
import { readCalendarRequest, type CalendarReadRequest } from '../busy-calendar-parse';
import type { CalendarWorker } from '../read-calendar-file';
import { DashboardAvailabilityTab } from './dashboard-availability-tab';

// The phone is in Berlin (the Google export's own zone) and today is Monday,
// November 23, 2026: the Next 2 Weeks run to Sunday, December 6.
vi.mock('../date-window', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../date-window')>()),
  deviceTimeZone: () => 'Europe/Berlin',
}));

/**
 * jsdom has no Worker: the calendar worker's own work (readCalendarRequest,
 * the real parser) runs in this thread, answering as the worker would. The
 * worker itself runs in Chromium in e2e/calendar-import.spec.ts; its time
 * budget is read-calendar-file.test.ts's.
 */
class InThreadCalendarWorker implements CalendarWorker {
  static started: InThreadCalendarWorker[] = [];
  onmessage: CalendarWorker['onmessage'] = null;
  onerror: CalendarWorker['onerror'] = null;
  terminated = false;
  constructor(readonly url: URL) {
    InThreadCalendarWorker.started.push(this);
  }
  postMessage(request: CalendarReadRequest) {
    void readCalendarRequest(request).then((reply) => {
      if (!this.terminated) this.onmessage?.(new MessageEvent('message', { data: reply }));
    });
  }
  terminate() {
    this.terminated = true;
  }
}

beforeEach(() => {
  clearGuest();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 23, 12));
  InThreadCalendarWorker.started = [];
  vi.stubGlobal('Worker', InThreadCalendarWorker);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const icsFile = (content: string, name = 'google.ics') => new File([content], name, { type: 'text/calendar' });

/** The file input behind 'Import my calendar (.ics)', once the dates have loaded. */
async function fileInput() {
  await screen.findByRole('button', { name: 'Import my calendar (.ics)' });
  return document.querySelector<HTMLInputElement>('input[type="file"]')!;
}
const grid = () => within(screen.getByRole('region', { name: 'Next 2 Weeks' }));
const gridDay = (long: string) => grid().getByRole('button', { name: new RegExp(`^${long}:`) });

function openDashboardTab({ plan = planJson(), routes = {} }: { plan?: Plan; routes?: Routes } = {}) {
  const network = mockFetch({
    'GET /api/auth/me': () => text('Not signed in', 401),
    'GET /api/plans/p1/timeslots': () => json([slotJson('s1', '2026-11-27', 1)]),
    'GET /api/plans/p1/my-votes': () => json(myAnswersJson([])),
    ...routes,
  });
  return { ...network, ...renderWithProviders(<DashboardAvailabilityTab plan={plan} />, { route: '/l/abcDEF12/dashboard' }) };
}

/** No request carried the file, nor anything read from it. */
function expectNothingUploaded() {
  for (const [, init] of vi.mocked(fetch).mock.calls) {
    const body = init?.body;
    expect(body === undefined || body === null || typeof body === 'string').toBe(true);
    expect(String(body ?? '')).not.toMatch(/Kletterhalle|Climbing|VCALENDAR/);
  }
}

describe('Import my calendar (.ics)', () => {
  it('marks the busy days of the file, with their hours, and votes for none of them', async () => {
    const { user, requests } = openDashboardTab();
    await screen.findByRole('heading', { name: 'Your calendar' });
    expect(grid().queryByText('Busy')).not.toBeInTheDocument();
    expect(await fileInput()).toHaveAttribute('accept', '.ics,text/calendar');

    await user.upload(await fileInput(), icsFile(google));

    await waitFor(() =>
      expect(screen.getByText('From google.ics: 5 busy days in the next 2 weeks, 13 in the next year.')).toHaveAttribute(
        'role',
        'status',
      ),
    );
    // Read by a calendar worker of its own, ended once it answered.
    expect(InThreadCalendarWorker.started).toHaveLength(1);
    expect(String(InThreadCalendarWorker.started[0]!.url)).toMatch(/busy-calendar-worker\.ts/);
    expect(InThreadCalendarWorker.started[0]!.terminated).toBe(true);
    expect(gridDay('Tuesday, November 24, 2026')).toHaveAccessibleName('Tuesday, November 24, 2026: busy 6:30 PM–8 PM, 0 votes');
    expect(gridDay('Friday, November 27, 2026')).toHaveAccessibleName('Friday, November 27, 2026: busy 7 PM–9 PM, 1 vote');
    // The climbing moved to 20:00 that Tuesday.
    expect(gridDay('Tuesday, December 1, 2026')).toHaveAccessibleName('Tuesday, December 1, 2026: busy 8 PM–9:30 PM, 0 votes');
    expect(gridDay('Saturday, December 5, 2026')).toHaveAccessibleName('Saturday, December 5, 2026: busy from 10:30 PM, 0 votes');
    expect(gridDay('Sunday, December 6, 2026')).toHaveAccessibleName('Sunday, December 6, 2026: busy until 1:30 AM, 0 votes');
    // Free days: the name as before; the cancelled lunch and the "free" focus time are not busy.
    expect(gridDay('Wednesday, November 25, 2026')).toHaveAccessibleName('Wednesday, November 25, 2026: 0 votes');
    expect(gridDay('Thursday, November 26, 2026')).toHaveAccessibleName('Thursday, November 26, 2026: 0 votes');
    // The word on the day, and on those days only.
    expect(within(gridDay('Tuesday, November 24, 2026')).getByText('Busy')).toBeVisible();
    expect(grid().getAllByText('Busy')).toHaveLength(5);
    expect(gridDay('Friday, November 27, 2026')).toHaveAttribute('aria-pressed', 'false');

    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
    expectNothingUploaded();
    // Only the busy hours are kept, for this plan: no title, place or text of the file.
    const stored = localStorage.getItem('calendarImport:p1')!;
    expect(JSON.parse(stored)).toMatchObject({ fileName: 'google.ics', from: '2026-11-23', to: '2027-11-23' });
    expect(JSON.parse(stored).days['2026-11-24']).toEqual([[1110, 1200]]);
    expect(stored).not.toMatch(/Climbing|Kletterhalle|Dinner|google\.com/);
  });

  it('keeps the busy days for the plan across a reload, until Clear calendar', async () => {
    const first = openDashboardTab();
    await first.user.upload(await fileInput(), icsFile(google));
    await screen.findByText(/^From google\.ics:/);
    first.unmount();

    const { user } = openDashboardTab();
    expect(await screen.findByText('From google.ics: 5 busy days in the next 2 weeks, 13 in the next year.')).toBeInTheDocument();
    expect(screen.getByText('Imported Nov 23. The file stays on this phone: it is never uploaded.')).toBeInTheDocument();
    expect(gridDay('Friday, November 27, 2026')).toHaveAccessibleName('Friday, November 27, 2026: busy 7 PM–9 PM, 1 vote');

    await user.click(screen.getByRole('button', { name: 'Clear calendar' }));
    expect(gridDay('Friday, November 27, 2026')).toHaveAccessibleName('Friday, November 27, 2026: 1 vote');
    expect(grid().queryByText('Busy')).not.toBeInTheDocument();
    expect(screen.queryByText(/^From google\.ics:/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear calendar' })).not.toBeInTheDocument();
    expect(localStorage.getItem('calendarImport:p1')).toBeNull();
  });

  it('is remembered per plan', async () => {
    localStorage.setItem(
      'calendarImport:p2',
      JSON.stringify({ fileName: 'other.ics', importedAt: '2026-11-23T10:00:00Z', from: '2026-11-23', to: '2027-11-23', days: { '2026-11-24': [[0, 1440]] } }),
    );
    openDashboardTab();
    await screen.findByRole('heading', { name: 'Your calendar' });
    await waitFor(() => expect(gridDay('Tuesday, November 24, 2026')).toHaveAccessibleName('Tuesday, November 24, 2026: 0 votes'));
    expect(screen.queryByText(/other\.ics/)).not.toBeInTheDocument();
  });

  it('says in one sentence that a file is not a calendar, and keeps what was imported before', async () => {
    const { user } = openDashboardTab();
    await user.upload(await fileInput(), icsFile('BEGIN:VCARD\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n', 'ada.ics'));
    expect(await screen.findByText("That file isn't a calendar (.ics) file.")).toHaveAttribute('role', 'alert');
    expect(grid().queryByText('Busy')).not.toBeInTheDocument();
    expect(localStorage.getItem('calendarImport:p1')).toBeNull();

    await user.upload(await fileInput(), icsFile(google));
    await screen.findByText(/^From google\.ics:/);
    expect(screen.queryByText("That file isn't a calendar (.ics) file.")).not.toBeInTheDocument();

    await user.upload(await fileInput(), icsFile('%PDF-1.7 not a calendar', 'invite.ics'));
    expect(await screen.findByText("That file isn't a calendar (.ics) file.")).toHaveAttribute('role', 'alert');
    expect(screen.getByText(/^From google\.ics:/)).toBeInTheDocument();
    expect(grid().getAllByText('Busy')).toHaveLength(5);
  });

  it('refuses a file over 10 MB without reading it', async () => {
    const { user } = openDashboardTab();
    const big = icsFile(google);
    Object.defineProperty(big, 'size', { value: 11 * 1024 * 1024 });
    const read = vi.spyOn(big, 'text');
    await user.upload(await fileInput(), big);
    expect(await screen.findByText('That file is too large to import (over 10 MB).')).toHaveAttribute('role', 'alert');
    expect(read).not.toHaveBeenCalled();
  });

  it('marks busy days in the Date Picker too, beyond the two weeks', async () => {
    const { user } = openDashboardTab();
    await user.upload(await fileInput(), icsFile(google));
    await screen.findByText(/^From google\.ics:/);
    await user.click(screen.getByRole('button', { name: /Date Picker/ }));
    await user.click(await screen.findByRole('button', { name: 'Next month' }));
    const picker = within(screen.getByRole('region', { name: 'Date Picker' }));
    const christmasEve = await picker.findByRole('button', { name: 'Thursday, December 24, 2026, busy all day' });
    expect(within(christmasEve).getByText('Busy')).toBeInTheDocument();
    expect(picker.getByRole('button', { name: 'Tuesday, December 15, 2026, busy 6:30 PM–8 PM' })).toBeInTheDocument();
    expect(picker.getByRole('button', { name: 'Wednesday, December 16, 2026' })).toBeInTheDocument();
  });

  it('works for a member on the plan page too', async () => {
    localStorage.setItem('authToken', 'test-token');
    mockFetch({
      'GET /api/auth/me': meRoute(ben),
      'GET /api/plans/p1': () => json(planJson()),
      'GET /api/plans/p1/participants': () => json([]),
      'GET /api/plans': () => json([planSummaryJson(planJson())]),
      'GET /api/plans/p1/timeslots': () => json([slotJson('s1', '2026-11-27', 1)]),
      'GET /api/plans/p1/my-votes': () => json(myAnswersJson(['s1'])),
    });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/plan/p1?tab=availability' });
    await screen.findByRole('heading', { name: 'Your calendar' });
    await user.upload(await fileInput(), icsFile(google));
    await waitFor(() =>
      expect(gridDay('Friday, November 27, 2026')).toHaveAccessibleName(
        "Friday, November 27, 2026: busy 7 PM–9 PM, 1 vote, you're free",
      ),
    );
    expectNothingUploaded();
  });
});
