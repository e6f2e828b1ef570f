// The host's rules (the lock rules domain): lock_date, set_event_time,
// unlock_plan, pick_idea, set_location; and private.claim_event_time_notice,
// which lets the "time is set" notice go out only when the date or time
// changed, at most once per window per plan (who it reaches:
// notifications.test.ts).
import { describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, useHostAndMember, usePlanWorld, type Claims } from '../support/db.ts';
import { dayFromToday, type ActorName } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
// Every test gets its own two plans (and users), so status changes never leak.
const w = usePlanWorld(db, { each: true });

const call = (claims: Claims, query: string, ...args: unknown[]) =>
  db.as(claims, (sql) => sql.unsafe(query, args as never[]));
const plan = async (id = w.planA) =>
  (await db.owner`select status, locked_time_slot_date::text as date, locked_time_slot_id, event_time, time_zone, locked_idea_id, location
                  from app.plans where id = ${id}`)[0];
const day = (offset: number) => dayFromToday(db.owner, offset);

const nonHosts: ActorName[] = ['member', 'guest', 'strangerWithLink', 'anonWithLink'];

describe('lock_date', () => {
  it('the host locks a date: status time_range_locked', async () => {
    const d = await day(4);
    await call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, d);
    expect(await plan()).toMatchObject({ status: 'time_range_locked', date: d, event_time: null });
  });
  it('403 for everyone else who can see the plan, 404 for those who cannot', async () => {
    const d = await day(4);
    for (const actor of nonHosts) {
      await expectPgError(call(w.actors[actor], 'select app.lock_date($1, $2::date)', w.planA, d), 'HP403', 'Only the host can lock a date');
    }
    await expectPgError(call(w.actors.stranger, 'select app.lock_date($1, $2::date)', w.planA, d), 'HP404', 'Plan not found');
    await expectPgError(call(w.actors.host, 'select app.lock_date($1, $2::date)', crypto.randomUUID(), d), 'HP404', 'Plan not found');
    expect((await plan()).status).toBe('planning');
  });
  it('400 for a date before yesterday', async () => {
    await expectPgError(call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, await day(-2)), 'HP400');
  });
});

describe('set_event_time', () => {
  it('needs a locked date (409)', async () => {
    await expectPgError(
      call(w.actors.host, 'select app.set_event_time($1, $2)', w.planA, '19:30'),
      'HP409',
      'Lock a date before setting the event time',
    );
  });

  it("stores 'h:mm AM/PM', finds or creates the (date, 'H:mm') slot and completes the plan", async () => {
    const d = await day(3);
    await call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, d);
    for (const [input, shown, period] of [
      ['19:30', '7:30 PM', '19:30'],
      ['07:05', '7:05 AM', '7:05'],
      ['00:00', '12:00 AM', '0:00'],
      ['12:15', '12:15 PM', '12:15'],
      ['9:00', '9:00 AM', '9:00'],
    ]) {
      await call(w.actors.host, 'select app.set_event_time($1, $2)', w.planA, input);
      const p = await plan();
      expect(p, input).toMatchObject({ status: 'completed', date: d, event_time: shown });
      const [slot] = await db.owner`select date::text, period from app.time_slots where id = ${p.locked_time_slot_id}`;
      expect(slot, input).toEqual({ date: d, period });
    }
  });

  it("keeps the zone of the host's clock with the time; a time set with none is floating", async () => {
    await call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, await day(3));
    await call(w.actors.host, 'select app.set_event_time($1, $2, $3)', w.planA, '19:30', 'Europe/Berlin');
    expect(await plan()).toMatchObject({ event_time: '7:30 PM', time_zone: 'Europe/Berlin' });
    await call(w.actors.host, 'select app.set_event_time($1, $2, $3)', w.planA, '20:00', 'America/New_York');
    expect(await plan()).toMatchObject({ event_time: '8:00 PM', time_zone: 'America/New_York' });
    await call(w.actors.host, 'select app.set_event_time($1, $2)', w.planA, '20:00');
    expect(await plan()).toMatchObject({ event_time: '8:00 PM', time_zone: null });
  });

  it('refuses what is no zone name, and a zone without a time, at the table (23514)', async () => {
    await call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, await day(3));
    for (const bad of ['+02:00', '', 'Europe/Berlin; drop', `A${'b'.repeat(64)}`]) {
      await expectPgError(call(w.actors.host, 'select app.set_event_time($1, $2, $3)', w.planA, '19:30', bad), '23514');
    }
    await expectPgError(db.owner`update app.plans set time_zone = 'UTC' where id = ${w.planA}`, '23514');
    expect(await plan()).toMatchObject({ status: 'time_range_locked', event_time: null, time_zone: null });
  });

  it('reuses an existing slot of that time', async () => {
    const d = await day(3);
    await call(w.actors.member, 'select * from app.vote_on_date($1, $2::date, $3)', w.planA, d, '18:00');
    await call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, d);
    await call(w.actors.host, 'select app.set_event_time($1, $2)', w.planA, '18:00');
    const slots = await db.owner`select id from app.time_slots where plan_id = ${w.planA} and date = ${d} and period = '18:00'`;
    expect(slots).toHaveLength(1);
    expect((await plan()).locked_time_slot_id).toBe(slots[0].id);
  });

  it('400 for anything but HH:mm 24-hour, 403 for non-hosts', async () => {
    await call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, await day(3));
    for (const bad of ['24:00', '7pm', '7:5', '19:30:00', '']) {
      await expectPgError(
        call(w.actors.host, 'select app.set_event_time($1, $2)', w.planA, bad),
        'HP400',
        'Time must be HH:mm (24-hour), e.g. 19:30',
      );
    }
    await expectPgError(
      call(w.actors.member, 'select app.set_event_time($1, $2)', w.planA, '19:00'),
      'HP403',
      'Only the host can set the event time',
    );
  });

  it('a completed plan must be unlocked before locking another date', async () => {
    await call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, await day(3));
    await call(w.actors.host, 'select app.set_event_time($1, $2)', w.planA, '20:00');
    await expectPgError(call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, await day(4)), 'HP409');
  });
});

describe('unlock_plan', () => {
  it('clears date, slot and time, back to planning; the picked idea, location and votes stay', async () => {
    await call(w.actors.host, 'select app.pick_idea($1, $2)', w.planA, w.ideaA);
    await call(w.actors.host, 'select app.set_location($1, $2)', w.planA, 'The park');
    await call(w.actors.host, 'select app.lock_date($1, $2::date)', w.planA, await day(3));
    await call(w.actors.host, 'select app.set_event_time($1, $2, $3)', w.planA, '20:00', 'Europe/Berlin');
    const votesBefore = await db.owner`select count(*)::int as n from app.time_slot_votes where plan_id = ${w.planA}`;
    await call(w.actors.host, 'select app.unlock_plan($1)', w.planA);
    expect(await plan()).toEqual({
      status: 'planning',
      date: null,
      locked_time_slot_id: null,
      event_time: null,
      time_zone: null,
      locked_idea_id: w.ideaA,
      location: 'The park',
    });
    expect(await db.owner`select count(*)::int as n from app.time_slot_votes where plan_id = ${w.planA}`).toEqual(votesBefore);
  });
  it('403 for non-hosts', async () => {
    for (const actor of nonHosts) {
      await expectPgError(call(w.actors[actor], 'select app.unlock_plan($1)', w.planA), 'HP403', 'Only the host can unlock the plan');
    }
  });
});

describe('pick_idea', () => {
  it('picks, and picking the picked idea again un-picks it', async () => {
    await call(w.actors.host, 'select app.pick_idea($1, $2)', w.planA, w.ideaA);
    expect((await plan()).locked_idea_id).toBe(w.ideaA);
    await call(w.actors.host, 'select app.pick_idea($1, $2)', w.planA, w.ideaA);
    expect((await plan()).locked_idea_id).toBeNull();
  });
  it('the idea must belong to the plan', async () => {
    await expectPgError(call(w.actors.host, 'select app.pick_idea($1, $2)', w.planA, w.ideaB), 'HP404', 'Idea not found');
    await expectPgError(call(w.actors.host, 'select app.pick_idea($1, $2)', w.planA, crypto.randomUUID()), 'HP404', 'Idea not found');
  });
  it('403 for non-hosts', async () => {
    for (const actor of nonHosts) {
      await expectPgError(call(w.actors[actor], 'select app.pick_idea($1, $2)', w.planA, w.ideaA), 'HP403', 'Only the host can pick an idea');
    }
  });
});

describe('set_location', () => {
  it('location is trimmed, an empty string clears it, over 500 characters is 400', async () => {
    await call(w.actors.host, 'select app.set_location($1, $2)', w.planA, '  https://maps.example/x  ');
    expect((await plan()).location).toBe('https://maps.example/x');
    await call(w.actors.host, 'select app.set_location($1, $2)', w.planA, '');
    expect((await plan()).location).toBeNull();
    await expectPgError(
      call(w.actors.host, 'select app.set_location($1, $2)', w.planA, 'l'.repeat(501)),
      'HP400',
      'Location must be at most 500 characters',
    );
    await expectPgError(call(w.actors.member, 'select app.set_location($1, $2)', w.planA, 'x'), 'HP403', 'Only the host can set the location');
  });
});

describe('the "time is set" e-mail, once per change', () => {
  const { users, newPlan: plan } = useHostAndMember(db);

  const MESSAGE = 'Everyone was e-mailed a new time a moment ago';

  /**
   * set_event_time then the claim, in one transaction, as the API does. With
   * `days`, the host first unlocks and locks that date (the UI's "Change Date").
   */
  const setTime = (claims: Claims, planId: string, time: string, days?: number, timeZone: string | null = null) =>
    db.as(claims, async (sql) => {
      if (days !== undefined) {
        await sql`select app.unlock_plan(${planId})`;
        await sql`select app.lock_date(${planId}, current_date + ${days}::int)`;
      }
      await sql`select app.set_event_time(${planId}, ${time}, ${timeZone})`;
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

    it('the same time set in another zone is another instant: sent again, after the window', async () => {
      const p = await plan();
      expect(await setTime(p.host, p.planId, '19:00', 4, 'Europe/Berlin')).toBe(true);
      expect(await setTime(p.host, p.planId, '19:00', undefined, 'Europe/Berlin')).toBe(false);
      await expectPgError(setTime(p.host, p.planId, '19:00', undefined, 'America/New_York'), 'HP429', MESSAGE);
      await db.owner`update app.event_time_notices set sent_at = now() - interval '601 seconds' where plan_id = ${p.planId}`;
      expect(await setTime(p.host, p.planId, '19:00', undefined, 'America/New_York')).toBe(true);
      const [notice] = await db.owner`select event_time, time_zone from app.event_time_notices where plan_id = ${p.planId}`;
      expect(notice).toEqual({ event_time: '7:00 PM', time_zone: 'America/New_York' });
    });

    it('not completed: nothing to send; not the host: HP403', async () => {
      const p = await plan();
      expect(await db.as(p.host, async (sql) => (await sql`select private.claim_event_time_notice(${p.planId}, 600, 'x') as s`)[0].s)).toBe(false);
      await expectPgError(
        db.as({ role: 'authenticated', sub: users.member, plan_id: p.planId }, (sql) => sql`select private.claim_event_time_notice(${p.planId}, 600, 'x')`),
        'HP403',
      );
    });

    it('nobody reads or writes the notices directly', async () => {
      await expectDenied(db.as({ role: 'authenticated', sub: users.host }, (sql) => sql`select * from app.event_time_notices`));
      await expectDenied(db.as({ role: 'anon' }, (sql) => sql`select private.claim_event_time_notice(gen_random_uuid(), 600, 'x')`));
    });
  });
});
