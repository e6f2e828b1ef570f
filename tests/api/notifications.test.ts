// Notifications end to end (docs/notifications.md): subscriptions through the
// API, the host's decisions pushed to the stand-in push service (which checks
// the VAPID JWT and decrypts every message) within each plan's notice budget,
// reminders, the deadline, digests, retries when the push service or SMTP
// fails, and the one-click unsubscribe. The scheduler is driven for real:
// POST /api/scheduler/run with its secret.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { api, apiDatabaseAsOwner, expectText, runScheduler, startApiWithDeadSmtp, testMailbox } from '../support/api.ts';
import { apiWorld, type PlanJson, tokenFor } from '../support/api-world.ts';
import { compact, day } from '../support/dates.ts';
import { pushServiceClient, type PushSubscriptionJson, type ReceivedPush } from '../support/push-client.ts';
import { NOTIFICATION_LIMITS } from '../../supabase/functions/_shared/db/limits.ts';
import { UNSUBSCRIBE_LINK_EXPIRED } from '../../supabase/functions/_shared/contract/notifications.ts';
import { unsubscribeToken } from '../../supabase/functions/_shared/delivery/unsubscribe.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
const mail = testMailbox();
const push = pushServiceClient(inject('pushServiceOrigin'));
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});

interface Payload {
  title: string;
  body: string;
  url: string;
  tag: string;
}
const payloadOf = (m: ReceivedPush) => m.payload as Payload;

/** A phone of the member (token) or guest (guestId + its secret) with notifications on. */
async function phoneOf(who: { token: string } | { guestId: string }): Promise<PushSubscriptionJson> {
  const subscription = await push.subscribe();
  const res = await api('POST', '/api/push/subscriptions', {
    body: { subscription, ...('guestId' in who ? { guestId: who.guestId } : {}) },
    ...('token' in who ? { token: who.token } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return subscription;
}

/** A plan with a host, a member and a guest, each with a phone that has notifications on. */
async function group(title = `Friday ${randomBytes(3).toString('hex')}`) {
  const host = await world.newUser('Hana', 'Host');
  const plan = await world.newPlan(host, title);
  const member = await world.newMember(plan.id, 'Mia');
  const guest = await world.newGuest(plan.id, 'Gus');
  return {
    host,
    plan,
    member,
    guest,
    phones: {
      host: await phoneOf(host),
      member: await phoneOf(member),
      guest: await phoneOf({ guestId: guest.id }),
    },
  };
}

/**
 * As if the notice budget's 10 minutes (NOTIFICATION_LIMITS.noticeWindowSeconds)
 * had passed since the plan's last notice and its first waiting change.
 */
const windowPasses = (planId: string) =>
  owner`update app.plan_notices
           set quiet_until = quiet_until - interval '601 seconds', pending_since = pending_since - interval '601 seconds'
         where plan_id = ${planId}`;

/** Nothing of the plan waits in the outbox: every push and e-mail written so far has been sent. */
const outboxEmpty = (planId: string) =>
  expect.poll(async () => (await owner`select 1 from app.notification_events where plan_id = ${planId}`).length).toBe(0);

/** Make whatever waits in the plan's outbox due now (a retry's back-off, skipped). */
const dueNow = (planId: string) =>
  owner`update app.notification_deliveries d set next_attempt_at = now(), claimed_until = null
          from app.notification_events e where e.id = d.event_id and e.plan_id = ${planId}`;

describe('GET /api/push/public-key', () => {
  it("answers the server's VAPID key: the key the push service sees in every message", async () => {
    const res = await api<{ publicKey: string }>('GET', '/api/push/public-key');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ publicKey: inject('notificationEnv').VAPID_PUBLIC_KEY });
    expect(Buffer.from(res.json.publicKey, 'base64url')).toHaveLength(65);
  });
});

describe('POST and DELETE /api/push/subscriptions', () => {
  it('needs an identity: no token or guest is 401; a guest without its secret is refused', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    const subscription = await push.subscribe();
    expectText(await api('POST', '/api/push/subscriptions', { body: { subscription } }), 401,
      'Sign in or continue as a guest to turn on notifications');
    const noSecret = await api('POST', '/api/push/subscriptions', { body: { subscription, guestId: guest.id }, guestSecret: null });
    expect(noSecret.status).toBe(401);
    const wrong = await api('POST', '/api/push/subscriptions', {
      body: { subscription, guestId: guest.id }, guestSecret: randomBytes(32).toString('base64url'),
    });
    expect(wrong.status).toBe(403);
    expect(await owner`select * from app.push_subscriptions where endpoint = ${subscription.endpoint}`).toEqual([]);
  });

  it('sends to no address it was not allowed to: other hosts, plain http, the stack itself', async () => {
    const host = await world.newUser();
    const good = await push.subscribe();
    const apiOrigin = new URL(inject('apiUrl')).origin;
    for (const endpoint of [
      'https://push.evil.example/send/1',
      'http://fcm.googleapis.com/fcm/send/1',
      'https://fcm.googleapis.com:8443/fcm/send/1',
      'https://user:pass@fcm.googleapis.com/fcm/send/1',
      `${apiOrigin}/functions/v1/api/health`,
      `${inject('mailUrl')}/email`,
      'http://169.254.169.254/latest/meta-data',
      'file:///etc/passwd',
    ]) {
      const res = await api('POST', '/api/push/subscriptions', { body: { subscription: { ...good, endpoint } }, token: host.token });
      expectText(res, 400, 'Notifications can only be sent through a known push service');
    }
    expect(await owner`select * from app.push_subscriptions where user_id = ${host.id}`).toEqual([]);
  });

  it('refuses keys that are not a P-256 point and a 16-byte secret, with one sentence', async () => {
    const host = await world.newUser();
    const good = await push.subscribe();
    const notOnCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
    for (const keys of [
      { ...good.keys, p256dh: notOnCurve },
      { ...good.keys, p256dh: good.keys.p256dh.slice(0, 40) },
      { ...good.keys, auth: randomBytes(8).toString('base64url') },
      { p256dh: good.keys.p256dh },
    ]) {
      const res = await api('POST', '/api/push/subscriptions', { body: { subscription: { ...good, keys } }, token: host.token });
      expectText(res, 400, 'The subscription keys must be a P-256 public key and a 16-byte secret');
    }
    expectText(await api('POST', '/api/push/subscriptions', { body: { subscription: 'x' }, token: host.token }), 400, 'Subscription must be an object');
    expectText(await api('POST', '/api/push/subscriptions', { body: {}, token: host.token }), 400, 'Subscription is required');
    // Standard base64 with padding, as some browsers hand it out, is fine.
    const padded = { ...good, keys: { p256dh: Buffer.from(good.keys.p256dh, 'base64url').toString('base64'), auth: Buffer.from(good.keys.auth, 'base64url').toString('base64') } };
    expect((await api('POST', '/api/push/subscriptions', { body: { subscription: padded }, token: host.token })).status).toBe(201);
  });

  it('DELETE turns a device off: nothing more reaches it; 204 again and for a stranger\'s endpoint', async () => {
    const g = await group();
    const off = await api('DELETE', '/api/push/subscriptions', { body: { endpoint: g.phones.member.endpoint }, token: g.member.token });
    expect(off.status).toBe(204);
    // Someone else cannot turn the guest's phone off.
    expect((await api('DELETE', '/api/push/subscriptions', { body: { endpoint: g.phones.guest.endpoint }, token: g.member.token })).status).toBe(204);
    expect((await api('DELETE', '/api/push/subscriptions', { body: { endpoint: g.phones.member.endpoint }, token: g.member.token })).status).toBe(204);
    await api('POST', `/api/plans/${g.plan.id}/location`, { body: { location: 'The Lanes' }, token: g.host.token });
    await push.waitFor(g.phones.guest.endpoint);
    await push.expectNothing(g.phones.member.endpoint);
  });
});

// docs/decisions/0080-ending-a-session-ends-what-it-reached.md: a member's
// device hears of the plans only while the sign-in that turned notifications
// on lives, and the calendar feed's URL stops when the account may have been
// someone else's. Each test has a thief: another session of the member (a
// lost phone, a copied token) with notifications on and the feed's URL.
describe('ending a session ends what it reached', () => {
  /** The group, plus a second sign-in of the member (the thief's) with its own phone, and the feed's URL. */
  async function stolen() {
    const g = await group();
    const thief = { ...g.member, token: await tokenFor(g.member.id) };
    const thiefPhone = await phoneOf(thief);
    const feed = await api<{ url: string }>('GET', '/api/calendar/feed', { token: thief.token });
    expect(feed.status, feed.text).toBe(200);
    const feedPath = new URL(feed.json.url).pathname;
    expect((await api('GET', feedPath)).status).toBe(200);
    /** The host moves the place: who hears of it. */
    const hostActs = () => api('POST', `/api/plans/${g.plan.id}/location`, { body: { location: `Place ${randomBytes(3).toString('hex')}` }, token: g.host.token });
    return { ...g, thief, thiefPhone, feedPath, hostActs };
  }

  const feedNotValid = (res: { status: number; text: string }) =>
    expect({ status: res.status, text: res.text }).toEqual({ status: 404, text: 'This calendar link is not valid; copy the current one from your Hangplan profile' });

  it('signing out ends only that device\'s notifications: the member\'s other device still hears, and the feed stays', async () => {
    const s = await stolen();
    expect((await api('POST', '/api/auth/sign-out', { token: s.thief.token })).status).toBe(204);
    await s.hostActs();
    await push.waitFor(s.phones.member.endpoint);
    await push.expectNothing(s.thiefPhone.endpoint);
    expect((await api('GET', s.feedPath)).status).toBe(200);
  });

  it("'Sign out everywhere' ends every device's notifications (the thief's too) and the feed's URL; no one else's", async () => {
    const s = await stolen();
    expect((await api('POST', '/api/auth/sign-out-everywhere', { token: s.member.token })).status).toBe(204);
    expect(await owner`select * from app.push_subscriptions where user_id = ${s.member.id}`).toEqual([]);
    feedNotValid(await api('GET', s.feedPath));
    await s.hostActs();
    await push.waitFor(s.phones.guest.endpoint);
    await push.expectNothing(s.phones.member.endpoint);
    await push.expectNothing(s.thiefPhone.endpoint);
  });

  it("confirming a new address ends the other devices' notifications and the old feed URL; this device keeps its own", async () => {
    const s = await stolen();
    const to = `moved-${randomBytes(4).toString('hex')}@example.com`;
    const before = (await mail.mailsTo(to)).length;
    expect((await api('PATCH', '/api/auth/profile', { body: { email: to }, token: s.member.token })).status).toBe(200);
    const code = await mail.latestCodeFor(to, { count: before + 1 });
    expect((await api('POST', '/api/auth/confirm-email', { body: { code }, token: s.member.token })).status).toBe(200);
    feedNotValid(await api('GET', s.feedPath));
    const fresh = await api<{ url: string }>('GET', '/api/calendar/feed', { token: s.member.token });
    expect(new URL(fresh.json.url).pathname).not.toBe(s.feedPath);
    await s.hostActs();
    await push.waitFor(s.phones.member.endpoint);
    await push.expectNothing(s.thiefPhone.endpoint);
  });

  it("undoing an address change from the old mailbox ends every device's notifications and the feed's URL", async () => {
    const s = await stolen();
    // The thief moves the account to their own address; the owner undoes it from the mail to the old one.
    const to = `thief-${randomBytes(4).toString('hex')}@example.com`;
    const before = { to: (await mail.mailsTo(to)).length, old: (await mail.mailsTo(s.member.email)).length };
    await api('PATCH', '/api/auth/profile', { body: { email: to }, token: s.thief.token });
    const code = await mail.latestCodeFor(to, { count: before.to + 1 });
    expect((await api('POST', '/api/auth/confirm-email', { body: { code }, token: s.thief.token })).status).toBe(200);
    const notice = await mail.latestMailTo(s.member.email, { count: before.old + 1 });
    const undoToken = /undo-email-change#token=([A-Za-z0-9_-]{43})/.exec(notice.text!)![1];
    const thiefFeed = new URL((await api<{ url: string }>('GET', '/api/calendar/feed', { token: s.thief.token })).json.url).pathname;
    expect((await api('POST', '/api/auth/undo-email-change', { body: { token: undoToken } })).status).toBe(200);
    feedNotValid(await api('GET', s.feedPath));
    feedNotValid(await api('GET', thiefFeed));
    expect(await owner`select * from app.push_subscriptions where user_id = ${s.member.id}`).toEqual([]);
    await s.hostActs();
    await push.waitFor(s.phones.guest.endpoint);
    await push.expectNothing(s.thiefPhone.endpoint);
    await push.expectNothing(s.phones.member.endpoint);
  });
});

describe('subscriptions per guest (docs/decisions/0084-caps-per-participant.md)', () => {
  it("a guest continued on many devices keeps at most its share, the joining device's always; the plan keeps room for the others", async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const gus = await world.newGuest(plan.id, 'Gus');
    const { subscriptionsPerIdentity: perDevice, subscriptionsPerGuest: perGuest } = NOTIFICATION_LIMITS;
    const joined = [await phoneOf({ guestId: gus.id }), await phoneOf({ guestId: gus.id })];
    // Devices that continued as Gus by name, each turning notifications on as often as a device may.
    const devices = Math.ceil(perGuest / perDevice) + 1;
    for (let d = 0; d < devices; d++) {
      const restored = await api<{ secret: string }>('POST', '/api/guest-session/restore', { body: { planId: plan.id, name: 'Gus' } });
      expect(restored.status, restored.text).toBe(200);
      for (let i = 0; i < perDevice; i++) {
        const res = await api('POST', '/api/push/subscriptions', {
          body: { subscription: await push.subscribe(), guestId: gus.id },
          guestSecret: restored.json.secret,
        });
        expect(res.status, res.text).toBe(201);
      }
    }
    const kept = (await owner`select endpoint from app.push_subscriptions where guest_id = ${gus.id}`).map((r) => r.endpoint);
    expect(kept).toHaveLength(perGuest);
    expect(kept).toEqual(expect.arrayContaining(joined.map((phone) => phone.endpoint)));
    // Another guest of the plan still turns notifications on.
    await phoneOf({ guestId: (await world.newGuest(plan.id, 'Ann')).id });
  });
});

describe("the host's decisions reach every other phone", () => {
  it('locking a date waits for its time; alone, the member and the guest are told when the window ends, each with the page to open; the host is not', async () => {
    const g = await group();
    const date = await day(owner, 5);
    expect((await api('POST', `/api/plans/${g.plan.id}/lock-date`, { body: { date }, token: g.host.token })).status).toBe(200);
    expect((await owner`select pending_since is not null as waiting from app.plan_notices where plan_id = ${g.plan.id}`)[0].waiting).toBe(true);
    await runScheduler();
    expect(await push.receivedBy(g.phones.member.endpoint)).toEqual([]);
    await windowPasses(g.plan.id);
    expect((await runScheduler()).notices).toBeGreaterThanOrEqual(1);
    const toMember = await push.waitFor(g.phones.member.endpoint);
    const toGuest = await push.waitFor(g.phones.guest.endpoint);
    expect(payloadOf(toMember)).toMatchObject({
      title: g.plan.title,
      body: expect.stringMatching(/^The date is locked: \w+day, /),
      url: `/plan/${g.plan.id}`,
    });
    expect(payloadOf(toGuest)).toMatchObject({ title: g.plan.title, url: `/l/${g.plan.slug}` });
    expect(toMember.urgency).toBe('high');
    expect(toMember.ttl).toBe(86_400);
    expect(toMember.vapid.publicKey).toBe(inject('notificationEnv').VAPID_PUBLIC_KEY);
    await push.expectNothing(g.phones.host.endpoint);
    // Delivered and done: nothing waits in the outbox.
    expect(await owner`select 1 from app.notification_events where plan_id = ${g.plan.id}`).toEqual([]);
  });

  it('setting the time: a push to the others, and the e-mail with the invite to every member', async () => {
    const g = await group();
    await api('POST', `/api/plans/${g.plan.id}/lock-date`, { body: { date: await day(owner, 6) }, token: g.host.token });
    await api('POST', `/api/plans/${g.plan.id}/set-event-time`, { body: { time: '19:30' }, token: g.host.token });
    const told = await push.waitFor(g.phones.guest.endpoint, (m) => payloadOf(m).body.startsWith("It's on: "));
    expect(payloadOf(told).body).toMatch(/ at 7:30 PM$/);
    const toMember = await mail.latestMailTo(g.member.email);
    expect(toMember.subject).toMatch(/^Time set: /);
    await mail.latestMailTo(g.host.email);
  });

  it('deleting the plan tells the guest, whose subscription went with the plan', async () => {
    const g = await group();
    expect((await api('DELETE', `/api/plans/${g.plan.id}`, { token: g.host.token })).status).toBe(204);
    const told = await push.waitFor(g.phones.guest.endpoint);
    expect(payloadOf(told)).toEqual({ title: g.plan.title, body: `The host deleted ${g.plan.title}`, url: '/', tag: expect.any(String) });
    expect(await owner`select * from app.push_subscriptions where endpoint = ${g.phones.guest.endpoint}`).toEqual([]);
  });
});

describe('the notice budget: a host looping changes reaches each phone and inbox at most once per 10 minutes', () => {
  const bodies = async (phone: PushSubscriptionJson) => (await push.receivedBy(phone.endpoint)).map((m) => payloadOf(m).body);

  it('the place, six times: every change applies; one push at once, then one saying the final place; the same place again: nothing', async () => {
    const g = await group();
    const place = (location: string) => api<PlanJson>('POST', `/api/plans/${g.plan.id}/location`, { body: { location }, token: g.host.token });
    expect((await place('Place 0')).status).toBe(200);
    for (let i = 1; i <= 6; i += 1) expect((await place(`Place ${i}`)).json.location).toBe(`Place ${i}`);
    await outboxEmpty(g.plan.id);
    // The scheduler before the window is over: nothing more.
    await runScheduler();
    for (const phone of [g.phones.member, g.phones.guest]) expect(await bodies(phone)).toEqual(['New place: Place 0']);

    await windowPasses(g.plan.id);
    await runScheduler();
    for (const phone of [g.phones.member, g.phones.guest]) expect(await bodies(phone)).toEqual(['New place: Place 0', 'New place: Place 6']);
    expect(await bodies(g.phones.host)).toEqual([]);

    await windowPasses(g.plan.id);
    expect((await place('Place 6')).status).toBe(200);
    await runScheduler();
    await outboxEmpty(g.plan.id);
    expect(await bodies(g.phones.member)).toHaveLength(2);
    // No e-mail: the time is not set, so nothing members were e-mailed changed.
    expect(await mail.mailsTo(g.member.email)).toEqual([]);
  });

  it('unlock, lock and a time, three times: one more e-mail per member and push per phone, with the final time and its .ics', async () => {
    const g = await group();
    const post = (action: string, body: object) => api<PlanJson>('POST', `/api/plans/${g.plan.id}/${action}`, { body, token: g.host.token });
    const [d1, d2] = [await day(owner, 6), await day(owner, 7)];
    await post('lock-date', { date: d1 });
    await post('set-event-time', { time: '18:00' });
    for (const who of [g.host, g.member]) expect((await mail.latestMailTo(who.email)).subject).toMatch(/ at 6:00 PM$/);
    for (const [date, time] of [[d2, '19:00'], [d1, '20:30'], [d2, '21:00']]) {
      expect((await post('unlock', {})).json.status).toBe('planning');
      expect((await post('lock-date', { date })).status).toBe(200);
      expect((await post('set-event-time', { time })).json).toMatchObject({ status: 'completed', lockedTimeSlotDate: date });
    }
    await outboxEmpty(g.plan.id);
    await runScheduler();
    for (const who of [g.host, g.member]) expect(await mail.mailsTo(who.email)).toHaveLength(1);
    for (const phone of [g.phones.member, g.phones.guest]) expect(await bodies(phone)).toHaveLength(1);

    await windowPasses(g.plan.id);
    await runScheduler();
    for (const phone of [g.phones.member, g.phones.guest]) {
      expect(await bodies(phone)).toEqual([expect.stringMatching(/^It's on: .* at 6:00 PM$/), expect.stringMatching(/^New time: .* at 9:00 PM$/)]);
    }
    expect(await bodies(g.phones.host)).toEqual([]);
    for (const who of [g.host, g.member]) {
      const mails = await mail.mailsTo(who.email);
      expect(mails).toHaveLength(2);
      expect(mails[1].subject).toMatch(/^Time set: .* at 9:00 PM$/);
      const name = mails[1].attachments?.[0]?.generatedFileName ?? mails[1].attachments?.[0]?.fileName ?? '';
      const ics = await (await fetch(`${inject('mailUrl')}/email/${mails[1].id}/attachment/${encodeURIComponent(name)}`)).text();
      expect(ics).toContain(`DTSTART:${compact(d2)}T210000`);
    }
  });

  it('the deadline moved again and again: who has not answered is reminded once, and the host\'s reminder waits too', async () => {
    const g = await group();
    const deadline = (hours: number) => api<PlanJson>('POST', `/api/plans/${g.plan.id}/deadline`, {
      body: { deadline: new Date(Date.now() + hours * 3_600_000).toISOString() }, token: g.host.token,
    });
    for (const hours of [20, 21, 22, 20.5]) {
      expect((await deadline(hours)).status).toBe(200);
      await runScheduler();
    }
    await outboxEmpty(g.plan.id);
    const waiting = 'Less than a day left to vote: add yours before the deadline';
    for (const phone of [g.phones.member, g.phones.guest]) expect(await bodies(phone)).toEqual([waiting]);
    expect((await mail.mailsTo(g.member.email)).map((m) => m.subject)).toEqual([`${g.plan.title}: ${waiting}`]);
    expect((await api('POST', `/api/plans/${g.plan.id}/remind`, { token: g.host.token })).status).toBe(429);
  });
});

describe('when the push service fails', () => {
  it('5xx and 429: the request still succeeds; the scheduler retries with back-off and each phone gets it once', async () => {
    const g = await group();
    await push.failNext(g.phones.member.endpoint, 503);
    await push.failNext(g.phones.guest.endpoint, 429);
    expect((await api('POST', `/api/plans/${g.plan.id}/location`, { body: { location: 'The Lanes' }, token: g.host.token })).status).toBe(200);
    await expect.poll(() => push.requests(g.phones.guest.endpoint)).toBe(1);
    const [waiting] = await owner`
      select count(*)::int as n, min(extract(epoch from d.next_attempt_at - now()))::int as wait, max(d.last_error) as error
        from app.notification_deliveries d join app.notification_events e on e.id = d.event_id where e.plan_id = ${g.plan.id}`;
    expect(waiting.n).toBe(2);
    expect(waiting.wait).toBeGreaterThan(20);
    // A scheduler run before the back-off is over sends nothing.
    await runScheduler();
    expect(await push.receivedBy(g.phones.member.endpoint)).toEqual([]);
    await dueNow(g.plan.id);
    await runScheduler();
    expect(payloadOf(await push.waitFor(g.phones.member.endpoint)).body).toBe('New place: The Lanes');
    await push.waitFor(g.phones.guest.endpoint);
    await dueNow(g.plan.id);
    await runScheduler();
    expect(await push.receivedBy(g.phones.member.endpoint)).toHaveLength(1);
    expect(await push.receivedBy(g.phones.guest.endpoint)).toHaveLength(1);
  });

  it('any 4xx but 429 (410 Gone, 400, 403): the subscription fails for good and is deleted; 429 keeps it', async () => {
    const g = await group();
    const memberSecondPhone = await phoneOf(g.member);
    const guestSecondPhone = await phoneOf({ guestId: g.guest.id });
    await push.expire(g.phones.member.endpoint);
    await push.failNext(g.phones.guest.endpoint, 400);
    await push.failNext(memberSecondPhone.endpoint, 403);
    await push.failNext(guestSecondPhone.endpoint, 429);
    await api('POST', `/api/plans/${g.plan.id}/location`, { body: { location: 'Here' }, token: g.host.token });
    const subscribed = async (phone: PushSubscriptionJson) =>
      (await owner`select 1 from app.push_subscriptions where endpoint = ${phone.endpoint}`).length;
    for (const gone of [g.phones.member, g.phones.guest, memberSecondPhone]) await expect.poll(() => subscribed(gone)).toBe(0);
    await expect.poll(() => push.requests(guestSecondPhone.endpoint)).toBe(1);
    expect(await subscribed(guestSecondPhone)).toBe(1);
  });

  it('two instances delivering at once send each message once', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const phones: PushSubscriptionJson[] = [];
    for (let i = 0; i < 6; i += 1) {
      const member = await world.newMember(plan.id, `M${i}`);
      const phone = await phoneOf(member);
      await push.failNext(phone.endpoint, 500);
      phones.push(phone);
    }
    await api('POST', `/api/plans/${plan.id}/location`, { body: { location: 'Park' }, token: host.token });
    for (const phone of phones) await expect.poll(() => push.requests(phone.endpoint)).toBe(1);
    await dueNow(plan.id);
    const second = await startApiWithDeadSmtp();
    try {
      await Promise.all([runScheduler(), runScheduler(second.url), runScheduler(), runScheduler(second.url)]);
    } finally {
      await second.stop();
    }
    for (const phone of phones) expect(await push.receivedBy(phone.endpoint)).toHaveLength(1);
  });
});

describe('POST /api/plans/{id}/remind', () => {
  it("reaches only who has not answered, once per 12 hours (429 with Retry-After); the host only", async () => {
    const g = await group();
    const ideas = await api<{ id: string }>('POST', `/api/plans/${g.plan.id}/ideas`, { body: { text: 'Bowling' }, token: g.host.token });
    expect((await api('POST', `/api/ideas/${ideas.json.id}/vote`, { body: {}, token: g.member.token })).status).toBe(200);
    const participants = await api<{ name: string; hasResponded: boolean }[]>('GET', `/api/plans/${g.plan.id}/participants`, { token: g.host.token });
    expect(participants.json.map((p) => [p.name, p.hasResponded])).toEqual([['Hana Host', false], ['Mia', true], ['Gus', false]]);

    expectText(await api('POST', `/api/plans/${g.plan.id}/remind`, { token: g.member.token }), 403, 'Only the host can send reminders');
    const res = await api('POST', `/api/plans/${g.plan.id}/remind`, { token: g.host.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ reminded: 1 });
    expect(payloadOf(await push.waitFor(g.phones.guest.endpoint))).toMatchObject({
      body: 'Your friends are waiting for your votes on ideas and dates', url: `/l/${g.plan.slug}`,
    });
    await push.expectNothing(g.phones.member.endpoint, 200);
    const again = await api('POST', `/api/plans/${g.plan.id}/remind`, { token: g.host.token });
    expect(again.status).toBe(429);
    expect(again.text).toMatch(/^Everyone who has not answered was reminded less than 12 hours ago, please try again in /);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(12 * 3600 - 60);
    expect((await api<PlanJson>('GET', `/api/plans/${g.plan.id}`, { token: g.host.token })).json.remindedAt).toEqual(expect.any(String));
  });
});

describe('POST /api/plans/{id}/deadline', () => {
  it('sets, shows, changes and removes it; the past and bad input are 400 with one sentence', async () => {
    const g = await group();
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const set = await api<PlanJson>('POST', `/api/plans/${g.plan.id}/deadline`, { body: { deadline: inTwoDays, autoLock: true }, token: g.host.token });
    expect(set.status, set.text).toBe(200);
    expect(Date.parse(set.json.deadline!)).toBe(Date.parse(inTwoDays));
    expect(set.json.autoLock).toBe(true);
    const seen = await api<PlanJson>('GET', `/api/plans/slug/${g.plan.slug}`);
    expect(seen.json).toMatchObject({ autoLock: true });
    expect(Date.parse(seen.json.deadline!)).toBe(Date.parse(inTwoDays));

    expectText(await api('POST', `/api/plans/${g.plan.id}/deadline`, { body: { deadline: '2020-01-01T10:00:00Z' }, token: g.host.token }), 400,
      'The deadline must be in the future');
    for (const deadline of ['tomorrow', '2027-01-01', '2027-01-01T10:00', 42]) {
      expectText(await api('POST', `/api/plans/${g.plan.id}/deadline`, { body: { deadline }, token: g.host.token }), 400,
        'Deadline must be a date and time (ISO 8601), or none to remove it');
    }
    expectText(await api('POST', `/api/plans/${g.plan.id}/deadline`, { body: { deadline: inTwoDays }, token: g.member.token }), 403,
      'Only the host can set the deadline');
    const removed = await api<PlanJson>('POST', `/api/plans/${g.plan.id}/deadline`, { body: { deadline: null }, token: g.host.token });
    expect(removed.json).toMatchObject({ deadline: null, autoLock: false });
  });

  it('at the deadline with auto-lock the leaders are locked by the scheduler and everyone is told', async () => {
    const g = await group();
    const idea = await api<{ id: string }>('POST', `/api/plans/${g.plan.id}/ideas`, { body: { text: 'Karaoke' }, token: g.member.token });
    await api('POST', `/api/ideas/${idea.json.id}/vote`, { body: { guestId: g.guest.id } });
    const date = await day(owner, 4);
    await api('POST', `/api/plans/${g.plan.id}/vote-date`, { body: { date, guestId: g.guest.id } });
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    await api('POST', `/api/plans/${g.plan.id}/deadline`, { body: { deadline: soon, autoLock: true }, token: g.host.token });
    await owner`update app.plans set deadline = now() - interval '1 second' where id = ${g.plan.id}`;
    const report = await runScheduler();
    expect(report.deadlines).toBeGreaterThanOrEqual(1);
    const plan = await api<PlanJson>('GET', `/api/plans/${g.plan.id}`, { token: g.host.token });
    expect(plan.json).toMatchObject({ status: 'time_range_locked', lockedTimeSlotDate: date, lockedIdeaText: 'Karaoke' });
    for (const phone of [g.phones.host, g.phones.member, g.phones.guest]) {
      expect(payloadOf(await push.waitFor(phone.endpoint))).toMatchObject({ body: expect.stringMatching(/^Decided: Karaoke on /) });
    }
  });
});

describe('the digest of new ideas and comments', () => {
  it('one message per plan and window, counting what the others wrote', async () => {
    const g = await group();
    await api('POST', `/api/plans/${g.plan.id}/ideas`, { body: { text: 'Picnic' }, token: g.member.token });
    await api('POST', `/api/plans/${g.plan.id}/ideas`, { body: { text: 'Museum' }, token: g.member.token });
    // As if the settle time had passed.
    await owner`update app.ideas set created_at = created_at - interval '2 minutes' where plan_id = ${g.plan.id}`;
    await runScheduler();
    expect(payloadOf(await push.waitFor(g.phones.host.endpoint)).body).toBe(`2 new ideas in ${g.plan.title}`);
    expect(payloadOf(await push.waitFor(g.phones.guest.endpoint)).body).toBe(`2 new ideas in ${g.plan.title}`);
    await push.expectNothing(g.phones.member.endpoint, 200);
    const [received] = await push.receivedBy(g.phones.host.endpoint);
    expect(received.urgency).toBe('normal');
  });
});

describe('scheduler authentication', () => {
  it('without the secret the endpoint does not exist', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${inject('notificationEnv').SCHEDULER_SECRET}x` }]) {
      expectText(await api('POST', '/api/scheduler/run', { headers }), 404, 'Not found');
    }
  });
});

describe('e-mails: one-click unsubscribe (RFC 8058), and SMTP down', () => {
  it('the link turns the plan\'s e-mails off with a POST and no credentials; GET shows it; DELETE turns them on', async () => {
    const g = await group();
    const noa = await world.newMember(g.plan.id, 'Noa');
    await api('POST', `/api/plans/${g.plan.id}/lock-date`, { body: { date: await day(owner, 7) }, token: g.host.token });
    await api('POST', `/api/plans/${g.plan.id}/set-event-time`, { body: { time: '18:00' }, token: g.host.token });
    const caught = (await mail.latestMailTo(g.member.email)) as unknown as { headers: Record<string, string>; text: string };
    const header = caught.headers['list-unsubscribe'];
    expect(caught.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const url = /^<(http:\/\/localhost:5173\/api\/unsubscribe\/([A-Za-z0-9_-]{91}))>$/.exec(header);
    expect(url, header).not.toBeNull();
    const token = url![2];
    expect(caught.text).toContain(`http://localhost:5173/unsubscribe/${token}`);

    const path = `/api/unsubscribe/${token}`;
    expect((await api('GET', path)).json).toEqual({ planTitle: g.plan.title, emails: true });
    const browser = await fetch(`${inject('apiUrl')}${path}`, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
    expect(browser.status).toBe(303);
    expect(browser.headers.get('location')).toBe(`http://localhost:5173/unsubscribe/${token}`);
    const oneClick = await api('POST', path, {
      rawBody: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.status).toBe(200);
    expect(oneClick.json).toEqual({ planTitle: g.plan.title, emails: false });

    // Unlocking a plan whose time was set e-mails the other members (once the
    // window allows it, as if it had passed); Mia no longer.
    await windowPasses(g.plan.id);
    await api('POST', `/api/plans/${g.plan.id}/unlock`, { body: {}, token: g.host.token });
    expect((await mail.latestMailTo(noa.email, { count: 2 })).subject).toBe(`${g.plan.title}: Voting is open again: vote for a new date`);
    expect(await mail.mailsTo(g.member.email)).toHaveLength(1);
    expect((await api('DELETE', path)).json).toEqual({ planTitle: g.plan.title, emails: true });
  });

  it('a forged or altered link is 404 and changes nothing', async () => {
    expectText(await api('POST', `/api/unsubscribe/${'A'.repeat(91)}`), 404, 'This unsubscribe link is not valid');
    expectText(await api('GET', '/api/unsubscribe/short'), 404, 'This unsubscribe link is not valid');
  });

  it('a link over 90 days old, or mailed to an address the account no longer uses, is 410 and changes nothing; its member signed in still can', async () => {
    const g = await group();
    const secret = inject('jwtSecret');
    const old = await unsubscribeToken(g.member.id, g.plan.id, g.member.email, { now: Date.now() - 91 * 86_400_000, secret });
    const elsewhere = await unsubscribeToken(g.member.id, g.plan.id, 'an-old-address@example.com', { secret });
    const optedOut = () => owner`select 1 from app.email_unsubscribes where user_id = ${g.member.id} and plan_id = ${g.plan.id}`;
    for (const token of [old, elsewhere]) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        expectText(await api(method, `/api/unsubscribe/${token}`), 410, UNSUBSCRIBE_LINK_EXPIRED);
        // Someone else signed in is no better.
        expectText(await api(method, `/api/unsubscribe/${token}`, { token: g.host.token }), 410, UNSUBSCRIBE_LINK_EXPIRED);
      }
      expect(await optedOut()).toEqual([]);
    }
    const signedIn = await api('POST', `/api/unsubscribe/${old}`, { token: g.member.token });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.json).toEqual({ planTitle: g.plan.title, emails: false });
    expect(await optedOut()).toHaveLength(1);
    expect((await api('DELETE', `/api/unsubscribe/${elsewhere}`, { token: g.member.token })).json).toEqual({ planTitle: g.plan.title, emails: true });
    // A signed-out session is no sign-in: the database's gate says so.
    await api('POST', '/api/auth/sign-out', { token: g.member.token });
    expectText(await api('POST', `/api/unsubscribe/${old}`, { token: g.member.token }), 401, 'Your session has expired, please sign in again');
  });

  it('with SMTP down the time is still set; the e-mails go out once it is back', async () => {
    const g = await group();
    const dead = await startApiWithDeadSmtp();
    try {
      await api('POST', `/api/plans/${g.plan.id}/lock-date`, { body: { date: await day(owner, 8) }, token: g.host.token, baseUrl: dead.url });
      const res = await api<PlanJson>('POST', `/api/plans/${g.plan.id}/set-event-time`, { body: { time: '20:00' }, token: g.host.token, baseUrl: dead.url });
      expect(res.status, res.text).toBe(200);
      expect(res.json.status).toBe('completed');
      // The push went; the e-mails wait for a retry.
      await push.waitFor(g.phones.member.endpoint, (m) => payloadOf(m).body.startsWith("It's on"));
      await expect.poll(async () => (await owner`
        select count(*)::int as n from app.notification_deliveries d join app.notification_events e on e.id = d.event_id
         where e.plan_id = ${g.plan.id} and d.channel = 'email' and d.last_error is not null`)[0].n, { timeout: 20_000 }).toBe(2);
      expect(await mail.mailsTo(g.member.email)).toEqual([]);
    } finally {
      await dead.stop();
    }
    await dueNow(g.plan.id);
    await runScheduler();
    expect((await mail.latestMailTo(g.member.email)).subject).toMatch(/^Time set: /);
    await mail.latestMailTo(g.host.email);
  });
});
