// Participants (the participants and participant_removals files): the
// membership helpers the policies of every table call, app.participants' row
// security (reading, joining, leaving directly), app.leave_plan (hand-over,
// last one out, 409, and leaving at the same moment), the host's removal and
// that it holds (app.plan_removals: no rejoining, no removed guest's device or
// name, the host's list and "Allow back").
import { describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, runAs, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import {
  addGuest,
  addIdea,
  addMember,
  blindToA,
  createPlan,
  createUser,
  participantNames,
  readersOfA,
  sha256Hex,
  type ActorName,
} from '../support/plan-fixture.ts';

const db = useFreshDatabase();

describe('membership helpers', () => {
  const w = usePlanWorld(db);
  const ask = (actor: ActorName) =>
    db.as(w.actors[actor], async (sql) => {
      const [r] = await sql`select private.is_participant(${w.planA}) as participant,
                                   private.can_read_plan(${w.planA}) as can_read`;
      return r;
    });
  const expected: Record<ActorName, [boolean, boolean]> = {
    anon: [false, false],
    anonWithLink: [false, true],
    anonWithSlug: [false, false],
    guest: [true, true],
    otherGuest: [false, false],
    otherGuestWithLink: [false, true],
    member: [true, true],
    host: [true, true],
    stranger: [false, false],
    strangerWithLink: [false, true],
  };
  for (const [actor, [participant, canRead]] of Object.entries(expected) as [ActorName, [boolean, boolean]][]) {
    it(`${actor}: participant ${participant}, can read ${canRead}`, async () => {
      expect(await ask(actor)).toEqual({ participant, can_read: canRead });
    });
  }
});

describe('app.participants', () => {
  const w = usePlanWorld(db);

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
});

describe('app.leave_plan', () => {
  const w = usePlanWorld(db, { each: true });
  const leave = (claims: Claims, planId: string) =>
    db.as(claims, async (sql) => (await sql`select app.leave_plan(${planId}) as deleted`)[0].deleted as boolean);
  const hostOf = async (planId: string) => (await db.owner`select host_id from app.plans where id = ${planId}`)[0]?.host_id;

  describe('leave_plan', () => {
    it('a member leaves: its row and votes go, its comments stay; the plan stays', async () => {
      expect(await leave(w.actors.member, w.planA)).toBe(false);
      expect(await participantNames(db.owner, w.planA)).toEqual(['Gus', 'Hanna Host']);
      expect(await db.owner`select 1 from app.idea_votes where user_id = ${w.users.member}`).toHaveLength(0);
      expect(await db.owner`select author_name from app.idea_comments where id = ${w.commentA}`).toEqual([{ author_name: 'Mia' }]);
    });

    it('a guest id without its secret (or with a wrong one) cannot leave: 403, nothing deleted', async () => {
      for (const claims of [
        { role: 'anon', guest_id: w.guest, plan_id: w.planA } as Claims,
        { ...w.actors.guest, guest_secret_hash: sha256Hex('a guess') },
      ]) {
        await expectPgError(leave(claims, w.planA), 'HP403', 'You are not a participant of this plan');
      }
      expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(1);
    });

    it('a guest leaves: the guest and its votes are deleted', async () => {
      expect(await leave(w.actors.guest, w.planA)).toBe(false);
      expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(0);
      expect(await db.owner`select 1 from app.idea_votes where guest_id = ${w.guest}`).toHaveLength(0);
      expect(await participantNames(db.owner, w.planA)).toEqual(['Hanna Host', 'Mia']);
    });

    it('the host hands over to the earliest-joined remaining member with an account (guests skipped)', async () => {
      const plan = await createPlan(db.owner, w.users.host, 'Hand-over');
      const early = Date.now() - 3_600_000;
      await addGuest(db.owner, plan.id, 'Early Guest');
      await db.owner`update app.participants set joined_at = ${new Date(early - 1000)} where plan_id = ${plan.id} and guest_id is not null`;
      const late = await createUser(db.owner, 'Late', null);
      const first = await createUser(db.owner, 'First', null);
      await addMember(db.owner, plan.id, late, new Date(early + 1000));
      await addMember(db.owner, plan.id, first, new Date(early));
      expect(await leave(w.actors.host, plan.id)).toBe(false);
      expect(await hostOf(plan.id)).toBe(first);
      expect(await participantNames(db.owner, plan.id)).toEqual(['Early Guest', 'First', 'Late']);
    });

    it('409 when only guests would remain; nothing changes', async () => {
      const plan = await createPlan(db.owner, w.users.host, 'Guests only');
      await addGuest(db.owner, plan.id, 'Solo Guest');
      await expectPgError(
        leave(w.actors.host, plan.id),
        'HP409',
        'Delete the plan instead: no one else with an account can host it',
      );
      expect(await hostOf(plan.id)).toBe(w.users.host);
      expect(await participantNames(db.owner, plan.id)).toEqual(['Hanna Host', 'Solo Guest']);
    });

    it('the last one out deletes the plan and everything in it', async () => {
      const plan = await createPlan(db.owner, w.users.host, 'Alone');
      const idea = await addIdea(db.owner, plan.id, 'Nap', { userId: w.users.host });
      expect(await leave(w.actors.host, plan.id)).toBe(true);
      expect(await db.owner`select 1 from app.plans where id = ${plan.id}`).toHaveLength(0);
      expect(await db.owner`select 1 from app.ideas where id = ${idea}`).toHaveLength(0);
    });

    it('after a hand-over the old host is out and the new one can leave last', async () => {
      const plan = await createPlan(db.owner, w.users.host, 'Two');
      await addMember(db.owner, plan.id, w.users.member);
      expect(await leave(w.actors.host, plan.id)).toBe(false);
      expect(await hostOf(plan.id)).toBe(w.users.member);
      expect(await leave(w.actors.member, plan.id)).toBe(true);
      expect(await hostOf(plan.id)).toBeUndefined();
    });

    it('403 for link holders who are not in the plan, 404 for plans one cannot see', async () => {
      await expectPgError(leave(w.actors.strangerWithLink, w.planA), 'HP403', 'You are not a participant of this plan');
      await expectPgError(leave(w.actors.otherGuestWithLink, w.planA), 'HP403');
      await expectPgError(leave(w.actors.stranger, w.planA), 'HP404', 'Plan not found');
    });

    it('the last two leaving at the same moment: both succeed, the plan is deleted, never left empty', async () => {
      for (let round = 0; round < 5; round++) {
        const plan = await createPlan(db.owner, w.users.host, 'Race');
        await addMember(db.owner, plan.id, w.users.member);
        const pool = db.pool(2);
        const results = await Promise.all([
          runAs(pool, w.actors.host, async (sql) => (await sql`select app.leave_plan(${plan.id}) as d`)[0].d),
          runAs(pool, w.actors.member, async (sql) => (await sql`select app.leave_plan(${plan.id}) as d`)[0].d),
        ]);
        expect(results.sort()).toEqual([false, true]);
        expect(await db.owner`select 1 from app.plans where id = ${plan.id}`).toHaveLength(0);
      }
    });

    it('host and first member leaving at the same moment: the next member ends up host', async () => {
      for (let round = 0; round < 5; round++) {
        const plan = await createPlan(db.owner, w.users.host, 'Race of three');
        const t = Date.now() - 60_000;
        await addMember(db.owner, plan.id, w.users.member, new Date(t));
        await addMember(db.owner, plan.id, w.users.stranger, new Date(t + 1000));
        const pool = db.pool(2);
        const results = await Promise.all([
          runAs(pool, w.actors.host, async (sql) => (await sql`select app.leave_plan(${plan.id}) as d`)[0].d),
          runAs(pool, w.actors.member, async (sql) => (await sql`select app.leave_plan(${plan.id}) as d`)[0].d),
        ]);
        expect(results).toEqual([false, false]);
        expect(await hostOf(plan.id)).toBe(w.users.stranger);
        expect(await participantNames(db.owner, plan.id)).toEqual(['Sam Stranger']);
      }
    });
  });
});

describe('app.remove_participant (the host moderates)', () => {
  const w = usePlanWorld(db, { each: true });
  const remove = (claims: Claims, planId: string, participantId: string) =>
    db.as(claims, (sql) => sql`select app.remove_participant(${planId}, ${participantId})`);
  const participantOf = async (column: 'user_id' | 'guest_id', id: string) =>
    (await db.owner<{ id: string }[]>`select id from app.participants where plan_id = ${w.planA} and ${db.owner(column)} = ${id}`)[0].id;
  const count = async (table: string, column: string, id: string) =>
    (await db.owner`select count(*)::int as n from ${db.owner(table)} where ${db.owner(column)} = ${id}`)[0].n as number;

  it('removes a member with their ideas (and what others wrote on them), comments and votes; the plan and the others stay', async () => {
    const ideaByMia = await addIdea(db.owner, w.planA, 'Mia idea', { userId: w.users.member });
    await db.owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
                   values (${ideaByMia}, ${w.planA}, 'host says hi', 'x', ${w.users.host})`;
    await db.owner`insert into app.time_slot_votes (time_slot_id, plan_id, user_id) values (${w.slotA}, ${w.planA}, ${w.users.member})`;

    await remove(w.actors.host, w.planA, await participantOf('user_id', w.users.member));

    expect(await participantNames(db.owner, w.planA)).toEqual(['Gus', 'Hanna Host']);
    expect(await count('app.ideas', 'id', ideaByMia)).toBe(0);
    expect(await count('app.idea_comments', 'idea_id', ideaByMia)).toBe(0);
    expect(await count('app.idea_comments', 'user_id', w.users.member)).toBe(0);
    expect(await count('app.idea_votes', 'user_id', w.users.member)).toBe(0);
    expect(await count('app.time_slot_votes', 'user_id', w.users.member)).toBe(0);
    // The rest of the plan is untouched: the host's idea, Gus's votes.
    expect(await count('app.ideas', 'id', w.ideaA)).toBe(1);
    expect(await count('app.idea_votes', 'guest_id', w.guest)).toBe(1);
    expect(await count('app.time_slot_votes', 'guest_id', w.guest)).toBe(1);
  });

  it('removes a guest: the guest, its writing, its votes and its device credentials go', async () => {
    await addIdea(db.owner, w.planA, 'Gus idea', { guestId: w.guest });
    await remove(w.actors.host, w.planA, await participantOf('guest_id', w.guest));
    expect(await count('app.guests', 'id', w.guest)).toBe(0);
    expect(await count('app.guest_credentials', 'guest_id', w.guest)).toBe(0);
    expect(await db.owner`select 1 from app.ideas where plan_id = ${w.planA} and text = 'Gus idea'`).toHaveLength(0);
    // The secret the guest's phone holds names nobody now.
    const seen = await db.as(w.actors.guest, async (sql) => (await sql`select private.claimed_guest_id() as g`)[0].g);
    expect(seen).toBeNull();
  });

  it("removing the author of the host's pick unpicks it; the locked date stays", async () => {
    const ideaByMia = await addIdea(db.owner, w.planA, 'Picked one', { userId: w.users.member });
    await db.owner`update app.plans set locked_idea_id = ${ideaByMia} where id = ${w.planA}`;
    await remove(w.actors.host, w.planA, await participantOf('user_id', w.users.member));
    expect((await db.owner`select locked_idea_id from app.plans where id = ${w.planA}`)[0].locked_idea_id).toBeNull();
  });

  it('only the host may remove; nobody removes the host; the refusals change nothing', async () => {
    const mia = await participantOf('user_id', w.users.member);
    const gus = await participantOf('guest_id', w.guest);
    const hanna = await participantOf('user_id', w.users.host);
    await expectPgError(remove(w.actors.member, w.planA, gus), 'HP403', 'Only the host can remove people from the plan');
    await expectPgError(remove(w.actors.strangerWithLink, w.planA, mia), 'HP403', 'Only the host can remove people from the plan');
    await expectPgError(remove(w.actors.stranger, w.planA, mia), 'HP404', 'Plan not found');
    await expectPgError(
      remove(w.actors.host, w.planA, hanna),
      'HP409',
      'You host this plan: hand it over by leaving, or delete the plan instead',
    );
    // A participant of another plan is not in this one.
    const olga = (await db.owner`select id from app.participants where guest_id = ${w.otherGuest}`)[0].id;
    await expectPgError(remove(w.actors.host, w.planA, olga), 'HP404', 'This person is not in the plan');
    // Guests hold no token: the rule is not theirs to run at all.
    await expectDenied(remove(w.actors.guest, w.planA, mia));
    expect(await participantNames(db.owner, w.planA)).toEqual(['Gus', 'Hanna Host', 'Mia']);
    expect(await count('app.guests', 'id', w.otherGuest)).toBe(1);
  });
});

describe('the removal holds (docs/decisions/0083-removal-holds.md)', () => {
  const w = usePlanWorld(db, { each: true });
  const participantOf = async (column: 'user_id' | 'guest_id', id: string) =>
    (await db.owner<{ id: string }[]>`select id from app.participants where plan_id = ${w.planA} and ${db.owner(column)} = ${id}`)[0].id;
  const removeMember = async () =>
    db.as(w.actors.host, async (sql) => sql`select app.remove_participant(${w.planA}, ${await participantOf('user_id', w.users.member)})`);
  const removeGus = async () =>
    db.as(w.actors.host, async (sql) => sql`select app.remove_participant(${w.planA}, ${await participantOf('guest_id', w.guest)})`);
  const removals = (claims: Claims, planId = w.planA) =>
    db.as(claims, (sql) => sql<{ id: string; name: string; is_guest: boolean }[]>`select * from private.plan_removals(${planId})`);
  const allowBack = (claims: Claims, removalId: string, planId = w.planA) =>
    db.as(claims, (sql) => sql`select private.allow_back(${planId}, ${removalId})`);
  const newGuestNamed = (name: string) =>
    db.as({ role: 'anon', plan_id: w.planA }, (sql) => sql`insert into app.guests (plan_id, name) values (${w.planA}, ${name})`);
  const gate = (guestId: string, secretHash: string) =>
    db.as({ role: 'anon' }, async (sql) => (await sql`select private.check_request(null, null, ${guestId}, ${secretHash}) as ok`)[0].ok);
  const memberWithLink: () => Claims = () => ({ ...w.actors.member, plan_id: w.planA });

  it('a removed member cannot join again, neither directly nor on a first write or vote', async () => {
    await removeMember();
    const refused = 'The host removed you from this plan';
    await expectPgError(
      db.as(memberWithLink(), (sql) => sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${w.users.member}, '-') on conflict do nothing`),
      'HP403',
      refused,
    );
    await expectPgError(db.as(memberWithLink(), (sql) => sql`select app.add_idea(${w.planA}, 'Back again')`), 'HP403', refused);
    await expectPgError(db.as(memberWithLink(), (sql) => sql`select * from app.vote_on_idea(${w.ideaA})`), 'HP403', refused);
    await expectPgError(db.as(memberWithLink(), (sql) => sql`select * from app.vote_on_date(${w.planA}, current_date + 2)`), 'HP403', refused);
    expect(await participantNames(db.owner, w.planA)).toEqual(['Gus', 'Hanna Host']);
    // Other plans are not touched by it.
    const other = await createPlan(db.owner, w.users.stranger);
    await db.as({ ...w.actors.member, plan_id: other.id }, (sql) => sql`select app.add_idea(${other.id}, 'Elsewhere')`);
  });

  it("a removed guest's devices are told so, its name cannot come back, and a device holding its secret cannot start over", async () => {
    // A second device continued as Gus by name before the removal.
    const restoredSecret = `restored-${w.guest}`;
    await db.owner`insert into app.guest_credentials (guest_id, secret_hash, kind) values (${w.guest}, ${sha256Hex(restoredSecret)}, 'restored')`;
    await removeGus();

    const [row] = await db.owner`select guest_name, guest_secret_hashes, user_id from app.plan_removals where plan_id = ${w.planA}`;
    expect(row.guest_name).toBe('Gus');
    expect(row.user_id).toBeNull();
    expect([...row.guest_secret_hashes].sort()).toEqual([sha256Hex(`test-device-secret-of-${w.guest}`), sha256Hex(restoredSecret)].sort());

    for (const secret of [`test-device-secret-of-${w.guest}`, restoredSecret]) {
      await expectPgError(gate(w.guest, sha256Hex(secret)), 'HP403', 'The host removed you from this plan');
    }
    // A secret that was never the guest's learns nothing more than before.
    await expectPgError(gate(w.guest, sha256Hex('someone else')), 'HP404', 'Guest not found');

    for (const name of ['Gus', '  gUS ']) await expectPgError(newGuestNamed(name), 'HP403', `The host removed ${name.trim()} from this plan`);
    const refuseDevice = (planId: string, secret: string | null) =>
      db.as({ role: 'anon', plan_id: planId }, async (sql) =>
        (await sql`select private.refuse_removed_device(${planId}, ${secret && sha256Hex(secret)}) as ok`)[0].ok);
    await expectPgError(refuseDevice(w.planA, restoredSecret), 'HP403', 'The host removed you from this plan');
    expect(await refuseDevice(w.planA, 'a new phone')).toBe(true);
    expect(await refuseDevice(w.planA, null)).toBe(true);
    expect(await refuseDevice(w.planB, restoredSecret)).toBe(true);
    // Anyone else still joins, also in the other plan under that name.
    await newGuestNamed('Gustav');
    await db.as({ role: 'anon', plan_id: w.planB }, (sql) => sql`insert into app.guests (plan_id, name) values (${w.planB}, 'Gus')`);
  });

  it('the host sees who was removed, newest first, with their names; nobody else does', async () => {
    await removeGus();
    await removeMember();
    expect((await removals(w.actors.host)).map((r) => [r.name, r.is_guest])).toEqual([
      ['Mia', false],
      ['Gus', true],
    ]);
    await expectPgError(removals({ ...w.actors.strangerWithLink }), 'HP403', 'Only the host can see who was removed');
    await expectPgError(removals(w.actors.stranger), 'HP404', 'Plan not found');
    // Guests hold no token: the read is not theirs at all.
    await expectDenied(removals(w.actors.guest));
    // The table itself is closed to the request roles.
    for (const actor of ['host', 'anonWithLink'] as const) {
      await expectDenied(db.as(w.actors[actor], (sql) => sql`select * from app.plan_removals`));
    }
  });

  it('"Allow back": the member joins again, the name is free again; only the host, only this plan\'s removals', async () => {
    await removeGus();
    await removeMember();
    const [mia, gus] = await removals(w.actors.host);
    await expectPgError(allowBack(w.actors.strangerWithLink, mia.id), 'HP403', 'Only the host can allow people back');
    await expectPgError(allowBack(w.actors.stranger, mia.id), 'HP404', 'Plan not found');
    const otherHost: Claims = { role: 'authenticated', sub: w.users.otherHost };
    await expectPgError(allowBack(otherHost, mia.id, w.planB), 'HP404', 'This person was not removed from the plan');
    expect(await removals(w.actors.host)).toHaveLength(2);

    await allowBack(w.actors.host, mia.id);
    await expectPgError(allowBack(w.actors.host, mia.id), 'HP404', 'This person was not removed from the plan');
    await db.as(memberWithLink(), (sql) => sql`select app.add_idea(${w.planA}, 'Back again')`);
    expect(await participantNames(db.owner, w.planA)).toEqual(['Hanna Host', 'Mia']);

    await allowBack(w.actors.host, gus.id);
    await newGuestNamed('Gus');
    expect(await removals(w.actors.host)).toEqual([]);
    // Removed again, it holds again.
    await removeMember();
    await expectPgError(db.as(memberWithLink(), (sql) => sql`select app.add_idea(${w.planA}, 'Once more')`), 'HP403');
  });

  it('a join racing the removal waits for it and is refused (the plan membership lock)', async () => {
    const mia = await participantOf('user_id', w.users.member);
    const pool = db.pool(2);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let removed!: () => void;
    const removedUncommitted = new Promise<void>((resolve) => (removed = resolve));
    const removal = runAs(pool, w.actors.host, async (sql) => {
      await sql`select app.remove_participant(${w.planA}, ${mia})`;
      removed();
      await held;
    });
    await removedUncommitted;
    const join = runAs(pool, memberWithLink(), (sql) =>
      sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${w.users.member}, '-') on conflict do nothing`);
    join.catch(() => {});
    // The join is waiting on the lock the removal holds.
    await expect
      .poll(async () => (await db.owner`select count(*)::int as n from pg_stat_activity
                                          where datname = current_database() and wait_event_type = 'Lock'`)[0].n)
      .toBe(1);
    release();
    await removal;
    await expectPgError(join, 'HP403', 'The host removed you from this plan');
    expect(await participantNames(db.owner, w.planA)).toEqual(['Gus', 'Hanna Host']);
  });

  it('the removals go with the plan and with a removed account', async () => {
    await removeMember();
    expect(await db.owner`select 1 from app.plan_removals where user_id = ${w.users.member}`).toHaveLength(1);
    await db.owner`delete from app.users where id = ${w.users.member}`;
    expect(await db.owner`select 1 from app.plan_removals where user_id = ${w.users.member}`).toHaveLength(0);
    await removeGus();
    await db.owner`delete from app.plans where id = ${w.planA}`;
    expect(await db.owner`select 1 from app.plan_removals where plan_id = ${w.planA}`).toHaveLength(0);
  });
});
