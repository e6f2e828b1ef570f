// app.plans: who can read and write, and the table's own constraints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, freshDatabase, type TestDatabase } from '../support/db.ts';
import { seedPlan, type ActorName, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id).sort();

describe('reading plans', () => {
  // Which of the two plans each caller sees with a bare `select * from app.plans`.
  const expected: Record<ActorName, ('A' | 'B')[]> = {
    anon: [],
    anonWithLink: ['A'],
    anonWithSlug: ['A'],
    guest: ['A'],
    otherGuest: ['B'],
    otherGuestWithLink: ['A', 'B'],
    member: ['A'],
    host: ['A'],
    stranger: [],
    strangerWithLink: ['A'],
  };
  for (const [actor, plans] of Object.entries(expected) as [ActorName, ('A' | 'B')[]][]) {
    it(`${actor} sees ${plans.length ? plans.join(' and ') : 'no plan'}`, async () => {
      const rows = await db.as(w.actors[actor], (sql) => sql<{ id: string }[]>`select id from app.plans`);
      expect(ids(rows)).toEqual(plans.map((p) => (p === 'A' ? w.planA : w.planB)).sort());
    });
  }

  it('a malformed plan_id claim grants nothing and raises nothing', async () => {
    const rows = await db.as({ role: 'anon', plan_id: 'not-a-uuid' }, (sql) => sql`select id from app.plans`);
    expect(rows).toHaveLength(0);
  });

  it('no plan can be found by searching without its id or slug', async () => {
    const rows = await db.as(w.actors.stranger, (sql) => sql`select id from app.plans where title like 'Plan%'`);
    expect(rows).toHaveLength(0);
  });
});

describe('creating plans', () => {
  it('a signed-in user creates a plan it hosts, with a random URL-safe slug, and reads it back', async () => {
    const row = await db.as(
      w.actors.stranger,
      async (sql) =>
        (await sql`insert into app.plans (title, host_id) values ('Picnic', ${w.users.stranger}) returning *`)[0],
      { rollback: true },
    );
    expect(row).toMatchObject({ title: 'Picnic', status: 'planning', is_open_invite: true, host_id: w.users.stranger });
    expect(row.slug).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });

  it('nobody creates a plan for someone else', async () => {
    await expectDenied(
      db.as(w.actors.stranger, (sql) => sql`insert into app.plans (title, host_id) values ('X', ${w.users.host})`),
    );
  });

  it('a new plan cannot start locked', async () => {
    await expectDenied(
      db.as(
        w.actors.stranger,
        (sql) =>
          sql`insert into app.plans (title, host_id, status, locked_time_slot_date)
              values ('X', ${w.users.stranger}, 'time_range_locked', current_date)`,
      ),
    );
  });

  it('anon cannot create plans', async () => {
    await expectDenied(
      db.as(w.actors.anonWithLink, (sql) => sql`insert into app.plans (title, host_id) values ('X', ${w.users.host})`),
    );
  });
});

describe('updating and deleting plans', () => {
  const rename = (actor: ActorName) =>
    db.as(w.actors[actor], (sql) => sql`update app.plans set title = 'Renamed' where id = ${w.planA}`, {
      rollback: true,
    });

  it('the host updates its plan', async () => {
    expect((await rename('host')).count).toBe(1);
  });

  for (const actor of ['member', 'strangerWithLink'] as const) {
    it(`${actor} updates nothing`, async () => {
      expect((await rename(actor)).count).toBe(0);
    });
  }

  for (const actor of ['anonWithLink', 'guest'] as const) {
    it(`${actor} has no UPDATE privilege`, async () => {
      await expectDenied(rename(actor));
    });
  }

  it('the slug and the id are not editable, even by the host', async () => {
    await expectDenied(db.as(w.actors.host, (sql) => sql`update app.plans set slug = 'abcdefghij' where id = ${w.planA}`));
  });

  it('the host may hand over to a member, not to a stranger', async () => {
    const ok = await db.as(
      w.actors.host,
      (sql) => sql`update app.plans set host_id = ${w.users.member} where id = ${w.planA}`,
      { rollback: true },
    );
    expect(ok.count).toBe(1);
    await expectPgError(
      db.as(w.actors.host, (sql) => sql`update app.plans set host_id = ${w.users.stranger} where id = ${w.planA}`),
      'HP409',
      'The new host must be a member of the plan',
    );
  });

  it('only the host deletes', async () => {
    for (const actor of ['member', 'strangerWithLink', 'stranger'] as const) {
      const r = await db.as(w.actors[actor], (sql) => sql`delete from app.plans where id = ${w.planA}`);
      expect(r.count, actor).toBe(0);
    }
    await expectDenied(db.as(w.actors.guest, (sql) => sql`delete from app.plans where id = ${w.planA}`));
    const r = await db.as(w.actors.host, (sql) => sql`delete from app.plans where id = ${w.planA}`, { rollback: true });
    expect(r.count).toBe(1);
  });
});

describe('plan constraints', () => {
  const insert = (cols: Record<string, unknown>) =>
    db.owner`insert into app.plans ${db.owner({ title: 'T', host_id: w.users.host, ...cols })}`;

  it('title is 1-120 characters after trimming', async () => {
    await expectPgError(insert({ title: '   ' }), '23514');
    await expectPgError(insert({ title: 'x'.repeat(121) }), '23514');
    await insert({ title: 'x'.repeat(120) });
    await insert({ title: `  ${'x'.repeat(120)}  ` });
  });

  it('description is at most 2000 and location at most 500 characters', async () => {
    await insert({ description: 'd'.repeat(2000), location: 'l'.repeat(500) });
    await expectPgError(insert({ description: 'd'.repeat(2001) }), '23514');
    await expectPgError(insert({ location: 'l'.repeat(501) }), '23514');
  });

  it('slug is URL-safe, 8-64 characters, unique', async () => {
    await expectPgError(insert({ slug: 'short' }), '23514');
    await expectPgError(insert({ slug: 'has space in it' }), '23514');
    await expectPgError(insert({ slug: w.slugA }), '23505');
  });

  it('status is one of the four values; locked states need a date; completed needs slot and time', async () => {
    await expectPgError(insert({ status: 'done' }), '23514');
    await expectPgError(insert({ status: 'time_range_locked' }), '23514');
    await insert({ status: 'date_locked', locked_time_slot_date: '2030-01-01' });
    await expectPgError(insert({ status: 'completed', locked_time_slot_date: '2030-01-01' }), '23514');
  });

  it('event_time is 12-hour text', async () => {
    await expectPgError(insert({ event_time: '19:00' }), '23514');
  });

  it('the picked idea must be an idea of the same plan', async () => {
    await expectPgError(
      db.owner`update app.plans set locked_idea_id = ${w.ideaB} where id = ${w.planA}`,
      '23503',
    );
  });
});
