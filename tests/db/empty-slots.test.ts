// A slot with no votes that is not locked is removed
// (20261124100200_empty_slot_cleanup.sql), also when a vote races the removal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, runAs, type Claims, type TestDatabase } from '../support/db.ts';
import { addGuest, addMember, asGuest, createPlan, createUser } from '../support/plan-fixture.ts';

let db: TestDatabase;
let host: string;
let member: string;
beforeAll(async () => {
  db = await freshDatabase();
  host = await createUser(db.owner, 'Hanna', 'Host');
  member = await createUser(db.owner, 'Mia', null);
});
afterAll(() => db?.close());

async function plan() {
  const p = await createPlan(db.owner, host);
  await addMember(db.owner, p.id, member);
  const guest = await addGuest(db.owner, p.id, 'Gus');
  return {
    planId: p.id,
    host: { role: 'authenticated', sub: host, plan_id: p.id } as Claims,
    member: { role: 'authenticated', sub: member, plan_id: p.id } as Claims,
    guest: asGuest(guest, { plan_id: p.id }),
  };
}

const voteDate = (claims: Claims, planId: string, days: number, period: string | null = null) =>
  db.as(claims, async (sql) => (await sql`select app.vote_date(${planId}, current_date + ${days}::int, ${period}) as v`)[0].v as boolean);
const slotsOf = async (planId: string) =>
  (await db.owner`select id, (date - current_date)::int as days, period from app.time_slots where plan_id = ${planId} order by date, period`) as unknown as {
    id: string;
    days: number;
    period: string | null;
  }[];
const votesOn = async (slotId: string) =>
  (await db.owner`select count(*)::int as n from app.time_slot_votes where time_slot_id = ${slotId}`)[0].n as number;

describe('removing empty slots', () => {
  it('the last vote withdrawn removes the slot; a slot with votes left stays', async () => {
    const p = await plan();
    expect(await voteDate(p.member, p.planId, 2)).toBe(true);
    expect(await voteDate(p.guest, p.planId, 2)).toBe(true);
    expect(await voteDate(p.member, p.planId, 2)).toBe(false);
    expect(await slotsOf(p.planId)).toHaveLength(1);
    expect(await voteDate(p.guest, p.planId, 2)).toBe(false);
    expect(await slotsOf(p.planId)).toEqual([]);
  });

  it('also through timeslots/{id}/vote, a leave, and a deleted guest', async () => {
    const p = await plan();
    await voteDate(p.member, p.planId, 3, 'Evening');
    await voteDate(p.guest, p.planId, 4);
    await voteDate(p.member, p.planId, 5);
    const [evening, day4, day5] = await slotsOf(p.planId);
    await db.as(p.member, (sql) => sql`select app.toggle_time_slot_vote(${evening.id})`);
    expect((await slotsOf(p.planId)).map((s) => s.id)).toEqual([day4.id, day5.id]);
    // Leaving takes the leaver's votes, and with them the slots only they voted for.
    await db.as(p.member, (sql) => sql`select app.leave_plan(${p.planId})`);
    expect((await slotsOf(p.planId)).map((s) => s.id)).toEqual([day4.id]);
    // A guest deleted (e.g. after a transfer) takes its votes by cascade.
    await db.owner`delete from app.guests where plan_id = ${p.planId}`;
    expect(await slotsOf(p.planId)).toEqual([]);
  });

  it('the locked slot stays without votes; unlocking or another time removes it', async () => {
    const p = await plan();
    await db.as(p.host, (sql) => sql`select app.lock_date(${p.planId}, current_date + 6)`);
    await db.as(p.host, (sql) => sql`select app.set_event_time(${p.planId}, '19:00')`);
    const [seven] = await slotsOf(p.planId);
    expect(seven).toMatchObject({ days: 6, period: '19:00' });
    // Another time: the 19:00 slot (no votes) goes, the 20:00 one is locked.
    await db.as(p.host, (sql) => sql`select app.set_event_time(${p.planId}, '20:00')`);
    expect((await slotsOf(p.planId)).map((s) => s.period)).toEqual(['20:00']);
    // A member's vote keeps a slot through an unlock.
    const [eight] = await slotsOf(p.planId);
    await db.as(p.member, (sql) => sql`select app.toggle_time_slot_vote(${eight.id})`);
    await db.as(p.host, (sql) => sql`select app.unlock_plan(${p.planId})`);
    expect((await slotsOf(p.planId)).map((s) => s.id)).toEqual([eight.id]);
    await db.as(p.host, (sql) => sql`select app.lock_date(${p.planId}, current_date + 6)`);
    await db.as(p.host, (sql) => sql`select app.set_event_time(${p.planId}, '21:00')`);
    await db.as(p.host, (sql) => sql`select app.unlock_plan(${p.planId})`);
    expect((await slotsOf(p.planId)).map((s) => s.id)).toEqual([eight.id]);
  });

  it('deleting a plan still deletes everything', async () => {
    const p = await plan();
    await voteDate(p.member, p.planId, 2);
    await voteDate(p.guest, p.planId, 3);
    await db.as(p.host, (sql) => sql`select app.delete_plan(${p.planId})`);
    expect(await slotsOf(p.planId)).toEqual([]);
  });
});

describe('a vote racing the removal of its slot', () => {
  /** A transaction that holds until `release` is called; resolves when it has committed. */
  function heldTransaction(claims: Claims, work: (sql: Parameters<Parameters<typeof runAs>[2]>[0]) => Promise<unknown>) {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ready: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const done = runAs(db.pool(1), claims, async (sql) => {
      await work(sql);
      ready();
      await gate;
    });
    return { started, release, done };
  }

  const settled = (promise: Promise<unknown>, ms = 300) =>
    Promise.race([promise.then(() => true, () => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

  it('a vote in flight keeps the slot: the removal waits for it and then sees it', async () => {
    const p = await plan();
    await voteDate(p.member, p.planId, 8);
    const [slot] = await slotsOf(p.planId);
    // Gus votes and has not committed yet.
    const gus = heldTransaction(p.guest, (sql) => sql`select app.toggle_time_slot_vote(${slot.id})`);
    await gus.started;
    // Mia withdraws the last committed vote: the removal must wait for Gus.
    const mia = runAs(db.pool(1), p.member, (sql) => sql`select app.toggle_time_slot_vote(${slot.id})`);
    expect(await settled(mia)).toBe(false);
    gus.release();
    await gus.done;
    await mia;
    expect(await slotsOf(p.planId)).toHaveLength(1);
    expect(await votesOn(slot.id)).toBe(1);
  });

  it('a vote by date after the removal took the slot creates it anew', async () => {
    const p = await plan();
    await voteDate(p.member, p.planId, 9);
    const [slot] = await slotsOf(p.planId);
    // Mia withdraws (the slot is locked for removal) and has not committed yet.
    const mia = heldTransaction(p.member, (sql) => sql`select app.vote_date(${p.planId}, current_date + 9)`);
    await mia.started;
    const gus = runAs(db.pool(1), p.guest, (sql) => sql`select app.vote_date(${p.planId}, current_date + 9) as v`);
    expect(await settled(gus)).toBe(false);
    mia.release();
    await mia.done;
    const [{ v }] = await gus;
    expect(v).toBe(true);
    const slots = await slotsOf(p.planId);
    expect(slots).toHaveLength(1);
    expect(slots[0].id).not.toBe(slot.id);
    expect(await votesOn(slots[0].id)).toBe(1);
  });

  it('a vote by date in flight keeps the slot it found: a withdrawal of the last other vote waits for it', async () => {
    const p = await plan();
    await voteDate(p.member, p.planId, 11);
    const [slot] = await slotsOf(p.planId);
    // Gus votes by date on the slot he found and has not committed yet.
    const gus = heldTransaction(p.guest, (sql) => sql`select app.vote_date(${p.planId}, current_date + 11)`);
    await gus.started;
    const mia = runAs(db.pool(1), p.member, (sql) => sql`select app.vote_date(${p.planId}, current_date + 11) as v`);
    expect(await settled(mia)).toBe(false);
    gus.release();
    await gus.done;
    const [{ v }] = await mia;
    expect(v).toBe(false);
    expect(await slotsOf(p.planId)).toEqual([expect.objectContaining({ id: slot.id })]);
    expect(await votesOn(slot.id)).toBe(1);
  });

  it('half withdrawing while half vote, at once and again: no error, and the slot exists exactly when it has votes', async () => {
    const p = await plan();
    const voters: Claims[] = [];
    for (let i = 0; i < 10; i += 1) {
      const user = await createUser(db.owner, `Toggler${i}`, null);
      await addMember(db.owner, p.planId, user);
      voters.push({ role: 'authenticated', sub: user, plan_id: p.planId });
    }
    const pool = db.pool(10);
    // The first half votes, so every round below has 5 votes and 5 withdrawals.
    for (const claims of voters.slice(0, 5)) await voteDate(claims, p.planId, 12);
    for (let round = 0; round < 6; round += 1) {
      await Promise.all(
        voters.map((claims) => runAs(pool, claims, (sql) => sql`select app.vote_date(${p.planId}, current_date + 12)`)),
      );
      const [{ n }] = await db.owner`select count(*)::int as n from app.time_slot_votes where plan_id = ${p.planId}`;
      expect(n).toBe(5);
      expect(await slotsOf(p.planId)).toHaveLength(1);
    }
  });

  it('many voters toggling one slot at once: the slot exists exactly when it has votes', async () => {
    const p = await plan();
    const voters: Claims[] = [];
    for (let i = 0; i < 12; i += 1) {
      const user = await createUser(db.owner, `Voter${i}`, null);
      await addMember(db.owner, p.planId, user);
      voters.push({ role: 'authenticated', sub: user, plan_id: p.planId });
    }
    const pool = db.pool(12);
    for (let round = 0; round < 4; round += 1) {
      await Promise.all(
        voters.map((claims) => runAs(pool, claims, (sql) => sql`select app.vote_date(${p.planId}, current_date + 10)`)),
      );
      const slots = await slotsOf(p.planId);
      const expected = round % 2 === 0 ? 12 : 0;
      const [{ n }] = await db.owner`select count(*)::int as n from app.time_slot_votes where plan_id = ${p.planId}`;
      expect(n).toBe(expected);
      expect(slots).toHaveLength(expected ? 1 : 0);
    }
  });
});
