// app.users: own row only, e-mail normalisation, names, and the display name
// kept on participants rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, freshDatabase, type TestDatabase } from '../support/db.ts';
import { seedPlan, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

describe('reading users', () => {
  it('a signed-in user reads exactly its own row (GET /api/auth/me)', async () => {
    const rows = await db.as(
      w.actors.member,
      (sql) => sql`select id, email, first_name, last_name from app.users where id = auth.uid()`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: w.users.member, first_name: 'Mia', last_name: null });
    const all = await db.as(w.actors.member, (sql) => sql`select id from app.users`);
    expect(all.map((r) => r.id)).toEqual([w.users.member]);
  });
  it('the host of a plan does not read its members', async () => {
    const rows = await db.as(w.actors.host, (sql) => sql`select id from app.users where id = ${w.users.member}`);
    expect(rows).toHaveLength(0);
  });
  it('anon reads no user, with any claims', async () => {
    await expectDenied(db.as(w.actors.anon, (sql) => sql`select id from app.users`));
    await expectDenied(db.as(w.actors.guest, (sql) => sql`select id from app.users`));
  });
});

describe('updating users (PATCH /api/auth/profile)', () => {
  it('a user updates its own names; blanks become null, names are trimmed', async () => {
    const [row] = await db.as(
      w.actors.stranger,
      (sql) => sql`update app.users set first_name = '  Samuel ', last_name = ''
                   where id = (select auth.uid()) returning first_name, last_name, updated_at > created_at as touched`,
      { rollback: true },
    );
    expect(row).toEqual({ first_name: 'Samuel', last_name: null, touched: true });
  });
  it('the e-mail cannot be set directly: only a confirmed change moves it (private.confirm_email_change)', async () => {
    await expectDenied(
      db.as(w.actors.stranger, (sql) => sql`update app.users set email = 'samuel@example.test' where id = (select auth.uid())`),
    );
  });
  it("no one updates someone else's row", async () => {
    const r = await db.as(w.actors.member, (sql) => sql`update app.users set first_name = 'X' where id = ${w.users.host}`);
    expect(r.count).toBe(0);
  });
  it('id and created_at are not editable', async () => {
    await expectDenied(db.as(w.actors.member, (sql) => sql`update app.users set created_at = now() where id = (select auth.uid())`));
    await expectDenied(db.as(w.actors.member, (sql) => sql`update app.users set id = gen_random_uuid() where id = (select auth.uid())`));
  });
  it('an e-mail taken by another account is a unique violation (the e-mail change answers 409)', async () => {
    const [{ email }] = await db.owner`select email from app.users where id = ${w.users.host}`;
    await expectPgError(db.owner`update app.users set email = ${email} where id = ${w.users.member}`, '23505');
  });
  it('anon updates no user, with any claims', async () => {
    for (const actor of ['anon', 'anonWithLink', 'guest'] as const) {
      await expectDenied(db.as(w.actors[actor], (sql) => sql`update app.users set first_name = 'X'`));
    }
  });
  it('nobody inserts or deletes users through the API roles', async () => {
    await expectDenied(db.as(w.actors.stranger, (sql) => sql`insert into app.users (email) values ('new@example.test')`));
    await expectDenied(db.as(w.actors.stranger, (sql) => sql`delete from app.users where id = (select auth.uid())`));
  });
});

describe('e-mail and name constraints', () => {
  const insert = (email: string, first: string | null = null) =>
    db.owner`insert into app.users (email, first_name) values (${email}, ${first})`;
  it('the e-mail must be stored trimmed and lower-cased', async () => {
    await expectPgError(insert('Upper@Example.test'), '23514');
    await expectPgError(insert(' pad@example.test'), '23514');
  });
  it('the e-mail has an @ that is neither first nor last, no spaces, 3-254 characters', async () => {
    for (const bad of ['plain', '@x.y', 'x@', 'a b@c.d', `${'a'.repeat(250)}@b.cd`]) {
      await expectPgError(insert(bad), '23514');
    }
    await insert('ok@x');
  });
  it('names are at most 80 characters', async () => {
    await expectPgError(insert('long@example.test', 'n'.repeat(81)), '23514');
  });
});

describe('display name on participants rows', () => {
  const names = async () =>
    (await db.owner`select name from app.participants where user_id = ${w.users.member}`).map((r) => r.name);

  it("follows profile edits: 'first last', else first, else the e-mail's local part", async () => {
    await db.as(w.actors.member, (sql) => sql`update app.users set last_name = 'Miller' where id = (select auth.uid())`);
    expect(await names()).toEqual(['Mia Miller']);
    await db.as(w.actors.member, (sql) => sql`update app.users set first_name = null, last_name = null where id = (select auth.uid())`);
    // (The e-mail moves only through a confirmed change, a definer: the owner stands in for it.)
    await db.owner`update app.users set email = 'mia.m@example.test' where id = ${w.users.member}`;
    expect(await names()).toEqual(['mia.m']);
    await db.as(w.actors.member, (sql) => sql`update app.users set first_name = 'Mia' where id = (select auth.uid())`);
    expect(await names()).toEqual(['Mia']);
  });
  it('a long e-mail local part still makes a valid participant name', async () => {
    const local = 'l'.repeat(240);
    const [{ id }] = await db.owner`insert into app.users (email) values (${local + '@ex.io'}) returning id`;
    const [row] = await db.as(
      { role: 'authenticated', sub: id, plan_id: w.planA },
      (sql) => sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${id}, '-') returning name`,
      { rollback: true },
    );
    expect(row.name).toBe(local);
  });
  it('a last name alone does not make a display name', async () => {
    const [r] = await db.owner`select private.display_name(null, 'Only', 'x.y@z.t') as n`;
    expect(r.n).toBe('x.y');
  });
});
