// What the plans API relies on in the database (migration 20261121091000_plans_api):
// private.plan_participant_count, the one-statement "create plan + host row",
// and the random slug default.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, freshDatabase, type TestDatabase } from '../support/db.ts';
import { seedPlan, type ActorName, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

const countAs = async (actor: ActorName, planId: string) => {
  const [row] = await db.as(
    w.actors[actor],
    (sql) => sql<{ n: number | null }[]>`select private.plan_participant_count(${planId}::uuid) as n`,
  );
  return row.n;
};

describe('private.plan_participant_count', () => {
  // Plan A: host Hanna, member Mia, guest Gus.
  const readersOfA: ActorName[] = ['anonWithLink', 'anonWithSlug', 'guest', 'otherGuestWithLink', 'member', 'host', 'strangerWithLink'];
  for (const actor of readersOfA) {
    it(`counts plan A's 3 participants for ${actor}`, async () => {
      expect(await countAs(actor, w.planA)).toBe(3);
    });
  }

  for (const actor of ['anon', 'otherGuest', 'stranger'] as const) {
    it(`answers null to ${actor}, who cannot read plan A`, async () => {
      expect(await countAs(actor, w.planA)).toBeNull();
    });
  }

  it("the slug claim of plan A does not count plan B's participants", async () => {
    expect(await countAs('anonWithSlug', w.planB)).toBeNull();
  });

  it('answers null for an unknown plan, even with a matching plan_id claim', async () => {
    const unknown = randomUUID();
    const [row] = await db.as(
      { role: 'authenticated', sub: w.users.stranger, plan_id: unknown },
      (sql) => sql<{ n: number | null }[]>`select private.plan_participant_count(${unknown}::uuid) as n`,
    );
    expect(row.n).toBeNull();
  });

  it('follows the participants table (a leaving guest is no longer counted)', async () => {
    const n = await db.as(
      w.actors.guest,
      async (sql) => {
        await sql`select app.leave_plan(${w.planA}::uuid)`;
        const [row] = await sql<{ n: number }[]>`select private.plan_participant_count(${w.planA}::uuid) as n`;
        return row.n;
      },
      { rollback: true },
    );
    // The guest who left still holds the link (plan_id claim): 2 remain.
    expect(n).toBe(2);
  });

  it('is a security definer in private with an empty search_path, executable by the API roles only', async () => {
    const [fn] = await db.owner`
      select p.prosecdef as definer, p.proconfig as config,
             has_function_privilege('anon', p.oid, 'execute') as anon,
             has_function_privilege('authenticated', p.oid, 'execute') as authenticated,
             has_function_privilege('public', p.oid, 'execute') as public
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'private' and p.proname = 'plan_participant_count'`;
    expect(fn).toEqual({ definer: true, config: ['search_path=""'], anon: true, authenticated: true, public: false });
  });
});

describe('creating a plan and its host row in one statement (POST /api/plans)', () => {
  const createInOneStatement = (claims: Parameters<TestDatabase['as']>[0], planId: string, hostId: string) =>
    db.as(
      claims,
      (sql) => sql<{ id: string; slug: string; participants: number }[]>`
        with plan as (
          insert into app.plans (id, title, host_id) values (${planId}::uuid, 'Picnic', ${hostId}::uuid)
          returning *
        ), host as (
          insert into app.participants (plan_id, user_id, name)
          select plan.id, plan.host_id, '-' from plan returning id
        )
        select plan.id, plan.slug, (select count(*)::int from host) as participants from plan`,
      { rollback: true },
    );

  it('works when the plan_id claim names the new plan (as the API sends it)', async () => {
    const id = randomUUID();
    const [row] = await createInOneStatement(
      { role: 'authenticated', sub: w.users.stranger, plan_id: id },
      id,
      w.users.stranger,
    );
    expect(row).toMatchObject({ id, participants: 1 });
  });

  it('is refused without that claim: the new plan is not yet visible to the participants policy', async () => {
    const id = randomUUID();
    await expectDenied(createInOneStatement({ role: 'authenticated', sub: w.users.stranger }, id, w.users.stranger));
  });

  it('the claim does not let anyone create a plan for somebody else', async () => {
    const id = randomUUID();
    await expectDenied(
      createInOneStatement({ role: 'authenticated', sub: w.users.stranger, plan_id: id }, id, w.users.host),
    );
  });
});

describe('the slug default', () => {
  it('is built from gen_random_uuid() (a strong random source), not random()', async () => {
    const [col] = await db.owner<{ def: string }[]>`
      select pg_get_expr(d.adbin, d.adrelid) as def
        from pg_attrdef d
        join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
       where d.adrelid = 'app.plans'::regclass and a.attname = 'slug'`;
    expect(col.def).toContain('gen_random_uuid()');
    expect(col.def).not.toMatch(/(^|[^_])random\(\)/);
  });

  it('gives 12 URL-safe characters, different every time', async () => {
    const rows = await db.owner<{ slug: string }[]>`
      insert into app.plans (title, host_id)
      select 'Slug ' || g, ${w.users.host}::uuid from generate_series(1, 500) g
      returning slug`;
    const slugs = rows.map((r) => r.slug);
    for (const slug of slugs) expect(slug).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(new Set(slugs).size).toBe(500);
    // Both extra base64url characters turn up: the alphabet is the full 64.
    expect(slugs.join('')).toMatch(/[-_]/);
    await db.owner`delete from app.plans where title like 'Slug %'`;
  });
});
