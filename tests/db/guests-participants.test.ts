// app.guests and app.participants: reading, joining, leaving, name rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, freshDatabase, type TestDatabase } from '../support/db.ts';
import { asGuest, seedPlan, type ActorName, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

// Callers that may read plan A's guests and participants, and those who may not.
const readersOfA: ActorName[] = ['anonWithLink', 'guest', 'otherGuestWithLink', 'member', 'host', 'strangerWithLink'];
const blindToA: ActorName[] = ['anon', 'anonWithSlug', 'otherGuest', 'stranger'];

describe('reading guests', () => {
  for (const actor of readersOfA) {
    it(`${actor} sees plan A's guest`, async () => {
      const rows = await db.as(w.actors[actor], (sql) => sql`select id, name from app.guests where plan_id = ${w.planA}`);
      expect(rows).toEqual([{ id: w.guest, name: 'Gus' }]);
    });
  }
  for (const actor of blindToA) {
    it(`${actor} does not see plan A's guest`, async () => {
      const rows = await db.as(w.actors[actor], (sql) => sql`select id from app.guests where plan_id = ${w.planA}`);
      expect(rows).toHaveLength(0);
    });
  }
  it('a guest finds itself by its id alone (GET /api/guest-session/{id})', async () => {
    const rows = await db.as(asGuest(w.guest), (sql) => sql`select name from app.guests`);
    expect(rows).toEqual([{ name: 'Gus' }]);
  });
  it('other plans stay invisible: the guest of A does not see the guest of B', async () => {
    const rows = await db.as(w.actors.guest, (sql) => sql`select id from app.guests where plan_id = ${w.planB}`);
    expect(rows).toHaveLength(0);
  });
});

describe('creating guests', () => {
  const create = (actor: ActorName, planId: string, name: string) =>
    db.as(
      w.actors[actor],
      (sql) => sql`insert into app.guests (plan_id, name) values (${planId}, ${name}) returning id, name_key`,
      { rollback: true },
    );

  it('anon creates a guest in the plan the request names', async () => {
    const [g] = await create('anonWithLink', w.planA, '  Zoe Q ');
    expect(g.name_key).toBe('zoe q');
  });
  it('not in another plan, and not without a plan claim', async () => {
    await expectDenied(create('anonWithLink', w.planB, 'Zoe'));
    await expectDenied(create('anon', w.planA, 'Zoe'));
  });
  it('signed-in users do not create guests', async () => {
    await expectDenied(create('strangerWithLink', w.planA, 'Zoe'));
  });
  it('guest names are unique per plan, trimmed and case-insensitive; the same name is fine in another plan', async () => {
    await expectPgError(create('anonWithLink', w.planA, '  gUS '), '23505');
    await db.owner`insert into app.guests (plan_id, name) values (${w.planB}, 'Gus')`;
  });
  it('guest names are 1-80 characters after trimming', async () => {
    await expectPgError(create('anonWithLink', w.planA, '   '), '23514');
    await expectPgError(create('anonWithLink', w.planA, 'n'.repeat(81)), '23514');
    await create('anonWithLink', w.planA, 'n'.repeat(80));
  });
});

describe('deleting guests', () => {
  it('a guest deletes itself (which removes its participants row)', async () => {
    const left = await db.as(
      w.actors.guest,
      async (sql) => {
        await sql`delete from app.guests where id = ${w.guest}`;
        return sql`select id from app.participants where guest_id = ${w.guest}`;
      },
      { rollback: true },
    );
    expect(left).toHaveLength(0);
  });
  it('nobody else deletes a guest', async () => {
    for (const actor of ['anonWithLink', 'otherGuestWithLink'] as const) {
      const r = await db.as(w.actors[actor], (sql) => sql`delete from app.guests where id = ${w.guest}`);
      expect(r.count, actor).toBe(0);
    }
    await expectDenied(db.as(w.actors.host, (sql) => sql`delete from app.guests where id = ${w.guest}`));
  });
});

describe('reading participants', () => {
  for (const actor of readersOfA) {
    it(`${actor} sees plan A's three participants`, async () => {
      const rows = await db.as(
        w.actors[actor],
        (sql) => sql`select name from app.participants where plan_id = ${w.planA} order by name`,
      );
      expect(rows.map((r) => r.name)).toEqual(['Gus', 'Hanna Host', 'Mia']);
    });
  }
  for (const actor of blindToA) {
    it(`${actor} sees none of plan A's participants`, async () => {
      const rows = await db.as(w.actors[actor], (sql) => sql`select 1 from app.participants where plan_id = ${w.planA}`);
      expect(rows).toHaveLength(0);
    });
  }
});

describe('joining', () => {
  it('a signed-in user with the link joins itself; its name is its display name whatever it sends', async () => {
    const [row] = await db.as(
      w.actors.strangerWithLink,
      (sql) => sql`insert into app.participants (plan_id, user_id, name)
                   values (${w.planA}, ${w.users.stranger}, 'Fake Name') returning name`,
      { rollback: true },
    );
    expect(row.name).toBe('Sam Stranger');
  });
  it('joining twice is impossible (ON CONFLICT DO NOTHING joins nobody twice)', async () => {
    await expectPgError(
      db.as(w.actors.member, (sql) => sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${w.users.member}, 'x')`),
      '23505',
    );
    const r = await db.as(
      w.actors.member,
      (sql) => sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${w.users.member}, 'x') on conflict do nothing`,
    );
    expect(r.count).toBe(0);
  });
  it('nobody joins a plan without its link, nor joins someone else', async () => {
    await expectDenied(
      db.as(w.actors.stranger, (sql) => sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${w.users.stranger}, 'x')`),
    );
    await expectDenied(
      db.as(w.actors.strangerWithLink, (sql) => sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${w.users.otherHost}, 'x')`),
    );
  });
  it('joined_at cannot be chosen (it decides the host hand-over)', async () => {
    await expectDenied(
      db.as(
        w.actors.strangerWithLink,
        (sql) => sql`insert into app.participants (plan_id, user_id, name, joined_at)
                     values (${w.planA}, ${w.users.stranger}, 'x', '2000-01-01')`,
      ),
    );
  });
  it('a new guest joins the plan the request names, named after the guest', async () => {
    const [row] = await db.as(
      w.actors.anonWithLink,
      async (sql) => {
        const [g] = await sql`insert into app.guests (plan_id, name) values (${w.planA}, ' Zed ') returning id`;
        return sql`insert into app.participants (plan_id, guest_id, name) values (${w.planA}, ${g.id}, 'Other') returning name`;
      },
      { rollback: true },
    );
    expect(row.name).toBe('Zed');
  });
  it("a guest of another plan cannot be joined to plan A (the guest must be the plan's own)", async () => {
    await expectPgError(
      db.as(w.actors.otherGuestWithLink, (sql) => sql`insert into app.participants (plan_id, guest_id, name) values (${w.planA}, ${w.otherGuest}, 'x')`),
      '23503',
    );
  });
  it('anon cannot insert a member row', async () => {
    await expectDenied(
      db.as(w.actors.anonWithLink, (sql) => sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${w.users.stranger}, 'x')`),
    );
  });
  it('exactly one of user_id / guest_id', async () => {
    await expectPgError(
      db.owner`insert into app.participants (plan_id, user_id, guest_id, name) values (${w.planA}, ${w.users.stranger}, ${w.guest}, 'x')`,
      '23514',
    );
  });
});

describe('leaving directly (the API uses app.leave_plan)', () => {
  it('a member deletes only its own row', async () => {
    const own = await db.as(w.actors.member, (sql) => sql`delete from app.participants where plan_id = ${w.planA} and user_id = ${w.users.member}`, {
      rollback: true,
    });
    expect(own.count).toBe(1);
    const others = await db.as(w.actors.member, (sql) => sql`delete from app.participants where plan_id = ${w.planA} and user_id <> ${w.users.member}`);
    expect(others.count).toBe(0);
  });
  it('a guest deletes only its own row', async () => {
    const r = await db.as(w.actors.guest, (sql) => sql`delete from app.participants where plan_id = ${w.planA}`, { rollback: true });
    expect(r.count).toBe(1);
  });
  it('the host cannot drop its own row without handing over', async () => {
    await expectPgError(
      db.as(w.actors.host, (sql) => sql`delete from app.participants where user_id = ${w.users.host}`),
      'HP409',
      'The host cannot leave without handing the plan over',
    );
  });
  it('nobody updates participants', async () => {
    await expectDenied(db.as(w.actors.member, (sql) => sql`update app.participants set name = 'x' where user_id = ${w.users.member}`));
    await expectDenied(db.as(w.actors.guest, (sql) => sql`update app.participants set name = 'x' where guest_id = ${w.guest}`));
  });
});
