// Vote toggles under real concurrency: every caller on its own connection,
// all statements in flight at once. The count must always equal the rows, no
// duplicate, no lost vote, no error. Not one domain's file: the idea votes
// and the date votes share the per-voter lock and this crowd of 50 members
// on 50 open connections, which is set up once for both.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from 'postgres';
import { runAs, useFreshDatabase, type Claims } from '../support/db.ts';
import { addIdea, addMember, createPlan, createUser } from '../support/plan-fixture.ts';

const N = 50;
const db = useFreshDatabase();
let pool: Sql;
let planId: string;
let members: string[];
let strangers: string[];
beforeAll(async () => {
  pool = db.pool(N);
  const host = await createUser(db.owner, 'Host', null);
  planId = (await createPlan(db.owner, host, 'Crowded')).id;
  members = [];
  strangers = [];
  for (let i = 0; i < N; i++) {
    const m = await createUser(db.owner, `Member${i}`, null);
    await addMember(db.owner, planId, m);
    members.push(m);
    strangers.push(await createUser(db.owner, `Stranger${i}`, null));
  }
  // Open all N connections up front, so the votes below really overlap.
  await Promise.all(Array.from({ length: N }, () => pool`select pg_sleep(0.05)`));
});

const member = (i: number): Claims => ({ role: 'authenticated', sub: members[i] });
const all = <T>(fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: N }, (_, i) => fn(i)));
const toggle = (claims: Claims, ideaId: string) =>
  runAs(pool, claims, async (sql) => (await sql`select voted from app.vote_on_idea(${ideaId})`)[0].voted as boolean);
const voteRows = async (ideaId: string) =>
  (await db.owner`select count(*)::int as n, count(distinct user_id)::int as d from app.idea_votes where idea_id = ${ideaId}`)[0];

describe(`${N} people voting at the same moment`, () => {
  it(`${N} members toggling one idea: ${N} votes, then all toggling again: 0`, async () => {
    const idea = await addIdea(db.owner, planId, 'Party', { userId: members[0] });
    expect(await all((i) => toggle(member(i), idea))).toEqual(Array(N).fill(true));
    expect(await voteRows(idea)).toEqual({ n: N, d: N });
    expect(await all((i) => toggle(member(i), idea))).toEqual(Array(N).fill(false));
    expect(await voteRows(idea)).toEqual({ n: 0, d: 0 });
  });

  it(`${N} signed-in link holders voting at once are each joined once and counted once`, async () => {
    const idea = await addIdea(db.owner, planId, 'Concert', { userId: members[0] });
    const results = await all((i) => toggle({ role: 'authenticated', sub: strangers[i], plan_id: planId }, idea));
    expect(results).toEqual(Array(N).fill(true));
    expect(await voteRows(idea)).toEqual({ n: N, d: N });
    const [{ n }] = await db.owner`select count(*)::int as n from app.participants where plan_id = ${planId} and user_id = any(${strangers})`;
    expect(n).toBe(N);
  });

  it(`one person's ${N} parallel toggles behave like ${N} sequential ones (never a duplicate)`, async () => {
    const idea = await addIdea(db.owner, planId, 'Dinner', { userId: members[0] });
    for (const times of [N, N - 1]) {
      await db.owner`delete from app.idea_votes where idea_id = ${idea}`;
      const results = await Promise.all(Array.from({ length: times }, () => toggle(member(0), idea)));
      const on = results.filter(Boolean).length;
      const off = results.length - on;
      const rows = await voteRows(idea);
      expect(rows.n).toBe(times % 2); // an even number of toggles cancels out
      expect(on - off).toBe(rows.n);
    }
  });

  it(`${N} people voting the same new date: one slot, ${N} votes`, async () => {
    const results = await all((i) =>
      runAs(pool, member(i), async (sql) => (await sql`select voted from app.vote_on_date(${planId}, current_date + 7, 'Evening')`)[0].voted),
    );
    expect(results).toEqual(Array(N).fill(true));
    const slots = await db.owner`select id from app.time_slots where plan_id = ${planId} and date = current_date + 7`;
    expect(slots).toHaveLength(1);
    const [{ n, d }] = await db.owner`
      select count(*)::int as n, count(distinct user_id)::int as d from app.time_slot_votes where time_slot_id = ${slots[0].id}`;
    expect({ n, d }).toEqual({ n: N, d: N });
  });
});
