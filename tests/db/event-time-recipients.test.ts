// private.event_time_recipients (migration 20261121094000): the addresses the
// "time is set" e-mail goes to, for the host of a completed plan only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectPgError, freshDatabase, type Claims, type TestDatabase } from '../support/db.ts';
import { seedPlan, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
});
beforeEach(async () => {
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

const recipients = (claims: Claims, planId = w.planA) =>
  db.as(claims, (sql) => sql<{ email: string; name: string }[]>`select email, name from private.event_time_recipients(${planId})`);

async function completePlanA() {
  const host = w.actors.host;
  await db.as(host, (sql) => sql`select app.lock_date(${w.planA}, current_date + 3)`);
  await db.as(host, (sql) => sql`select app.set_event_time(${w.planA}, '19:30')`);
}

const emailOf = async (userId: string) => (await db.owner`select email from app.users where id = ${userId}`)[0].email as string;

describe('private.event_time_recipients', () => {
  it('gives the host of a completed plan every member (with an account), in join order, never guests', async () => {
    await completePlanA();
    const rows = await recipients(w.actors.host);
    expect(rows).toEqual([
      { email: await emailOf(w.users.host), name: 'Hanna Host' },
      { email: await emailOf(w.users.member), name: 'Mia' },
    ]);
  });

  it('gives nothing while the time is not set', async () => {
    expect(await recipients(w.actors.host)).toEqual([]);
    await db.as(w.actors.host, (sql) => sql`select app.lock_date(${w.planA}, current_date + 3)`);
    expect(await recipients(w.actors.host)).toEqual([]);
  });

  it('gives nothing to anyone but the host', async () => {
    await completePlanA();
    for (const actor of ['member', 'stranger', 'strangerWithLink'] as const) {
      expect(await recipients(w.actors[actor]), actor).toEqual([]);
    }
    expect(await recipients(w.actors.host, w.planB)).toEqual([]);
  });

  it('cannot be called by anon at all', async () => {
    await completePlanA();
    await expectPgError(recipients(w.actors.guest), '42501');
    await expectPgError(recipients(w.actors.anonWithLink), '42501');
  });
});
