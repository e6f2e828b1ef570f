// The host's rules (the lock domain): lock_date, set_event_time,
// unlock_plan, pick_idea, set_location; and that the time is never refused
// for the plan's notice budget: the "time is set" notice goes out only when
// the date, time or zone differs from what the members were told, at most
// once per window per plan, saying the last time (the budget itself, and who
// a notice reaches: reminders.test.ts).
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

describe('the time always changes; only its notice waits (the notice budget)', () => {
  const { newPlan: plan } = useHostAndMember(db);
  const WINDOW = 600;

  /**
   * set_event_time then the plan's notice, in one transaction, as the API
   * does; how many notices were written. With `days`, the host first unlocks
   * and locks that date (the UI's "Change Date").
   */
  const setTime = (claims: Claims, planId: string, time: string, days?: number, timeZone: string | null = null) =>
    db.as(claims, async (sql) => {
      if (days !== undefined) {
        await sql`select app.unlock_plan(${planId})`;
        await sql`select app.lock_date(${planId}, current_date + ${days}::int)`;
      }
      await sql`select app.set_event_time(${planId}, ${time}, ${timeZone})`;
      return (await sql`select private.send_plan_notices(${planId}, ${WINDOW}) as n`)[0].n as number;
    });
  /** The plan's time notices in the outbox: kind, the time and zone they say, and their e-mails. */
  const timeNotices = (planId: string) =>
    db.owner`
      select e.kind, e.detail ->> 'eventTime' as time, e.detail ->> 'timeZone' as zone,
             (select count(*)::int from app.notification_deliveries d where d.event_id = e.id and d.channel = 'email') as emails
        from app.notification_events e where e.plan_id = ${planId} order by e.id`;
  const windowPasses = (planId: string) =>
    db.owner`update app.plan_notices set quiet_until = now() - interval '1 second' where plan_id = ${planId}`;
  /** The scheduler's pass, for this plan only (other tests' plans wait in the same database). */
  const sendDue = (planId: string) =>
    db.owner.begin(async (tx) => {
      await tx`set local role service_role`;
      return (await tx`select private.send_plan_notices(${planId}, ${WINDOW}) as n`)[0].n as number;
    });

  it('first time: one notice; the same time again (also after unlock and the same date): nothing', async () => {
    const p = await plan();
    expect(await setTime(p.host, p.planId, '19:00', 4)).toBe(1);
    expect(await setTime(p.host, p.planId, '19:00')).toBe(0);
    expect(await setTime(p.host, p.planId, '19:00', 4)).toBe(0);
    await windowPasses(p.planId);
    expect(await sendDue(p.planId)).toBe(0);
    expect(await timeNotices(p.planId)).toEqual([{ kind: 'time_set', time: '7:00 PM', zone: null, emails: 2 }]);
  });

  it('new times and dates within the window all apply, never refused; one notice when it ends, saying the last time', async () => {
    const p = await plan();
    expect(await setTime(p.host, p.planId, '19:00', 4)).toBe(1);
    for (const [time, days, shown] of [['20:00', undefined, '8:00 PM'], ['21:15', 5, '9:15 PM'], ['22:00', 6, '10:00 PM']] as const) {
      expect(await setTime(p.host, p.planId, time, days)).toBe(0);
      const [row] = await db.owner`select event_time, (locked_time_slot_date - current_date)::int as days from app.plans where id = ${p.planId}`;
      expect(row).toEqual({ event_time: shown, days: days ?? 4 });
    }
    expect(await sendDue(p.planId)).toBe(0);
    await windowPasses(p.planId);
    expect(await sendDue(p.planId)).toBe(1);
    // One e-mail per member (the host and Mia) for each notice.
    expect(await timeNotices(p.planId)).toEqual([
      { kind: 'time_set', time: '7:00 PM', zone: null, emails: 2 },
      { kind: 'time_changed', time: '10:00 PM', zone: null, emails: 2 },
    ]);
  });

  it('the same time set in another zone is another instant: told, within the window', async () => {
    const p = await plan();
    expect(await setTime(p.host, p.planId, '19:00', 4, 'Europe/Berlin')).toBe(1);
    expect(await setTime(p.host, p.planId, '19:00', undefined, 'Europe/Berlin')).toBe(0);
    expect(await setTime(p.host, p.planId, '19:00', undefined, 'America/New_York')).toBe(0);
    await windowPasses(p.planId);
    expect(await sendDue(p.planId)).toBe(1);
    expect((await timeNotices(p.planId)).map((n) => [n.kind, n.time, n.zone])).toEqual([
      ['time_set', '7:00 PM', 'Europe/Berlin'],
      ['time_changed', '7:00 PM', 'America/New_York'],
    ]);
  });

  it('a member cannot set the time; nobody reads or writes the budget directly', async () => {
    const p = await plan();
    await expectPgError(setTime(p.member, p.planId, '19:00', 4), 'HP403');
    await expectDenied(db.as(p.host, (sql) => sql`select * from app.plan_notices`));
    await expectDenied(db.as({ role: 'anon' }, (sql) => sql`select private.send_plan_notices(gen_random_uuid(), 600)`));
  });
});
