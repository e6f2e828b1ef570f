// Co-hosts (docs/decisions/0098-cohosts.md, 0099-what-stays-the-hosts.md):
// the host makes a member a co-host (private.set_cohost), who then passes
// every host check under RLS (private.is_plan_manager: the plans UPDATE
// policy, private.plan_for_host, private.require_plan_host, the deletion of
// others' writing, the reminder) but may not delete the plan, hand it over,
// reset its link, choose co-hosts, or remove the host or another co-host.
// A guest is never a co-host; leaving, being removed and hosting end it; a
// leaving host hands the plan to a co-host first.
import { describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addMember, createUser, dayFromToday, participantNames } from '../support/plan-fixture.ts';

const db = useFreshDatabase();

describe('co-hosts', () => {
  const w = usePlanWorld(db, { each: true });
  const participantOf = async (column: 'user_id' | 'guest_id', id: string) =>
    (await db.owner<{ id: string }[]>`select id from app.participants where plan_id = ${w.planA} and ${db.owner(column)} = ${id}`)[0].id;
  const setCohost = (claims: Claims, participantId: string, on = true, planId = w.planA) =>
    db.as(claims, (sql) => sql<{ is_cohost: boolean; user_id: string }[]>`select * from private.set_cohost(${planId}, ${participantId}, ${on})`);
  const isCohost = async (userId: string) =>
    (await db.owner<{ c: boolean }[]>`select is_cohost as c from app.participants where plan_id = ${w.planA} and user_id = ${userId}`)[0]?.c;
  /** Mia, made a co-host by the host: her claims with the link, as the API sends them. */
  const makeMiaCohost = async (): Promise<Claims> => {
    const [row] = await setCohost(w.actors.host, await participantOf('user_id', w.users.member));
    expect(row).toMatchObject({ is_cohost: true, user_id: w.users.member });
    return { ...w.actors.member, plan_id: w.planA };
  };
  const plan = async () => (await db.owner`select * from app.plans where id = ${w.planA}`)[0];

  it('only the host chooses co-hosts, only members can be one, and the refusals change nothing', async () => {
    const mia = await participantOf('user_id', w.users.member);
    const gus = await participantOf('guest_id', w.guest);
    const hanna = await participantOf('user_id', w.users.host);
    const olga = (await db.owner`select id from app.participants where guest_id = ${w.otherGuest}`)[0].id;
    await expectPgError(setCohost(w.actors.member, mia), 'HP403', 'Only the host can choose co-hosts');
    await expectPgError(setCohost(w.actors.strangerWithLink, mia), 'HP403', 'Only the host can choose co-hosts');
    await expectPgError(setCohost(w.actors.stranger, mia), 'HP404', 'Plan not found');
    await expectPgError(setCohost(w.actors.host, gus), 'HP409', "A guest can't be a co-host; ask them to sign in first.");
    await expectPgError(setCohost(w.actors.host, hanna), 'HP409', 'You host this plan already');
    await expectPgError(setCohost(w.actors.host, olga), 'HP404', 'This person is not in the plan');
    // A guest holds no token: the rule is not theirs to run at all.
    await expectDenied(setCohost(w.actors.guest, mia));
    // Nobody writes the column directly; the table refuses a guest co-host even from the owner.
    await expectDenied(db.as(w.actors.host, (sql) => sql`update app.participants set is_cohost = true where id = ${mia}`));
    await expectPgError(db.owner`update app.participants set is_cohost = true where id = ${gus}`, '23514');
    expect(await isCohost(w.users.member)).toBe(false);

    // A co-host does not choose co-hosts either; the host can make one and undo it.
    const cora = await createUser(db.owner, 'Cora', null);
    await addMember(db.owner, w.planA, cora);
    await makeMiaCohost();
    await expectPgError(setCohost(w.actors.member, await participantOf('user_id', cora)), 'HP403', 'Only the host can choose co-hosts');
    expect(await isCohost(cora)).toBe(false);
    const [off] = await setCohost(w.actors.host, mia, false);
    expect(off.is_cohost).toBe(false);
  });

  it('a co-host does every host action under RLS: pick, lock, time, place, unlock, deadline, remind, edit', async () => {
    const cohost = await makeMiaCohost();
    const date = await dayFromToday(db.owner, 5);
    await db.as(cohost, (sql) => sql`select app.pick_idea(${w.planA}, ${w.ideaA})`);
    expect((await plan()).locked_idea_id).toBe(w.ideaA);
    await db.as(cohost, (sql) => sql`select app.set_location(${w.planA}, 'Kenji''s')`);
    await db.as(cohost, (sql) => sql`select app.set_deadline(${w.planA}, now() + interval '2 days', true)`);
    expect(await plan()).toMatchObject({ location: "Kenji's", auto_lock: true });
    const [{ reached }] = await db.as(cohost, (sql) => sql`select app.remind_unanswered(${w.planA}, 3600, 'wait') as reached`);
    expect(typeof reached).toBe('number');
    await db.as(cohost, (sql) => sql`select app.lock_date(${w.planA}, ${date}::date)`);
    await db.as(cohost, (sql) => sql`select app.set_event_time(${w.planA}, '19:30', 'Europe/Berlin')`);
    expect(await plan()).toMatchObject({ status: 'completed', event_time: '7:30 PM' });
    await db.as(cohost, (sql) => sql`select app.unlock_plan(${w.planA})`);
    expect((await plan()).status).toBe('planning');
    // The UPDATE policy lets a co-host edit the plan's row like the host.
    const edited = await db.as(cohost, (sql) => sql`update app.plans set title = 'Renamed' where id = ${w.planA} returning id`);
    expect(edited).toHaveLength(1);
  });

  it("a co-host removes ordinary participants, sees and undoes removals, and deletes others' ideas and comments", async () => {
    const cohost = await makeMiaCohost();
    await db.as(cohost, async (sql) => sql`select app.remove_participant(${w.planA}, ${await participantOf('guest_id', w.guest)})`);
    expect(await participantNames(db.owner, w.planA)).toEqual(['Hanna Host', 'Mia']);
    const removals = await db.as(cohost, (sql) => sql<{ id: string; name: string }[]>`select * from private.plan_removals(${w.planA})`);
    expect(removals.map((r) => r.name)).toEqual(['Gus']);
    await db.as(cohost, (sql) => sql`select private.allow_back(${w.planA}, ${removals[0].id})`);
    const commentByHost = (await db.owner<{ id: string }[]>`
      insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
      values (${w.ideaA}, ${w.planA}, 'mine', 'x', ${w.users.host}) returning id`)[0].id;
    await db.as(cohost, (sql) => sql`select app.delete_idea_comment(${w.ideaA}, ${commentByHost})`);
    await db.as(cohost, (sql) => sql`select app.delete_idea(${w.ideaA})`);
    expect(await db.owner`select 1 from app.ideas where id = ${w.ideaA}`).toHaveLength(0);
  });

  it('a co-host may not delete the plan, hand it over, reset its link, or remove the host or another co-host', async () => {
    const cohost = await makeMiaCohost();
    const cora = await createUser(db.owner, 'Cora', null);
    await addMember(db.owner, w.planA, cora);
    await setCohost(w.actors.host, await participantOf('user_id', cora));
    const before = await plan();

    expect(await db.as(cohost, (sql) => sql`delete from app.plans where id = ${w.planA} returning id`)).toHaveLength(0);
    await expectPgError(
      db.as(cohost, (sql) => sql`update app.plans set host_id = ${w.users.member} where id = ${w.planA}`),
      'HP403',
      'Only the host can hand the plan over',
    );
    await expectPgError(db.as(cohost, (sql) => sql`select private.reset_plan_link(${w.planA})`), 'HP403', "Only the host can reset the plan's link");
    const remove = async (userId: string) =>
      db.as(cohost, async (sql) => sql`select app.remove_participant(${w.planA}, ${await participantOf('user_id', userId)})`);
    await expectPgError(remove(w.users.host), 'HP403', 'A co-host cannot remove the host or another co-host');
    await expectPgError(remove(cora), 'HP403', 'A co-host cannot remove the host or another co-host');
    expect(await plan()).toMatchObject({ host_id: w.users.host, slug: before.slug });
    expect(await participantNames(db.owner, w.planA)).toEqual(['Cora', 'Gus', 'Hanna Host', 'Mia']);
  });

  it('ending: the host takes it back, leaving or being removed ends it, and a new host is no co-host', async () => {
    const cohost = await makeMiaCohost();
    const mia = await participantOf('user_id', w.users.member);
    // Made an ordinary participant again: the host's checks refuse her.
    await setCohost(w.actors.host, mia, false);
    await expectPgError(db.as(cohost, (sql) => sql`select app.unlock_plan(${w.planA})`), 'HP403', 'Only the host can unlock the plan');

    // Removed by the host (a co-host is removable by the host), allowed back, joins again: not a co-host.
    await setCohost(w.actors.host, mia);
    await db.as(w.actors.host, (sql) => sql`select app.remove_participant(${w.planA}, ${mia})`);
    const [removal] = await db.as(w.actors.host, (sql) => sql<{ id: string }[]>`select * from private.plan_removals(${w.planA})`);
    await db.as(w.actors.host, (sql) => sql`select private.allow_back(${w.planA}, ${removal.id})`);
    await addMember(db.owner, w.planA, w.users.member);
    expect(await isCohost(w.users.member)).toBe(false);

    // Leaving ends it too.
    await setCohost(w.actors.host, await participantOf('user_id', w.users.member));
    await db.as(cohost, (sql) => sql`select app.leave_plan(${w.planA})`);
    await addMember(db.owner, w.planA, w.users.member);
    expect(await isCohost(w.users.member)).toBe(false);

    // The host leaves: the co-host hosts, though Cora joined before her, and is no longer a co-host.
    const cora = await createUser(db.owner, 'Cora', null);
    await db.owner`insert into app.participants (plan_id, user_id, name, joined_at) values (${w.planA}, ${cora}, '-', now() - interval '1 day')`;
    await setCohost(w.actors.host, await participantOf('user_id', w.users.member));
    await db.as(w.actors.host, (sql) => sql`select app.leave_plan(${w.planA})`);
    expect((await plan()).host_id).toBe(w.users.member);
    expect(await isCohost(w.users.member)).toBe(false);
  });
});
