// My calendar, in my availability (docs/calendars.md): a guest on a plan's
// Availability tab imports an .ics file from the phone; its busy days show on
// the days, the file never leaves the phone, the import survives a reload
// and Clear calendar forgets it. The first test's file is written here with
// dates in the next 2 weeks (floating times and dates: read in the phone's own
// zone); the others read real-world exports with time zones on phones in
// other zones.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page, Request } from '@playwright/test';
import { check, phonePage } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiPost as post, localDate, longDate, signInViaApi, uniqueEmail } from './support.ts';

const compact = (iso: string) => iso.replaceAll('-', '');

/** An Apple-style export: a timed evening, a weekly working day, a weekend away, a cancelled lunch. */
function calendarFile(marker: string): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Apple Inc.//macOS 15.1//EN',
    'CALSCALE:GREGORIAN',
    'X-WR-CALNAME:Home',
    'BEGIN:VEVENT',
    `UID:${randomUUID()}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${compact(localDate(1))}T190000`,
    `DTEND:${compact(localDate(1))}T210000`,
    `SUMMARY:Dentist ${marker}`,
    `DESCRIPTION:Private notes ${marker}`,
    'END:VEVENT',
    'BEGIN:VEVENT',
    `UID:${randomUUID()}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${compact(localDate(2))}T090000`,
    `DTEND:${compact(localDate(2))}T170000`,
    'RRULE:FREQ=WEEKLY;COUNT=2',
    'SUMMARY:Office day',
    'END:VEVENT',
    'BEGIN:VEVENT',
    `UID:${randomUUID()}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART;VALUE=DATE:${compact(localDate(3))}`,
    `DTEND;VALUE=DATE:${compact(localDate(5))}`,
    'SUMMARY:Weekend away',
    'END:VEVENT',
    'BEGIN:VEVENT',
    `UID:${randomUUID()}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${compact(localDate(6))}T120000`,
    `DTEND:${compact(localDate(6))}T130000`,
    'STATUS:CANCELLED',
    'SUMMARY:Lunch (cancelled)',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

const dayButton = (page: Page, days: number) =>
  page
    .getByRole('region', { name: 'Next 2 Weeks' })
    .getByRole('button', { name: new RegExp(`^${longDate(localDate(days))}:`) });

async function pickFile(page: Page, name: string, content: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import my calendar (.ics)' }).click();
  await (await chooser).setFiles({ name, mimeType: 'text/calendar', buffer: Buffer.from(content) });
}

test('a guest imports their calendar: busy days on the phone only, kept across a reload, cleared', async ({ browser }) => {
  const hostPage = await phonePage(browser);
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Board games', isOpenInvite: true }, hostToken);
  await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(1) }, hostToken);
  const guest = await post<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Gail Guest', planId: plan.id });

  const page = await phonePage(browser);
  await page.addInitScript((session) => {
    localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret });
  // Every request the page makes, with whatever it carries.
  const marker = `hp-${randomUUID()}`;
  const sent: Request[] = [];
  page.on('request', (request) => void sent.push(request));

  await page.goto(`/l/${plan.slug}/dashboard?tab=availability`);
  await expect(page.getByRole('heading', { name: 'Your calendar' })).toBeVisible();
  await check(page, 'availability: calendar not imported', page.getByRole('button', { name: 'Import my calendar (.ics)' }));

  // A file that is no calendar: one sentence, nothing marked.
  await pickFile(page, 'photo.ics', 'GIF89a not a calendar');
  await expect(page.getByRole('alert')).toHaveText("That file isn't a calendar (.ics) file.");

  await pickFile(page, 'my-calendar.ics', calendarFile(marker));
  const summary = page.getByRole('status').filter({ hasText: 'From my-calendar.ics' });
  await expect(summary).toHaveText('From my-calendar.ics: 5 busy days in the next 2 weeks, 5 in the next year.');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(dayButton(page, 1)).toHaveAccessibleName(`${longDate(localDate(1))}: busy 7 PM–9 PM, 1 vote`);
  await expect(dayButton(page, 2)).toHaveAccessibleName(`${longDate(localDate(2))}: busy 9 AM–5 PM, 0 votes`);
  await expect(dayButton(page, 3)).toHaveAccessibleName(`${longDate(localDate(3))}: busy all day, 0 votes`);
  await expect(dayButton(page, 4)).toHaveAccessibleName(`${longDate(localDate(4))}: busy all day, 0 votes`);
  await expect(dayButton(page, 5)).toHaveAccessibleName(`${longDate(localDate(5))}: 0 votes`);
  await expect(dayButton(page, 6)).toHaveAccessibleName(`${longDate(localDate(6))}: 0 votes`);
  await expect(dayButton(page, 9)).toHaveAccessibleName(`${longDate(localDate(9))}: busy 9 AM–5 PM, 0 votes`);
  await expect(dayButton(page, 1).getByText('Busy')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Next 2 Weeks' }).getByText('Busy', { exact: true })).toHaveCount(5);
  // Nothing voted for the visitor.
  await expect(dayButton(page, 1)).toHaveAttribute('aria-pressed', 'false');
  await check(page, 'availability: calendar imported', summary);

  // A busy day can still be voted for: the person decides.
  await dayButton(page, 2).click();
  await expect(dayButton(page, 2)).toHaveAccessibleName(`${longDate(localDate(2))}: busy 9 AM–5 PM, 1 vote, you're free`);

  // Reload: the busy days are still there, from the device.
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'From my-calendar.ics' })).toBeVisible();
  await expect(dayButton(page, 1)).toHaveAccessibleName(`${longDate(localDate(1))}: busy 7 PM–9 PM, 1 vote`);
  const stored = await page.evaluate((id) => localStorage.getItem(`calendarImport:${id}`), plan.id);
  expect(stored).toContain('my-calendar.ics');
  expect(stored).not.toContain(marker);

  await page.getByRole('button', { name: 'Clear calendar' }).click();
  await expect(dayButton(page, 1)).toHaveAccessibleName(`${longDate(localDate(1))}: 1 vote`);
  await expect(page.getByRole('region', { name: 'Next 2 Weeks' }).getByText('Busy', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Clear calendar' })).toHaveCount(0);
  expect(await page.evaluate((id) => localStorage.getItem(`calendarImport:${id}`), plan.id)).toBeNull();
  await page.reload();
  await expect(dayButton(page, 1)).toHaveAccessibleName(`${longDate(localDate(1))}: 1 vote`);

  // The file never left the phone: no request carried any of it.
  expect(sent.length).toBeGreaterThan(0);
  for (const request of sent) {
    const body = request.postDataBuffer()?.toString('latin1') ?? '';
    expect(`${request.url()} ${body}`, `${request.method()} ${request.url()}`).not.toContain(marker);
    expect(body).not.toContain('BEGIN:VCALENDAR');
  }
});

/**
 * A file no phone can finish (decision 0088): a daily rule for February 30th,
 * on which ical.js 2.2.1 never returns from its first step (upstream
 * kewisch/ical.js#1038), then hundreds of every-minute series since 2010.
 */
function hostileFile(): string {
  const minutely = Array.from({ length: 500 }, (_, n) => [
    'BEGIN:VEVENT',
    `UID:minutely-${n}@example.com`,
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20100101T000000Z',
    'DTEND:20100101T000100Z',
    'RRULE:FREQ=MINUTELY',
    'SUMMARY:Every minute',
    'END:VEVENT',
  ]).flat();
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Hostile//EN',
    'BEGIN:VEVENT',
    'UID:february-30@example.com',
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20260101T090000Z',
    'DTEND:20260101T100000Z',
    'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
    'SUMMARY:Never',
    'END:VEVENT',
    ...minutely,
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

test('a calendar file that takes too long to read gets one sentence, and the page answers taps meanwhile', async ({ browser }) => {
  const hostToken = await signInViaApi(await phonePage(browser), uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Pottery', isOpenInvite: true }, hostToken);
  const guest = await post<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Hal Hostile', planId: plan.id });

  const page = await phonePage(browser);
  // The page's clock, so its 15-second budget can be run forward below; the
  // worker's own clock is not faked: ical.js spins there in real time.
  await page.clock.install();
  await page.addInitScript((session) => {
    localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret });
  await page.goto(`/l/${plan.slug}/dashboard?tab=availability`);

  // An earlier import, which stays.
  await pickFile(page, 'my-calendar.ics', calendarFile(`hp-${randomUUID()}`));
  const summary = page.getByRole('status').filter({ hasText: 'From my-calendar.ics' });
  await expect(summary).toBeVisible();

  await pickFile(page, 'hostile.ics', hostileFile());
  const reading = page.getByRole('status').filter({ hasText: 'Reading your calendar…' });
  await expect(reading).toBeVisible();
  // The tab answers meanwhile: a vote for a day goes through and shows.
  await dayButton(page, 8).click();
  await expect(dayButton(page, 8)).toHaveAccessibleName(`${longDate(localDate(8))}: 1 vote, you're free`);
  await page.getByRole('button', { name: /Date Picker/ }).click();
  await expect(page.getByRole('region', { name: 'Date Picker' })).toBeVisible();
  // ical.js is still on February 30th, in the one worker; the page ends it at its budget.
  await expect(reading).toBeVisible();
  await expect.poll(() => page.workers().length).toBe(1);
  await page.clock.runFor(15_000);
  await expect(page.getByRole('alert')).toHaveText('That calendar file takes too long to read: try exporting a shorter period or fewer calendars.');
  await expect.poll(() => page.workers().length).toBe(0);
  await expect(summary).toBeVisible();
  await expect(dayButton(page, 1)).toHaveAccessibleName(`${longDate(localDate(1))}: busy 7 PM–9 PM, 0 votes`);

  // A good file reads again after that (a new worker).
  await pickFile(page, 'next.ics', calendarFile(`hp-${randomUUID()}`));
  await expect(page.getByRole('status').filter({ hasText: 'From next.ics' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

// Real-world exports with time zones (the unit tests' fixtures,
// web/src/features/availability/test-calendars), read by the browser on a
// phone in another zone. The phone's clock is set to the fixtures' weeks
// (Monday, November 23, 2026, mid-morning in each zone; time runs on from
// there), so "Next 2 Weeks" is November 23 – December 6 whatever day CI runs.
const FIXTURE_NOW = new Date('2026-11-23T15:00:00Z');
const fixture = (name: string) =>
  readFile(new URL(`../web/src/features/availability/test-calendars/${name}`, import.meta.url), 'utf8');

const zonedCases: Array<{
  file: string;
  zone: string;
  why: string;
  summary: string;
  /** Each day of the two weeks with its expected busy words ('' when free). */
  days: Record<string, string>;
}> = [
  {
    file: 'google.ics',
    zone: 'America/New_York',
    why: 'a Google export (VTIMEZONE Europe/Berlin, a weekly series with an EXDATE and a moved instance, a night past midnight) on a phone in New York',
    summary: 'From google.ics: 4 busy days in the next 2 weeks, 12 in the next year.',
    days: {
      // Climbing, Tuesdays 18:30–20:00 in Berlin.
      '2026-11-24': 'busy 12:30 PM–2 PM',
      // "Focus time" is transparent (free), the lunch cancelled.
      '2026-11-25': '',
      '2026-11-26': '',
      // Dinner, 18:00–20:00 UTC.
      '2026-11-27': 'busy 1 PM–3 PM',
      // This Tuesday's climbing moved to 20:00–21:30 Berlin (RECURRENCE-ID).
      '2026-12-01': 'busy 2 PM–3:30 PM',
      // The night train, 22:30–01:30 Berlin: one evening in New York.
      '2026-12-05': 'busy 4:30 PM–7:30 PM',
      '2026-12-06': '',
    },
  },
  {
    file: 'outlook.ics',
    zone: 'Europe/Berlin',
    why: 'an Outlook export (Windows zone names with their VTIMEZONE, a series with an EXDATE, tentative and free events) on a phone in Berlin',
    summary: 'From outlook.ics: 4 busy days in the next 2 weeks, 8 in the next year.',
    days: {
      // Standup, Mondays and Wednesdays 9:00–9:30 Pacific.
      '2026-11-23': 'busy 6 PM–6:30 PM',
      '2026-11-25': 'busy 6 PM–6:30 PM',
      '2026-11-30': 'busy 6 PM–6:30 PM',
      // December 2 is excluded.
      '2026-12-02': '',
      // Team drinks, December 4 16:00–18:00 Pacific (tentative): the small hours of the 5th in Berlin.
      '2026-12-04': '',
      '2026-12-05': 'busy 1 AM–3 AM',
    },
  },
  {
    file: 'apple.ics',
    zone: 'Europe/Berlin',
    why: 'an Apple export (X-WR-TIMEZONE America/New_York, floating times, all-day and daily events) on a phone in Berlin',
    summary: 'From apple.ics: 6 busy days in the next 2 weeks, 11 in the next year.',
    days: {
      // Thanksgiving: an all-day event keeps its date.
      '2026-11-26': 'busy all day',
      // Dentist, 9:30–10:30 New York.
      '2026-11-30': 'busy 3:30 PM–4:30 PM',
      // Yoga, 7:00 floating, read in the calendar's zone.
      '2026-12-02': 'busy 1 PM–2 PM',
      // Physio, daily 8:00–8:45 New York, three times.
      '2026-12-03': 'busy 2 PM–2:45 PM',
      '2026-12-05': 'busy 2 PM–2:45 PM',
      '2026-12-06': '',
    },
  },
];

for (const { file, zone, why, summary, days } of zonedCases) {
  test(`imports ${why}`, async ({ browser }) => {
    const hostToken = await signInViaApi(await phonePage(browser), uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
    const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Dinner', isOpenInvite: true }, hostToken);
    const guest = await post<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Zoe Zone', planId: plan.id });

    const page = await phonePage(browser, { timezoneId: zone });
    await page.clock.install({ time: FIXTURE_NOW });
    await page.addInitScript((session) => {
      localStorage.setItem('guestSession', JSON.stringify(session));
    }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret });
    await page.goto(`/l/${plan.slug}/dashboard?tab=availability`);
    // The phone is where the case says, on the fixtures' Monday.
    expect(await page.evaluate(() => [Intl.DateTimeFormat().resolvedOptions().timeZone, new Date().getDay()])).toEqual([zone, 1]);

    await pickFile(page, file, await fixture(file));
    await expect(page.getByRole('status').filter({ hasText: `From ${file}` })).toHaveText(summary);
    const grid = page.getByRole('region', { name: 'Next 2 Weeks' });
    for (const [date, busy] of Object.entries(days)) {
      await expect(grid.getByRole('button', { name: new RegExp(`^${longDate(date)}:`) })).toHaveAccessibleName(
        `${longDate(date)}: ${busy ? `${busy}, ` : ''}0 votes`,
      );
    }
    const busyCount = Number(/(\d+) busy days in the next 2 weeks/.exec(summary)![1]);
    await expect(grid.getByText('Busy', { exact: true })).toHaveCount(busyCount);
  });
}
