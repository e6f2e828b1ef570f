// Link previews (the previews migration; docs/decisions/0105-link-previews.md):
// private.preview_facts gives the card's facts to whoever can read the plan
// (the slug's holder included) and to no one else, never a guest's name, and
// nothing while the host shows no details; private.set_preview_details is
// the host's alone.
import { describe, expect, it } from 'vitest';
import { expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { blindToA, readersOfA } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db, { each: true });

const facts = async (claims: Claims, planId = w.planA) =>
  (await db.as(claims, (sql) => sql`select private.preview_facts(${planId}) as facts`))[0].facts as Record<string, unknown> | null;
const setDetails = (claims: Claims, on: boolean) =>
  db.as(claims, (sql) => sql`select private.set_preview_details(${w.planA}, ${on})`);
const details = async () => (await db.owner`select preview_details from app.plans where id = ${w.planA}`)[0].preview_details;

describe('private.preview_facts', () => {
  it('gives every reader of the plan the same public facts: title, status, the host\'s name, no date yet', async () => {
    const seen = await Promise.all(readersOfA.map((actor) => facts(w.actors[actor])));
    for (const one of seen) {
      expect(one).toEqual({
        title: 'Plan A', status: 'planning', hostName: 'Hanna Host',
        date: null, eventTime: null, period: null, location: null, going: 0,
      });
    }
  });

  it('is null for whoever cannot read the plan', async () => {
    for (const actor of blindToA) expect(await facts(w.actors[actor]), actor).toBeNull();
  });

  it('once set: the day, the time, the place and how many are going; never a guest\'s name', async () => {
    await db.as(w.actors.host, (sql) => sql`select app.lock_date(${w.planA}, current_date + 3)`);
    await db.as(w.actors.host, (sql) => sql`select app.set_event_time(${w.planA}, '19:30', 'Europe/Berlin')`);
    await db.as(w.actors.host, (sql) => sql`select app.set_location(${w.planA}, 'Kenji Ramen')`);
    await db.owner`insert into app.rsvps (plan_id, participant_id, answer)
                   select plan_id, id, 'going' from app.participants where plan_id = ${w.planA}`;
    const seen = await facts(w.actors.anonWithLink);
    const [{ day }] = await db.owner`select to_jsonb(current_date + 3) #>> '{}' as day`;
    expect(seen).toMatchObject({ status: 'completed', date: day, eventTime: '7:30 PM', location: 'Kenji Ramen', going: 3 });
    const guestNames = await db.owner<{ name: string }[]>`select name from app.participants where plan_id = ${w.planA} and guest_id is not null`;
    expect(guestNames.length).toBeGreaterThan(0);
    for (const { name } of guestNames) expect(JSON.stringify(seen)).not.toContain(name);
  });

  it('a renamed host shows on the next card: the plan\'s version moves with the name', async () => {
    const version = async () => (await db.owner`select version from app.plan_versions where plan_id = ${w.planA}`)[0]?.version ?? '0';
    const before = BigInt(await version());
    await db.owner`update app.users set first_name = 'Hana' where id = ${w.users.host}`;
    expect((await facts(w.actors.anonWithLink))?.hostName).toBe('Hana Host');
    expect(BigInt(await version())).toBeGreaterThan(before);
  });

  it('says nothing while the host shows no details', async () => {
    await setDetails(w.actors.host, false);
    for (const actor of readersOfA) expect(await facts(w.actors[actor]), actor).toBeNull();
    await setDetails(w.actors.host, true);
    expect(await facts(w.actors.anonWithLink)).not.toBeNull();
  });
});

describe('private.set_preview_details', () => {
  it('the host turns details off and on; the plan\'s version moves', async () => {
    const version = async () => (await db.owner`select version from app.plan_versions where plan_id = ${w.planA}`)[0]?.version ?? '0';
    expect(await details()).toBe(true);
    const before = BigInt(await version());
    await setDetails(w.actors.host, false);
    expect(await details()).toBe(false);
    expect(BigInt(await version())).toBeGreaterThan(before);
    await setDetails(w.actors.host, true);
    expect(await details()).toBe(true);
  });

  it('403 for everyone else who can read the plan (a co-host too), 404 for the others; nothing changes', async () => {
    await db.owner`update app.participants set is_cohost = true where plan_id = ${w.planA} and user_id = ${w.users.member}`;
    for (const actor of ['member', 'strangerWithLink'] as const) {
      await expectPgError(setDetails(w.actors[actor], false), 'HP403', 'Only the host can change link previews');
    }
    await expectPgError(setDetails(w.actors.stranger, false), 'HP404', 'Plan not found');
    // Guests and the anonymous holder of the link cannot call it at all.
    for (const actor of ['guest', 'anonWithLink'] as const) await expectPgError(setDetails(w.actors[actor], false), '42501');
    expect(await details()).toBe(true);
  });

  it('nobody writes the column by the table', async () => {
    await expectPgError(
      db.as(w.actors.host, (sql) => sql`update app.plans set preview_details = false where id = ${w.planA}`),
      '42501',
    );
    expect(await details()).toBe(true);
  });
});
