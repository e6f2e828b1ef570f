// app.leave_plan (hand-over, last one out, 409) and app.transfer_guest_votes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectPgError, freshDatabase, runAs, type Claims, type TestDatabase } from '../support/db.ts';
import {
  addGuest,
  addIdea,
  addMember,
  asGuest,
  createPlan,
  createUser,
  seedPlan,
  sha256Hex,
  type PlanWorld,
} from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
});
beforeEach(async () => {
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

const leave = (claims: Claims, planId: string) =>
  db.as(claims, async (sql) => (await sql`select app.leave_plan(${planId}) as deleted`)[0].deleted as boolean);
/** The transfer as the API sends it: the caller's claims plus the guest's id and, by default, its device's secret. */
const transfer = (claims: Claims, guestId: string, device: Partial<Claims> = asGuest(guestId)) =>
  db.as({ ...claims, guest_id: device.guest_id, guest_secret_hash: device.guest_secret_hash }, async (sql) =>
    (await sql`select * from app.transfer_guest_votes(${guestId})`)[0]);
const hostOf = async (planId: string) => (await db.owner`select host_id from app.plans where id = ${planId}`)[0]?.host_id;
const participantNames = async (planId: string) =>
  (await db.owner`select name from app.participants where plan_id = ${planId} order by name`).map((r) => r.name);

describe('leave_plan', () => {
  it('a member leaves: its row and votes go, its comments stay; the plan stays', async () => {
    expect(await leave(w.actors.member, w.planA)).toBe(false);
    expect(await participantNames(w.planA)).toEqual(['Gus', 'Hanna Host']);
    expect(await db.owner`select 1 from app.idea_votes where user_id = ${w.users.member}`).toHaveLength(0);
    expect(await db.owner`select author_name from app.idea_comments where id = ${w.commentA}`).toEqual([{ author_name: 'Mia' }]);
  });

  it('a guest id without its secret (or with a wrong one) cannot leave: 403, nothing deleted', async () => {
    for (const claims of [
      { role: 'anon', guest_id: w.guest, plan_id: w.planA } as Claims,
      { ...w.actors.guest, guest_secret_hash: sha256Hex('a guess') },
    ]) {
      await expectPgError(leave(claims, w.planA), 'HP403', 'You are not a participant of this plan');
    }
    expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(1);
  });

  it('a guest leaves: the guest and its votes are deleted', async () => {
    expect(await leave(w.actors.guest, w.planA)).toBe(false);
    expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(0);
    expect(await db.owner`select 1 from app.idea_votes where guest_id = ${w.guest}`).toHaveLength(0);
    expect(await participantNames(w.planA)).toEqual(['Hanna Host', 'Mia']);
  });

  it('the host hands over to the earliest-joined remaining member with an account (guests skipped)', async () => {
    const plan = await createPlan(db.owner, w.users.host, 'Hand-over');
    const early = Date.now() - 3_600_000;
    await addGuest(db.owner, plan.id, 'Early Guest');
    await db.owner`update app.participants set joined_at = ${new Date(early - 1000)} where plan_id = ${plan.id} and guest_id is not null`;
    const late = await createUser(db.owner, 'Late', null);
    const first = await createUser(db.owner, 'First', null);
    await addMember(db.owner, plan.id, late, new Date(early + 1000));
    await addMember(db.owner, plan.id, first, new Date(early));
    expect(await leave(w.actors.host, plan.id)).toBe(false);
    expect(await hostOf(plan.id)).toBe(first);
    expect(await participantNames(plan.id)).toEqual(['Early Guest', 'First', 'Late']);
  });

  it('409 when only guests would remain; nothing changes', async () => {
    const plan = await createPlan(db.owner, w.users.host, 'Guests only');
    await addGuest(db.owner, plan.id, 'Solo Guest');
    await expectPgError(
      leave(w.actors.host, plan.id),
      'HP409',
      'Delete the plan instead: no one else with an account can host it',
    );
    expect(await hostOf(plan.id)).toBe(w.users.host);
    expect(await participantNames(plan.id)).toEqual(['Hanna Host', 'Solo Guest']);
  });

  it('the last one out deletes the plan and everything in it', async () => {
    const plan = await createPlan(db.owner, w.users.host, 'Alone');
    const idea = await addIdea(db.owner, plan.id, 'Nap', { userId: w.users.host });
    expect(await leave(w.actors.host, plan.id)).toBe(true);
    expect(await db.owner`select 1 from app.plans where id = ${plan.id}`).toHaveLength(0);
    expect(await db.owner`select 1 from app.ideas where id = ${idea}`).toHaveLength(0);
  });

  it('after a hand-over the old host is out and the new one can leave last', async () => {
    const plan = await createPlan(db.owner, w.users.host, 'Two');
    await addMember(db.owner, plan.id, w.users.member);
    expect(await leave(w.actors.host, plan.id)).toBe(false);
    expect(await hostOf(plan.id)).toBe(w.users.member);
    expect(await leave(w.actors.member, plan.id)).toBe(true);
    expect(await hostOf(plan.id)).toBeUndefined();
  });

  it('403 for link holders who are not in the plan, 404 for plans one cannot see', async () => {
    await expectPgError(leave(w.actors.strangerWithLink, w.planA), 'HP403', 'You are not a participant of this plan');
    await expectPgError(leave(w.actors.otherGuestWithLink, w.planA), 'HP403');
    await expectPgError(leave(w.actors.stranger, w.planA), 'HP404', 'Plan not found');
  });

  it('the last two leaving at the same moment: both succeed, the plan is deleted, never left empty', async () => {
    for (let round = 0; round < 5; round++) {
      const plan = await createPlan(db.owner, w.users.host, 'Race');
      await addMember(db.owner, plan.id, w.users.member);
      const pool = db.pool(2);
      const results = await Promise.all([
        runAs(pool, w.actors.host, async (sql) => (await sql`select app.leave_plan(${plan.id}) as d`)[0].d),
        runAs(pool, w.actors.member, async (sql) => (await sql`select app.leave_plan(${plan.id}) as d`)[0].d),
      ]);
      expect(results.sort()).toEqual([false, true]);
      expect(await db.owner`select 1 from app.plans where id = ${plan.id}`).toHaveLength(0);
    }
  });

  it('host and first member leaving at the same moment: the next member ends up host', async () => {
    for (let round = 0; round < 5; round++) {
      const plan = await createPlan(db.owner, w.users.host, 'Race of three');
      const t = Date.now() - 60_000;
      await addMember(db.owner, plan.id, w.users.member, new Date(t));
      await addMember(db.owner, plan.id, w.users.stranger, new Date(t + 1000));
      const pool = db.pool(2);
      const results = await Promise.all([
        runAs(pool, w.actors.host, async (sql) => (await sql`select app.leave_plan(${plan.id}) as d`)[0].d),
        runAs(pool, w.actors.member, async (sql) => (await sql`select app.leave_plan(${plan.id}) as d`)[0].d),
      ]);
      expect(results).toEqual([false, false]);
      expect(await hostOf(plan.id)).toBe(w.users.stranger);
      expect(await participantNames(plan.id)).toEqual(['Sam Stranger']);
    }
  });
});

describe('transfer_guest_votes', () => {
  it('moves the votes the user lacks, drops duplicates, replaces the guest by the user, counts what moved', async () => {
    const idea2 = await addIdea(db.owner, w.planA, 'Cinema', { guestId: w.guest });
    await db.owner`insert into app.idea_votes (idea_id, plan_id, guest_id) values (${idea2}, ${w.planA}, ${w.guest})`;
    // The stranger joined plan A earlier on another device and voted idea A already.
    await addMember(db.owner, w.planA, w.users.stranger);
    await db.owner`insert into app.idea_votes (idea_id, plan_id, user_id) values (${w.ideaA}, ${w.planA}, ${w.users.stranger})`;

    const counts = await transfer(w.actors.stranger, w.guest);
    expect(counts).toEqual({ transferred_idea_votes: 1, transferred_time_votes: 1 });

    const ideaVotes = await db.owner`select idea_id from app.idea_votes where user_id = ${w.users.stranger} order by idea_id`;
    expect(ideaVotes.map((r) => r.idea_id).sort()).toEqual([w.ideaA, idea2].sort());
    const slotVotes = await db.owner`select time_slot_id from app.time_slot_votes where user_id = ${w.users.stranger}`;
    expect(slotVotes).toEqual([{ time_slot_id: w.slotA }]);
    expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(0);
    expect(await participantNames(w.planA)).toEqual(['Hanna Host', 'Mia', 'Sam Stranger']);
    // No double votes anywhere: count equals distinct voters.
    const [{ n, d }] = await db.owner`select count(*)::int as n, count(distinct (idea_id, user_id, guest_id))::int as d from app.idea_votes`;
    expect(n).toBe(d);
    // The guest's idea is now the user's.
    expect(await db.owner`select user_id, guest_id from app.ideas where id = ${idea2}`).toEqual([
      { user_id: w.users.stranger, guest_id: null },
    ]);
  });

  it("joins a user who was not in the plan, at the guest's place in the join order", async () => {
    const [{ joined_at }] = await db.owner`select joined_at from app.participants where guest_id = ${w.guest}`;
    const counts = await transfer(w.actors.stranger, w.guest);
    expect(counts).toEqual({ transferred_idea_votes: 1, transferred_time_votes: 1 });
    const rows = await db.owner`select joined_at from app.participants where plan_id = ${w.planA} and user_id = ${w.users.stranger}`;
    expect(rows).toEqual([{ joined_at }]);
  });

  it('a nameless account takes the guest name; a chosen name is kept', async () => {
    const sam = await addGuest(db.owner, w.planA, '  Sam   de Vries ');
    const fresh = (await db.owner`insert into app.users (email) values ('fresh@example.test') returning id`)[0].id;
    await transfer({ role: 'authenticated', sub: fresh }, sam);
    expect((await db.owner`select first_name, last_name from app.users where id = ${fresh}`)[0]).toEqual({
      first_name: 'Sam',
      last_name: 'de Vries',
    });
    expect(await participantNames(w.planA)).toContain('Sam de Vries');

    const solo = await addGuest(db.owner, w.planA, 'Robin');
    await transfer(w.actors.stranger, solo); // the stranger already has a name
    expect((await db.owner`select first_name, last_name from app.users where id = ${w.users.stranger}`)[0]).toEqual({
      first_name: 'Sam',
      last_name: 'Stranger',
    });
  });

  it('403 without sign-in, 404 for an unknown guest; nothing moves', async () => {
    await expectPgError(transfer(w.actors.guest, w.guest), 'HP403', 'Sign in to keep your votes');
    await expectPgError(transfer(w.actors.stranger, crypto.randomUUID()), 'HP404', 'Guest not found');
    expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(1);
  });

  it("403 without the guest's secret, with a wrong one or with another guest's: the id alone takes nothing over", async () => {
    const fresh = (await db.owner`insert into app.users (email) values (${`nameless-${crypto.randomUUID()}@example.test`}) returning id`)[0].id;
    const sentence = 'This device is no longer confirmed as that guest, please confirm your name again';
    for (const device of [
      { guest_id: w.guest },
      { guest_id: w.guest, guest_secret_hash: sha256Hex('a guess') },
      { guest_id: w.guest, guest_secret_hash: asGuest(w.otherGuest).guest_secret_hash },
      asGuest(w.otherGuest),
    ]) {
      await expectPgError(transfer({ role: 'authenticated', sub: fresh }, w.guest, device), 'HP403', sentence);
    }
    expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(1);
    expect(await db.owner`select 1 from app.idea_votes where user_id = ${fresh}`).toHaveLength(0);
    // Not even the name moves.
    expect((await db.owner`select first_name from app.users where id = ${fresh}`)[0].first_name).toBeNull();
  });
});
