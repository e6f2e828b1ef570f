// Deleting a plan takes everything in it, and nothing else. Not one domain's
// file: the cascade runs through the tables of several (plans, guests,
// participants, ideas, dates) and is the same
// whichever path deletes (the host's delete, the last one leaving).
import { describe, expect, it } from 'vitest';
import { useFreshDatabase, usePlanWorld } from '../support/db.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db);

const TABLES = ['guests', 'participants', 'ideas', 'idea_comments', 'idea_votes', 'time_slots', 'time_slot_votes', 'no_dates'];
const countsOf = async (planId: string) => {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const [{ n }] = await db.owner.unsafe(`select count(*)::int as n from app.${t} where plan_id = $1`, [planId]);
    out[t] = n;
  }
  return out;
};

describe('deleting a plan', () => {
  it('a completed plan with a picked idea goes with all its rows; the other plan and the users stay', async () => {
    const as = (q: string, ...a: unknown[]) => db.as(w.actors.host, (sql) => sql.unsafe(q, a as never[]));
    await as('select app.pick_idea($1, $2)', w.planA, w.ideaA);
    await as('select app.lock_date($1, current_date + 3)', w.planA);
    await as('select app.set_event_time($1, $2)', w.planA, '19:00');
    // Mia (no date votes) says none of the dates work.
    await db.as(w.actors.member, (sql) => sql`select app.set_no_dates(${w.planA})`);

    const before = await countsOf(w.planA);
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const otherBefore = await countsOf(w.planB);

    // As DELETE /api/plans/{id} does: the host's plain delete, under row security.
    await db.as(w.actors.host, (sql) => sql`delete from app.plans where id = ${w.planA}`);

    expect(await countsOf(w.planA)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
    expect(await countsOf(w.planB)).toEqual(otherBefore);
    const [{ n }] = await db.owner`select count(*)::int as n from app.users`;
    expect(n).toBe(4);
  });

  it("a deleted guest's ideas keep their author name; its votes go", async () => {
    const [idea] = await db.owner`
      insert into app.ideas (plan_id, text, author_name, guest_id) values (${w.planB}, 'Bowling', 'x', ${w.otherGuest})
      returning id, author_name`;
    await db.owner`delete from app.guests where id = ${w.otherGuest}`;
    const [after] = await db.owner`select author_name, guest_id from app.ideas where id = ${idea.id}`;
    expect(after).toEqual({ author_name: 'Olga', guest_id: null });
    // The guest's votes went with it.
    expect(await db.owner`select 1 from app.idea_votes where plan_id = ${w.planB}`).toHaveLength(0);
  });
});
