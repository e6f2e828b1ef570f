// Cancelling a plan over HTTP (docs/api-after-the-date.md "Cancelling a plan";
// docs/decisions/0100-cancelling-a-plan.md, 0101-calendars-follow-the-answer.md):
// POST /api/plans/{id}/cancel {message?}, the plan JSON it answers, who may,
// the freeze (votes, ideas, comments, date votes: 409 with one sentence),
// unlock reopening it, the notice reaching the push stand-in and the
// member's inbox with the invite's event cancelled (METHOD:CANCEL, the same
// UID, a higher SEQUENCE), and the member's calendar feed saying CANCELLED and
// following the member's answer (Maybe TENTATIVE, Can't go out).
import ICAL from 'ical.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PLAN_CANCELLED } from '../../supabase/functions/_shared/contract/common.ts';
import { api, apiDatabaseAsOwner, expectText, PLAN_KEYS, testMailbox } from '../support/api.ts';
import { apiWorld, type PlanJson, type User } from '../support/api-world.ts';
import { day } from '../support/dates.ts';
import type { CaughtMail } from '../support/mail.ts';
import { pushServiceClient, type PushSubscriptionJson } from '../support/push-client.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
const mail = testMailbox();
const push = pushServiceClient(inject('pushServiceOrigin'));
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});

const post = (planId: string, action: string, body: unknown, token?: string) =>
  api<PlanJson>('POST', `/api/plans/${planId}/${action}`, { body, token });
const cancel = (planId: string, body: unknown, token?: string) => post(planId, 'cancel', body, token);

/** A phone of the member (token) or guest with notifications on. */
async function phoneOf(who: { token: string } | { guestId: string }): Promise<PushSubscriptionJson> {
  const subscription = await push.subscribe();
  const res = await api('POST', '/api/push/subscriptions', {
    body: { subscription, ...('guestId' in who ? { guestId: who.guestId } : {}) },
    ...('token' in who ? { token: who.token } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return subscription;
}

/** The first attachment's text, from maildev's API. */
async function attachmentText(caught: CaughtMail): Promise<string> {
  const attachment = caught.attachments?.[0];
  if (!attachment) throw new Error(`no attachment on "${caught.subject}"`);
  const name = attachment.generatedFileName ?? attachment.fileName ?? '';
  return await (await fetch(`${inject('mailUrl')}/email/${caught.id}/attachment/${encodeURIComponent(name)}`)).text();
}

const vevent = (text: string, planId: string) => {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getAllSubcomponents('vevent').find((c) => c.getFirstPropertyValue('uid') === `plan-${planId}@hangplan`);
  return {
    method: calendar.getFirstPropertyValue('method'),
    status: event?.getFirstPropertyValue('status'),
    sequence: event?.getFirstPropertyValue('sequence'),
  };
};

/** A plan whose time is set, with a member and a guest. */
async function timedPlan(host: User, title = 'Ramen night') {
  const plan = await world.newPlan(host, title);
  const member = await world.newMember(plan.id, 'Mia');
  const guest = await world.newGuest(plan.id, 'Gus');
  expect((await post(plan.id, 'lock-date', { date: await day(owner, 5) }, host.token)).status).toBe(200);
  const timed = await post(plan.id, 'set-event-time', { time: '19:30' }, host.token);
  expect(timed.status).toBe(200);
  return { plan, member, guest, timed: timed.json };
}

describe('POST /api/plans/{id}/cancel', () => {
  it('the host cancels with a message: the plan JSON says cancelled, with the message and when; GET agrees', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const res = await cancel(plan.id, { message: '  Rain all weekend, sorry!  ' }, host.token);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(PLAN_KEYS);
    expect(res.json).toMatchObject({ status: 'cancelled', cancelMessage: 'Rain all weekend, sorry!' });
    expect(Date.parse(res.json.cancelledAt!)).not.toBeNaN();
    expect((await api<PlanJson>('GET', `/api/plans/${plan.id}`)).json).toEqual(res.json);
    // Once is enough: a second cancel is 409 and keeps the first message.
    expectText(await cancel(plan.id, {}, host.token), 409, PLAN_CANCELLED);
  });

  it('who may: 401 without a token, 403 for a member, 404 for an unknown plan; nothing changes', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const member = await world.newMember(plan.id, 'Mia');
    expectText(await cancel(plan.id, {}), 401, 'Not signed in');
    expectText(await cancel(plan.id, {}, member.token), 403, 'Only the host can cancel the plan');
    expectText(await cancel(crypto.randomUUID(), {}, host.token), 404, 'Plan not found');
    expect((await api<PlanJson>('GET', `/api/plans/${plan.id}`)).json.status).toBe('planning');
  });

  it('bad input is 400 with one sentence and changes nothing', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    expectText(await cancel(plan.id, { message: 'x'.repeat(501) }, host.token), 400, 'Message must be at most 500 characters');
    expectText(await cancel(plan.id, { message: 42 }, host.token), 400, 'Message must be text');
    expect((await api<PlanJson>('GET', `/api/plans/${plan.id}`)).json.status).toBe('planning');
    // Blank and null are no message.
    expect((await cancel(plan.id, { message: '  ' }, host.token)).json).toMatchObject({ status: 'cancelled', cancelMessage: null });
  });

  it('freezes votes, ideas, comments and date votes (409, one sentence); unlock reopens the plan for a new date', async () => {
    const host = await world.newUser('Hana');
    const { plan, guest } = await timedPlan(host);
    const idea = await api<{ id: string }>('POST', `/api/plans/${plan.id}/ideas`, { body: { text: 'Ramen', guestId: guest.id } });
    expect(idea.status, idea.text).toBe(201);
    expect((await cancel(plan.id, { message: null }, host.token)).status).toBe(200);
    expectText(await api('POST', `/api/plans/${plan.id}/ideas`, { body: { text: 'Sushi', guestId: guest.id } }), 409, PLAN_CANCELLED);
    expectText(await api('POST', `/api/ideas/${idea.json.id}/vote`, { body: { guestId: guest.id } }), 409, PLAN_CANCELLED);
    expectText(await api('POST', `/api/ideas/${idea.json.id}/comments`, { body: { text: 'Yum', guestId: guest.id } }), 409, PLAN_CANCELLED);
    expectText(await api('POST', `/api/plans/${plan.id}/vote-date`, { body: { date: await day(owner, 9), guestId: guest.id } }), 409, PLAN_CANCELLED);
    expectText(await post(plan.id, 'location', { location: 'Elsewhere' }, host.token), 409, PLAN_CANCELLED);

    const reopened = await post(plan.id, 'unlock', {}, host.token);
    expect(reopened.json).toMatchObject({ status: 'planning', cancelMessage: null, cancelledAt: null, lockedTimeSlotDate: null });
    expect((await api('POST', `/api/ideas/${idea.json.id}/vote`, { body: { guestId: guest.id } })).status).toBe(200);
  });
});

describe('everyone is told, and every calendar follows', () => {
  it('a push to the others, the member e-mail with the cancelled invite (same UID, higher SEQUENCE), the feed says CANCELLED', async () => {
    const host = await world.newUser('Hana');
    const { plan, member, guest, timed } = await timedPlan(host, 'Kenji dinner');
    const guestPhone = await phoneOf({ guestId: guest.id });
    const memberPhone = await phoneOf(member);
    const feedUrl = (await api<{ url: string }>('GET', '/api/calendar/feed', { token: member.token })).json.url;
    const invite = await mail.latestMailTo(member.email);
    // The time's notice is out; as if its window had passed (the budget), so the cancel goes at once.
    await owner`update app.plan_notices set quiet_until = now() - interval '1 second' where plan_id = ${plan.id}`;

    const cancelled = await cancel(plan.id, { message: 'Kenji is closed' }, host.token);
    expect(cancelled.json.calendarSequence).toBeGreaterThan(timed.calendarSequence!);
    for (const phone of [guestPhone, memberPhone]) {
      const told = await push.waitFor(phone.endpoint);
      expect((told.payload as { body: string }).body).toBe('The host cancelled the plan: Kenji is closed');
    }
    const notice = await mail.latestMailTo(member.email, { count: 2 });
    expect(notice.subject).toBe('Kenji dinner: The host cancelled the plan: Kenji is closed');
    expect(vevent(await attachmentText(invite), plan.id)).toEqual({ method: 'PUBLISH', status: 'CONFIRMED', sequence: timed.calendarSequence });
    expect(vevent(await attachmentText(notice), plan.id)).toEqual({
      method: 'CANCEL', status: 'CANCELLED', sequence: cancelled.json.calendarSequence,
    });
    const feed = await api('GET', new URL(feedUrl).pathname);
    expect(vevent(feed.text, plan.id)).toMatchObject({ status: 'CANCELLED', sequence: cancelled.json.calendarSequence });
  });

  it("the member's feed follows the answer: Maybe is TENTATIVE, Can't go drops out, Going is CONFIRMED", async () => {
    const host = await world.newUser('Hana');
    const { plan, member } = await timedPlan(host, 'Board games');
    const feedPath = new URL((await api<{ url: string }>('GET', '/api/calendar/feed', { token: member.token })).json.url).pathname;
    const statusFor = async (answer: string | null) => {
      if (answer) expect((await api('PUT', `/api/plans/${plan.id}/rsvp`, { body: { answer }, token: member.token })).status).toBe(200);
      const feed = await api('GET', feedPath);
      expect(feed.status).toBe(200);
      return vevent(feed.text, plan.id).status ?? 'absent';
    };
    expect(await statusFor(null)).toBe('CONFIRMED');
    expect(await statusFor('maybe')).toBe('TENTATIVE');
    expect(await statusFor('no')).toBe('absent');
    expect(await statusFor('going')).toBe('CONFIRMED');
  });
});
