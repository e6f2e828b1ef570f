// app.interest_catalog, app.user_interests and private.plan_shared_interests.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld } from '../support/db.ts';
import { createUser, type ActorName } from '../support/plan-fixture.ts';

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

  it("privacy: one member's free text never comes out; shared free text and catalogue items do; the caller's own are left out", async () => {
    const add = (user: string, text: string) =>
      db.owner`insert into app.user_interests (user_id, free_form_text) values (${user}, ${text}) returning id`;
    const added = [
      ...(await add(w.users.host, 'Divorce lawyer')),
      ...(await add(w.users.host, 'Pottery')),
      ...(await add(w.users.member, 'POTTERY ')),
      ...(await add(w.users.member, 'reading')), // the catalogue's "Reading", typed by hand
      ...(await add(w.users.stranger, 'Hiking')), // shares Hiking with the host, but not in plan A
    ];
    const read = (actor: ActorName) => db.as(w.actors[actor], (sql) => sql`select * from private.plan_shared_interests(${w.planA})`);
    try {
      // Callers with no interests in the plan: every member counts.
      for (const actor of ['anonWithLink', 'guest', 'strangerWithLink'] as ActorName[]) {
        expect(await read(actor)).toEqual([
          { interest: 'Coffee', member_count: 2 },
          { interest: 'POTTERY', member_count: 2 }, // one of the spellings (the least, as before)
          { interest: 'Reading', member_count: 1 },
        ]);
      }
      // A member hears only the others: Pottery is then one member's own words.
      expect(await read('member')).toEqual([{ interest: 'Coffee', member_count: 1 }]);
      expect(await read('host')).toEqual([
        { interest: 'Coffee', member_count: 1 },
        { interest: 'Reading', member_count: 1 },
      ]);
    } finally {
      await db.owner`delete from app.user_interests where id in ${db.owner(added.map((r) => r.id))}`;
    }
  });

  it("the probe: adding an interest to one's own list never tells whether one other member holds it", async () => {
    // A third member, who suspects the host of something private.
    const prober = await createUser(db.owner, 'Pat', 'Prober');
    await db.owner`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${prober}, '-')`;
    const asProber = { role: 'authenticated', sub: prober } as const;
    const read = () => db.as(asProber, (sql) => sql`select * from private.plan_shared_interests(${w.planA})`);
    const add = async (user: string, text: string) =>
      (await db.owner<{ id: string }[]>`insert into app.user_interests (user_id, free_form_text) values (${user}, ${text}) returning id`)[0]!.id;
    const remove = (id: string) => db.owner`delete from app.user_interests where id = ${id}`;
    try {
      const before = await read();
      expect(before).toEqual([{ interest: 'Coffee', member_count: 2 }]);
      const probe = await add(prober, 'Divorce lawyer');
      // Without the host holding it, and with: the same answer.
      expect(await read()).toEqual(before);
      const secret = await add(w.users.host, ' divorce lawyer ');
      expect(await read()).toEqual(before);
      // The prober's own catalogue items do not count for the prober either (the order would tell the counts).
      const coffee = await add(prober, 'Coffee');
      expect(await read()).toEqual(before);
      await remove(coffee);
      await remove(probe);
      expect(await read()).toEqual(before);
      // Two other members sharing it: common to the group, and said to the prober (not the host's words alone).
      const shared = await add(w.users.member, 'Divorce Lawyer');
      expect(await read()).toEqual([
        { interest: 'Coffee', member_count: 2 },
        { interest: 'Divorce Lawyer', member_count: 2 }, // the least spelling, as above
      ]);
      // The host, one of the two, is told nothing of the other's.
      expect(await db.as(w.actors.host, (sql) => sql`select * from private.plan_shared_interests(${w.planA})`)).toEqual([
        { interest: 'Coffee', member_count: 1 },
      ]);
      await remove(shared);
      await remove(secret);
    } finally {
      await db.owner`delete from app.user_interests where user_id = ${prober}`;
      await db.owner`delete from app.participants where user_id = ${prober}`;
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
