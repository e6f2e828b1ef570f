// Event reminders end to end (docs/notifications.md "Event reminders";
// docs/decisions/0102-event-reminders.md): the scheduler, driven for real
// (POST /api/scheduler/run), reminds who answered Going or Maybe the day
// before a timed plan, on their phones (the push stand-in checks the VAPID
// JWT and decrypts the message) and the member's inbox, once; Can't go hears
// nothing. After the lock, the host's "Remind them" asks who has not answered.
// The clock: the event is set that far from now (the rules' own cases,
// "about two hours before", two schedulers at once, are tests/db/event-reminders.test.ts).
import { afterAll, describe, expect, inject, it } from 'vitest';
import { api, apiDatabaseAsOwner, runScheduler, testMailbox } from '../support/api.ts';
import { apiWorld, type PlanJson } from '../support/api-world.ts';
import { pushServiceClient, type PushSubscriptionJson } from '../support/push-client.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
const mail = testMailbox();
const push = pushServiceClient(inject('pushServiceOrigin'));
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});

async function phoneOf(who: { token: string } | { guestId: string }): Promise<PushSubscriptionJson> {
  const subscription = await push.subscribe();
  const res = await api('POST', '/api/push/subscriptions', {
    body: { subscription, ...('guestId' in who ? { guestId: who.guestId } : {}) },
    ...('token' in who ? { token: who.token } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return subscription;
}

const bodyOf = (m: { payload: unknown }) => (m.payload as { body: string }).body;

/** A plan whose time (in UTC) is `hours` from now, with a member, a guest and a member who can't go, each with a phone. */
async function timedIn(hours: number) {
  const host = await world.newUser('Hana', 'Host');
  const plan = await world.newPlan(host, `Dinner ${crypto.randomUUID().slice(0, 6)}`);
  const member = await world.newMember(plan.id, 'Mia');
  const nia = await world.newMember(plan.id, 'Nia');
  const guest = await world.newGuest(plan.id, 'Gus');
  const at = new Date(Date.now() + hours * 3_600_000);
  const date = at.toISOString().slice(0, 10);
  const time = at.toISOString().slice(11, 16);
  const post = (action: string, body: unknown) => api<PlanJson>('POST', `/api/plans/${plan.id}/${action}`, { body, token: host.token });
  expect((await post('lock-date', { date })).status).toBe(200);
  const timed = await post('set-event-time', { time, timeZone: 'UTC' });
  expect(timed.status, timed.text).toBe(200);
  expect((await post('location', { location: 'Kenji' })).status).toBe(200);
  const phones = { member: await phoneOf(member), nia: await phoneOf(nia), guest: await phoneOf({ guestId: guest.id }) };
  const today = new Date().toISOString().slice(0, 10) === date;
  return { host, plan, member, nia, guest, phones, eventTime: timed.json.eventTime!, today };
}

const rsvp = (planId: string, body: unknown, token?: string) => api('PUT', `/api/plans/${planId}/rsvp`, { body, token });

describe('the day before', () => {
  it('Going and Maybe get one push each and the member one e-mail; Can\'t go nothing; a second run sends none', async () => {
    const g = await timedIn(20);
    expect((await rsvp(g.plan.id, { answer: 'going' }, g.member.token)).status).toBe(200);
    expect((await rsvp(g.plan.id, { answer: 'no' }, g.nia.token)).status).toBe(200);
    expect((await rsvp(g.plan.id, { answer: 'maybe', guestId: g.guest.id })).status).toBe(200);
    const before = (await mail.mailsTo(g.member.email)).length;

    expect((await runScheduler()).eventReminders).toBeGreaterThanOrEqual(1);
    const day = `${g.today ? 'Today' : 'Tomorrow'} ${g.eventTime} at Kenji`;
    expect(bodyOf(await push.waitFor(g.phones.member.endpoint, (m) => bodyOf(m).startsWith(day)))).toBe(`${day}: you're going`);
    expect(bodyOf(await push.waitFor(g.phones.guest.endpoint, (m) => bodyOf(m).startsWith(day)))).toBe(`${day}: you said maybe`);
    const inbox = await mail.latestMailTo(g.member.email, { count: before + 1 });
    expect(inbox.subject).toBe(`${g.plan.title}: ${day}: you're going`);

    await runScheduler();
    await push.expectNothing(g.phones.nia.endpoint, 200);
    expect((await push.receivedBy(g.phones.member.endpoint)).filter((m) => bodyOf(m).startsWith(day))).toHaveLength(1);
  });
});

describe("the host's reminder after the lock", () => {
  it('asks who has not answered whether they are coming; who answered hears nothing', async () => {
    const g = await timedIn(72);
    expect((await rsvp(g.plan.id, { answer: 'going' }, g.member.token)).status).toBe(200);
    const res = await api('POST', `/api/plans/${g.plan.id}/remind`, { token: g.host.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ reminded: 2 });
    const asked = "Are you coming? Answer Going, Maybe or Can't go";
    expect(bodyOf(await push.waitFor(g.phones.guest.endpoint, (m) => bodyOf(m) === asked))).toBe(asked);
    expect(bodyOf(await push.waitFor(g.phones.nia.endpoint, (m) => bodyOf(m) === asked))).toBe(asked);
    expect((await push.receivedBy(g.phones.member.endpoint)).map(bodyOf)).not.toContain(asked);
  });
});
