// The host's lock flow over HTTP: POST /api/plans/{id}/lock-date,
// .../set-event-time, .../unlock, .../location (spec §2 host panels, §4
// progression and unlock, §5 Set Time; docs/api.md "Time slots and the lock flow").
// The notification e-mail of set-event-time is tested in notify*.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { planStatusSchema } from '../../supabase/functions/_shared/contract/common.ts';
import { api, apiDatabaseAsOwner, expectText, PLAN_KEYS } from '../support/api.ts';
import { apiWorld, type PlanJson, type SlotJson } from '../support/api-world.ts';
import { day } from '../support/dates.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});

const post = (planId: string, action: string, body?: unknown, token?: string) =>
  api<PlanJson>('POST', `/api/plans/${planId}/${action}`, { body, token });
const lockDate = (planId: string, date: unknown, token?: string) => post(planId, 'lock-date', { date }, token);
const setTime = (planId: string, time: unknown, token?: string) => post(planId, 'set-event-time', { time }, token);
const unlock = (planId: string, token?: string) => post(planId, 'unlock', undefined, token);
const setLocation = (planId: string, location: unknown, token?: string) => post(planId, 'location', { location }, token);

describe('planning → time_range_locked → completed → unlock → planning', () => {
  it('walks the whole flow; each step answers the plan JSON', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    const date = await day(owner, 7);
    // Votes, a picked idea and a location, which unlocking must keep.
    await api('POST', `/api/plans/${plan.id}/vote-date`, { body: { date, guestId: guest.id } });
    const [{ id: ideaId }] = await owner<{ id: string }[]>`
      insert into app.ideas (plan_id, text, author_name, user_id) values (${plan.id}, 'Bowling', '-', ${host.id}) returning id`;
    await owner`update app.plans set locked_idea_id = ${ideaId} where id = ${plan.id}`;
    expect((await setLocation(plan.id, "Joe's Lanes", host.token)).status).toBe(200);

    const locked = await lockDate(plan.id, date, host.token);
    expect(locked.status).toBe(200);
    expect(Object.keys(locked.json).sort()).toEqual(PLAN_KEYS);
    expect(locked.json).toMatchObject({
      id: plan.id,
      status: 'time_range_locked',
      lockedTimeSlotDate: date,
      lockedTimeSlotId: null,
      eventTime: null,
      participantCount: 2,
    });

    const timed = await setTime(plan.id, '19:30', host.token);
    expect(timed.status).toBe(200);
    expect(timed.json).toMatchObject({ status: 'completed', eventTime: '7:30 PM', lockedTimeSlotDate: date, lockedIdeaId: ideaId });
    const slots = (await api<SlotJson[]>('GET', `/api/plans/${plan.id}/timeslots`)).json;
    const timeSlot = slots.find((s) => s.id === timed.json.lockedTimeSlotId);
    // No vote of its own; its date leads (the guest's whole-day yes).
    expect(timeSlot).toEqual({ id: timed.json.lockedTimeSlotId, date, period: '19:30', voteCount: 0, ifNeedBeCount: 0, leading: true });

    // GET /api/plans/{id} agrees.
    expect((await api<PlanJson>('GET', `/api/plans/${plan.id}`)).json).toEqual(timed.json);

    const unlocked = await unlock(plan.id, host.token);
    expect(unlocked.status).toBe(200);
    // Every status on the way is one the web app's contract knows.
    for (const answer of [locked, timed, unlocked]) expect(planStatusSchema.safeParse(answer.json.status).success).toBe(true);
    expect(unlocked.json).toMatchObject({
      status: 'planning',
      lockedTimeSlotDate: null,
      lockedTimeSlotId: null,
      eventTime: null,
      lockedIdeaId: ideaId,
      location: "Joe's Lanes",
    });
    // All votes and voted slots stay; the time's slot had no votes and goes.
    const after = (await api<SlotJson[]>('GET', `/api/plans/${plan.id}/timeslots`)).json;
    expect(after).toEqual(slots.filter((s) => s.id !== timed.json.lockedTimeSlotId));
    expect(after.find((s) => s.period === null)?.voteCount).toBe(1);
  });

  it('a locked date can move while no time is set; once completed, unlock first (409)', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const [d1, d2] = [await day(owner, 1), await day(owner, 2)];
    await lockDate(plan.id, d1, host.token);
    expect((await lockDate(plan.id, d2, host.token)).json).toMatchObject({ status: 'time_range_locked', lockedTimeSlotDate: d2 });
    await setTime(plan.id, '18:00', host.token);
    expectText(await lockDate(plan.id, d1, host.token), 409, 'Unlock the plan before locking another date');
    // Setting another time on the completed plan moves the time.
    expect((await setTime(plan.id, '08:15', host.token)).json).toMatchObject({ status: 'completed', eventTime: '8:15 AM' });
    await unlock(plan.id, host.token);
    expect((await lockDate(plan.id, d1, host.token)).json).toMatchObject({ status: 'time_range_locked', lockedTimeSlotDate: d1 });
  });

  it('unlocking a plan that is not locked is harmless', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const res = await unlock(plan.id, host.token);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('planning');
  });
});

describe('lock-date', () => {
  it('validates the date like a vote', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const t = host.token;
    expectText(await post(plan.id, 'lock-date', {}, t), 400, 'Date is required');
    expectText(await lockDate(plan.id, '2026-02-30', t), 400, 'Date must be a real calendar date (YYYY-MM-DD)');
    expectText(await lockDate(plan.id, 'next friday', t), 400, 'Date must be a real calendar date (YYYY-MM-DD)');
    expectText(await lockDate(plan.id, await day(owner, -3), t), 400, 'Date must not be in the past');
    expectText(await lockDate(plan.id, await day(owner, 400), t), 400, 'Date must be at most 366 days ahead');
    expect((await api('GET', `/api/plans/${plan.id}`)).json.status).toBe('planning');
  });
});

describe('set-event-time', () => {
  it("needs a locked date (409) and an 'HH:mm' 24-hour time (400)", async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    expectText(await setTime(plan.id, '19:30', host.token), 409, 'Lock a date before setting the event time');
    await lockDate(plan.id, await day(owner, 2), host.token);
    expectText(await post(plan.id, 'set-event-time', {}, host.token), 400, 'Time is required');
    for (const bad of ['7:30 PM', '24:00', '19:61', '1930', '', 1930, null]) {
      expectText(await setTime(plan.id, bad, host.token), 400, 'Time must be HH:mm (24-hour)');
    }
    expect((await api('GET', `/api/plans/${plan.id}`)).json.status).toBe('time_range_locked');
  });

  it('converts to 12-hour text', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    await lockDate(plan.id, await day(owner, 2), host.token);
    for (const [time, shown] of [
      ['00:05', '12:05 AM'],
      ['7:00', '7:00 AM'],
      ['12:00', '12:00 PM'],
      ['23:59', '11:59 PM'],
    ]) {
      expect((await setTime(plan.id, time, host.token)).json.eventTime).toBe(shown);
    }
  });
});

describe("set-event-time: the zone of the host's clock", () => {
  it('keeps it with the time, named as the browser names it; none is floating; unlock clears it', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    await lockDate(plan.id, await day(owner, 2), host.token);
    const set = (body: Record<string, unknown>) => post(plan.id, 'set-event-time', body, host.token);
    const first = await set({ time: '19:30', timeZone: 'Europe/Berlin' });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ eventTime: '7:30 PM', timeZone: 'Europe/Berlin' });
    expect((await api('GET', `/api/plans/${plan.id}`)).json).toMatchObject({ timeZone: 'Europe/Berlin' });
    expect((await set({ time: '19:30', timeZone: null })).json).toMatchObject({ eventTime: '7:30 PM', timeZone: null });
    expect((await set({ time: '19:30', timeZone: 'Asia/Kolkata' })).json.timeZone).toBe('Asia/Kolkata');
    expect((await post(plan.id, 'unlock', {}, host.token)).json).toMatchObject({ eventTime: null, timeZone: null });
  });

  it('400 with one sentence for what is no time zone, and nothing changes', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    await lockDate(plan.id, await day(owner, 2), host.token);
    for (const timeZone of ['Mars/Olympus_Mons', '+02:00', '', 'x'.repeat(65), 7, ['UTC'], { zone: 'UTC' }, 'Europe/Berlin\u0000']) {
      expectText(await post(plan.id, 'set-event-time', { time: '19:30', timeZone }, host.token), 400, 'Time zone must be a time zone name such as Europe/Berlin');
    }
    expect((await api('GET', `/api/plans/${plan.id}`)).json).toMatchObject({ status: 'time_range_locked', eventTime: null, timeZone: null });
  });
});

describe('location', () => {
  it('trims, clears with an empty string, refuses more than 500 characters', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    expect((await setLocation(plan.id, '  https://maps.example/joes  ', host.token)).json.location).toBe('https://maps.example/joes');
    expect((await setLocation(plan.id, 'x'.repeat(500), host.token)).json.location).toHaveLength(500);
    expectText(await setLocation(plan.id, 'x'.repeat(501), host.token), 400, 'Location must be at most 500 characters');
    expectText(await post(plan.id, 'location', {}, host.token), 400, 'Location is required');
    expectText(await setLocation(plan.id, 42, host.token), 400, 'Location must be text');
    expect((await setLocation(plan.id, '   ', host.token)).json.location).toBeNull();
    expect((await setLocation(plan.id, 'Park', host.token)).json.location).toBe('Park');
    expect((await setLocation(plan.id, null, host.token)).json.location).toBeNull();
  });
});

describe('who may do host actions', () => {
  const actions: [string, string, (planId: string, date: string) => unknown][] = [
    ['lock-date', 'Only the host can lock a date', (_, date) => ({ date })],
    ['set-event-time', 'Only the host can set the event time', () => ({ time: '19:00' })],
    ['unlock', 'Only the host can unlock the plan', () => undefined],
    ['location', 'Only the host can set the location', () => ({ location: 'Somewhere' })],
  ];

  it('403 for members and signed-in strangers, 401 signed out, 404 unknown or malformed plans', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const member = await world.newMember(plan.id);
    const stranger = await world.newUser('Sam');
    const date = await day(owner, 3);
    await lockDate(plan.id, date, host.token);
    for (const [action, denied, body] of actions) {
      expectText(await post(plan.id, action, body(plan.id, date), member.token), 403, denied);
      expectText(await post(plan.id, action, body(plan.id, date), stranger.token), 403, denied);
      expectText(await post(plan.id, action, body(plan.id, date)), 401, 'Not signed in');
      expect((await post(plan.id, action, body(plan.id, date), 'garbage')).status).toBe(401);
      expectText(await post(randomUUID(), action, body(plan.id, date), host.token), 404, 'Plan not found');
      expectText(await post('not-a-plan', action, body(plan.id, date), host.token), 404, 'Plan not found');
    }
    // Nothing changed; the stranger did not join by trying.
    const now = (await api<PlanJson>('GET', `/api/plans/${plan.id}`)).json;
    expect(now).toMatchObject({ status: 'time_range_locked', lockedTimeSlotDate: date, location: null, participantCount: 2 });
  });

  it('a guest (no token) cannot act as host', async () => {
    const host = await world.newUser();
    const plan = await world.newPlan(host);
    const guest = await world.newGuest(plan.id);
    expectText(await post(plan.id, 'lock-date', { date: await day(owner, 1), guestId: guest.id }), 401, 'Not signed in');
  });
});
