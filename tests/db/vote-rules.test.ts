// app.toggle_idea_vote, app.toggle_time_slot_vote, app.vote_on_time_slot, app.vote_date (sequential
// behaviour; the parallel behaviour is in concurrency.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPgError, freshDatabase, type Claims, type TestDatabase } from '../support/db.ts';
import { addIdea, seedPlan, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

const toggleIdea = (claims: Claims, ideaId: string) =>
  db.as(claims, async (sql) => (await sql`select app.toggle_idea_vote(${ideaId}) as v`)[0].v as boolean);
const toggleSlot = (claims: Claims, slotId: string) =>
  db.as(claims, async (sql) => (await sql`select app.toggle_time_slot_vote(${slotId}) as v`)[0].v as boolean);
const voteDate = (claims: Claims, planId: string, date: string, period: string | null = null) =>
  db.as(claims, async (sql) => (await sql`select app.vote_date(${planId}, ${date}::date, ${period}) as v`)[0].v as boolean);
const isoDay = async (offset: number) =>
  (await db.owner`select (current_date + ${offset}::int)::text as d`)[0].d as string;
const ideaVotes = async (ideaId: string) =>
  (await db.owner`select coalesce(user_id, guest_id) as voter from app.idea_votes where idea_id = ${ideaId}`).map((r) => r.voter);

describe('toggle_idea_vote', () => {
  it('a member toggles on, off, on: one row at most', async () => {
    const idea = await addIdea(db.owner, w.planA, 'Escape room', { userId: w.users.host });
    expect(await toggleIdea(w.actors.member, idea)).toBe(true);
    expect(await ideaVotes(idea)).toEqual([w.users.member]);
    expect(await toggleIdea(w.actors.member, idea)).toBe(false);
    expect(await ideaVotes(idea)).toEqual([]);
    expect(await toggleIdea(w.actors.member, idea)).toBe(true);
    expect(await ideaVotes(idea)).toEqual([w.users.member]);
  });

  it("a guest's toggle touches only the guest's vote", async () => {
    const idea = await addIdea(db.owner, w.planA, 'Museum', { userId: w.users.host });
    await toggleIdea(w.actors.member, idea);
    expect(await toggleIdea(w.actors.guest, idea)).toBe(true);
    expect((await ideaVotes(idea)).sort()).toEqual([w.users.member, w.guest].sort());
    expect(await toggleIdea(w.actors.guest, idea)).toBe(false);
    expect(await ideaVotes(idea)).toEqual([w.users.member]);
  });

  it('a signed-in caller votes as itself even when a guest_id claim is present', async () => {
    const idea = await addIdea(db.owner, w.planA, 'Zoo', { userId: w.users.host });
    expect(await toggleIdea({ ...w.actors.member, guest_id: w.guest }, idea)).toBe(true);
    expect(await ideaVotes(idea)).toEqual([w.users.member]);
  });

  it('a signed-in link holder is joined on first vote', async () => {
    const idea = await addIdea(db.owner, w.planA, 'Bouldering', { userId: w.users.host });
    const stranger = { role: 'authenticated', sub: w.users.stranger, plan_id: w.planA } as const;
    expect(await toggleIdea(stranger, idea)).toBe(true);
    const rows = await db.owner`select name from app.participants where plan_id = ${w.planA} and user_id = ${w.users.stranger}`;
    expect(rows).toEqual([{ name: 'Sam Stranger' }]);
    await db.owner`delete from app.idea_votes where user_id = ${w.users.stranger}`;
    await db.owner`delete from app.participants where user_id = ${w.users.stranger}`;
  });

  it('Idea not found for unknown ids and for ideas the caller cannot see', async () => {
    await expectPgError(toggleIdea(w.actors.member, crypto.randomUUID()), 'HP404', 'Idea not found');
    await expectPgError(toggleIdea(w.actors.stranger, w.ideaA), 'HP404', 'Idea not found');
    await expectPgError(toggleIdea(w.actors.member, w.ideaB), 'HP404', 'Idea not found');
  });

  it('403 for a guest of another plan and for anon without a guest', async () => {
    await expectPgError(toggleIdea(w.actors.otherGuestWithLink, w.ideaA), 'HP403', 'Please join the plan first to vote');
    await expectPgError(toggleIdea(w.actors.anonWithLink, w.ideaA), 'HP403', 'Please join the plan first to vote');
    expect(await ideaVotes(w.ideaA)).toHaveLength(2);
  });
});

describe('toggle_time_slot_vote', () => {
  it('toggles the caller\'s vote on a slot', async () => {
    expect(await toggleSlot(w.actors.member, w.slotA)).toBe(true);
    expect(await toggleSlot(w.actors.guest, w.slotA)).toBe(false); // Gus had voted in the fixture
    const rows = await db.owner`select user_id, guest_id from app.time_slot_votes where time_slot_id = ${w.slotA}`;
    expect(rows).toEqual([{ user_id: w.users.member, guest_id: null }]);
    // (Gus votes again before Mia leaves: a slot whose last vote goes is removed, see empty-slots.test.ts.)
    expect(await toggleSlot(w.actors.guest, w.slotA)).toBe(true);
    expect(await toggleSlot(w.actors.member, w.slotA)).toBe(false);
  });
  it('Time slot not found / 403 like idea votes', async () => {
    await expectPgError(toggleSlot(w.actors.member, crypto.randomUUID()), 'HP404', 'Time slot not found');
    await expectPgError(toggleSlot(w.actors.member, w.slotB), 'HP404', 'Time slot not found');
    await expectPgError(toggleSlot(w.actors.otherGuestWithLink, w.slotA), 'HP403');
  });
});

describe('vote_on_time_slot', () => {
  const vote = (claims: Claims, slotId: string) =>
    db.as(claims, async (sql) => (await sql<{ voted: boolean; vote_count: number }[]>`select * from app.vote_on_time_slot(${slotId})`)[0]);

  it("toggles like toggle_time_slot_vote and answers the slot's count after the toggle", async () => {
    const before = (await db.owner`select count(*)::int as n from app.time_slot_votes where time_slot_id = ${w.slotA}`)[0].n as number;
    const first = await vote(w.actors.member, w.slotA);
    expect(first.vote_count).toBe(first.voted ? before + 1 : before - 1);
    const second = await vote(w.actors.member, w.slotA);
    expect(second).toEqual({ voted: !first.voted, vote_count: before });
  });

  it('the same refusals as toggle_time_slot_vote, changing nothing', async () => {
    const count = async () => (await db.owner`select count(*)::int as n from app.time_slot_votes`)[0].n as number;
    const before = await count();
    await expectPgError(vote(w.actors.member, crypto.randomUUID()), 'HP404', 'Time slot not found');
    await expectPgError(vote(w.actors.member, w.slotB), 'HP404', 'Time slot not found');
    await expectPgError(vote(w.actors.otherGuestWithLink, w.slotA), 'HP403', 'Please join the plan first to vote');
    expect(await count()).toBe(before);
  });

  // The rule makes the row policies' checks itself (private.vote_on_time_slot,
  // a definer: migration 20261125090800), so each refusal is tested here.
  it('refuses a caller without the link or a part in the plan, and a guest on another plan’s slot', async () => {
    const count = async () => (await db.owner`select count(*)::int as n from app.time_slot_votes`)[0].n as number;
    const before = await count();
    await expectPgError(vote(w.actors.stranger, w.slotA), 'HP404', 'Time slot not found');
    await expectPgError(vote(w.actors.anon, w.slotA), 'HP404', 'Time slot not found');
    await expectPgError(vote(w.actors.anonWithLink, w.slotA), 'HP403', 'Please join the plan first to vote');
    await expectPgError(vote(w.actors.guest, w.slotB), 'HP404', 'Time slot not found');
    expect(await count()).toBe(before);
    // A signed-in link holder joins on the first vote and votes as itself.
    const first = await vote(w.actors.strangerWithLink, w.slotA);
    expect(first.voted).toBe(true);
    expect(await db.owner`select 1 from app.time_slot_votes where time_slot_id = ${w.slotA} and user_id = ${w.users.stranger}`).toHaveLength(1);
    expect(await db.owner`select 1 from app.participants where plan_id = ${w.planA} and user_id = ${w.users.stranger}`).toHaveLength(1);
    await vote(w.actors.strangerWithLink, w.slotA);
    await db.owner`delete from app.participants where plan_id = ${w.planA} and user_id = ${w.users.stranger}`;
  });
});

describe('vote_on_date', () => {
  const vote = (claims: Claims, date: string, period: string | null = null) =>
    db.as(claims, async (sql) => (await sql<{ voted: boolean; time_slot_id: string; vote_count: number }[]>`
      select * from app.vote_on_date(${w.planA}, ${date}::date, ${period})`)[0]);

  it('answers the slot it found or made and its count; the last vote going answers the gone slot with 0', async () => {
    const day = await isoDay(11);
    const first = await vote(w.actors.guest, day, 'Night');
    const slot = await db.owner`select id from app.time_slots where plan_id = ${w.planA} and date = ${day}::date and period = 'Night'`;
    expect(first).toEqual({ voted: true, time_slot_id: slot[0].id, vote_count: 1 });
    expect(await vote(w.actors.member, day, ' Night ')).toEqual({ voted: true, time_slot_id: slot[0].id, vote_count: 2 });
    expect(await vote(w.actors.member, day, 'Night')).toEqual({ voted: false, time_slot_id: slot[0].id, vote_count: 1 });
    expect(await vote(w.actors.guest, day, 'Night')).toEqual({ voted: false, time_slot_id: slot[0].id, vote_count: 0 });
    expect(await db.owner`select 1 from app.time_slots where id = ${slot[0].id}`).toHaveLength(0);
  });

  it("refuses like vote_date and changes nothing", async () => {
    const slots = async () => (await db.owner`select count(*)::int as n from app.time_slots`)[0].n as number;
    const before = await slots();
    await expectPgError(vote(w.actors.otherGuestWithLink, await isoDay(12)), 'HP403', 'Please join the plan first to vote');
    await expectPgError(vote(w.actors.guest, await isoDay(-3)), 'HP400', 'Date must not be in the past');
    await expectPgError(vote(w.actors.guest, await isoDay(12), 'Brunch'), 'HP400');
    expect(await slots()).toBe(before);
  });

  // The rule makes the row policies' checks itself (private.vote_on_date, a
  // definer: migration 20261125090800), so each refusal is tested here.
  it('refuses a caller without the link or a part in the plan, creating no slot', async () => {
    const rows = async () =>
      (await db.owner`select (select count(*) from app.time_slots)::int as slots, (select count(*) from app.time_slot_votes)::int as votes`)[0];
    const before = await rows();
    const day = await isoDay(13);
    const onPlanB = (claims: Claims) =>
      db.as(claims, async (sql) => sql`select * from app.vote_on_date(${w.planB}, ${day}::date, null)`);
    await expectPgError(vote(w.actors.stranger, day), 'HP404', 'Plan not found');
    await expectPgError(vote(w.actors.anon, day), 'HP404', 'Plan not found');
    await expectPgError(vote(w.actors.anonWithLink, day), 'HP403', 'Please join the plan first to vote');
    await expectPgError(onPlanB(w.actors.guest), 'HP404', 'Plan not found');
    await expectPgError(onPlanB(w.actors.member), 'HP404', 'Plan not found');
    expect(await rows()).toEqual(before);
  });
});

describe('vote_date', () => {
  it('finds or creates the slot of (date, period) and toggles; the slot stays when the vote goes', async () => {
    const day = await isoDay(5);
    expect(await voteDate(w.actors.guest, w.planA, day, 'Morning')).toBe(true);
    expect(await voteDate(w.actors.member, w.planA, day, 'Morning')).toBe(true);
    const slots = await db.owner`select id from app.time_slots where plan_id = ${w.planA} and date = ${day} and period = 'Morning'`;
    expect(slots).toHaveLength(1);
    const [{ count }] = await db.owner`select count(*)::int from app.time_slot_votes where time_slot_id = ${slots[0].id}`;
    expect(count).toBe(2);
    expect(await voteDate(w.actors.guest, w.planA, day, 'Morning')).toBe(false);
    expect(await db.owner`select 1 from app.time_slots where id = ${slots[0].id}`).toHaveLength(1);
  });

  it('no period, null and blank all mean the whole day: one slot', async () => {
    const day = await isoDay(6);
    expect(await voteDate(w.actors.member, w.planA, day)).toBe(true);
    expect(await voteDate(w.actors.member, w.planA, day, '')).toBe(false);
    expect(await voteDate(w.actors.member, w.planA, day, '  ')).toBe(true);
    const slots = await db.owner`select period from app.time_slots where plan_id = ${w.planA} and date = ${day}`;
    expect(slots).toEqual([{ period: null }]);
  });

  it('accepts yesterday through 366 days ahead; 400 outside', async () => {
    expect(await voteDate(w.actors.member, w.planA, await isoDay(-1))).toBe(true);
    expect(await voteDate(w.actors.member, w.planA, await isoDay(366))).toBe(true);
    await expectPgError(voteDate(w.actors.member, w.planA, await isoDay(-2)), 'HP400', 'Date must not be in the past');
    await expectPgError(voteDate(w.actors.member, w.planA, await isoDay(367)), 'HP400', 'Date must be at most 366 days ahead');
  });

  it('400 for a period that is neither named nor H:mm', async () => {
    await expectPgError(voteDate(w.actors.member, w.planA, await isoDay(2), 'Brunch'), 'HP400', /^Period must be/);
  });

  it('404 for plans the caller cannot see, 403 for a guest of another plan', async () => {
    await expectPgError(voteDate(w.actors.member, crypto.randomUUID(), await isoDay(1)), 'HP404', 'Plan not found');
    await expectPgError(voteDate(w.actors.stranger, w.planA, await isoDay(1)), 'HP404', 'Plan not found');
    await expectPgError(voteDate(w.actors.otherGuestWithLink, w.planA, await isoDay(1)), 'HP403');
  });
});
