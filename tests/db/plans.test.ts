// Plans (the plans domain): app.plans' row security and constraints, what
// the plans API relies on (private.plan_participant_count, the one-statement
// "create plan + host row", the random slug), and closed invitations and
// resetting the link. The membership helpers the policies are built on are
// participants.test.ts's.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld, type Claims, type TestDatabase } from '../support/db.ts';
import { sha256Hex, type ActorName } from '../support/plan-fixture.ts';

const db = useFreshDatabase();

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id).sort();

describe('app.plans', () => {
  const w = usePlanWorld(db);

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
});

describe('what the plans API relies on', () => {
  const w = usePlanWorld(db);

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
});

describe('closed invitations and the link (docs/decisions/0086, 0087)', () => {
  const w = usePlanWorld(db, { each: true });
  const NEEDS_LINK = "Only people with the host's link can join this plan";
  const close = () => db.owner`update app.plans set is_open_invite = false where id = ${w.planA}`;
  const shown = (claims: Claims, viewer: string | null) =>
    db.as(claims, async (sql) =>
      (await sql<{ slug: string | null }[]>`
        select private.plan_link_for(p.slug, p.is_open_invite, p.host_id, ${viewer}::uuid) as slug
          from app.plans p where p.id = ${w.planA}`)[0]?.slug);
  const join = (claims: Claims) =>
    db.as(claims, (sql) => sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${w.users.stranger}, '-')`, {
      rollback: true,
    });

  it('the link is shown to everyone while invitations are open, then only to the host or by the slug itself', async () => {
    expect(await shown(w.actors.strangerWithLink, w.users.stranger)).toBe(w.slugA);
    await close();
    expect(await shown(w.actors.strangerWithLink, w.users.stranger)).toBeNull();
    expect(await shown(w.actors.member, w.users.member)).toBeNull();
    expect(await shown(w.actors.guest, null)).toBeNull();
    expect(await shown(w.actors.host, w.users.host)).toBe(w.slugA);
    expect(await shown({ role: 'anon', plan_slug: w.slugA }, null)).toBe(w.slugA);
  });

  it('closed: joining by the id alone is refused, by the slug (or as the host) it is not', async () => {
    await join(w.actors.strangerWithLink);
    await close();
    await expectDenied(join(w.actors.strangerWithLink));
    await join({ ...w.actors.strangerWithLink, plan_slug: w.slugA });
    await expectDenied(join({ ...w.actors.strangerWithLink, plan_slug: w.slugB }));
    // The rules' first write refuses it in a sentence, before any policy would.
    await expectPgError(
      db.as(w.actors.strangerWithLink, (sql) => sql`select app.add_idea(${w.planA}, 'Let me in')`),
      'HP403',
      NEEDS_LINK,
    );
    await expectPgError(
      db.as(w.actors.strangerWithLink, (sql) => sql`select * from app.vote_on_date(${w.planA}, current_date + 3, null)`),
      'HP403',
      NEEDS_LINK,
    );
    // Who is in already writes on as before.
    await db.as(w.actors.member, (sql) => sql`select app.add_idea(${w.planA}, 'Still in')`);
    await db.as(w.actors.guest, (sql) => sql`select app.add_idea(${w.planA}, 'Still in too')`);
  });

  it('closed: a new guest, and a device continuing as one by name, need the slug too', async () => {
    await close();
    const newGuest = (claims: Claims) =>
      db.as(claims, (sql) => sql`insert into app.guests (plan_id, name) values (${w.planA}, 'Zoe')`, { rollback: true });
    await expectDenied(newGuest(w.actors.anonWithLink));
    await newGuest({ ...w.actors.anonWithLink, plan_slug: w.slugA });
    const restore = (claims: Claims) =>
      db.as(claims, (sql) => sql`select private.issue_guest_credential(${w.planA}, 'Gus', ${sha256Hex('new phone')})`);
    await expectPgError(restore(w.actors.anonWithLink), 'HP403', NEEDS_LINK);
    await restore({ ...w.actors.anonWithLink, plan_slug: w.slugA });
  });

  it('the host resets the link: a new random slug, the old one names nothing', async () => {
    const reset = (actor: ActorName) => db.as(w.actors[actor], (sql) => sql`select private.reset_plan_link(${w.planA})`);
    await expectPgError(reset('member'), 'HP403', "Only the host can reset the plan's link");
    await expectPgError(reset('stranger'), 'HP404', 'Plan not found');
    await reset('host');
    const [{ slug }] = await db.owner<{ slug: string }[]>`select slug from app.plans where id = ${w.planA}`;
    expect(slug).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(slug).not.toBe(w.slugA);
    expect(await db.as(w.actors.anonWithSlug, (sql) => sql`select private.plan_id_of_slug(${w.slugA}) as id`)).toEqual([{ id: null }]);
    expect(await db.as(w.actors.anonWithSlug, (sql) => sql`select id from app.plans`)).toEqual([]);
    // Everyone in stays in.
    await db.as(w.actors.member, (sql) => sql`select app.add_idea(${w.planA}, 'Still here')`);
    await db.as(w.actors.guest, (sql) => sql`select app.add_idea(${w.planA}, 'Me too')`);
  });
});
