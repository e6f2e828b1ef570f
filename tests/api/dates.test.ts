// Date voting over HTTP: GET /api/plans/{id}/timeslots, GET .../my-votes,
// POST .../vote-date, POST /api/timeslots/{id}/vote, GET /api/timeslots/{id}/voters
// (spec §7; docs/api.md "Time slots and the lock flow", "Plans" identity rules).
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { voterListSchema } from '../../supabase/functions/_shared/contract/common.ts';
import {
  ANSWER_INVALID,
  type MyDateAnswers,
  myDateAnswersSchema,
  type NoDatesResult,
  type TimeSlotVoteResult,
  type VoteDateResult,
} from '../../supabase/functions/_shared/contract/dates.ts';
import { GUEST_SECRET_MISSING, GUEST_SECRET_WRONG } from '../../supabase/functions/_shared/contract/guest-secret.ts';
import { api, apiDatabaseAsOwner, expectText } from '../support/api.ts';
import { apiWorld, type SlotJson } from '../support/api-world.ts';
import { rankedPlan } from '../support/date-ranking.ts';
import { day } from '../support/dates.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});

const DATE_INVALID = 'Date must be a real calendar date (YYYY-MM-DD)';


const voteDate = (planId: string, body: unknown, token?: string, guestSecret?: string | null) =>
  api<VoteDateResult>('POST', `/api/plans/${planId}/vote-date`, { body, token, guestSecret });
const voteSlot = (slotId: string, body: unknown, token?: string, guestSecret?: string | null) =>
  api<TimeSlotVoteResult>('POST', `/api/timeslots/${slotId}/vote`, { body, token, guestSecret });
const slotsOf = (planId: string) => api<SlotJson[]>('GET', `/api/plans/${planId}/timeslots`);

describe('POST /api/plans/{id}/vote-date', () => {
  it('finds or creates the slot and toggles the caller’s vote', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const date = await day(owner, 3);

    const first = await voteDate(plan.id, { date }, host.token);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ voted: true, timeSlotId: expect.any(String), voteCount: 1, ifNeedBeCount: 0, answer: 'yes' });

    // The last vote of a slot goes: so does the slot (its id is still answered).
    const again = await voteDate(plan.id, { date }, host.token);
    expect(again.json).toEqual({ voted: false, timeSlotId: first.json.timeSlotId, voteCount: 0, ifNeedBeCount: 0, answer: null });
    expect((await slotsOf(plan.id)).json).toEqual([]);

    // Another period is another slot; voting the whole day again makes a new one.
    const evening = await voteDate(plan.id, { date, period: 'Evening' }, host.token);
    const day2 = await voteDate(plan.id, { date }, host.token);
    expect(evening.json.timeSlotId).not.toBe(first.json.timeSlotId);
    expect(day2.json).toEqual({ voted: true, timeSlotId: expect.any(String), voteCount: 1, ifNeedBeCount: 0, answer: 'yes' });
    expect((await slotsOf(plan.id)).json).toEqual([
      { id: day2.json.timeSlotId, date, period: null, voteCount: 1, ifNeedBeCount: 0, leading: true },
      { id: evening.json.timeSlotId, date, period: 'Evening', voteCount: 1, ifNeedBeCount: 0, leading: true },
    ]);
  });

  it('normalises the period: letter case, a leading zero, blank = whole day', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const date = await day(owner, 2);
    const a = await voteDate(plan.id, { date, period: 'evening' }, host.token);
    const b = await voteDate(plan.id, { date, period: 'Evening' }, host.token);
    expect(b.json).toMatchObject({ voted: false, timeSlotId: a.json.timeSlotId, voteCount: 0 });
    const clock = await voteDate(plan.id, { date, period: '07:30' }, host.token);
    const blank = await voteDate(plan.id, { date, period: '  ' }, host.token);
    const periods = (await slotsOf(plan.id)).json.map((s) => [s.id, s.period]);
    expect(periods).toEqual(
      expect.arrayContaining([
        [clock.json.timeSlotId, '7:30'],
        [blank.json.timeSlotId, null],
      ]),
    );
    expectText(await voteDate(plan.id, { date, period: 'Brunch' }, host.token), 400, 'Period must be Morning, Afternoon, Evening, Night or a time like 19:30');
  });

  it('members and guests count together; a guest votes with its guestId', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    const date = await day(owner, 5);
    await voteDate(plan.id, { date }, host.token);
    const res = await voteDate(plan.id, { date, guestId: guest.id });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ voted: true, voteCount: 2 });
    const [row] = await owner`select count(*)::int as n from app.time_slot_votes where guest_id = ${guest.id}`;
    expect(row.n).toBe(1);
  });

  it('joins a signed-in user on first vote (whoever holds the link)', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const friend = await world.newUser('Fred');
    const res = await voteDate(plan.id, { date: await day(owner, 1) }, friend.token);
    expect(res.status).toBe(200);
    const [row] = await owner`select count(*)::int as n from app.participants where plan_id = ${plan.id} and user_id = ${friend.id}`;
    expect(row.n).toBe(1);
  });

  it('a valid token wins over a guestId in the body', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    const res = await voteDate(plan.id, { date: await day(owner, 1), guestId: guest.id }, host.token);
    expect(res.status).toBe(200);
    const votes = await owner`select user_id, guest_id from app.time_slot_votes where time_slot_id = ${res.json.timeSlotId}`;
    expect(votes).toEqual([{ user_id: host.id, guest_id: null }]);
  });

  it('401 without a token or guestId; 403 for a guest of another plan; the guest secret; 401 for a bad token', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const other = await world.newPlan(host);
    const otherGuest = await world.newGuest(other.id);
    const guest = await world.newGuest(plan.id);
    const date = await day(owner, 1);
    expectText(await voteDate(plan.id, { date }), 401, 'Join the plan first to vote');
    expectText(await voteDate(plan.id, { date, guestId: null }), 401, 'Join the plan first to vote');
    expectText(await voteDate(plan.id, { date, guestId: otherGuest.id }), 403, 'Please join the plan first to vote');
    expectText(await voteDate(plan.id, { date, guestId: randomUUID() }), 401, GUEST_SECRET_MISSING);
    expectText(await voteDate(plan.id, { date, guestId: randomUUID() }, undefined, 'a'.repeat(43)), 404, 'Guest not found');
    expectText(await voteDate(plan.id, { date, guestId: guest.id }, undefined, null), 401, GUEST_SECRET_MISSING);
    expectText(await voteDate(plan.id, { date, guestId: guest.id }, undefined, 'a-guess'), 403, GUEST_SECRET_WRONG);
    expect((await voteDate(plan.id, { date }, 'not-a-token')).status).toBe(401);
    expect((await slotsOf(plan.id)).json).toEqual([]);
  });

  it('date rules: a real YYYY-MM-DD, from yesterday to 366 days ahead', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const t = host.token;
    expectText(await voteDate(plan.id, {}, t), 400, 'Date is required');
    for (const date of ['2026-02-30', '2027-02-29', '2026-13-01', '2026-04-31', 'tomorrow', '2026-3-1', 20260301, '']) {
      expectText(await voteDate(plan.id, { date }, t), 400, DATE_INVALID);
    }
    expectText(await voteDate(plan.id, { date: await day(owner, -2) }, t), 400, 'Date must not be in the past');
    expectText(await voteDate(plan.id, { date: await day(owner, 367) }, t), 400, 'Date must be at most 366 days ahead');
    expect((await voteDate(plan.id, { date: await day(owner, -1) }, t)).status).toBe(200);
    expect((await voteDate(plan.id, { date: await day(owner, 366) }, t)).status).toBe(200);
    expect((await voteDate(plan.id, { date: await day(owner, 0) }, t)).status).toBe(200);
  });

  it('bad bodies are 400, unknown and malformed plans 404', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    expectText(await api('POST', `/api/plans/${plan.id}/vote-date`, { rawBody: '{nope', token: host.token }), 400, 'Request body must be valid JSON');
    expectText(await voteDate(plan.id, [], host.token), 400, 'Request body must be a JSON object');
    expectText(await voteDate(plan.id, { date: await day(owner, 1), guestId: 'x' }), 400, 'guestId must be a valid id');
    expectText(await voteDate(randomUUID(), { date: await day(owner, 1) }, host.token), 404, 'Plan not found');
    expectText(await voteDate('not-a-uuid', { date: await day(owner, 1) }, host.token), 404, 'Plan not found');
  });
});

describe('dates proposed per participant (docs/decisions/0084-caps-per-participant.md)', () => {
  it('one guest proposing date after date gets 409 at its share; the others still propose and vote, also on its dates', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const spammer = await world.newGuest(plan.id, 'Spammy');
    const friend = await world.newGuest(plan.id, 'Friend');
    const [{ share }] = await owner<{ share: number }[]>`select private.plan_cap('slots_per_participant') as share`;
    const today = await day(owner, 0);
    const dayAhead = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

    for (let n = 1; n <= share; n++) expect((await voteDate(plan.id, { date: dayAhead(n), guestId: spammer.id })).status).toBe(200);
    expectText(
      await voteDate(plan.id, { date: dayAhead(share + 1), guestId: spammer.id }),
      409,
      `You already proposed ${share} dates and times in this plan, the most one person can; vote for one of them`,
    );
    // Voting on a date that exists is never capped, for the spammer either.
    expect((await voteDate(plan.id, { date: dayAhead(1), guestId: spammer.id })).json.voted).toBe(false);
    expect((await voteDate(plan.id, { date: dayAhead(2), guestId: friend.id })).json.voteCount).toBe(2);
    expect((await voteDate(plan.id, { date: dayAhead(share + 1), guestId: friend.id })).json.voted).toBe(true);
    expect((await voteDate(plan.id, { date: dayAhead(share + 2), period: 'Evening' }, host.token)).status).toBe(200);
    expect((await slotsOf(plan.id)).json).toHaveLength(share + 1);
  });
});

describe('GET /api/plans/{id}/timeslots', () => {
  it('lists {id, date, period, voteCount, ifNeedBeCount, leading} by date, then whole day first and by time of day', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    const [d1, d3] = [await day(owner, 1), await day(owner, 3)];
    const order: [string, string | null][] = [
      [d3, 'Night'],
      [d3, '19:30'],
      [d3, null],
      [d1, 'Morning'],
      [d3, 'Evening'],
      [d3, '8:00'],
      [d3, 'Afternoon'],
    ];
    for (const [date, period] of order) await voteDate(plan.id, { date, period }, host.token);
    await voteDate(plan.id, { date: d3, period: 'Evening', guestId: guest.id });

    const res = await slotsOf(plan.id);
    expect(res.status).toBe(200);
    expect(res.json.map((s) => [s.date, s.period, s.voteCount])).toEqual([
      [d1, 'Morning', 1],
      [d3, null, 1],
      [d3, '8:00', 1],
      [d3, 'Afternoon', 1],
      [d3, 'Evening', 2],
      [d3, '19:30', 1],
      [d3, 'Night', 1],
    ]);
    expect(Object.keys(res.json[0]).sort()).toEqual(['date', 'id', 'ifNeedBeCount', 'leading', 'period', 'voteCount']);
    // Day 3 leads (two people say yes on it): each of its slots says so.
    expect(res.json.map((s) => s.leading)).toEqual([false, true, true, true, true, true, true]);
  });

  it('readable with the link alone; [] for a plan without slots; 404 for unknown or malformed ids', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const res = await slotsOf(plan.id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual([]);
    expectText(await slotsOf(randomUUID()), 404, 'Plan not found');
    expectText(await slotsOf('1234'), 404, 'Plan not found');
  });
});

describe('POST /api/timeslots/{id}/vote', () => {
  it('toggles a member’s and a guest’s vote and answers the count', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    const slot = (await voteDate(plan.id, { date: await day(owner, 4), period: 'Night' }, host.token)).json.timeSlotId;

    const yes = (voted: boolean, voteCount: number) => ({ voted, voteCount, ifNeedBeCount: 0, answer: voted ? 'yes' : null });
    expect((await voteSlot(slot, { guestId: guest.id })).json).toEqual(yes(true, 2));
    expect((await voteSlot(slot, {}, host.token)).json).toEqual(yes(false, 1));
    expect((await voteSlot(slot, undefined, host.token)).json).toEqual(yes(true, 2));
    // The last votes go: the slot goes with them, and is then unknown.
    expect((await voteSlot(slot, { guestId: guest.id })).json).toEqual(yes(false, 1));
    expect((await voteSlot(slot, undefined, host.token)).json).toEqual(yes(false, 0));
    expect((await slotsOf(plan.id)).json).toEqual([]);
    expectText(await voteSlot(slot, undefined, host.token), 404, 'Time slot not found');
  });

  it('joins a signed-in user on first vote', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const slot = (await voteDate(plan.id, { date: await day(owner, 4) }, host.token)).json.timeSlotId;
    const friend = await world.newUser('Fay');
    expect((await voteSlot(slot, {}, friend.token)).json).toMatchObject({ voted: true, voteCount: 2 });
    expect((await api(`GET`, `/api/plans/${plan.id}`)).json.participantCount).toBe(2);
  });

  it('401 without identity, 403 for a guest of another plan, 404 for unknown or malformed slots', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const other = await world.newPlan(host);
    const otherGuest = await world.newGuest(other.id);
    const slot = (await voteDate(plan.id, { date: await day(owner, 4) }, host.token)).json.timeSlotId;
    expectText(await voteSlot(slot, {}), 401, 'Join the plan first to vote');
    expectText(await voteSlot(slot, { guestId: otherGuest.id }), 403, 'Please join the plan first to vote');
    const guest = await world.newGuest(plan.id);
    expectText(await voteSlot(slot, { guestId: guest.id }, undefined, null), 401, GUEST_SECRET_MISSING);
    expectText(await voteSlot(slot, { guestId: guest.id }, undefined, otherGuest.secret), 403, GUEST_SECRET_WRONG);
    expectText(await voteSlot(randomUUID(), {}, host.token), 404, 'Time slot not found');
    expectText(await voteSlot('slot-1', {}, host.token), 404, 'Time slot not found');
    expectText(await voteSlot(slot, { guestId: 12 }), 400, 'guestId must be a valid id');
    expect((await slotsOf(plan.id)).json[0].voteCount).toBe(1);
  });
});

describe('GET /api/timeslots/{id}/voters', () => {
  it('lists voters oldest first: members by user id, guests by guest id', async () => {
    const host = await world.newUser('Hana', 'Host');
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    const member = await world.newMember(plan.id, 'Mia');
    const slot = (await voteDate(plan.id, { date: await day(owner, 6) }, host.token)).json.timeSlotId;
    await voteSlot(slot, { guestId: guest.id });
    await voteSlot(slot, {}, member.token);

    const res = await api('GET', `/api/timeslots/${slot}/voters`);
    expect(res.status).toBe(200);
    // The shape the web app reads (the shared contract), and the values.
    expect(voterListSchema.safeParse(res.json).success).toBe(true);
    expect(res.json).toEqual([
      { id: host.id, name: 'Hana Host', isGuest: false, answer: 'yes' },
      { id: guest.id, name: guest.name, isGuest: true, answer: 'yes' },
      { id: member.id, name: 'Mia', isGuest: false, answer: 'yes' },
    ]);

    await voteSlot(slot, { guestId: guest.id });
    expect((await api('GET', `/api/timeslots/${slot}/voters`)).json.map((v: { id: string }) => v.id)).toEqual([host.id, member.id]);
  });

  it('[] for a slot without votes; 404 for unknown or malformed ids', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    // Only a locked slot lives without votes (the host's event time).
    const date = await day(owner, 6);
    await api('POST', `/api/plans/${plan.id}/lock-date`, { body: { date }, token: host.token });
    const timeSet = await api('POST', `/api/plans/${plan.id}/set-event-time`, { body: { time: '19:00' }, token: host.token });
    const slot = timeSet.json.lockedTimeSlotId as string;
    expect((await api('GET', `/api/timeslots/${slot}/voters`)).json).toEqual([]);
    expectText(await api('GET', `/api/timeslots/${randomUUID()}/voters`), 404, 'Time slot not found');
    expectText(await api('GET', '/api/timeslots/nope/voters'), 404, 'Time slot not found');
  });
});

describe('GET /api/plans/{id}/my-votes', () => {
  it('the signed-in caller’s slot ids, or a guest’s by ?guestId=', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    const [d1, d2] = [await day(owner, 1), await day(owner, 2)];
    const a = (await voteDate(plan.id, { date: d1 }, host.token)).json.timeSlotId;
    const b = (await voteDate(plan.id, { date: d2 }, host.token)).json.timeSlotId;
    await voteDate(plan.id, { date: d2, guestId: guest.id });

    const mine = await api('GET', `/api/plans/${plan.id}/my-votes`, { token: host.token });
    expect(mine.status).toBe(200);
    expect(mine.json).toEqual([a, b]);
    expect((await api('GET', `/api/plans/${plan.id}/my-votes?guestId=${guest.id}`)).json).toEqual([b]);
    expect((await api('GET', `/api/plans/${plan.id}/my-votes?guestId=${guest.id.toUpperCase()}`)).json).toEqual([b]);
    // Reads need no guest secret (they show what the slots' voters lists show anyway).
    expect((await api('GET', `/api/plans/${plan.id}/my-votes?guestId=${guest.id}`, { guestSecret: null })).json).toEqual([b]);

    const stranger = await world.newUser();
    expect((await api('GET', `/api/plans/${plan.id}/my-votes`, { token: stranger.token })).json).toEqual([]);
  });

  it('401 without identity; 404 for a guest of another plan, an unknown guest or plan; 400 malformed guestId', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const other = await world.newPlan(host);
    const otherGuest = await world.newGuest(other.id);
    expectText(await api('GET', `/api/plans/${plan.id}/my-votes`), 401, 'Join the plan first to see your votes');
    // A read: the guest id names no one here but a guest of this plan (no secret needed, none honoured).
    expectText(await api('GET', `/api/plans/${plan.id}/my-votes?guestId=${otherGuest.id}`), 404, 'Guest not found');
    expectText(await api('GET', `/api/plans/${plan.id}/my-votes?guestId=${randomUUID()}`), 404, 'Guest not found');
    expectText(await api('GET', `/api/plans/${plan.id}/my-votes?guestId=abc`), 400, 'guestId must be a valid id');
    expectText(await api('GET', `/api/plans/${randomUUID()}/my-votes`, { token: host.token }), 404, 'Plan not found');
  });
});

describe('answers on dates: yes, if need be, none of these work (docs/decisions/0108-answers-on-dates.md)', () => {
  const noDates = (planId: string, body: unknown, token?: string, headers?: Record<string, string>) =>
    api<NoDatesResult>('POST', `/api/plans/${planId}/no-dates`, { body, token, headers });
  const participants = async (planId: string) =>
    (await api<{ name: string; hasResponded: boolean; noDates: boolean }[]>('GET', `/api/plans/${planId}/participants`)).json.map(
      (p) => [p.name, p.hasResponded, p.noDates],
    );

  it('the toggle table on both routes: the same answer removes, the other replaces; voters, my-votes and its answers say which', async () => {
    const host = await world.newUser('Hana', 'Host');
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    const date = await day(owner, 4);
    const maybe = await voteDate(plan.id, { date, answer: 'ifneedbe' }, host.token);
    expect(maybe.json).toEqual({ voted: true, timeSlotId: expect.any(String), voteCount: 0, ifNeedBeCount: 1, answer: 'ifneedbe' });
    const slot = maybe.json.timeSlotId;
    expect((await voteSlot(slot, { guestId: guest.id })).json).toEqual({ voted: true, voteCount: 1, ifNeedBeCount: 1, answer: 'yes' });
    expect((await voteDate(plan.id, { date, answer: 'yes' }, host.token)).json).toMatchObject({ voted: true, timeSlotId: slot, voteCount: 2, ifNeedBeCount: 0 });
    expect((await voteSlot(slot, { answer: 'ifneedbe' }, host.token)).json).toEqual({ voted: true, voteCount: 1, ifNeedBeCount: 1, answer: 'ifneedbe' });

    const voters = await api('GET', `/api/timeslots/${slot}/voters`);
    expect(voterListSchema.safeParse(voters.json).success).toBe(true);
    expect(voters.json).toEqual([
      { id: host.id, name: 'Hana Host', isGuest: false, answer: 'ifneedbe' },
      { id: guest.id, name: guest.name, isGuest: true, answer: 'yes' },
    ]);
    expect((await slotsOf(plan.id)).json).toEqual([{ id: slot, date, period: null, voteCount: 1, ifNeedBeCount: 1, leading: true }]);
    // Without the parameter my-votes stays the ids (both answers); with it, each answer.
    expect((await api('GET', `/api/plans/${plan.id}/my-votes`, { token: host.token })).json).toEqual([slot]);
    const mine = await api<MyDateAnswers>('GET', `/api/plans/${plan.id}/my-votes?answers=true`, { token: host.token });
    expect(myDateAnswersSchema.safeParse(mine.json).success).toBe(true);
    expect(mine.json).toEqual({ answers: [{ timeSlotId: slot, answer: 'ifneedbe' }], noDates: false });
    expect(mine.headers.get('etag')).not.toBe((await api('GET', `/api/plans/${plan.id}/my-votes`, { token: host.token })).headers.get('etag'));
    expect((await api('GET', `/api/plans/${plan.id}/my-votes?guestId=${guest.id}&answers=true`)).json).toEqual({
      answers: [{ timeSlotId: slot, answer: 'yes' }],
      noDates: false,
    });
    expectText(await api('GET', `/api/plans/${plan.id}/my-votes?answers=yes`, { token: host.token }), 400, 'answers must be true or false');

    expect((await voteDate(plan.id, { date, answer: 'ifneedbe' }, host.token)).json).toMatchObject({ voted: false, voteCount: 1, ifNeedBeCount: 0, answer: null });
  });

  it('an unknown answer is 400 with one sentence on both routes, and nothing changes', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const date = await day(owner, 5);
    const slot = (await voteDate(plan.id, { date }, host.token)).json.timeSlotId;
    for (const answer of ['no', 'maybe', 'YES', '', null, 2, ['yes']]) {
      expectText(await voteDate(plan.id, { date, answer }, host.token), 400, ANSWER_INVALID);
      expectText(await voteDate(plan.id, { date: await day(owner, 6), answer }, host.token), 400, ANSWER_INVALID);
      expectText(await voteSlot(slot, { answer }, host.token), 400, ANSWER_INVALID);
    }
    expect((await slotsOf(plan.id)).json).toEqual([{ id: slot, date, period: null, voteCount: 1, ifNeedBeCount: 0, leading: true }]);
  });

  it('none of these work: a toggle that takes the caller’s date votes, counts as answered, shows to the host; a vote clears it', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id, 'Gwen');
    const date = await day(owner, 3);
    await voteDate(plan.id, { date, guestId: guest.id, answer: 'ifneedbe' });
    expect(await participants(plan.id)).toEqual([['Hana', false, false], ['Gwen', true, false]]);

    expect((await noDates(plan.id, { guestId: guest.id })).json).toEqual({ noDates: true });
    expect(await participants(plan.id)).toEqual([['Hana', false, false], ['Gwen', true, true]]);
    expect((await slotsOf(plan.id)).json).toEqual([]);
    expect((await api('GET', `/api/plans/${plan.id}/my-votes?guestId=${guest.id}&answers=true`)).json).toEqual({ answers: [], noDates: true });
    expect((await noDates(plan.id, {}, host.token)).json).toEqual({ noDates: true });
    expect((await noDates(plan.id, {}, host.token)).json).toEqual({ noDates: false });

    // A date vote clears it.
    await voteDate(plan.id, { date, guestId: guest.id });
    expect(await participants(plan.id)).toEqual([['Hana', false, false], ['Gwen', true, false]]);

    // A repeat with the same Idempotency-Key replays the first answer instead of toggling back.
    const key = { 'Idempotency-Key': randomUUID() };
    expect((await noDates(plan.id, {}, host.token, key)).json).toEqual({ noDates: true });
    const replay = await noDates(plan.id, {}, host.token, key);
    expect(replay.json).toEqual({ noDates: true });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await participants(plan.id)).toEqual([['Hana', true, true], ['Gwen', true, false]]);
  });

  it('no-dates refusals: 401 without identity, 403 for another plan’s guest, 404 unknown plans, 409 cancelled; a link holder joins', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const other = await world.newPlan(host);
    const otherGuest = await world.newGuest(other.id);
    expectText(await noDates(plan.id, {}), 401, 'Join the plan first to vote');
    expectText(await noDates(plan.id, { guestId: otherGuest.id }), 403, 'Please join the plan first to vote');
    expectText(await noDates(plan.id, { guestId: 'x' }), 400, 'guestId must be a valid id');
    expectText(await noDates(randomUUID(), {}, host.token), 404, 'Plan not found');
    expectText(await noDates('nope', {}, host.token), 404, 'Plan not found');
    const friend = await world.newUser('Fay');
    expect((await noDates(plan.id, {}, friend.token)).json).toEqual({ noDates: true });
    expect((await api('GET', `/api/plans/${plan.id}`)).json.participantCount).toBe(2);
    expect((await api('POST', `/api/plans/${plan.id}/cancel`, { body: {}, token: host.token })).status).toBe(200);
    expectText(await noDates(plan.id, {}, friend.token), 409, 'This plan was cancelled.');
  });

  it('the timeslots JSON marks the slots of the date the one ranking puts first (the fixture the deadline’s lock is tested on)', async () => {
    const ranked = await rankedPlan(owner);
    const slots = (await slotsOf(ranked.planId)).json;
    const [{ leader }] = await owner<{ leader: string }[]>`select (current_date + ${ranked.leadingDay}::int)::text as leader`;
    expect(slots.filter((s) => s.leading).map((s) => s.date)).toEqual([leader, leader]);
    expect(slots.filter((s) => !s.leading).every((s) => s.date !== leader)).toBe(true);
    const byDate = new Map<string, [number, number]>();
    for (const s of slots) byDate.set(`${s.date} ${s.period}`, [s.voteCount, s.ifNeedBeCount!]);
    expect(byDate.get(`${leader} Night`)).toEqual([2, 0]);
    expect(byDate.get(`${leader} null`)).toEqual([1, 1]);
  });
});
