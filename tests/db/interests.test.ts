// app.interest_catalog, app.user_interests and private.plan_shared_interests.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld } from '../support/db.ts';
import { type ActorName } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db);
beforeAll(async () => {
  const add = (user: string, text: string) =>
    db.owner`insert into app.user_interests (user_id, free_form_text) values (${user}, ${text})`;
  await add(w.users.host, 'Coffee');
  await add(w.users.host, 'Hiking');
  await add(w.users.member, ' coffee ');
  await add(w.users.stranger, 'Coffee'); // not in plan A
});

describe('interest catalogue', () => {
  for (const actor of ['anon', 'guest', 'member', 'stranger'] as ActorName[]) {
    it(`${actor} reads the 8 seeded items`, async () => {
      const rows = await db.as(w.actors[actor], (sql) => sql`select name, icon from app.interest_catalog order by name`);
      expect(rows).toEqual([
        { name: 'Board Games', icon: 'gamepad' },
        { name: 'Coffee', icon: 'coffee' },
        { name: 'Food & Dining', icon: 'utensils' },
        { name: 'Hiking & Outdoors', icon: 'tree' },
        { name: 'Live Music', icon: 'music' },
        { name: 'Movies', icon: 'film' },
        { name: 'Reading', icon: 'book' },
        { name: 'Travel', icon: 'globe' },
      ]);
    });
  }
  it('nobody writes it', async () => {
    await expectDenied(db.as(w.actors.member, (sql) => sql`insert into app.interest_catalog (id, name, icon) values (gen_random_uuid(), 'X', 'x')`));
    await expectDenied(db.as(w.actors.member, (sql) => sql`delete from app.interest_catalog`));
  });
});

describe('user interests', () => {
  it('a user reads only its own', async () => {
    const rows = await db.as(w.actors.host, (sql) => sql`select free_form_text from app.user_interests order by 1`);
    expect(rows.map((r) => r.free_form_text)).toEqual(['Coffee', 'Hiking']);
  });
  it('anon has no access at all', async () => {
    await expectDenied(db.as(w.actors.guest, (sql) => sql`select * from app.user_interests`));
  });
  it('a user adds its own, from the catalogue or free text; not for others', async () => {
    const coffee = '6b1f0c2e-0001-4c8a-9a61-000000000001';
    await db.as(
      w.actors.stranger,
      (sql) => sql`insert into app.user_interests (user_id, catalog_id, free_form_text) values (${w.users.stranger}, ${coffee}, 'Board Games')`,
      { rollback: true },
    );
    await expectDenied(
      db.as(w.actors.stranger, (sql) => sql`insert into app.user_interests (user_id, free_form_text) values (${w.users.host}, 'Chess')`),
    );
  });
  it('no duplicates per user (trimmed, case-insensitive); 1-80 characters', async () => {
    const add = (text: string) =>
      db.as(w.actors.host, (sql) => sql`insert into app.user_interests (user_id, free_form_text) values (${w.users.host}, ${text})`, {
        rollback: true,
      });
    await expectPgError(add(' COFFEE'), '23505');
    await expectPgError(add('  '), '23514');
    await expectPgError(add('i'.repeat(81)), '23514');
    await add('i'.repeat(80));
  });
  it('a user deletes only its own', async () => {
    const others = await db.as(w.actors.member, (sql) => sql`delete from app.user_interests where free_form_text = 'Hiking'`);
    expect(others.count).toBe(0);
    const own = await db.as(w.actors.host, (sql) => sql`delete from app.user_interests where free_form_text = 'Hiking'`, { rollback: true });
    expect(own.count).toBe(1);
  });
});

describe('shared interests of a plan (activity suggestions)', () => {
  it("aggregates the members' interests, most shared first, without naming anyone", async () => {
    const rows = await db.as(w.actors.guest, (sql) => sql`select * from private.plan_shared_interests(${w.planA})`);
    // 'Hiking' is the host's alone (free text): never shown (see below).
    expect(rows).toEqual([{ interest: 'Coffee', member_count: 2 }]);
  });

  it("privacy: one member's free text never comes out; shared free text and catalogue items do", async () => {
    const add = (user: string, text: string) =>
      db.owner`insert into app.user_interests (user_id, free_form_text) values (${user}, ${text}) returning id`;
    const added = [
      ...(await add(w.users.host, 'Divorce lawyer')),
      ...(await add(w.users.host, 'Pottery')),
      ...(await add(w.users.member, 'POTTERY ')),
      ...(await add(w.users.member, 'reading')), // the catalogue's "Reading", typed by hand
      ...(await add(w.users.stranger, 'Hiking')), // shares Hiking with the host, but not in plan A
    ];
    try {
      for (const actor of ['anonWithLink', 'guest', 'member', 'host'] as ActorName[]) {
        const rows = await db.as(w.actors[actor], (sql) => sql`select * from private.plan_shared_interests(${w.planA})`);
        expect(rows).toEqual([
          { interest: 'Coffee', member_count: 2 },
          { interest: 'POTTERY', member_count: 2 }, // one of the spellings (the least, as before)
          { interest: 'Reading', member_count: 1 },
        ]);
      }
    } finally {
      await db.owner`delete from app.user_interests where id in ${db.owner(added.map((r) => r.id))}`;
    }
  });
  it('answers Plan not found to callers who cannot read the plan', async () => {
    await expectPgError(
      db.as(w.actors.stranger, (sql) => sql`select * from private.plan_shared_interests(${w.planA})`),
      'HP404',
      'Plan not found',
    );
  });
});
