// Caps per plan (20261124100100_plan_caps.sql): guests, ideas, comments per
// idea and distinct date slots, whatever path inserts the row; HP409 over a
// cap; race-free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPgError, freshDatabase, runAs, type Claims, type TestDatabase } from '../support/db.ts';
import { addIdea, addMember, createPlan, createUser } from '../support/plan-fixture.ts';

let db: TestDatabase;
let host: string;
let member: string;
beforeAll(async () => {
  db = await freshDatabase();
  host = await createUser(db.owner, 'Hanna', 'Host');
  member = await createUser(db.owner, 'Mia', null);
});
afterAll(() => db?.close());

const cap = async (name: string) => (await db.owner`select private.plan_cap(${name}) as n`)[0].n as number;

async function planWithMember() {
  const plan = await createPlan(db.owner, host);
  await addMember(db.owner, plan.id, member);
  return plan.id;
}

const memberOf = (planId: string): Claims => ({ role: 'authenticated', sub: member, plan_id: planId });
const hostOf = (planId: string): Claims => ({ role: 'authenticated', sub: host, plan_id: planId });

describe('the numbers', () => {
  it('are the ones in docs/decisions.md', async () => {
    expect(await cap('guests')).toBe(200);
    expect(await cap('ideas')).toBe(1000);
    expect(await cap('comments_per_idea')).toBe(500);
    expect(await cap('slots')).toBe(500);
  });
});

describe('guests per plan', () => {
  it('the guest after the cap is HP409 with a sentence', async () => {
    const planId = await planWithMember();
    const max = await cap('guests');
    await db.owner`insert into app.guests (plan_id, name) select ${planId}, 'Guest ' || n from generate_series(1, ${max - 1}) n`;
    const newGuest = (name: string) =>
      db.as({ role: 'anon', plan_id: planId }, (sql) => sql`insert into app.guests (plan_id, name) values (${planId}, ${name})`);
    await newGuest('Last one');
    await expectPgError(newGuest('One too many'), 'HP409', `This plan already has ${max} guests, the most a plan can have`);
    const [{ n }] = await db.owner`select count(*)::int as n from app.guests where plan_id = ${planId}`;
    expect(n).toBe(max);
  });

  it('parallel joins at the cap: exactly one gets in', async () => {
    const planId = await planWithMember();
    const max = await cap('guests');
    await db.owner`insert into app.guests (plan_id, name) select ${planId}, 'Guest ' || n from generate_series(1, ${max - 1}) n`;
    const pool = db.pool(10);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        runAs(pool, { role: 'anon', plan_id: planId }, (sql) => sql`insert into app.guests (plan_id, name) values (${planId}, ${`Racer ${i}`})`),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as { code: string }).code).toBe('HP409');
    const [{ n }] = await db.owner`select count(*)::int as n from app.guests where plan_id = ${planId}`;
    expect(n).toBe(max);
  });
});

describe('ideas per plan and comments per idea', () => {
  it('app.add_idea over the cap is HP409', async () => {
    const planId = await planWithMember();
    const max = await cap('ideas');
    await db.owner`insert into app.ideas (plan_id, text, author_name, user_id)
                   select ${planId}, 'Idea ' || n, 'x', ${host} from generate_series(1, ${max - 1}) n`;
    await db.as(memberOf(planId), (sql) => sql`select app.add_idea(${planId}, 'The last one')`);
    await expectPgError(
      db.as(memberOf(planId), (sql) => sql`select app.add_idea(${planId}, 'One too many')`),
      'HP409',
      `This plan already has ${max} ideas, the most a plan can have`,
    );
  });

  it('app.add_idea_comment over the cap is HP409; another idea still takes comments', async () => {
    const planId = await planWithMember();
    const full = await addIdea(db.owner, planId, 'Bowling', { userId: host });
    const other = await addIdea(db.owner, planId, 'Karaoke', { userId: host });
    const max = await cap('comments_per_idea');
    await db.owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
                   select ${full}, ${planId}, 'Comment ' || n, 'x', ${host} from generate_series(1, ${max}) n`;
    await expectPgError(
      db.as(memberOf(planId), (sql) => sql`select app.add_idea_comment(${full}, 'One too many')`),
      'HP409',
      `This idea already has ${max} comments, the most an idea can have`,
    );
    await db.as(memberOf(planId), (sql) => sql`select app.add_idea_comment(${other}, 'Fine here')`);
  });
});

describe('distinct date slots per plan', () => {
  async function fullPlan() {
    const planId = await planWithMember();
    const max = await cap('slots');
    // max slots: whole days 1..366 ahead, then Mornings until the cap (each with a vote, so none is empty).
    await db.owner`
      with s as (
        insert into app.time_slots (plan_id, date, period)
        select ${planId}, current_date + (n % 366) + 1, case when n < 366 then null else 'Morning' end
          from generate_series(0, ${max - 1}) n
        returning id
      )
      insert into app.time_slot_votes (time_slot_id, plan_id, user_id) select id, ${planId}, ${member} from s`;
    return { planId, max };
  }

  it('a vote that would add a slot is HP409; voting on an existing slot still works', async () => {
    const { planId, max } = await fullPlan();
    await expectPgError(
      db.as(memberOf(planId), (sql) => sql`select app.vote_date(${planId}, current_date + 5, 'Evening')`),
      'HP409',
      `This plan already has ${max} dates and times to vote on, the most a plan can have; vote for one of them`,
    );
    // Existing (date, whole day): the toggle works (removes Mia's vote, then adds it back).
    const voted = async () =>
      (await db.as(memberOf(planId), (sql) => sql`select app.vote_date(${planId}, current_date + 5) as v`))[0].v as boolean;
    expect(await voted()).toBe(false);
    // The slot lost its last vote and went; it comes back under the cap.
    expect(await voted()).toBe(true);
    const [{ n }] = await db.owner`select count(*)::int as n from app.time_slots where plan_id = ${planId}`;
    expect(n).toBe(max);
  });

  it("the host's event time always gets its slot", async () => {
    const { planId, max } = await fullPlan();
    await db.as(hostOf(planId), (sql) => sql`select app.lock_date(${planId}, current_date + 3)`);
    await db.as(hostOf(planId), (sql) => sql`select app.set_event_time(${planId}, '19:30')`);
    const [{ n }] = await db.owner`select count(*)::int as n from app.time_slots where plan_id = ${planId}`;
    expect(n).toBe(max + 1);
  });

  it('parallel votes for new slots at the cap: exactly one slot is added', async () => {
    const { planId, max } = await fullPlan();
    // One slot free.
    await db.owner`delete from app.time_slots where id = (select id from app.time_slots where plan_id = ${planId} order by date desc, period limit 1)`;
    const pool = db.pool(8);
    const outcomes = await Promise.allSettled(
      ['Morning', 'Afternoon', 'Evening', 'Night', '10:00', '11:00', '12:00', '13:00'].map((period) =>
        runAs(pool, memberOf(planId), (sql) => sql`select app.vote_date(${planId}, current_date + 200, ${period})`),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [{ n }] = await db.owner`select count(*)::int as n from app.time_slots where plan_id = ${planId}`;
    expect(n).toBe(max);
  });
});

// A cap is counted on every insert, so its count must go through its index
// however few rows the table held when it was last analysed: a plan cached
// while the table was small scanned every row of it on every later insert
// (issue 13's bench: each comment read all comments of every plan).
describe('the counts use their indexes', () => {
  it('comments added after the table was analysed nearly empty scan no table', async () => {
    // A database of its own: the table holds only this plan's rows.
    const fresh = await freshDatabase();
    try {
      const owner = fresh.owner;
      const hostId = await createUser(owner, 'Hanna', 'Host');
      const plan = await createPlan(owner, hostId);
      const idea = await addIdea(owner, plan.id, 'Bowling', { userId: hostId });
      await owner`analyze app.idea_comments`;
      // Past the five custom plans into the cached generic one; the cap's
      // count is the only statement here that reads app.idea_comments.
      const sequentialScans = await fresh.as({ role: 'authenticated', sub: hostId, plan_id: plan.id }, async (sql) => {
        for (let i = 0; i < 8; i++) await sql`select app.add_idea_comment(${idea}, ${`Comment ${i}`})`;
        return (await sql<{ n: number }[]>`select pg_stat_get_xact_numscans('app.idea_comments'::regclass)::int as n`)[0].n;
      });
      expect(sequentialScans).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});
