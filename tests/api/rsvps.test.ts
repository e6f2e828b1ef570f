// Who's coming over HTTP (docs/api.md "Who's coming"): PUT /api/plans/{id}/rsvp,
// GET /api/plans/{id}/rsvps, PUT /api/plans/{id}/rsvps/{participantId},
// POST /api/plans/{id}/capacity, and the plan JSON's capacity, maxPlusOnes
// and answers. Each kind of caller (member, guest, a guest's restored device,
// host, outsider), the bad inputs' sentences (nothing changes), the
// Idempotency-Key, the waitlist's promotion with its e-mail.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { planSchema } from '../../supabase/functions/_shared/contract/plans.ts';
import { type RsvpResult, type Rsvps, rsvpsSchema } from '../../supabase/functions/_shared/contract/rsvps.ts';
import { api, apiDatabaseAsOwner, expectText, testMailbox } from '../support/api.ts';
import { apiWorld } from '../support/api-world.ts';
import { day } from '../support/dates.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});
const mail = testMailbox();

const rsvp = (planId: string, body: unknown, opts: { token?: string; guestSecret?: string | null; headers?: Record<string, string> } = {}) =>
  api<RsvpResult>('PUT', `/api/plans/${planId}/rsvp`, { body, ...opts });
const rsvps = (planId: string, opts: { token?: string; query?: string; headers?: Record<string, string> } = {}) =>
  api<Rsvps>('GET', `/api/plans/${planId}/rsvps${opts.query ?? ''}`, { token: opts.token, headers: opts.headers });
const answerFor = (planId: string, participantId: string, body: unknown, token?: string) =>
  api<RsvpResult>('PUT', `/api/plans/${planId}/rsvps/${participantId}`, { body, token });
const capacity = (planId: string, body: unknown, token?: string) => api<Rsvps>('POST', `/api/plans/${planId}/capacity`, { body, token });
const stored = async (planId: string) =>
  owner<{ name: string; answer: string | null; plus_ones: number }[]>`
    select pa.name, r.answer, r.plus_ones from app.rsvps r join app.participants pa on pa.id = r.participant_id
     where r.plan_id = ${planId} order by pa.name`;

/** A plan hosted by Hana with member Mia and a guest, its date locked through the API. */
async function lockedPlan(title?: string) {
  const host = await world.newUser('Hana');
  const plan = await world.newPlan(host, title);
  const member = await world.newMember(plan.id, 'Mia');
  const guest = await world.newGuest(plan.id);
  const locked = await api('POST', `/api/plans/${plan.id}/lock-date`, { body: { date: await day(owner, 4) }, token: host.token });
  expect(locked.status, locked.text).toBe(200);
  return { host, member, guest, planId: plan.id };
}

describe('PUT /api/plans/{id}/rsvp', () => {
  it('opens once the date is set (409 before, and GET already answers: all unanswered)', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    expectText(await rsvp(plan.id, { answer: 'going' }, { token: host.token }), 409, 'Answers open once the date is set.');
    const before = await rsvps(plan.id, { token: host.token });
    expect(before.status).toBe(200);
    expect(rsvpsSchema.parse(before.json)).toMatchObject({ going: 0, unanswered: 1, headcount: 0, mine: { answer: null }, askAgain: false });
    expect((await api('GET', `/api/plans/${plan.id}`, { token: host.token })).json).toMatchObject({ capacity: null, maxPlusOnes: 2, answers: null });
  });

  it('each kind of caller: member, guest, a restored guest device, the host, a signed-in link holder; outsiders are refused', async () => {
    const { host, member, guest, planId } = await lockedPlan();
    expect((await rsvp(planId, { answer: 'going', plusOnes: 2 }, { token: member.token })).json).toEqual({ answer: 'going', plusOnes: 2, position: null });
    expect((await rsvp(planId, { answer: 'maybe', guestId: guest.id })).json).toEqual({ answer: 'maybe', plusOnes: 0, position: null });
    const restored = await api<{ id: string; secret: string }>('POST', '/api/guest-session/restore', { body: { planId, name: guest.name } });
    expect(restored.status, restored.text).toBe(200);
    expect((await rsvp(planId, { answer: 'no', guestId: guest.id }, { guestSecret: restored.json.secret })).json).toMatchObject({ answer: 'no' });
    expect((await rsvp(planId, { answer: 'going' }, { token: host.token })).status).toBe(200);
    const linkHolder = await world.newUser('Lin');
    expect((await rsvp(planId, { answer: 'going' }, { token: linkHolder.token })).status).toBe(200);

    expectText(await rsvp(planId, { answer: 'going' }), 401, 'Join the plan first to answer');
    const other = await lockedPlan();
    expectText(await rsvp(planId, { answer: 'going', guestId: other.guest.id }), 403, 'This guest belongs to another plan');
    expectText(await rsvp(planId, { answer: 'going', guestId: guest.id }, { guestSecret: null }), 401, /./);
    expectText(await rsvp(randomUUID(), { answer: 'going' }, { token: member.token }), 404, 'Plan not found');
    expect((await stored(planId)).map((r) => [r.name, r.answer])).toEqual(
      expect.arrayContaining([['Mia', 'going'], [guest.name, 'no'], ['Hana', 'going'], ['Lin', 'going']]),
    );
    expect(await stored(other.planId)).toEqual([]);
  });

  it('bad input gets one sentence and changes nothing', async () => {
    const { member, planId } = await lockedPlan();
    await rsvp(planId, { answer: 'maybe' }, { token: member.token });
    const cases: [unknown, string][] = [
      [{ answer: 'yes' }, 'Answer must be going, maybe or no'],
      [{ answer: 'waitlist' }, 'Answer must be going, maybe or no'],
      [{}, 'Answer is required'],
      [{ answer: 'going', plusOnes: -1 }, 'Friends must be a whole number from 0 to 10'],
      [{ answer: 'going', plusOnes: 1.5 }, 'Friends must be a whole number from 0 to 10'],
      [{ answer: 'going', plusOnes: '2' }, 'Friends must be a whole number from 0 to 10'],
      [{ answer: 'going', plusOnes: 11 }, 'Friends must be a whole number from 0 to 10'],
      [{ answer: 'going', plusOnes: 3 }, 'You can bring at most 2 friends to this plan.'],
      [{ answer: 'going', guestId: 'nope' }, 'guestId must be a valid id'],
      [[], 'Request body must be a JSON object'],
    ];
    for (const [body, sentence] of cases) {
      expectText(await rsvp(planId, body, { token: member.token }), 400, sentence);
    }
    expect(await stored(planId)).toEqual([{ name: 'Mia', answer: 'maybe', plus_ones: 0 }]);
  });

  it('honours an Idempotency-Key like the votes: a repeat replays the first answer and changes nothing', async () => {
    const { member, planId } = await lockedPlan();
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await rsvp(planId, { answer: 'going', plusOnes: 1 }, { token: member.token, headers });
    await rsvp(planId, { answer: 'no' }, { token: member.token });
    const again = await rsvp(planId, { answer: 'going', plusOnes: 1 }, { token: member.token, headers });
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await stored(planId)).toEqual([{ name: 'Mia', answer: 'no', plus_ones: 0 }]);
    expectText(await rsvp(planId, { answer: 'maybe' }, { token: member.token, headers }), 422, /Idempotency-Key/);
  });
});

describe('GET /api/plans/{id}/rsvps', () => {
  it('counts, the headcount with friends, the caller’s own answer, everyone in order; versioned; the plan JSON’s answers', async () => {
    const { host, member, guest, planId } = await lockedPlan();
    await capacity(planId, { capacity: 4 }, host.token);
    await rsvp(planId, { answer: 'going', plusOnes: 2 }, { token: member.token });
    await rsvp(planId, { answer: 'maybe' }, { token: host.token });
    expect((await rsvp(planId, { answer: 'going', plusOnes: 1, guestId: guest.id })).json).toEqual({ answer: 'waitlist', plusOnes: 1, position: 1 });

    const res = await rsvps(planId, { query: `?guestId=${guest.id}` });
    expect(res.status).toBe(200);
    const body = rsvpsSchema.parse(res.json);
    expect(body).toMatchObject({ going: 1, maybe: 1, no: 0, waitlist: 1, unanswered: 0, headcount: 3, capacity: 4, maxPlusOnes: 2, askAgain: false });
    expect(body.mine).toEqual({ answer: 'waitlist', plusOnes: 1, position: 1, setByHost: false });
    expect(body.people.map((p) => [p.name, p.answer, p.plusOnes, p.position, p.role])).toEqual([
      ['Mia', 'going', 2, null, null],
      ['Hana', 'maybe', 0, null, 'host'],
      [guest.name, 'waitlist', 1, 1, null],
    ]);
    // A link holder without a part sees the same list, mine null; a guest id of another plan is 404.
    expect((await rsvps(planId)).json.mine).toBeNull();
    const other = await lockedPlan();
    expectText(await rsvps(planId, { query: `?guestId=${other.guest.id}` }), 404, 'Guest not found');
    expectText(await rsvps(planId, { query: '?guestId=x' }), 400, 'guestId must be a valid id');
    expectText(await rsvps(randomUUID()), 404, 'Plan not found');
    // Cached by version: 304 until something changes.
    const etag = res.headers.get('etag')!;
    expect((await rsvps(planId, { query: `?guestId=${guest.id}`, headers: { 'If-None-Match': etag } })).status).toBe(304);
    await rsvp(planId, { answer: 'no' }, { token: member.token });
    const moved = await rsvps(planId, { query: `?guestId=${guest.id}`, headers: { 'If-None-Match': etag } });
    expect(moved.status).toBe(200);
    expect(moved.json.mine).toMatchObject({ answer: 'going', position: null });
    const plan = planSchema.parse((await api('GET', `/api/plans/${planId}`, { token: member.token })).json);
    expect(plan).toMatchObject({ capacity: 4, maxPlusOnes: 2, answers: { going: 1, maybe: 1, headcount: 2 } });
  });
});

describe('a new date asks again', () => {
  it('another time resets the answer (askAgain) until it is given again; with no date locked nobody is asked', async () => {
    const { host, member, planId } = await lockedPlan();
    const setTime = (time: string) => api('POST', `/api/plans/${planId}/set-event-time`, { body: { time }, token: host.token });
    await rsvp(planId, { answer: 'going', plusOnes: 1 }, { token: member.token });
    await setTime('19:30');
    expect((await rsvps(planId, { token: member.token })).json).toMatchObject({ askAgain: false, mine: { answer: 'going', plusOnes: 1 } });
    await setTime('20:00');
    expect((await rsvps(planId, { token: member.token })).json).toMatchObject({ askAgain: true, going: 0, unanswered: 3, mine: { answer: null } });
    await api('POST', `/api/plans/${planId}/unlock`, { body: {}, token: host.token });
    expect((await rsvps(planId, { token: member.token })).json).toMatchObject({ askAgain: false, mine: { answer: null } });
  });
});

describe('the host: answering for someone, the spots', () => {
  it('answers for a participant (set by the host, theirs to change); others are refused', async () => {
    const { host, member, guest, planId } = await lockedPlan();
    const [gus] = await owner<{ id: string }[]>`select id from app.participants where guest_id = ${guest.id}`;
    expect((await answerFor(planId, gus.id, { answer: 'going', plusOnes: 1 }, host.token)).json).toEqual({ answer: 'going', plusOnes: 1, position: null });
    expect((await rsvps(planId, { query: `?guestId=${guest.id}` })).json.mine).toEqual({ answer: 'going', plusOnes: 1, position: null, setByHost: true });
    expectText(await answerFor(planId, gus.id, { answer: 'no' }, member.token), 403, 'Only the host can answer for someone');
    expectText(await answerFor(planId, gus.id, { answer: 'no' }), 401, 'Not signed in');
    expectText(await answerFor(planId, randomUUID(), { answer: 'no' }, host.token), 404, 'This person is not in the plan');
    expectText(await answerFor(planId, 'not-an-id', { answer: 'no' }, host.token), 404, 'This person is not in the plan');
    expectText(await answerFor(planId, gus.id, { answer: 'nope' }, host.token), 400, 'Answer must be going, maybe or no');
    await rsvp(planId, { answer: 'maybe', guestId: guest.id });
    expect((await rsvps(planId, { query: `?guestId=${guest.id}` })).json.mine).toMatchObject({ answer: 'maybe', setByHost: false });
  });

  it('sets the spots; raising them promotes the first in line, who is e-mailed; bad spots are refused', async () => {
    const { host, member, guest, planId } = await lockedPlan('Rooftop');
    expect((await capacity(planId, { capacity: 1, maxPlusOnes: 0 }, host.token)).json).toMatchObject({ capacity: 1, maxPlusOnes: 0 });
    await rsvp(planId, { answer: 'going', guestId: guest.id });
    expect((await rsvp(planId, { answer: 'going' }, { token: member.token })).json).toEqual({ answer: 'waitlist', plusOnes: 0, position: 1 });
    for (const [body, sentence] of [
      [{ capacity: 0 }, 'Spots must be a whole number from 1 to 1000'],
      [{ capacity: 1001 }, 'Spots must be a whole number from 1 to 1000'],
      [{ capacity: 'ten' }, 'Spots must be a whole number from 1 to 1000'],
      [{}, 'Capacity is required'],
      [{ capacity: 2, maxPlusOnes: 11 }, 'Friends per person must be a whole number from 0 to 10'],
    ] as const) {
      expectText(await capacity(planId, body, host.token), 400, sentence);
    }
    expectText(await capacity(planId, { capacity: 5 }, member.token), 403, 'Only the host can set the spots');
    expectText(await capacity(planId, { capacity: 5 }), 401, 'Not signed in');
    expect((await capacity(planId, { capacity: 2 }, host.token)).json).toMatchObject({ going: 2, waitlist: 0, headcount: 2, capacity: 2 });
    const told = await mail.latestMailTo(member.email);
    expect(told.subject).toBe("Rooftop: A spot opened: you're going to Rooftop");
  });
});
