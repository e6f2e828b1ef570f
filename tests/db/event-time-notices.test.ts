// private.claim_event_time_notice (20261124100300_event_time_notices.sql): the
// "time set" e-mail goes out only when the date or time changed, at most once
// per window per plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, freshDatabase, type Claims, type TestDatabase } from '../support/db.ts';
import { addMember, createPlan, createUser } from '../support/plan-fixture.ts';

let db: TestDatabase;
let host: string;
let member: string;
beforeAll(async () => {
  db = await freshDatabase();
  host = await createUser(db.owner, 'Hanna', 'Host');
  member = await createUser(db.owner, 'Mia', null);
});
afterAll(() => db?.close());

const MESSAGE = 'Everyone was e-mailed a new time a moment ago';

async function plan() {
  const p = await createPlan(db.owner, host);
  await addMember(db.owner, p.id, member);
  return { planId: p.id, host: { role: 'authenticated', sub: host, plan_id: p.id } as Claims };
}

/**
 * set_event_time then the claim, in one transaction, as the API does. With
 * `days`, the host first unlocks and locks that date (the UI's "Change Date").
 */
const setTime = (claims: Claims, planId: string, time: string, days?: number) =>
  db.as(claims, async (sql) => {
    if (days !== undefined) {
      await sql`select app.unlock_plan(${planId})`;
      await sql`select app.lock_date(${planId}, current_date + ${days}::int)`;
    }
    await sql`select app.set_event_time(${planId}, ${time})`;
    const [{ send }] = await sql`select private.claim_event_time_notice(${planId}, 600, ${MESSAGE}) as send`;
    return send as boolean;
  });

describe('claim_event_time_notice', () => {
  it('first time: send; the same time again: nothing to send', async () => {
    const p = await plan();
    expect(await setTime(p.host, p.planId, '19:00', 4)).toBe(true);
    expect(await setTime(p.host, p.planId, '19:00')).toBe(false);
    // Unlock, pick the same date, same time: still the same, still nothing.
    expect(await setTime(p.host, p.planId, '19:00', 4)).toBe(false);
  });

  it('a different time or date within the window is HP429 (seconds in DETAIL) and rolls back; after it, send', async () => {
    const p = await plan();
    expect(await setTime(p.host, p.planId, '19:00', 4)).toBe(true);
    try {
      await setTime(p.host, p.planId, '20:00');
      expect.fail('expected HP429');
    } catch (error) {
      const e = error as { code: string; message: string; detail: string };
      expect(e.code).toBe('HP429');
      expect(e.message).toBe(MESSAGE);
      expect(Number(e.detail)).toBeGreaterThan(590);
    }
    await expectPgError(setTime(p.host, p.planId, '19:00', 5), 'HP429', MESSAGE);
    // Rolled back: the plan still says 7 PM on the first date.
    const [row] = await db.owner`select event_time, (locked_time_slot_date - current_date)::int as days from app.plans where id = ${p.planId}`;
    expect(row).toEqual({ event_time: '7:00 PM', days: 4 });
    await db.owner`update app.event_time_notices set sent_at = now() - interval '601 seconds' where plan_id = ${p.planId}`;
    expect(await setTime(p.host, p.planId, '20:00')).toBe(true);
    const [notice] = await db.owner`select event_time from app.event_time_notices where plan_id = ${p.planId}`;
    expect(notice.event_time).toBe('8:00 PM');
  });

  it('not completed: nothing to send; not the host: HP403', async () => {
    const p = await plan();
    expect(await db.as(p.host, async (sql) => (await sql`select private.claim_event_time_notice(${p.planId}, 600, 'x') as s`)[0].s)).toBe(false);
    await expectPgError(
      db.as({ role: 'authenticated', sub: member, plan_id: p.planId }, (sql) => sql`select private.claim_event_time_notice(${p.planId}, 600, 'x')`),
      'HP403',
    );
  });

  it('nobody reads or writes the notices directly', async () => {
    await expectDenied(db.as({ role: 'authenticated', sub: host }, (sql) => sql`select * from app.event_time_notices`));
    await expectDenied(db.as({ role: 'anon' }, (sql) => sql`select private.claim_event_time_notice(gen_random_uuid(), 600, 'x')`));
  });
});
