// app.time_slots and app.time_slot_votes: reading and writing per caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, freshDatabase, type TestDatabase } from '../support/db.ts';
import { seedPlan, type ActorName, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

const readersOfA: ActorName[] = ['anonWithLink', 'guest', 'otherGuestWithLink', 'member', 'host', 'strangerWithLink'];
const blindToA: ActorName[] = ['anon', 'anonWithSlug', 'otherGuest', 'stranger'];

const counts = (actor: ActorName, planId: string) =>
  db.as(w.actors[actor], async (sql) => {
    const [r] = await sql`
      select (select count(*)::int from app.time_slots where plan_id = ${planId}) as slots,
             (select count(*)::int from app.time_slot_votes where plan_id = ${planId}) as votes`;
    return r;
  });

describe('reading', () => {
  for (const actor of readersOfA) {
    it(`${actor} reads plan A's slots and votes`, async () => {
      expect(await counts(actor, w.planA)).toEqual({ slots: 1, votes: 1 });
    });
  }
  for (const actor of blindToA) {
    it(`${actor} reads none of plan A's`, async () => {
      expect(await counts(actor, w.planA)).toEqual({ slots: 0, votes: 0 });
    });
  }
  it("plan B's slots stay hidden from plan A's people", async () => {
    for (const actor of ['guest', 'member', 'host'] as const) {
      expect(await counts(actor, w.planB), actor).toEqual({ slots: 0, votes: 0 });
    }
  });
  it('a slot id resolves to its plan for the plan_id claim', async () => {
    const [r] = await db.as(w.actors.anon, (sql) => sql`select private.plan_id_of_time_slot(${w.slotA}) as p`);
    expect(r.p).toBe(w.planA);
  });
});

describe('creating slots', () => {
  const create = (actor: ActorName, planId: string, period: string | null, days = 5) =>
    db.as(
      w.actors[actor],
      (sql) => sql`insert into app.time_slots (plan_id, date, period) values (${planId}, current_date + ${days}::int, ${period})`,
      { rollback: true },
    );

  it('participants create slots', async () => {
    await create('guest', w.planA, 'Morning');
    await create('member', w.planA, null);
    await create('host', w.planA, '19:30');
  });
  it('non-participants do not', async () => {
    await expectDenied(create('anonWithLink', w.planA, null));
    await expectDenied(create('strangerWithLink', w.planA, null));
    await expectDenied(create('otherGuestWithLink', w.planA, null));
    await expectDenied(create('guest', w.planB, null));
  });
  it('one slot per (plan, date, period), the whole day (null) included', async () => {
    await db.owner`insert into app.time_slots (plan_id, date, period) values (${w.planA}, current_date + 9, null)`;
    await expectPgError(create('member', w.planA, null, 9), '23505');
    await expectPgError(create('member', w.planA, 'Evening', 3), '23505');
  });
  it('period is a named period, H:mm, or null', async () => {
    for (const bad of ['Noon', '24:00', '7pm', '07:5', '']) {
      await expectPgError(create('member', w.planA, bad), '23514');
    }
    for (const good of ['Afternoon', 'Night', '0:00', '9:05', '23:59']) {
      await create('member', w.planA, good);
    }
  });
  it('slots are neither edited nor deleted through the API roles', async () => {
    await expectDenied(db.as(w.actors.host, (sql) => sql`update app.time_slots set period = 'Night' where id = ${w.slotA}`));
    await expectDenied(db.as(w.actors.host, (sql) => sql`delete from app.time_slots where id = ${w.slotA}`));
  });
});

describe('slot votes', () => {
  const voteAs = (actor: ActorName, slotId: string, planId: string, voter: { user?: string; guest?: string }) =>
    db.as(
      w.actors[actor],
      (sql) => sql`insert into app.time_slot_votes (time_slot_id, plan_id, user_id, guest_id)
                   values (${slotId}, ${planId}, ${voter.user ?? null}, ${voter.guest ?? null})`,
      { rollback: true },
    );

  it('participants vote as themselves, once', async () => {
    await voteAs('member', w.slotA, w.planA, { user: w.users.member });
    await expectPgError(voteAs('guest', w.slotA, w.planA, { guest: w.guest }), '23505');
  });
  it('non-participants and impostors cannot vote', async () => {
    await expectDenied(voteAs('strangerWithLink', w.slotA, w.planA, { user: w.users.stranger }));
    await expectDenied(voteAs('otherGuestWithLink', w.slotA, w.planA, { guest: w.otherGuest }));
    await expectDenied(voteAs('member', w.slotA, w.planA, { user: w.users.host }));
    await expectDenied(voteAs('anonWithLink', w.slotA, w.planA, {}));
  });
  it("a vote's slot must belong to the vote's plan", async () => {
    await expectPgError(voteAs('member', w.slotB, w.planA, { user: w.users.member }), '23503');
  });
  it('only the voter removes a vote', async () => {
    const other = await db.as(w.actors.member, (sql) => sql`delete from app.time_slot_votes where time_slot_id = ${w.slotA}`);
    expect(other.count).toBe(0);
    const own = await db.as(w.actors.guest, (sql) => sql`delete from app.time_slot_votes where time_slot_id = ${w.slotA}`, {
      rollback: true,
    });
    expect(own.count).toBe(1);
  });
});
