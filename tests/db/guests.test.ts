// Guests and their credentials (the guests domain): app.guests' row
// security and name rules; a guest id counts only with a credential of that
// guest, for every guest write; credentials are unreadable; new ones are
// issued by plan and name.
import { describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { asGuest, blindToA, readersOfA, sha256Hex, testGuestSecret, type ActorName } from '../support/plan-fixture.ts';

const db = useFreshDatabase();

describe('app.guests', () => {
  const w = usePlanWorld(db);

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
});

describe('guest credentials', () => {
  const w = usePlanWorld(db, { each: true });

  /** Gus (a guest of plan A) as the API would send him without his secret, with a wrong one, or with Olga's. */
  const impostors = (): [string, Claims][] => [
    ['no secret', { role: 'anon', guest_id: w.guest, plan_id: w.planA }],
    ['a wrong secret', { role: 'anon', guest_id: w.guest, guest_secret_hash: sha256Hex('a guess'), plan_id: w.planA }],
    ["another guest's secret", { role: 'anon', guest_id: w.guest, guest_secret_hash: asGuest(w.otherGuest).guest_secret_hash, plan_id: w.planA }],
    ['a malformed hash', { role: 'anon', guest_id: w.guest, guest_secret_hash: "' or true --", plan_id: w.planA }],
  ];

  const count = async (table: string) => (await db.owner.unsafe(`select count(*)::int as n from app.${table}`))[0].n as number;
  async function tableCounts() {
    const tables = ['ideas', 'idea_comments', 'idea_votes', 'time_slots', 'time_slot_votes', 'participants', 'guests'];
    return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)])));
  }

  describe('every guest write needs the guest’s secret', () => {
    const writes: [string, (claims: Claims) => Promise<unknown>, string, string][] = [];
    const rule = (name: string, run: (claims: Claims) => Promise<unknown>, code: string, message: string) =>
      writes.push([name, run, code, message]);
    rule('app.add_idea', (c) => db.as(c, (sql) => sql`select app.add_idea(${w.planA}, 'Sneaky idea')`), 'HP401', 'Join the plan first to suggest ideas');
    rule('app.add_idea_comment', (c) => db.as(c, (sql) => sql`select app.add_idea_comment(${w.ideaA}, 'Sneaky comment')`), 'HP401', 'Join the plan first to comment');
    rule('app.vote_on_idea', (c) => db.as(c, (sql) => sql`select * from app.vote_on_idea(${w.ideaA})`), 'HP401', 'Please join the plan first to vote');
    rule('app.vote_on_time_slot', (c) => db.as(c, (sql) => sql`select * from app.vote_on_time_slot(${w.slotA})`), 'HP403', 'Please join the plan first to vote');
    rule('app.vote_on_date', (c) => db.as(c, (sql) => sql`select * from app.vote_on_date(${w.planA}, current_date + 5, null)`), 'HP403', 'Please join the plan first to vote');
    rule('app.leave_plan', (c) => db.as(c, (sql) => sql`select app.leave_plan(${w.planA})`), 'HP403', 'You are not a participant of this plan');

    it('the rules refuse a guest id without its secret, with a wrong one or with another guest’s, and write nothing', async () => {
      const before = await tableCounts();
      for (const [label, claims] of impostors()) {
        for (const [name, run, code, message] of writes) {
          await expectPgError(run(claims), code, message).catch((error: Error) => {
            throw new Error(`${name} with ${label}: ${error.message}`);
          });
        }
      }
      expect(await tableCounts()).toEqual(before);
    });

    it('the same writes succeed with the secret (the control)', async () => {
      for (const [, run] of writes.slice(0, -1)) await run(w.actors.guest); // all but leave_plan
      expect(await db.owner`select 1 from app.ideas where text = 'Sneaky idea' and guest_id = ${w.guest}`).toHaveLength(1);
    });

    it('RLS refuses direct writes as the guest without its secret (votes, ideas, comments, deleting)', async () => {
      for (const [, claims] of impostors()) {
        await expectDenied(db.as(claims, (sql) => sql`
          insert into app.idea_votes (idea_id, plan_id, guest_id) values (${w.ideaA}, ${w.planA}, ${w.guest})`));
        await expectDenied(db.as(claims, (sql) => sql`
          insert into app.ideas (plan_id, text, author_name, guest_id) values (${w.planA}, 'x', 'x', ${w.guest})`));
        await expectDenied(db.as(claims, (sql) => sql`
          insert into app.idea_comments (idea_id, plan_id, text, author_name, guest_id) values (${w.ideaA}, ${w.planA}, 'x', 'x', ${w.guest})`));
        await expectDenied(db.as(claims, (sql) => sql`
          insert into app.time_slot_votes (time_slot_id, plan_id, guest_id) values (${w.slotA}, ${w.planA}, ${w.guest})`));
        const deleted = await db.as(claims, (sql) => sql`delete from app.time_slot_votes where guest_id = ${w.guest}`, { rollback: true });
        expect(deleted.count).toBe(0);
        const gone = await db.as(claims, (sql) => sql`delete from app.guests where id = ${w.guest}`, { rollback: true });
        expect(gone.count).toBe(0);
      }
    });

    it('joining as a guest (its participants row) needs the secret once the guest has a credential', async () => {
      await db.owner`delete from app.participants where guest_id = ${w.guest}`;
      const join = (claims: Claims) =>
        db.as(claims, (sql) => sql`insert into app.participants (plan_id, guest_id, name) values (${w.planA}, ${w.guest}, '-')`);
      for (const [, claims] of impostors()) await expectDenied(join(claims));
      await join(w.actors.guest);
      expect(await db.owner`select name from app.participants where guest_id = ${w.guest}`).toEqual([{ name: 'Gus' }]);
    });

    it('a guest being created joins before its first credential exists (POST /api/guest-session)', async () => {
      await db.as(w.actors.anonWithLink, async (sql) => {
        const [g] = await sql`insert into app.guests (plan_id, name) values (${w.planA}, 'Newt') returning id`;
        await sql`insert into app.participants (plan_id, guest_id, name) values (${w.planA}, ${g.id}, '-')`;
      });
      expect(await db.owner`select name from app.participants where name = 'Newt'`).toHaveLength(1);
    });

    it('a guest without its secret is not a participant: it reads nothing beyond what the link shows', async () => {
      const [{ participant }] = await db.as(
        { role: 'anon', guest_id: w.guest },
        (sql) => sql`select private.is_participant(${w.planA}) as participant`,
      );
      expect(participant).toBe(false);
      expect(await db.as({ role: 'anon', guest_id: w.guest }, (sql) => sql`select id from app.plans`)).toHaveLength(0);
      expect(await db.as({ role: 'anon', guest_id: w.guest }, (sql) => sql`select id from app.guests`)).toHaveLength(0);
    });
  });

  describe('app.guest_credentials', () => {
    it('no request role reads, writes or deletes a credential', async () => {
      for (const actor of ['anon', 'guest', 'member', 'host'] as const) {
        await expectDenied(db.as(w.actors[actor], (sql) => sql`select * from app.guest_credentials`));
        await expectDenied(db.as(w.actors[actor], (sql) => sql`
          insert into app.guest_credentials (guest_id, secret_hash, kind) values (${w.guest}, ${sha256Hex('mine now')}, 'joined')`));
        await expectDenied(db.as(w.actors[actor], (sql) => sql`delete from app.guest_credentials`));
      }
    });

    it('stores only a 64-character lower-case hex hash, of a device that joined or restored', async () => {
      await expectPgError(db.owner`insert into app.guest_credentials (guest_id, secret_hash, kind) values (${w.guest}, 'plain secret', 'joined')`, '23514');
      await expectPgError(db.owner`insert into app.guest_credentials (guest_id, secret_hash, kind) values (${w.guest}, ${'A'.repeat(64)}, 'joined')`, '23514');
      await expectPgError(db.owner`insert into app.guest_credentials (guest_id, secret_hash, kind) values (${w.guest}, ${'a'.repeat(64)}, 'owner')`, '23514');
      await expectPgError(db.owner`insert into app.guest_credentials (guest_id, secret_hash) values (${w.guest}, ${'a'.repeat(64)})`, '23502');
    });

    it('go with their guest (leave, transfer)', async () => {
      await db.as(w.actors.guest, (sql) => sql`select app.leave_plan(${w.planA})`);
      expect(await db.owner`select 1 from app.guest_credentials where guest_id = ${w.guest}`).toHaveLength(0);
    });
  });

  describe('private.issue_guest_credential (create and "Yes, that\'s me")', () => {
    const issue = (claims: Claims, planId: string, name: string, secret: string) =>
      db.as(claims, async (sql) =>
        (await sql`select private.issue_guest_credential(${planId}, ${name}, ${sha256Hex(secret)}) as id`)[0].id as string | null);

    it('by plan and name (trimmed, any case): the new secret works, the old device keeps its own', async () => {
      expect(await issue(w.actors.anonWithLink, w.planA, '  gUS ', 'second phone')).toBe(w.guest);
      const secondPhone: Claims = { role: 'anon', guest_id: w.guest, guest_secret_hash: sha256Hex('second phone'), plan_id: w.planA };
      await db.as(secondPhone, (sql) => sql`select app.add_idea(${w.planA}, 'From the second phone')`);
      await db.as(w.actors.guest, (sql) => sql`select app.add_idea(${w.planA}, 'From the first phone')`);
      expect(await db.owner`select 1 from app.ideas where guest_id = ${w.guest}`).toHaveLength(2);
    });

    it('null for a name the plan does not have; the plan must be the one the request names', async () => {
      expect(await issue(w.actors.anonWithLink, w.planA, 'Nobody', 's')).toBeNull();
      await expectPgError(issue(w.actors.anonWithLink, w.planB, 'Olga', 's'), 'HP404', 'Plan not found');
      await expectPgError(issue(w.actors.anon, w.planA, 'Gus', 's'), 'HP404', 'Plan not found');
      expect(await db.owner`select 1 from app.guest_credentials where guest_id = ${w.otherGuest}`).toHaveLength(1);
    });

    it('refuses anything but a SHA-256 hex hash, and only anon may call it', async () => {
      await expectPgError(
        db.as(w.actors.anonWithLink, (sql) => sql`select private.issue_guest_credential(${w.planA}, 'Gus', 'secret')`),
        'HP400',
        'Invalid guest secret',
      );
      await expectDenied(issue(w.actors.strangerWithLink, w.planA, 'Gus', 's'));
    });

    it('the first device joins, later ones restore; restores never push out the joined device', async () => {
      // 12 restores: the 10 newest restored devices stay, and the device
      // that joined as Gus (the fixture's) is never the one to go.
      for (let i = 0; i < 12; i++) {
        await issue(w.actors.anonWithLink, w.planA, 'Gus', `device ${i}`);
        await db.owner`update app.guest_credentials set created_at = created_at - interval '1 minute'
                        where guest_id = ${w.guest} and secret_hash <> ${sha256Hex(`device ${i}`)}`;
      }
      const kept = await db.owner<{ secret_hash: string; kind: string }[]>`
        select secret_hash, kind from app.guest_credentials where guest_id = ${w.guest}`;
      expect(kept.filter((r) => r.kind === 'restored')).toHaveLength(10);
      expect(kept.filter((r) => r.kind === 'joined').map((r) => r.secret_hash)).toEqual([sha256Hex(testGuestSecret(w.guest))]);
      const hashes = kept.map((r) => r.secret_hash);
      expect(hashes).toContain(sha256Hex('device 11'));
      expect(hashes).not.toContain(sha256Hex('device 0'));
      // The joined device still acts.
      await db.as(w.actors.guest, (sql) => sql`select app.add_idea(${w.planA}, 'Still mine')`);
    });
  });

  describe('restored devices vote, they do not destroy (private.require_joining_device)', () => {
    const restored = (secret: string): Claims => ({ role: 'anon', guest_id: w.guest, guest_secret_hash: sha256Hex(secret), plan_id: w.planA });
    const restore = (secret: string) =>
      db.as(w.actors.anonWithLink, (sql) => sql`select private.issue_guest_credential(${w.planA}, 'Gus', ${sha256Hex(secret)})`);
    const ageJoinedDevice = (days: number) =>
      db.owner`update app.guest_credentials set last_used_at = now() - make_interval(days => ${days})
                where guest_id = ${w.guest} and kind = 'joined'`;

    it('a device restored by name votes, comments and suggests as the guest', async () => {
      await restore('new phone');
      const [idea] = await db.as(restored('new phone'), (sql) => sql`select id from app.add_idea(${w.planA}, 'From the new phone')`);
      await db.as(restored('new phone'), (sql) => sql`select * from app.vote_on_idea(${idea.id})`);
      await db.as(restored('new phone'), (sql) => sql`select * from app.add_idea_comment(${idea.id}, 'Me again')`);
      expect(await db.owner`select 1 from app.idea_votes where idea_id = ${idea.id} and guest_id = ${w.guest}`).toHaveLength(1);
    });

    it('may not leave (which deletes the guest): HP403 naming the guest, and nothing changes', async () => {
      await restore('new phone');
      await expectPgError(
        db.as(restored('new phone'), (sql) => sql`select app.leave_plan(${w.planA})`),
        'HP403',
        'This can only be done from the device that joined as Gus',
      );
      expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(1);
      // The device that joined may.
      await db.as(w.actors.guest, (sql) => sql`select app.leave_plan(${w.planA})`);
      expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(0);
    });

    it('never becomes the joined device, however long that one went unused (docs/decisions/0085)', async () => {
      await restore('new phone');
      // Far past the 30 days that once promoted a restored device, just within
      // the 180 days a credential lives unused (decision 0082).
      await ageJoinedDevice(179);
      const onlyJoined = 'This can only be done from the device that joined as Gus';
      await expectPgError(db.as(restored('new phone'), (sql) => sql`select app.leave_plan(${w.planA})`), 'HP403', onlyJoined);
      await expectPgError(
        db.as(restored('new phone'), (sql) => sql`select private.end_other_guest_devices(${w.guest})`),
        'HP403',
        onlyJoined,
      );
      expect(await db.owner`select kind from app.guest_credentials where guest_id = ${w.guest} order by kind`).toEqual([
        { kind: 'joined' },
        { kind: 'restored' },
      ]);
      // The joined device, back after half a year, is let in and still decides.
      await db.as(w.actors.guest, (sql) => sql`select app.add_idea(${w.planA}, 'Back again')`);
      expect(await db.as(w.actors.guest, (sql) => sql`select private.end_other_guest_devices(${w.guest}) as n`)).toEqual([{ n: 1 }]);
    });

    it('the gate notes when a device was last used, at most once a day', async () => {
      const lastUsed = async () =>
        (await db.owner<{ days: number }[]>`
          select extract(day from now() - last_used_at)::int as days from app.guest_credentials
           where guest_id = ${w.guest} and kind = 'joined'`)[0].days;
      const gate = () =>
        db.owner`select private.check_request(null, null, ${w.guest}::uuid, ${sha256Hex(testGuestSecret(w.guest))})`;
      await ageJoinedDevice(40);
      await gate();
      expect(await lastUsed()).toBe(0);
      await db.owner`update app.guest_credentials set last_used_at = now() - interval '20 hours' where guest_id = ${w.guest} and kind = 'joined'`;
      const [{ before }] = await db.owner`select last_used_at as before from app.guest_credentials where guest_id = ${w.guest} and kind = 'joined'`;
      await gate();
      const [{ after }] = await db.owner`select last_used_at as after from app.guest_credentials where guest_id = ${w.guest} and kind = 'joined'`;
      expect(after).toEqual(before);
    });
  });
});
