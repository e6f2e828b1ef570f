// My plans, in my calendar (docs/calendars.md): a member opens the profile and
// finds "Subscribe in your calendar" (axe clean at phone size, light and
// dark), copies the feed's URL, which a calendar app can fetch with no
// credentials (here Playwright's request, read back with ical.js), and resets
// it: the old URL is 404 at once, the new one serves the same plans.
import ICAL from 'ical.js';
import { check } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiPost as post, localDate, signInViaApi, uniqueEmail } from './support.ts';

const FEED_URL = /^http:\/\/localhost:\d+\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/;

test('a member subscribes to the feed of their plans, and resets its link', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const token = await signInViaApi(page, uniqueEmail('feed'), { firstName: 'Fern', lastName: 'Feed' });

  // A plan with its idea, date and time set, and one with only a date.
  const date = localDate(4);
  const bowling = await post<{ id: string; slug: string }>('/api/plans', { title: 'Friday night' }, token);
  const idea = await post<{ id: string }>(`/api/plans/${bowling.id}/ideas`, { text: 'Bowling' }, token);
  await post(`/api/plans/${bowling.id}/pick-idea`, { ideaId: idea.id }, token);
  await post(`/api/plans/${bowling.id}/lock-date`, { date }, token);
  await post(`/api/plans/${bowling.id}/set-event-time`, { time: '19:30' }, token);
  const picnic = await post<{ id: string }>('/api/plans', { title: 'Picnic' }, token);
  await post(`/api/plans/${picnic.id}/lock-date`, { date: localDate(6) }, token);

  await page.goto('/profile');
  const card = page.getByRole('region', { name: 'Subscribe in your calendar' });
  const link = card.getByRole('textbox', { name: 'Your calendar link' });
  await expect(link).toHaveValue(FEED_URL);
  await check(page, 'profile with the calendar feed', card.getByRole('button', { name: 'Reset link' }));

  const url = await link.inputValue();
  await expect(card.getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', url.replace(/^http:/, 'webcal:'));
  await card.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // What a calendar app gets: no cookie, no token, only the URL.
  const feed = await page.request.get(url);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(await feed.text()));
  expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Hangplan');
  const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
  const friday = events.find((e) => e.uid === `plan-${bowling.id}@hangplan`);
  expect(friday?.summary).toBe('Friday night: Bowling');
  expect(friday?.startDate.toString()).toBe(`${date}T19:30:00`);
  expect(events.find((e) => e.uid === `plan-${picnic.id}@hangplan`)?.startDate.isDate).toBe(true);
  expect(events).toHaveLength(2);
  const unchanged = await page.request.get(url, { headers: { 'if-none-match': feed.headers().etag } });
  expect(unchanged.status()).toBe(304);

  // Reset: asked first; the old link stops at once, the new one works.
  await card.getByRole('button', { name: 'Reset link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset your calendar link?' });
  await check(page, 'the reset question', dialog.getByRole('button', { name: 'Cancel' }));
  await dialog.getByRole('button', { name: 'Reset link' }).click();
  await expect(page.getByText('Calendar link reset')).toBeVisible();
  await expect(link).not.toHaveValue(url);
  await expect(link).toHaveValue(FEED_URL);
  const fresh = await link.inputValue();

  const old = await page.request.get(url);
  expect(old.status()).toBe(404);
  expect(await old.text()).toBe('This calendar link is not valid; copy the current one from your Hangplan profile');
  const again = await page.request.get(fresh);
  expect(again.status()).toBe(200);
  expect(new ICAL.Component(ICAL.parse(await again.text())).getAllSubcomponents('vevent')).toHaveLength(2);

  // The same link after a reload: it is the member's until reset.
  await page.reload();
  await expect(link).toHaveValue(fresh);
});
