// The change feed (the live domain): every kind of write bumps its
// plan's version once per transaction and notifies once per plan per
// transaction, with the parts that changed and no personal data; Supabase
// Realtime's realtime.send gets the same payload where it exists.
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, useFreshDatabase, usePlanWorld, type Claims, type TestDatabase } from '../support/db.ts';
import { addGuest, addIdea, asGuest, addMember, createPlan, createUser, dayFromToday } from '../support/plan-fixture.ts';

interface Change {
  planId: string;
  version: number;
  parts: string[];
  ideaIds?: string[] | null;
  slotIds?: string[] | null;
}

const db = useFreshDatabase();
const w = usePlanWorld(db);
let listener: postgres.Sql;
let received: Change[] = [];

beforeAll(async () => {
  listener = postgres(db.url, { max: 1, onnotice: () => {} });
  await listener.listen('hangplan_plan_changes', (payload) => received.push(JSON.parse(payload) as Change));
});
// After hooks run last-registered first: the listener ends before its database goes.
afterAll(async () => {
  await listener?.end();
});
beforeEach(async () => {
  await settle();
  received = [];
});

/** Notifications arrive asynchronously after COMMIT: wait until the stream is quiet. */
async function settle(quietMs = 60): Promise<void> {
  let seen = -1;
  while (seen !== received.length) {
    seen = received.length;
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

async function changesAfter(write: () => Promise<unknown>): Promise<Change[]> {
  // Whatever the arranging wrote is announced asynchronously too: let it pass first.
  await settle();
  received = [];
  await write();
  await settle();
  return received;
}

const versionOf = async (planId: string) =>
  Number((await db.owner`select version from app.plan_versions where plan_id = ${planId}`)[0]?.version ?? 0);
const call = (claims: Claims, query: (sql: postgres.TransactionSql) => Promise<unknown>) => db.as(claims, query);
const today = (offset: number) => dayFromToday(db.owner, offset);

/** Exactly one change for `planId`, version one above the one before, with these parts. */
async function expectOneChange(planId: string, parts: string[], write: () => Promise<unknown>): Promise<Change> {
  const before = await versionOf(planId);
  const changes = await changesAfter(write);
  expect(changes.filter((c) => c.planId === planId)).toHaveLength(1);
  const [change] = changes.filter((c) => c.planId === planId);
  expect(change.version).toBe(before + 1);
  expect(change.parts).toEqual(parts);
  if (!parts.includes('deleted')) expect(await versionOf(planId)).toBe(before + 1);
  return change;
}

describe('versions', () => {
  it('every plan has a version row from its first write on', async () => {
    const plan = await createPlan(db.owner, w.users.host, 'Fresh');
    await settle();
    expect(await versionOf(plan.id)).toBe(2); // the plan insert, then the host's participant row
    const [row] = await db.as({ role: 'anon', plan_id: plan.id }, (sql) => sql`select version from app.plan_versions`);
    expect(Number(row.version)).toBe(2);
  });

  it('is readable like the plan: a link holder or participant, nobody else', async () => {
    const rows = (claims: Claims) => db.as(claims, (sql) => sql`select plan_id from app.plan_versions`);
    expect(await rows(w.actors.anon)).toEqual([]);
    expect((await rows(w.actors.anonWithLink)).map((r) => r.plan_id)).toEqual([w.planA]);
    expect((await rows(w.actors.guest)).map((r) => r.plan_id)).toEqual([w.planA]);
    expect((await rows(w.actors.stranger)).length).toBe(0);
    await expect(db.as(w.actors.host, (sql) => sql`update app.plan_versions set version = 1`)).rejects.toMatchObject({
      code: '42501',
    });
  });

  // The home list's hash (GET /api/plans) reads them through a definer whose
  // where clause is the check.
  it("private.my_plan_versions: the signed-in caller's own plans with their versions, for nobody else", async () => {
    const mine = async (claims: Claims) =>
      (await db.as(claims, (sql) => sql<{ plan_id: string; version: string }[]>`select plan_id, version from private.my_plan_versions()`))
        .map((r) => [r.plan_id, Number(r.version)])
        .sort();
    const ownerView = async (planIds: string[]) =>
      (await db.owner<{ plan_id: string; version: string }[]>`select plan_id, version from app.plan_versions where plan_id in ${db.owner(planIds)}`)
        .map((r) => [r.plan_id, Number(r.version)])
        .sort();
    expect(await mine(w.actors.member)).toEqual(await ownerView([w.planA]));
    // A link to another plan adds nothing: only plans the caller is in.
    expect(await mine({ ...w.actors.member, plan_id: w.planB })).toEqual(await ownerView([w.planA]));
    expect(await mine(w.actors.stranger)).toEqual([]);
    const hosted = (await db.owner<{ id: string }[]>`select id from app.plans where host_id = ${w.users.host}`).map((r) => r.id);
    expect(await mine(w.actors.host)).toEqual(await ownerView(hosted));
    for (const anon of [w.actors.anonWithLink, w.actors.guest]) {
      await expect(db.as(anon, (sql) => sql`select * from private.my_plan_versions()`)).rejects.toMatchObject({ code: '42501' });
    }
  });

  it('a rolled-back write neither bumps nor notifies', async () => {
    const before = await versionOf(w.planA);
    const changes = await changesAfter(() =>
      db.as(w.actors.member, (sql) => sql`select * from app.vote_on_idea(${w.ideaA})`, { rollback: true }),
    );
    expect(changes).toEqual([]);
    expect(await versionOf(w.planA)).toBe(before);
  });
});

describe('one notification per plan per transaction, for every kind of write', () => {
  it('an idea vote (the rule function) names the idea', async () => {
    const change = await expectOneChange(w.planA, ['ideas'], () =>
      call(w.actors.member, (sql) => sql`select * from app.vote_on_idea(${w.ideaA})`),
    );
    expect(change.ideaIds).toEqual([w.ideaA]);
    expect(change).not.toHaveProperty('slotIds');
  });

  it('a new idea and a comment', async () => {
    await expectOneChange(w.planA, ['ideas'], () =>
      call(w.actors.guest, (sql) => sql`select * from app.add_idea(${w.planA}, 'Picnic')`),
    );
    const change = await expectOneChange(w.planA, ['comments'], () =>
      call(w.actors.guest, (sql) => sql`select * from app.add_idea_comment(${w.ideaA}, 'Count me in')`),
    );
    expect(change.ideaIds).toEqual([w.ideaA]);
  });

  it('a date vote (find-or-create slot + vote) and a slot vote name the slot; "none of these work" tells dates and participants', async () => {
    const date = await today(5);
    const first = await expectOneChange(w.planA, ['dates'], () =>
      call(w.actors.guest, (sql) => sql`select * from app.vote_on_date(${w.planA}, ${date}::date, null)`),
    );
    expect(first.slotIds).toHaveLength(1);
    const again = await expectOneChange(w.planA, ['dates'], () =>
      call(w.actors.guest, (sql) => sql`select * from app.vote_on_time_slot(${w.slotA})`),
    );
    expect(again.slotIds).toEqual([w.slotA]);
    // "None of these dates work" shows in the participants list and the caller's answers;
    // a date vote after it clears it: the same two parts (docs/decisions/0108-answers-on-dates.md).
    await expectOneChange(w.planA, ['dates', 'participants'], () =>
      call(w.actors.member, (sql) => sql`select app.set_no_dates(${w.planA})`),
    );
    await expectOneChange(w.planA, ['dates', 'participants'], () =>
      call(w.actors.member, (sql) => sql`select * from app.vote_on_date(${w.planA}, ${date}::date, null, 'ifneedbe')`),
    );
  });

  it("the host's pick, location, lock, time and unlock", async () => {
    await expectOneChange(w.planA, ['plan'], () =>
      call(w.actors.host, (sql) => sql`select app.pick_idea(${w.planA}, ${w.ideaA})`),
    );
    await expectOneChange(w.planA, ['plan'], () =>
      call(w.actors.host, (sql) => sql`select app.set_location(${w.planA}, 'The park')`),
    );
    const date = await today(6);
    await expectOneChange(w.planA, ['plan'], () =>
      call(w.actors.host, (sql) => sql`select app.lock_date(${w.planA}, ${date}::date)`),
    );
    // A new slot for the time, and the plan: still one event.
    await expectOneChange(w.planA, ['dates', 'plan'], () =>
      call(w.actors.host, (sql) => sql`select app.set_event_time(${w.planA}, '19:30')`),
    );
    // The time's slot had no votes: unlocking removes it (empty slots go), still one event.
    await expectOneChange(w.planA, ['dates', 'plan'], () => call(w.actors.host, (sql) => sql`select app.unlock_plan(${w.planA})`));
  });

  it('an answer is part rsvps; a new date that asks again is one event with the plan', async () => {
    const plan = await createPlan(db.owner, w.users.host, 'Answers');
    const host: Claims = { role: 'authenticated', sub: w.users.host, plan_id: plan.id };
    const first = await today(3);
    await call(host, (sql) => sql`select app.lock_date(${plan.id}, ${first}::date)`);
    await expectOneChange(plan.id, ['rsvps'], () => call(host, (sql) => sql`select * from app.rsvp(${plan.id}, 'going', 1)`));
    await call(host, (sql) => sql`select app.unlock_plan(${plan.id})`);
    const date = await today(4);
    await expectOneChange(plan.id, ['plan', 'rsvps'], () => call(host, (sql) => sql`select app.lock_date(${plan.id}, ${date}::date)`));
  });

  it('joins and leaves (a leave also removes votes: one event with every part)', async () => {
    const friend = await createUser(db.owner, 'Fran', null);
    await expectOneChange(w.planA, ['participants'], () =>
      call({ role: 'authenticated', sub: friend, plan_id: w.planA }, (sql) =>
        sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${friend}, '-')`,
      ),
    );
    await call({ role: 'authenticated', sub: friend }, (sql) => sql`select * from app.vote_on_idea(${w.ideaA})`);
    await settle();
    const change = await expectOneChange(w.planA, ['ideas', 'participants'], () =>
      call({ role: 'authenticated', sub: friend }, (sql) => sql`select app.leave_plan(${w.planA})`),
    );
    expect(change.ideaIds).toEqual([w.ideaA]);
  });

  it('a guest session (guest + participant rows) is one event', async () => {
    await expectOneChange(w.planA, ['participants'], () =>
      call({ role: 'anon', plan_id: w.planA }, async (sql) => {
        const [g] = await sql`insert into app.guests (plan_id, name) values (${w.planA}, 'Gina') returning id`;
        await sql`insert into app.participants (plan_id, guest_id, name) values (${w.planA}, ${g.id}, '-')`;
      }),
    );
  });

  it('a guest-vote transfer moves many rows in one event', async () => {
    const plan = await createPlan(db.owner, w.users.host, 'Transfer');
    const guest = await addGuest(db.owner, plan.id, 'Tess');
    const ideas: string[] = [];
    for (let i = 0; i < 3; i++) ideas.push(await addIdea(db.owner, plan.id, `Idea ${i}`, { userId: w.users.host }));
    for (const idea of ideas) {
      await db.owner`insert into app.idea_votes (idea_id, plan_id, guest_id) values (${idea}, ${plan.id}, ${guest})`;
    }
    const user = await createUser(db.owner, null, null);
    await settle();
    const change = await expectOneChange(plan.id, ['ideas', 'participants'], () =>
      call({ ...asGuest(guest), role: 'authenticated', sub: user }, (sql) => sql`select * from app.transfer_guest_votes(${guest})`),
    );
    expect(change.ideaIds).toEqual([...ideas].sort());
  });

  it('a change to two plans in one transaction is one event each', async () => {
    // A renamed member's name is shown in both plans.
    const both = await createUser(db.owner, 'Bo', null);
    await addMember(db.owner, w.planA, both);
    await addMember(db.owner, w.planB, both);
    await settle();
    const changes = await changesAfter(() =>
      call({ role: 'authenticated', sub: both }, (sql) => sql`update app.users set first_name = 'Bob' where id = ${both}`),
    );
    expect(changes.map((c) => c.planId).sort()).toEqual([w.planA, w.planB].sort());
    expect(changes.every((c) => c.parts.join() === 'participants')).toBe(true);
  });

  it('more than 20 ideas in one transaction: ideaIds is null (refresh them all)', async () => {
    const plan = await createPlan(db.owner, w.users.host, 'Busy');
    const changes = await changesAfter(() =>
      db.owner.begin(async (sql) => {
        const rows = await sql`insert into app.ideas (plan_id, text, author_name, user_id)
                               select ${plan.id}, 'Idea ' || n, 'x', ${w.users.host} from generate_series(1, 21) n
                               returning id`;
        for (const row of rows) {
          await sql`insert into app.idea_votes (idea_id, plan_id, user_id) values (${row.id}, ${plan.id}, ${w.users.host})`;
        }
      }),
    );
    expect(changes).toHaveLength(1);
    expect(changes[0].ideaIds).toBeNull();
  });

  it('deleting a plan is one "deleted" event, one version past the last', async () => {
    const plan = await createPlan(db.owner, w.users.host, 'Doomed');
    await addIdea(db.owner, plan.id, 'Gone soon', { userId: w.users.host });
    await settle();
    const before = await versionOf(plan.id);
    const change = await expectOneChange(plan.id, ['deleted'], () =>
      call(w.actors.host, (sql) => sql`delete from app.plans where id = ${plan.id}`),
    );
    expect(change).toEqual({ planId: plan.id, version: before + 1, parts: ['deleted'] });
    expect(await db.owner`select 1 from app.plan_versions where plan_id = ${plan.id}`).toHaveLength(0);
  });

  it('50 toggles in 50 transactions are 50 events with strictly increasing versions', async () => {
    const voters: string[] = [];
    for (let i = 0; i < 50; i++) voters.push(await addGuest(db.owner, w.planB, `Voter ${i}`));
    await settle();
    const pool = db.pool(8);
    const changes = await changesAfter(() =>
      Promise.all(
        voters.map((guest) =>
          pool.begin(async (sql) => {
            await sql`select set_config('role', 'anon', true),
                             set_config('request.jwt.claims', ${JSON.stringify(asGuest(guest))}, true)`;
            await sql`select * from app.vote_on_idea(${w.ideaB})`;
          }),
        ),
      ),
    );
    expect(changes).toHaveLength(50);
    const versions = changes.map((c) => c.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(50);
  });

  it('the payload names no person: only plan, version, parts and idea/slot ids', async () => {
    const changes = await changesAfter(() =>
      call(w.actors.member, (sql) => sql`select * from app.add_idea_comment(${w.ideaA}, 'Mia was here')`),
    );
    for (const change of changes) {
      expect(Object.keys(change).sort()).toEqual(['ideaIds', 'parts', 'planId', 'version']);
      expect(JSON.stringify(change)).not.toMatch(/Mia|@/);
    }
  });
});

describe('private.plan_versions (the polling fallback)', () => {
  it('answers the versions of known plans and leaves unknown ones out', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const rows = await call(
      { role: 'anon' },
      (sql) => sql`select plan_id, version from private.plan_versions(${[w.planA, unknown]}::uuid[])`,
    );
    expect(rows).toEqual([{ plan_id: w.planA, version: String(await versionOf(w.planA)) }]);
  });
});

describe('Supabase Realtime, where the realtime schema exists', () => {
  let rt: TestDatabase;
  let plan: { id: string };
  beforeAll(async () => {
    rt = await freshDatabase();
    // A stand-in for Supabase's realtime.send that records its calls.
    await rt.owner.unsafe(`
      create schema realtime;
      create table realtime.sent (payload jsonb, event text, topic text, private boolean);
      create function realtime.send(payload jsonb, event text, topic text, private boolean default true)
      returns void language sql as $$ insert into realtime.sent values (payload, event, topic, private) $$;`);
    const host = await createUser(rt.owner, 'Rita', null);
    plan = await createPlan(rt.owner, host, 'Realtime');
  });
  afterAll(() => rt?.close());

  it('broadcasts the same payload on the public topic plan:{id}', async () => {
    const rtListener = postgres(rt.url, { max: 1, onnotice: () => {} });
    const notified: Change[] = [];
    await rtListener.listen('hangplan_plan_changes', (p) => notified.push(JSON.parse(p) as Change));
    await rt.owner`delete from realtime.sent`;
    const idea = await addIdea(rt.owner, plan.id, 'Bowling', { userId: (await rt.owner`select host_id from app.plans`)[0].host_id });
    await new Promise((r) => setTimeout(r, 200));
    await rtListener.end();
    const sent = await rt.owner`select payload, event, topic, private from realtime.sent`;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ event: 'change', topic: `plan:${plan.id}`, private: false });
    expect(sent[0].payload).toEqual(notified[0]);
    expect(sent[0].payload).toMatchObject({ planId: plan.id, parts: ['ideas'] });
    expect(idea).toBeTruthy();
  });
});
