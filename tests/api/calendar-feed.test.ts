// The personal calendar feed over HTTP (docs/calendars.md "Calendar feed"): the
// member's URL (GET, rotate: members only), and the feed itself, read back
// with an independent iCalendar parser (ical.js): one event per plan of the
// member with a date, the plan's one UID and a SEQUENCE that rises, floating
// or all-day times, no one's e-mail address, the refresh hints, ETag and 304;
// a reset, wrong or malformed link is 404 with one sentence. The limits are in
// tests/api/limits.test.ts (a second instance with tiny numbers).
import ICAL from 'ical.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { CaughtMail } from '../support/mail.ts';
import { api, apiDatabaseAsOwner, type ApiResult, runScheduler, testMailbox } from '../support/api.ts';
import { apiWorld, type PlanJson, type User } from '../support/api-world.ts';
import { day } from '../support/dates.ts';
import { isOneSentence } from '../support/world.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
const mail = testMailbox();
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});

const APP_ORIGIN = 'http://localhost:5173'; // tests/setup/api.ts
const FEED_URL = new RegExp(`^${APP_ORIGIN}/api/calendar/feed/([A-Za-z0-9_-]{43})\\.ics$`);
const NOT_VALID = 'This calendar link is not valid; copy the current one from your Hangplan profile';

/** The member's feed URL (GET /api/calendar/feed). */
async function feedUrlOf(user: User): Promise<string> {
  const res = await api<{ url: string }>('GET', '/api/calendar/feed', { token: user.token });
  expect(res.status, res.text).toBe(200);
  expect(res.json.url).toMatch(FEED_URL);
  return res.json.url;
}

/** GET the feed at `url` from the test server (the app's origin proxies /api there). */
function fetchFeed(url: string, headers: Record<string, string> = {}): Promise<ApiResult> {
  return api('GET', new URL(url).pathname, { headers });
}

interface ParsedFeed {
  calendar: ICAL.Component;
  events: ICAL.Event[];
  byUid: (planId: string) => ICAL.Event | undefined;
}

function parse(text: string): ParsedFeed {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
  return { calendar, events, byUid: (planId) => events.find((e) => e.uid === `plan-${planId}@hangplan`) };
}

const post = (planId: string, action: string, body: unknown, token: string) => api<PlanJson>('POST', `/api/plans/${planId}/${action}`, { body, token });

async function readPlan(planId: string, user: User): Promise<PlanJson> {
  return (await api<PlanJson>('GET', `/api/plans/${planId}`, { token: user.token })).json;
}

describe('GET /api/calendar/feed and POST /api/calendar/feed/rotate', () => {
  it('are for members: 401 to visitors, guests and a bad token, with one sentence', async () => {
    const host = await world.newUser('Gina');
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    for (const [method, path] of [['GET', '/api/calendar/feed'], ['POST', '/api/calendar/feed/rotate']] as const) {
      const visitor = await api(method, path);
      expect(visitor.status).toBe(401);
      expect(visitor.text).toBe('Not signed in');
      const asGuest = await api(method, `${path}?guestId=${guest.id}`, { body: method === 'POST' ? { guestId: guest.id } : undefined });
      expect(asGuest.status).toBe(401);
      expect(isOneSentence(asGuest)).toBe(true);
      const badToken = await api(method, path, { headers: { authorization: 'Bearer not-a-token' } });
      expect(badToken.status).toBe(401);
      expect(badToken.text).toBe('Your session has expired, please sign in again');
    }
  });

  it('shows the same URL every time until it is reset; the reset one is new, and the old one is 404 at once', async () => {
    const member = await world.newUser('Rosa');
    const first = await feedUrlOf(member);
    expect(await feedUrlOf(member)).toBe(first);
    expect((await fetchFeed(first)).status).toBe(200);

    const rotated = await api<{ url: string }>('POST', '/api/calendar/feed/rotate', { token: member.token });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.url).toMatch(FEED_URL);
    expect(rotated.json.url).not.toBe(first);
    expect(await feedUrlOf(member)).toBe(rotated.json.url);

    const old = await fetchFeed(first);
    expect(old.status).toBe(404);
    expect(old.text).toBe(NOT_VALID);
    expect((await fetchFeed(rotated.json.url)).status).toBe(200);
  });

  it('ends once no calendar polled it for 180 days: 404 at once, a new URL on the card, and the scheduler deletes it', async () => {
    const member = await world.newUser('Idle');
    const first = await feedUrlOf(member);
    await owner`update app.calendar_feeds set last_polled_at = now() - interval '181 days' where user_id = ${member.id}`;
    const old = await fetchFeed(first);
    expect({ status: old.status, text: old.text }).toEqual({ status: 404, text: NOT_VALID });
    expect((await runScheduler()).endedCredentials).toBeGreaterThanOrEqual(1);
    expect(await owner`select * from app.calendar_feeds where user_id = ${member.id}`).toEqual([]);
    const fresh = await feedUrlOf(member);
    expect(fresh).not.toBe(first);
    expect((await fetchFeed(fresh)).status).toBe(200);
  });

  it('stores the secret only hashed', async () => {
    const member = await world.newUser('Hash');
    const secret = FEED_URL.exec(await feedUrlOf(member))![1];
    const [row] = await owner<{ nonce: string; secret_hash: string }[]>`select nonce, secret_hash from app.calendar_feeds where user_id = ${member.id}`;
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);
    const [{ hash }] = await owner<{ hash: string }[]>`select encode(sha256(${secret}::bytea), 'hex') as hash`;
    expect(row.secret_hash).toBe(hash);
  });

  it('gives every member a feed of their own', async () => {
    const [a, b] = [await world.newUser('Ann'), await world.newUser('Ben')];
    expect(await feedUrlOf(a)).not.toBe(await feedUrlOf(b));
  });
});

describe('the feed', () => {
  it('has one event per plan of the member with a date, read by ical.js, and nothing of anyone else', async () => {
    const member = await world.newUser('Faye', 'Feed');
    const other = await world.newUser('Olav', 'Other');

    // Hosted by the member: idea, date, time and place.
    const hosted = await world.newPlan(member, 'Friday night');
    const [{ id: ideaId }] = await owner<{ id: string }[]>`
      insert into app.ideas (plan_id, text, author_name, user_id) values (${hosted.id}, 'Bowling', '-', ${member.id}) returning id`;
    expect((await post(hosted.id, 'pick-idea', { ideaId }, member.token)).status).toBe(200);
    const date = await day(owner, 10);
    expect((await post(hosted.id, 'lock-date', { date }, member.token)).status).toBe(200);
    expect((await post(hosted.id, 'set-event-time', { time: '19:30' }, member.token)).status).toBe(200);
    expect((await post(hosted.id, 'location', { location: "Joe's Lanes, 12 Main St" }, member.token)).status).toBe(200);

    // Joined: a date but no time (all day).
    const joined = await world.newPlan(other, 'Picnic');
    expect((await api('POST', `/api/plans/${joined.id}/join`, { body: {}, token: member.token })).status).toBe(200);
    const picnicDay = await day(owner, 12);
    expect((await post(joined.id, 'lock-date', { date: picnicDay }, other.token)).status).toBe(200);

    // No date yet, and somebody else's plan: not in it.
    const undated = await world.newPlan(member, 'Someday');
    const notMine = await world.newPlan(other, 'Not yours');
    expect((await post(notMine.id, 'lock-date', { date }, other.token)).status).toBe(200);

    const res = await fetchFeed(await feedUrlOf(member));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('etag')).toMatch(/^W\/"c[0-9a-f]{32}"$/);

    const feed = parse(res.text);
    expect(feed.calendar.getFirstPropertyValue('x-wr-calname')).toBe('Hangplan');
    expect(String(feed.calendar.getFirstPropertyValue('x-published-ttl'))).toBe('PT1H');
    expect(String(feed.calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
    expect(feed.events).toHaveLength(2);
    expect(feed.byUid(undated.id)).toBeUndefined();
    expect(feed.byUid(notMine.id)).toBeUndefined();

    const timed = feed.byUid(hosted.id)!;
    const hostedNow = await readPlan(hosted.id, member);
    expect(timed.summary).toBe('Friday night: Bowling');
    expect(timed.location).toBe("Joe's Lanes, 12 Main St");
    expect(timed.startDate.isDate).toBe(false);
    expect(timed.startDate.zone?.tzid).toBe('floating');
    expect(timed.startDate.toString()).toBe(`${date}T19:30:00`);
    expect(timed.endDate.toString()).toBe(`${date}T21:30:00`);
    expect(timed.component.getFirstPropertyValue('url')).toBe(`${APP_ORIGIN}/l/${hosted.slug}`);
    expect(timed.description).toContain(`${APP_ORIGIN}/l/${hosted.slug}`);
    expect(timed.sequence).toBe(hostedNow.calendarSequence);
    expect(timed.sequence).toBeGreaterThan(0);

    const allDay = feed.byUid(joined.id)!;
    expect(allDay.summary).toBe('Picnic');
    expect(allDay.startDate.isDate).toBe(true);
    expect(allDay.startDate.toString()).toBe(picnicDay);
    expect(allDay.endDate.toString()).toBe(await day(owner, 13));

    // Nobody's e-mail address, and nobody named as organizer or attendee.
    for (const user of [member, other]) expect(res.text.toLowerCase()).not.toContain(user.email.toLowerCase());
    expect(res.text).not.toMatch(/@(?!hangplan\r?$)/m);
    expect(res.text).not.toMatch(/^(ORGANIZER|ATTENDEE)/m);
  });

  it('answers 304 to an unchanged poll; a moved time raises SEQUENCE and the ETag; an unlocked or deleted plan leaves', async () => {
    const member = await world.newUser('Polly');
    const plan = await world.newPlan(member, 'Movie night');
    const second = await world.newPlan(member, 'Brunch');
    const date = await day(owner, 5);
    for (const p of [plan, second]) expect((await post(p.id, 'lock-date', { date }, member.token)).status).toBe(200);
    expect((await post(plan.id, 'set-event-time', { time: '19:00' }, member.token)).status).toBe(200);
    const url = await feedUrlOf(member);

    const first = await fetchFeed(url);
    const etag = first.headers.get('etag')!;
    const unchanged = await fetchFeed(url, { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);
    // A strong form of the same tag, or a list holding it, is the same copy.
    expect((await fetchFeed(url, { 'if-none-match': `"x", ${etag.slice(2)}` })).status).toBe(304);
    const before = parse(first.text).byUid(plan.id)!;
    expect(before.startDate.toString()).toBe(`${date}T19:00:00`);

    expect((await post(plan.id, 'set-event-time', { time: '20:15' }, member.token)).status).toBe(200);
    const moved = await fetchFeed(url, { 'if-none-match': etag });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).not.toBe(etag);
    const after = parse(moved.text).byUid(plan.id)!;
    expect(after.startDate.toString()).toBe(`${date}T20:15:00`);
    expect(after.sequence).toBeGreaterThan(before.sequence);
    // The other plan did not change: its SEQUENCE neither.
    expect(parse(moved.text).byUid(second.id)!.sequence).toBe(parse(first.text).byUid(second.id)!.sequence);

    // Set from a phone in Tokyo (UTC+9 all year): the instant 8:15 PM is there, for every calendar.
    expect((await post(plan.id, 'set-event-time', { time: '20:15', timeZone: 'Asia/Tokyo' }, member.token)).status).toBe(200);
    const zoned = parse((await fetchFeed(url, { 'if-none-match': moved.headers.get('etag')! })).text).byUid(plan.id)!;
    expect(zoned.startDate.zone?.tzid).toBe('UTC');
    expect(zoned.startDate.toJSDate().toISOString()).toBe(`${date}T11:15:00.000Z`);
    expect(zoned.endDate.toJSDate().toISOString()).toBe(`${date}T13:15:00.000Z`);
    expect(zoned.sequence).toBeGreaterThan(after.sequence);

    expect((await post(second.id, 'unlock', {}, member.token)).status).toBe(200);
    const unlocked = parse((await fetchFeed(url)).text);
    expect(unlocked.byUid(second.id)).toBeUndefined();
    expect(unlocked.byUid(plan.id)).toBeDefined();

    expect((await api('DELETE', `/api/plans/${plan.id}`, { token: member.token })).status).toBe(204);
    expect(parse((await fetchFeed(url)).text).events).toHaveLength(0);
  });

  it('leaves a plan the member left, and takes in one the member joins', async () => {
    const member = await world.newUser('Lena');
    const host = await world.newUser('Hal');
    const plan = await world.newPlan(host, 'Karaoke');
    expect((await post(plan.id, 'lock-date', { date: await day(owner, 3) }, host.token)).status).toBe(200);
    const url = await feedUrlOf(member);
    expect(parse((await fetchFeed(url)).text).events).toHaveLength(0);
    expect((await api('POST', `/api/plans/${plan.id}/join`, { body: {}, token: member.token })).status).toBe(200);
    expect(parse((await fetchFeed(url)).text).byUid(plan.id)).toBeDefined();
    expect((await api('DELETE', `/api/plans/${plan.id}/leave`, { token: member.token })).status).toBe(200);
    expect(parse((await fetchFeed(url)).text).events).toHaveLength(0);
  });

  it('needs no credential but the secret, and ignores a token sent with it', async () => {
    const member = await world.newUser('Tess');
    const stranger = await world.newUser('Sven');
    const url = await feedUrlOf(member);
    expect((await fetchFeed(url, { authorization: `Bearer ${stranger.token}` })).status).toBe(200);
    expect((await fetchFeed(url, { authorization: 'Bearer not-a-token' })).status).toBe(200);
  });

  it('answers HEAD like GET, without a body', async () => {
    const url = await feedUrlOf(await world.newUser('Hugo'));
    const res = await fetch(`${inject('apiUrl')}${new URL(url).pathname}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('is 404 with one sentence for a malformed, wrong or reset secret', async () => {
    const good = FEED_URL.exec(await feedUrlOf(await world.newUser('Mal')))![1];
    for (const path of [
      '/api/calendar/feed/abc.ics',
      `/api/calendar/feed/${good}`,
      `/api/calendar/feed/${good}.ICS`,
      `/api/calendar/feed/${good}x.ics`,
      `/api/calendar/feed/${good.slice(1)}=.ics`,
      `/api/calendar/feed/${'A'.repeat(43)}.ics`,
      `/api/calendar/feed/${encodeURIComponent('../../plans')}.ics`,
      '/api/calendar/feed/%00.ics',
    ]) {
      const res = await api('GET', path);
      expect(res.status, path).toBe(404);
      expect(isOneSentence(res), path).toBe(true);
    }
    const wrong = await api('GET', `/api/calendar/feed/${'A'.repeat(43)}.ics`);
    expect(wrong.text).toBe(NOT_VALID);
  });
});

describe('the e-mailed invite and the plan JSON carry the feed\'s UID and SEQUENCE', () => {
  it('the .ics of the time\'s e-mail has the plan\'s UID and its calendar sequence at that moment', async () => {
    const member = await world.newUser('Eli');
    const plan = await world.newPlan(member, 'Board games');
    expect((await post(plan.id, 'lock-date', { date: await day(owner, 8) }, member.token)).status).toBe(200);
    const timed = await post(plan.id, 'set-event-time', { time: '18:00' }, member.token);
    expect(timed.status).toBe(200);
    const caught = await mail.latestMailTo(member.email);
    const invite = parse(await attachmentText(caught)).events[0];
    expect(invite.uid).toBe(`plan-${plan.id}@hangplan`);
    const feedEvent = parse((await fetchFeed(await feedUrlOf(member))).text).byUid(plan.id)!;
    expect(invite.sequence).toBe(timed.json.calendarSequence);
    expect(feedEvent.sequence).toBe(timed.json.calendarSequence);
  });
});

/** The first attachment's text, from maildev's API. */
async function attachmentText(caught: CaughtMail): Promise<string> {
  const attachment = caught.attachments?.[0];
  if (!attachment) throw new Error(`no attachment on "${caught.subject}"`);
  const name = attachment.generatedFileName ?? attachment.fileName ?? '';
  const res = await fetch(`${inject('mailUrl')}/email/${caught.id}/attachment/${encodeURIComponent(name)}`);
  return await res.text();
}
