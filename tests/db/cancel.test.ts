// Cancelling a plan (the lock domain's app.cancel_plan; docs/decisions/0100-cancelling-a-plan.md):
// who may, what it keeps, what it freezes (votes, ideas, comments, date
// votes, the host's other decisions), that unlocking reopens it, that its
// calendar revision rises, and its one notice within the plan's budget.
import { describe, expect, it } from 'vitest';
import { expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import type { ActorName } from '../support/plan-fixture.ts';
import { useOutbox } from './outbox-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db, { each: true });
const { subscribe, outbox, hostDoes, windowPasses, sendDueNotices } = useOutbox(db, w);

const CANCELLED = 'This plan was cancelled.';
const call = (claims: Claims, query: string, ...args: unknown[]) =>
  db.as(claims, (sql) => sql.unsafe(query, args as never[]));
const plan = async (id = w.planA) =>
  (await db.owner`select status, cancel_message, cancelled_at is not null as has_cancelled_at,
                         locked_time_slot_date is not null as has_date, event_time, location, calendar_sequence
                    from app.plans where id = ${id}`)[0];
const cancel = (message: string | null = null, claims: Claims = w.actors.host) =>
  call(claims, 'select app.cancel_plan($1, $2)', w.planA, message);

describe('app.cancel_plan', () => {
  it('the host cancels with a message (trimmed): status cancelled; the date, time and place stay', async () => {
    await call(w.actors.host, 'select app.lock_date($1, current_date + 3)', w.planA);
    await call(w.actors.host, "select app.set_event_time($1, '19:30', 'Europe/Berlin')", w.planA);
    await call(w.actors.host, "select app.set_location($1, 'Kenji')", w.planA);
    const before = (await plan()).calendar_sequence as number;
    await cancel('  Rain all weekend, sorry!  ');
    const after = await plan();
    expect(after).toMatchObject({
      status: 'cancelled', cancel_message: 'Rain all weekend, sorry!', has_cancelled_at: true,
      has_date: true, event_time: '7:30 PM', location: 'Kenji',
    });
    // The calendars' copy of the event is replaced by a cancelled one.
    expect(after.calendar_sequence).toBeGreaterThan(before);
  });

  it('no message or a blank one is none; over 500 characters is 400 and changes nothing', async () => {
    await expectPgError(cancel('x'.repeat(501)), 'HP400', 'Message must be at most 500 characters');
    expect((await plan()).status).toBe('planning');
    await cancel('   ');
    expect(await plan()).toMatchObject({ status: 'cancelled', cancel_message: null, has_cancelled_at: true });
  });

  it('403 for everyone else who can see the plan, 404 for those who cannot; twice is 409', async () => {
    const nonHosts: ActorName[] = ['member', 'guest', 'strangerWithLink', 'anonWithLink'];
    for (const actor of nonHosts) {
      await expectPgError(cancel(null, w.actors[actor]), 'HP403', 'Only the host can cancel the plan');
    }
    await expectPgError(cancel(null, w.actors.stranger), 'HP404', 'Plan not found');
    expect((await plan()).status).toBe('planning');
    await cancel();
    await expectPgError(cancel('again'), 'HP409', CANCELLED);
    expect((await plan()).cancel_message).toBeNull();
  });

  it('nobody writes by the table either: the status and message are the host\'s, through the rule', async () => {
    const rows = await db.as(w.actors.member, (sql) =>
      sql`update app.plans set status = 'cancelled', cancelled_at = now() where id = ${w.planA} returning id`);
    expect(rows).toHaveLength(0);
    // The table keeps the shape: a message only on a cancelled plan.
    await expectPgError(db.owner`update app.plans set cancel_message = 'x' where id = ${w.planA}`, '23514');
  });
});

describe('a cancelled plan is frozen', () => {
  it('votes, ideas, comments, date votes, "none of these dates work" and answers: 409 for guests and members alike; nothing is written', async () => {
    await cancel();
    const counts = async () =>
      (await db.owner`select (select count(*) from app.idea_votes where plan_id = ${w.planA})::int as iv,
                             (select count(*) from app.ideas where plan_id = ${w.planA})::int as ideas,
                             (select count(*) from app.idea_comments where plan_id = ${w.planA})::int as comments,
                             (select count(*) from app.time_slot_votes where plan_id = ${w.planA})::int as tv,
                             (select count(*) from app.no_dates where plan_id = ${w.planA})::int as none`)[0];
    const before = await counts();
    for (const actor of ['member', 'guest', 'host', 'strangerWithLink'] as const) {
      const who = w.actors[actor];
      await expectPgError(call(who, 'select * from app.vote_on_idea($1)', w.ideaA), 'HP409', CANCELLED);
      await expectPgError(call(who, "select * from app.add_idea($1, 'Karaoke')", w.planA), 'HP409', CANCELLED);
      await expectPgError(call(who, "select * from app.add_idea_comment($1, 'Yes')", w.ideaA), 'HP409', CANCELLED);
      await expectPgError(call(who, 'select * from app.vote_on_time_slot($1)', w.slotA), 'HP409', CANCELLED);
      await expectPgError(call(who, "select * from app.vote_on_date($1, current_date + 5, 'Evening')", w.planA), 'HP409', CANCELLED);
      await expectPgError(call(who, 'select app.set_no_dates($1)', w.planA), 'HP409', CANCELLED);
      await expectPgError(call(who, "select * from app.rsvp($1, 'going', 0)", w.planA), 'HP409', CANCELLED);
    }
    expect(await counts()).toEqual(before);
    // Unreadable stays unreadable: no 409 that would tell a stranger the plan exists.
    await expectPgError(call(w.actors.stranger, 'select * from app.vote_on_idea($1)', w.ideaA), 'HP404');
    // Plan B is not frozen.
    await call(w.actors.otherGuest, 'select * from app.vote_on_idea($1)', w.ideaB);
  });

  it("the host's other decisions wait for the unlock; deleting what one wrote and leaving stay open", async () => {
    await cancel();
    for (const q of [
      'select app.pick_idea($1, $2)',
      'select app.lock_date($1, current_date + 3)',
      "select app.set_event_time($1, '19:00')",
      "select app.set_location($1, 'Somewhere')",
      "select app.set_deadline($1, now() + interval '2 days', false)",
      "select app.remind_unanswered($1, 3600, 'wait')",
    ]) {
      const args = q.includes('$2') ? [w.planA, w.ideaA] : [w.planA];
      await expectPgError(call(w.actors.host, q, ...args), 'HP409', CANCELLED);
    }
    await call(w.actors.member, 'select app.delete_idea_comment($1, $2)', w.ideaA, w.commentA);
    await call(w.actors.member, 'select app.leave_plan($1)', w.planA);
    expect((await plan()).status).toBe('cancelled');
  });

  it('unlocking reopens it: planning, the message gone, voting open again', async () => {
    await call(w.actors.host, 'select app.lock_date($1, current_date + 3)', w.planA);
    await cancel('Next time!');
    await call(w.actors.host, 'select app.unlock_plan($1)', w.planA);
    expect(await plan()).toMatchObject({ status: 'planning', cancel_message: null, has_cancelled_at: false, has_date: false });
    await call(w.actors.member, 'select * from app.vote_on_idea($1)', w.ideaA);
  });
});

describe('the plan_cancelled notice', () => {
  it('goes at once to everyone else (push; members e-mail too) with the message and the event', async () => {
    await call(w.actors.host, 'select app.lock_date($1, current_date + 3)', w.planA);
    await call(w.actors.host, "select app.set_event_time($1, '19:30')", w.planA);
    await windowPasses(w.planA);
    await db.owner`truncate app.notification_events, app.notification_deliveries`;
    const memberPhone = await subscribe(w.actors.member);
    const guestPhone = await subscribe(w.actors.guest);
    await subscribe(w.actors.host);
    await hostDoes(w.planA, (sql) => sql`select app.cancel_plan(${w.planA}, 'Rain')`);
    const rows = await outbox(w.planA);
    expect(rows.map((r) => [r.kind, r.channel, r.endpoint ?? r.user_id]).sort()).toEqual([
      ['plan_cancelled', 'email', w.users.member],
      ['plan_cancelled', 'push', guestPhone],
      ['plan_cancelled', 'push', memberPhone],
    ].sort());
    expect(rows[0].detail).toMatchObject({ cancelMessage: 'Rain', eventTime: '7:30 PM' });
    expect(typeof rows[0].detail.calendarSequence).toBe('number');
  });

  it('within the budget: right after another notice it waits for the window, then says the plan was cancelled once', async () => {
    await subscribe(w.actors.member);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Kenji')`);
    await hostDoes(w.planA, (sql) => sql`select app.cancel_plan(${w.planA}, null)`);
    expect((await outbox(w.planA)).map((r) => r.kind)).toEqual(['place_changed']);
    await windowPasses(w.planA);
    expect(await sendDueNotices()).toBe(1);
    expect((await outbox(w.planA)).map((r) => [r.kind, r.channel])).toEqual([
      ['place_changed', 'push'], ['plan_cancelled', 'push'], ['plan_cancelled', 'email'],
    ]);
    expect(await sendDueNotices()).toBe(0);
  });

  it('cancelled and reopened within the window: nobody hears of the round trip', async () => {
    await subscribe(w.actors.member);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Kenji')`);
    await hostDoes(w.planA, (sql) => sql`select app.cancel_plan(${w.planA}, null)`);
    await hostDoes(w.planA, (sql) => sql`select app.unlock_plan(${w.planA})`);
    await windowPasses(w.planA);
    expect(await sendDueNotices()).toBe(0);
    expect((await outbox(w.planA)).map((r) => r.kind)).toEqual(['place_changed']);
  });
});
