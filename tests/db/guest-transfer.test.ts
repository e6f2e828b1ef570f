// app.transfer_guest_votes (the guest_transfer file, guests): a guest who
// signs in keeps its votes, ideas and place in the plan, once it proves the
// device is the guest's.
import { describe, expect, it } from 'vitest';
import { expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addGuest, addIdea, addMember, addSlot, asGuest, participantNames, sha256Hex } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db, { each: true });

/** The transfer as the API sends it: the caller's claims plus the guest's id and, by default, its device's secret. */
const transfer = (claims: Claims, guestId: string, device: Partial<Claims> = asGuest(guestId)) =>
  db.as({ ...claims, guest_id: device.guest_id, guest_secret_hash: device.guest_secret_hash }, async (sql) =>
    (await sql`select * from app.transfer_guest_votes(${guestId})`)[0]);

describe('transfer_guest_votes', () => {
  it('moves the votes the user lacks, drops duplicates, replaces the guest by the user, counts what moved', async () => {
    const idea2 = await addIdea(db.owner, w.planA, 'Cinema', { guestId: w.guest });
    await db.owner`insert into app.idea_votes (idea_id, plan_id, guest_id) values (${idea2}, ${w.planA}, ${w.guest})`;
    // The stranger joined plan A earlier on another device and voted idea A already.
    await addMember(db.owner, w.planA, w.users.stranger);
    await db.owner`insert into app.idea_votes (idea_id, plan_id, user_id) values (${w.ideaA}, ${w.planA}, ${w.users.stranger})`;

    const counts = await transfer(w.actors.stranger, w.guest);
    expect(counts).toEqual({ transferred_idea_votes: 1, transferred_time_votes: 1 });

    const ideaVotes = await db.owner`select idea_id from app.idea_votes where user_id = ${w.users.stranger} order by idea_id`;
    expect(ideaVotes.map((r) => r.idea_id).sort()).toEqual([w.ideaA, idea2].sort());
    const slotVotes = await db.owner`select time_slot_id from app.time_slot_votes where user_id = ${w.users.stranger}`;
    expect(slotVotes).toEqual([{ time_slot_id: w.slotA }]);
    expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(0);
    expect(await participantNames(db.owner, w.planA)).toEqual(['Hanna Host', 'Mia', 'Sam Stranger']);
    // No double votes anywhere: count equals distinct voters.
    const [{ n, d }] = await db.owner`select count(*)::int as n, count(distinct (idea_id, user_id, guest_id))::int as d from app.idea_votes`;
    expect(n).toBe(d);
    // The guest's idea is now the user's.
    expect(await db.owner`select user_id, guest_id from app.ideas where id = ${idea2}`).toEqual([
      { user_id: w.users.stranger, guest_id: null },
    ]);
  });

  it("keeps each date vote's answer (on a slot both voted, the user's stays) and moves 'none of these dates work'", async () => {
    // Gus says "if need be" on slot A and day 6; the stranger said yes on slot A itself.
    await db.owner`update app.time_slot_votes set answer = 'ifneedbe' where guest_id = ${w.guest}`;
    const day6 = await addSlot(db.owner, w.planA, 6, null);
    await db.owner`insert into app.time_slot_votes (time_slot_id, plan_id, guest_id, answer) values (${day6}, ${w.planA}, ${w.guest}, 'ifneedbe')`;
    await addMember(db.owner, w.planA, w.users.stranger);
    await db.owner`insert into app.time_slot_votes (time_slot_id, plan_id, user_id) values (${w.slotA}, ${w.planA}, ${w.users.stranger})`;
    expect(await transfer(w.actors.stranger, w.guest)).toEqual({ transferred_idea_votes: 1, transferred_time_votes: 1 });
    const answers = await db.owner`select time_slot_id, answer from app.time_slot_votes where user_id = ${w.users.stranger}`;
    expect(answers).toEqual(expect.arrayContaining([{ time_slot_id: w.slotA, answer: 'yes' }, { time_slot_id: day6, answer: 'ifneedbe' }]));
    expect(answers).toHaveLength(2);

    // A guest who said none work: the user who has no date votes takes it over...
    const saidNone = (planId: string) =>
      db.owner`select pa.name from app.no_dates n join app.participants pa on pa.id = n.participant_id where n.plan_id = ${planId} order by 1`;
    const ria = await addGuest(db.owner, w.planA, 'Ria');
    await db.as(asGuest(ria, { plan_id: w.planA }), (sql) => sql`select app.set_no_dates(${w.planA})`);
    await transfer(w.actors.member, ria);
    expect((await saidNone(w.planA)).map((r) => r.name)).toEqual(['Mia']);
    // ...one who has date votes keeps them, and the guest's "none" goes (a date vote clears it).
    const rob = await addGuest(db.owner, w.planA, 'Rob');
    await db.as(asGuest(rob, { plan_id: w.planA }), (sql) => sql`select app.set_no_dates(${w.planA})`);
    await transfer(w.actors.stranger, rob);
    expect((await saidNone(w.planA)).map((r) => r.name)).toEqual(['Mia']);
    expect(await db.owner`select 1 from app.time_slot_votes where user_id = ${w.users.stranger}`).toHaveLength(2);
    // And a user who said none takes a guest's date votes: they clear it.
    const sol = await addGuest(db.owner, w.planA, 'Sol');
    await db.owner`insert into app.time_slot_votes (time_slot_id, plan_id, guest_id) values (${day6}, ${w.planA}, ${sol})`;
    await transfer(w.actors.member, sol);
    expect(await saidNone(w.planA)).toEqual([]);
    expect(await db.owner`select answer from app.time_slot_votes where user_id = ${w.users.member}`).toEqual([{ answer: 'yes' }]);
  });

  it("joins a user who was not in the plan, at the guest's place in the join order", async () => {
    const [{ joined_at }] = await db.owner`select joined_at from app.participants where guest_id = ${w.guest}`;
    const counts = await transfer(w.actors.stranger, w.guest);
    expect(counts).toEqual({ transferred_idea_votes: 1, transferred_time_votes: 1 });
    const rows = await db.owner`select joined_at from app.participants where plan_id = ${w.planA} and user_id = ${w.users.stranger}`;
    expect(rows).toEqual([{ joined_at }]);
  });

  it('a nameless account takes the guest name; a chosen name is kept', async () => {
    const sam = await addGuest(db.owner, w.planA, '  Sam   de Vries ');
    const fresh = (await db.owner`insert into app.users (email) values ('fresh@example.test') returning id`)[0].id;
    await transfer({ role: 'authenticated', sub: fresh }, sam);
    expect((await db.owner`select first_name, last_name from app.users where id = ${fresh}`)[0]).toEqual({
      first_name: 'Sam',
      last_name: 'de Vries',
    });
    expect(await participantNames(db.owner, w.planA)).toContain('Sam de Vries');

    const solo = await addGuest(db.owner, w.planA, 'Robin');
    await transfer(w.actors.stranger, solo); // the stranger already has a name
    expect((await db.owner`select first_name, last_name from app.users where id = ${w.users.stranger}`)[0]).toEqual({
      first_name: 'Sam',
      last_name: 'Stranger',
    });
  });

  it('403 without sign-in, 404 for an unknown guest; nothing moves', async () => {
    await expectPgError(transfer(w.actors.guest, w.guest), 'HP403', 'Sign in to keep your votes');
    await expectPgError(transfer(w.actors.stranger, crypto.randomUUID()), 'HP404', 'Guest not found');
    expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(1);
  });

  it("403 without the guest's secret, with a wrong one or with another guest's: the id alone takes nothing over", async () => {
    const fresh = (await db.owner`insert into app.users (email) values (${`nameless-${crypto.randomUUID()}@example.test`}) returning id`)[0].id;
    const sentence = 'This device is no longer confirmed as that guest, please confirm your name again';
    for (const device of [
      { guest_id: w.guest },
      { guest_id: w.guest, guest_secret_hash: sha256Hex('a guess') },
      { guest_id: w.guest, guest_secret_hash: asGuest(w.otherGuest).guest_secret_hash },
      asGuest(w.otherGuest),
    ]) {
      await expectPgError(transfer({ role: 'authenticated', sub: fresh }, w.guest, device), 'HP403', sentence);
    }
    expect(await db.owner`select 1 from app.guests where id = ${w.guest}`).toHaveLength(1);
    expect(await db.owner`select 1 from app.idea_votes where user_id = ${fresh}`).toHaveLength(0);
    // Not even the name moves.
    expect((await db.owner`select first_name from app.users where id = ${fresh}`)[0].first_name).toBeNull();
  });
});
