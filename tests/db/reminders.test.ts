// The reminders domain: the host's decisions written to the outbox within
// each plan's notice budget, who has answered and the host's reminder, and
// deadlines (docs/notifications.md). The outbox itself, its delivery and the
// digests are notifications.test.ts.
import { describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addGuest, addIdea, addMember, addSlot, asGuest, createUser } from '../support/plan-fixture.ts';
import { rankedPlan } from '../support/date-ranking.ts';
import { useOutbox, WINDOW } from './outbox-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db, { each: true });
const { subscribe, asWorker, outbox, clearOutbox, hostDoes, sendDueNotices, windowPasses } = useOutbox(db, w);

describe("the host's decisions go to the outbox", () => {
  it('the place: a push to every other device at once; the host (who did it) is not told', async () => {
    const hostPhone = await subscribe(w.actors.host);
    const memberPhone = await subscribe(w.actors.member);
    const guestPhone = await subscribe(w.actors.guest);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'The Lanes')`);
    const rows = await outbox(w.planA);
    expect(rows.map((r) => [r.kind, r.channel, r.endpoint])).toEqual([
      ['place_changed', 'push', memberPhone],
      ['place_changed', 'push', guestPhone],
    ]);
    expect(rows.some((r) => r.endpoint === hostPhone)).toBe(false);
    expect(rows[0].detail).toMatchObject({ location: 'The Lanes', ideaText: null, placeChanged: true });
  });

  it('picking an idea, the place and unlocking: push; e-mail too once the time was set', async () => {
    await subscribe(w.actors.member);
    await hostDoes(w.planA, (sql) => sql`select app.pick_idea(${w.planA}, ${w.ideaA})`);
    await windowPasses(w.planA);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'The Lanes')`);
    expect((await outbox(w.planA)).map((r) => [r.kind, r.channel])).toEqual([
      ['idea_picked', 'push'],
      ['place_changed', 'push'],
    ]);
    await clearOutbox();
    await windowPasses(w.planA);

    // The usual next steps, a date and then its time: one notice, the time's.
    await hostDoes(w.planA, (sql) => sql`select app.lock_date(${w.planA}, current_date + 3)`);
    expect(await outbox(w.planA)).toEqual([]);
    await hostDoes(w.planA, (sql) => sql`select app.set_event_time(${w.planA}, '19:00', 'Europe/Lisbon')`);
    const timed = await outbox(w.planA);
    // The member's phone and every member's e-mail with the invite (the host's
    // too, who set it); guests have no e-mail; no push to the host.
    expect(timed.map((r) => [r.kind, r.channel, r.user_id, r.guest_id]).sort()).toEqual([
      ['time_set', 'push', w.users.member, null],
      ['time_set', 'email', w.users.member, null],
      ['time_set', 'email', w.users.host, null],
    ].sort());
    expect(timed[0].detail).toMatchObject({
      ideaText: 'Bowling', eventTime: '7:00 PM', timeZone: 'Europe/Lisbon', period: '19:00', location: 'The Lanes', placeChanged: false,
    });
    await clearOutbox();
    await windowPasses(w.planA);

    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Bowl-a-rama')`);
    await windowPasses(w.planA);
    await hostDoes(w.planA, (sql) => sql`select app.unlock_plan(${w.planA})`);
    expect((await outbox(w.planA)).map((r) => [r.kind, r.channel])).toEqual([
      ['place_changed', 'push'],
      ['place_changed', 'email'],
      ['unlocked', 'push'],
      ['unlocked', 'email'],
    ]);
  });

  it('a member who turned off e-mails about the plan gets none of them; push still goes', async () => {
    await subscribe(w.actors.member);
    await asWorker((sql) => sql`select * from private.set_plan_emails(${w.users.member}, ${w.planA}, false)`);
    await hostDoes(w.planA, async (sql) => {
      await sql`select app.lock_date(${w.planA}, current_date + 3)`;
      await sql`select app.set_event_time(${w.planA}, '19:00')`;
    });
    expect((await outbox(w.planA)).filter((r) => r.kind === 'time_set').map((r) => [r.channel, r.user_id]).sort()).toEqual([
      ['push', w.users.member],
      ['email', w.users.host],
    ].sort());
  });

  it("deleting the plan still tells the guests' devices (a copy of where to send), and nothing else of the plan is sent", async () => {
    const guestPhone = await subscribe(w.actors.guest);
    await hostDoes(w.planA, (sql) => sql`select app.pick_idea(${w.planA}, ${w.ideaA})`);
    await db.as(w.actors.host, (sql) => sql`delete from app.plans where id = ${w.planA}`);
    // The guest's subscription went with the plan's guests, and the plan's budget with the plan...
    expect(await db.owner`select * from app.push_subscriptions`).toEqual([]);
    expect(await db.owner`select * from app.plan_notices where plan_id = ${w.planA}`).toEqual([]);
    const claimed = await asWorker((sql) => sql`select kind, endpoint, channel, plan_title from private.claim_deliveries(null, 50, 60)`);
    // ...the earlier idea_picked is dropped, and "deleted" still goes to the guest's phone and the member's e-mail.
    expect(claimed.map((r) => [r.kind, r.channel, r.endpoint, r.plan_title])).toEqual([
      ['plan_deleted', 'push', guestPhone, 'Plan A'],
      ['plan_deleted', 'email', null, 'Plan A'],
    ]);
  });

  it('a failed decision leaves nothing in the outbox nor waiting', async () => {
    await subscribe(w.actors.member);
    await expectPgError(hostDoes(w.planA, (sql) => sql`select app.lock_date(${w.planA}, current_date + 3)`, w.actors.member), 'HP403');
    expect(await outbox(w.planA)).toEqual([]);
    expect(await db.owner`select * from app.plan_notices where plan_id = ${w.planA}`).toEqual([]);
  });
});

describe('the notice budget: at most one notice of the decisions per plan per window', () => {
  /** Every device's and member's deliveries, by kind and what they say. */
  const told = async (planId = w.planA) =>
    (await outbox(planId)).map((r) => ({ kind: r.kind, channel: r.channel, to: r.endpoint ?? r.user_id, detail: r.detail }));
  const location = async () => (await db.owner`select location from app.plans where id = ${w.planA}`)[0].location as string | null;

  it('a loop of changes within the window: every change applies, and the one notice after it says the final place, once per device', async () => {
    const memberPhone = await subscribe(w.actors.member);
    const guestPhone = await subscribe(w.actors.guest);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Place 0')`);
    expect((await told()).map((t) => [t.to, t.detail.location])).toEqual([[memberPhone, 'Place 0'], [guestPhone, 'Place 0']]);
    await clearOutbox();

    for (let i = 1; i <= 6; i += 1) {
      await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, ${`Place ${i}`})`);
      expect(await location()).toBe(`Place ${i}`);
    }
    // Nothing yet, not even for the scheduler: the window is not over.
    expect(await told()).toEqual([]);
    expect(await sendDueNotices()).toBe(0);

    await windowPasses(w.planA);
    expect(await sendDueNotices()).toBe(1);
    expect((await told()).map((t) => [t.kind, t.to, t.detail.location])).toEqual([
      ['place_changed', memberPhone, 'Place 6'],
      ['place_changed', guestPhone, 'Place 6'],
    ]);
    expect(await sendDueNotices()).toBe(0);
  });

  it('unlock, lock and a time in a loop: one notice, the new time with its e-mail to every member; back where it started: nobody is told', async () => {
    const memberPhone = await subscribe(w.actors.member);
    await hostDoes(w.planA, async (sql) => {
      await sql`select app.lock_date(${w.planA}, current_date + 3)`;
      await sql`select app.set_event_time(${w.planA}, '19:00', 'Europe/Lisbon')`;
    });
    expect((await told()).map((t) => [t.kind, t.channel])).toEqual([['time_set', 'push'], ['time_set', 'email'], ['time_set', 'email']]);
    await clearOutbox();

    const loop = async (times: string[], zone = 'Europe/Lisbon') => {
      for (const [i, time] of times.entries()) {
        await hostDoes(w.planA, (sql) => sql`select app.unlock_plan(${w.planA})`);
        await hostDoes(w.planA, (sql) => sql`select app.lock_date(${w.planA}, current_date + ${3 + (i % 2)}::int)`);
        await hostDoes(w.planA, (sql) => sql`select app.set_event_time(${w.planA}, ${time}, ${zone})`);
      }
    };
    await loop(['20:00', '21:30', '18:00', '21:00']);
    expect(await told()).toEqual([]);
    await windowPasses(w.planA);
    expect(await sendDueNotices()).toBe(1);
    const notice = await told();
    expect(notice.map((t) => [t.kind, t.channel, t.to]).sort()).toEqual([
      ['time_changed', 'push', memberPhone],
      ['time_changed', 'email', w.users.member],
      ['time_changed', 'email', w.users.host],
    ].sort());
    const [{ date }] = await db.owner`select (current_date + 4)::text as date`;
    for (const t of notice) expect(t.detail).toMatchObject({ date, eventTime: '9:00 PM', timeZone: 'Europe/Lisbon', period: '21:00' });
    await clearOutbox();

    // Round trips within the next window: the plan ends where it was told (day 4, 9 PM).
    await loop(['20:00', '21:00']);
    await windowPasses(w.planA);
    expect(await sendDueNotices()).toBe(0);
    // The same time set from a phone in another zone is another instant: told.
    await hostDoes(w.planA, (sql) => sql`select app.set_event_time(${w.planA}, '21:00', 'America/New_York')`);
    expect((await told()).map((t) => [t.kind, t.detail.timeZone])).toEqual(
      [['time_changed', 'America/New_York'], ['time_changed', 'America/New_York'], ['time_changed', 'America/New_York']]);
  });

  it('the same value again notifies nobody and leaves nothing waiting', async () => {
    await subscribe(w.actors.member);
    await hostDoes(w.planA, async (sql) => {
      await sql`select app.set_location(${w.planA}, 'The Lanes')`;
      await sql`select app.lock_date(${w.planA}, current_date + 3)`;
      await sql`select app.set_event_time(${w.planA}, '19:00')`;
    });
    await clearOutbox();
    await windowPasses(w.planA);
    const waiting = async () => (await db.owner`select pending_since from app.plan_notices where plan_id = ${w.planA}`)[0].pending_since;
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, '  The Lanes ')`);
    await hostDoes(w.planA, (sql) => sql`select app.set_event_time(${w.planA}, '19:00')`);
    // Unlock and the same date and time again: what everyone was told is still true.
    await hostDoes(w.planA, async (sql) => {
      await sql`select app.unlock_plan(${w.planA})`;
      await sql`select app.lock_date(${w.planA}, current_date + 3)`;
      await sql`select app.set_event_time(${w.planA}, '7:00')`;
      await sql`select app.set_event_time(${w.planA}, '19:00')`;
    });
    expect(await waiting()).toBeNull();
    expect(await told()).toEqual([]);
    expect(await sendDueNotices()).toBe(0);
    expect(await told()).toEqual([]);
  });

  it('a change after the window is told at once', async () => {
    const memberPhone = await subscribe(w.actors.member);
    await hostDoes(w.planA, (sql) => sql`select app.pick_idea(${w.planA}, ${w.ideaA})`);
    await clearOutbox();
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Park')`);
    expect(await told()).toEqual([]);
    await windowPasses(w.planA);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Beach')`);
    expect((await told()).map((t) => [t.kind, t.to, t.detail.location])).toEqual([['place_changed', memberPhone, 'Beach']]);
  });

  it('a date locked alone waits for its time, then is told by the scheduler; changes in between come with it', async () => {
    const memberPhone = await subscribe(w.actors.member);
    await hostDoes(w.planA, (sql) => sql`select app.lock_date(${w.planA}, current_date + 3)`);
    await hostDoes(w.planA, (sql) => sql`select app.pick_idea(${w.planA}, ${w.ideaA})`);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'The Lanes')`);
    expect(await told()).toEqual([]);
    expect(await sendDueNotices()).toBe(0);
    await windowPasses(w.planA);
    expect(await sendDueNotices()).toBe(1);
    const [{ date }] = await db.owner`select (current_date + 3)::text as date`;
    const detail = expect.objectContaining({ date, ideaText: 'Bowling', location: 'The Lanes', placeChanged: true });
    // A decision that ends voting is e-mailed too (to the others: the host made it).
    expect(await told()).toEqual([
      { kind: 'decided', channel: 'push', to: memberPhone, detail },
      { kind: 'decided', channel: 'email', to: w.users.member, detail },
    ]);
  });

  it('who made every waiting change is not told; a change by nobody (the deadline) among them tells everyone', async () => {
    const hostPhone = await subscribe(w.actors.host);
    const memberPhone = await subscribe(w.actors.member);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Park')`);
    expect((await told()).map((t) => t.to)).toEqual([memberPhone]);
    await clearOutbox();
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Beach')`);
    expect(await told()).toEqual([]);
    // The deadline's auto-lock (nobody's request: no claims) picks the idea meanwhile.
    await db.owner`update app.plans set locked_idea_id = ${w.ideaA} where id = ${w.planA}`;
    await windowPasses(w.planA);
    expect(await sendDueNotices()).toBe(1);
    expect((await told()).map((t) => [t.kind, t.to, t.detail.location, t.detail.placeChanged]).sort()).toEqual([
      ['idea_picked', hostPhone, 'Beach', true],
      ['idea_picked', memberPhone, 'Beach', true],
    ].sort());
  });

  it('two schedulers write a waiting notice once', async () => {
    await subscribe(w.actors.member);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Park')`);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Beach')`);
    await windowPasses(w.planA);
    const [a, b] = await Promise.all([sendDueNotices(), sendDueNotices()]);
    expect(a + b).toBe(1);
    expect((await outbox(w.planA)).map((r) => r.detail.location)).toEqual(['Park', 'Beach']);
  });

  it('nobody reads or writes the budget directly; the request roles only write what is due', async () => {
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'Park')`);
    for (const actor of ['host', 'member', 'guest', 'anon'] as const) {
      await expectDenied(db.as(w.actors[actor], (sql) => sql`select * from app.plan_notices`));
      await expectDenied(db.as(w.actors[actor], (sql) => sql`update app.plan_notices set quiet_until = null`));
    }
    await expectPgError(db.as(w.actors.anon, (sql) => sql`select private.send_plan_notices(${w.planA}, 0)`), '42501');
  });
});

describe('who has answered, and the host reminding the others', () => {
  it('has_responded: an idea or a date vote counts, and so does "none of these dates work"', async () => {
    const q = (user: string | null, guest: string | null) =>
      db.as(w.actors.host, async (sql) => (await sql`select private.has_responded(${w.planA}, ${user}, ${guest}) as r`)[0].r);
    expect(await q(w.users.member, null)).toBe(true); // an idea vote
    expect(await q(null, w.guest)).toBe(true); // idea and date votes
    expect(await q(w.users.host, null)).toBe(false);
    const ann = await addGuest(db.owner, w.planA, 'Ann');
    expect(await q(null, ann)).toBe(false);
    await db.owner`insert into app.time_slot_votes (time_slot_id, plan_id, guest_id) values (${w.slotA}, ${w.planA}, ${ann})`;
    expect(await q(null, ann)).toBe(true);
    const bo = await addGuest(db.owner, w.planA, 'Bo');
    await db.as(asGuest(bo, { plan_id: w.planA }), (sql) => sql`select app.set_no_dates(${w.planA})`);
    expect(await q(null, bo)).toBe(true);
    await db.as(w.actors.host, (sql) => sql`select app.set_no_dates(${w.planA})`);
    expect(await q(w.users.host, null)).toBe(true);
  });

  const remind = (claims: Claims, planId = w.planA, window = 43_200) =>
    db.as(claims, async (sql) => (await sql`select app.remind_unanswered(${planId}, ${window}, 'Reminded a moment ago') as n`)[0].n as number);

  it('reaches only who has not voted (never the host nor a co-host), once per window; a reminder that reaches nobody does not count', async () => {
    const ann = await addGuest(db.owner, w.planA, 'Ann');
    const noa = await createUser(db.owner, 'Noa', null);
    await addMember(db.owner, w.planA, noa);
    // Cora co-hosts and has not voted either: like the host, she is the one reminding.
    const cora = await createUser(db.owner, 'Cora', null);
    await addMember(db.owner, w.planA, cora);
    await db.owner`update app.participants set is_cohost = true where plan_id = ${w.planA} and user_id = ${cora}`;
    const coraClaims: Claims = { role: 'authenticated', sub: cora, plan_id: w.planA };
    await subscribe(coraClaims);
    await subscribe(w.actors.member);
    await subscribe(w.actors.host);

    // Nobody who has not answered can be reached yet: 0, and the window is not used.
    expect(await remind(w.actors.host)).toBe(1); // Noa's e-mail
    await clearOutbox();
    await db.owner`update app.plans set reminded_at = null where id = ${w.planA}`;

    const annPhone = await subscribe(asGuest(ann, { plan_id: w.planA }));
    // Uma said none of the dates work: she has answered, and is left out.
    const uma = await addGuest(db.owner, w.planA, 'Uma');
    await subscribe(asGuest(uma, { plan_id: w.planA }));
    await db.as(asGuest(uma, { plan_id: w.planA }), (sql) => sql`select app.set_no_dates(${w.planA})`);
    expect(await remind(coraClaims)).toBe(2);
    expect((await outbox(w.planA)).map((r) => [r.kind, r.channel, r.endpoint ?? r.user_id])).toEqual([
      ['reminder', 'push', annPhone],
      ['reminder', 'email', noa],
    ]);
    await expectPgError(remind(w.actors.host), 'HP429', 'Reminded a moment ago');
    await expectPgError(remind(w.actors.member), 'HP403', 'Only the host can send reminders');
    await expectPgError(remind(w.actors.stranger), 'HP404');
  });

  it('with everyone answered: 0 and no window used; once locked it asks who has not said whether they are coming', async () => {
    expect(await remind(w.actors.host)).toBe(0);
    expect((await db.owner`select reminded_at from app.plans where id = ${w.planA}`)[0].reminded_at).toBeNull();
    await db.as(w.actors.host, (sql) => sql`select app.lock_date(${w.planA}, current_date + 3)`);
    // Mia has voted but not answered: her e-mail (docs/decisions/0102-event-reminders.md; event-reminders.test.ts).
    expect(await remind(w.actors.host)).toBe(1);
    expect((await outbox(w.planA)).map((r) => [r.kind, r.channel, r.user_id])).toEqual([['rsvp_reminder', 'email', w.users.member]]);
  });
});

describe('deadlines', () => {
  const setDeadline = (claims: Claims, interval: string | null, autoLock: boolean | null, planId = w.planA) =>
    db.as(claims, (sql) =>
      sql`select app.set_deadline(${planId}, case when ${interval}::text is null then null else now() + ${interval}::interval end, ${autoLock})`);
  const deadlineOf = async (planId = w.planA) =>
    (await db.owner`select deadline is not null as set, auto_lock, deadline_reminded_at is not null as reminded,
                           deadline_closed_at is not null as closed, status, locked_idea_id, locked_time_slot_date::text as date
                      from app.plans where id = ${planId}`)[0];
  /** As the scheduler runs them: the deadlines, then the notices (an auto-lock's among them). */
  const runDeadlines = () =>
    asWorker(async (sql) => (await sql`select private.run_deadlines(86400, 43200) as n, private.send_plan_notices(null, ${WINDOW})`)[0].n as number);

  it('the host sets, moves and removes it; the past, over a year and a locked plan are refused', async () => {
    await setDeadline(w.actors.host, '3 days', true);
    expect(await deadlineOf()).toMatchObject({ set: true, auto_lock: true });
    await setDeadline(w.actors.host, '4 days', null);
    expect(await deadlineOf()).toMatchObject({ set: true, auto_lock: true });
    await setDeadline(w.actors.host, null, true);
    expect(await deadlineOf()).toMatchObject({ set: false, auto_lock: false });
    await expectPgError(setDeadline(w.actors.host, '-1 minute', false), 'HP400', 'The deadline must be in the future');
    await expectPgError(setDeadline(w.actors.host, '367 days', false), 'HP400', 'The deadline must be at most a year ahead');
    await expectPgError(setDeadline(w.actors.member, '3 days', false), 'HP403', 'Only the host can set the deadline');
    await db.as(w.actors.host, (sql) => sql`select app.lock_date(${w.planA}, current_date + 3)`);
    await expectPgError(setDeadline(w.actors.host, '3 days', false), 'HP409');
    await setDeadline(w.actors.host, null, null);
  });

  it('a day before: one reminder to who has not answered', async () => {
    const ann = await addGuest(db.owner, w.planA, 'Ann');
    const annPhone = await subscribe(asGuest(ann, { plan_id: w.planA }));
    await setDeadline(w.actors.host, '2 days', false);
    expect(await runDeadlines()).toBe(0);
    await setDeadline(w.actors.host, '20 hours', false);
    expect(await runDeadlines()).toBe(1);
    expect(await runDeadlines()).toBe(0);
    expect((await outbox(w.planA)).map((r) => [r.kind, r.endpoint])).toEqual([['deadline_soon', annPhone]]);
  });

  it('a deadline moved again and again: at most one reminder per window, the host\'s included', async () => {
    const ann = await addGuest(db.owner, w.planA, 'Ann');
    const annPhone = await subscribe(asGuest(ann, { plan_id: w.planA }));
    await setDeadline(w.actors.host, '20 hours', false);
    expect(await runDeadlines()).toBe(1);
    for (const hours of [21, 22, 23, 20]) {
      await setDeadline(w.actors.host, `${hours} hours`, false);
      expect(await runDeadlines()).toBe(0);
    }
    await expectPgError(db.as(w.actors.host, (sql) => sql`select app.remind_unanswered(${w.planA}, 43200, 'Reminded a moment ago')`),
      'HP429', 'Reminded a moment ago');
    expect((await outbox(w.planA)).map((r) => [r.kind, r.endpoint])).toEqual([['deadline_soon', annPhone]]);
    // Twelve hours later (pretend) the moved deadline gets its reminder.
    await db.owner`update app.plans set reminded_at = now() - interval '12 hours 1 second' where id = ${w.planA}`;
    expect(await runDeadlines()).toBe(1);
    expect((await outbox(w.planA)).map((r) => r.kind)).toEqual(['deadline_soon', 'deadline_soon']);
  });

  it("the host's reminder holds the deadline's back until the window ends", async () => {
    const ann = await addGuest(db.owner, w.planA, 'Ann');
    await subscribe(asGuest(ann, { plan_id: w.planA }));
    expect(await db.as(w.actors.host, async (sql) => (await sql`select app.remind_unanswered(${w.planA}, 43200, 'x') as n`)[0].n)).toBe(1);
    await setDeadline(w.actors.host, '20 hours', false);
    expect(await runDeadlines()).toBe(0);
    expect(await deadlineOf()).toMatchObject({ reminded: false });
    await db.owner`update app.plans set reminded_at = now() - interval '12 hours 1 second' where id = ${w.planA}`;
    expect(await runDeadlines()).toBe(1);
    expect((await outbox(w.planA)).map((r) => r.kind)).toEqual(['reminder', 'deadline_soon']);
  });

  it('at the deadline with auto-lock: the most-voted idea and date are locked and everyone (the host too) is told', async () => {
    // Plan A: Bowling has 2 votes; a newer idea ties it: the older wins.
    const karaoke = await addIdea(db.owner, w.planA, 'Karaoke', { userId: w.users.member });
    await db.owner`insert into app.idea_votes (idea_id, plan_id, user_id) values (${karaoke}, ${w.planA}, ${w.users.member}), (${karaoke}, ${w.planA}, ${w.users.host})`;
    // Dates: day 3 has Gus; day 2 gets Mia on two periods (one person) and the host: 2 > 1.
    const [morning, evening] = [await addSlot(db.owner, w.planA, 2, 'Morning'), await addSlot(db.owner, w.planA, 2, 'Evening')];
    await db.owner`insert into app.time_slot_votes (time_slot_id, plan_id, user_id) values
      (${morning}, ${w.planA}, ${w.users.member}), (${evening}, ${w.planA}, ${w.users.member}), (${evening}, ${w.planA}, ${w.users.host})`;
    const hostPhone = await subscribe(w.actors.host);
    await setDeadline(w.actors.host, '1 hour', true);
    await db.owner`update app.plans set deadline = now() - interval '1 second' where id = ${w.planA}`;
    expect(await runDeadlines()).toBe(1);
    const [{ date }] = await db.owner`select (current_date + 2)::text as date`;
    expect(await deadlineOf()).toMatchObject({ closed: true, status: 'time_range_locked', locked_idea_id: w.ideaA, date });
    const rows = await outbox(w.planA);
    expect(rows.map((r) => [r.kind, r.channel, r.endpoint ?? r.user_id]).sort()).toEqual([
      ['decided', 'push', hostPhone],
      ['decided', 'email', w.users.host],
      ['decided', 'email', w.users.member],
    ].sort());
    expect(rows[0].detail).toMatchObject({ ideaText: 'Bowling', date });
    expect(await runDeadlines()).toBe(0);
  });

  it('at the deadline with auto-lock, the one ranking picks the date: most yes, then most if need be, then earliest', async () => {
    const ranked = await rankedPlan(db.owner);
    const host: Claims = { role: 'authenticated', sub: ranked.hostId, plan_id: ranked.planId };
    await setDeadline(host, '1 hour', true, ranked.planId);
    await db.owner`update app.plans set deadline = now() - interval '1 second' where id = ${ranked.planId}`;
    expect(await runDeadlines()).toBe(1);
    const [{ date }] = await db.owner`select (current_date + ${ranked.leadingDay}::int)::text as date`;
    expect(await deadlineOf(ranked.planId)).toMatchObject({ closed: true, status: 'time_range_locked', date });
    // The host's notice at the deadline names the same leader, with its counts.
    await db.owner`update app.plans set status = 'planning', locked_time_slot_date = null, deadline_closed_at = null,
                                        auto_lock = false, deadline = now() - interval '1 second' where id = ${ranked.planId}`;
    await clearOutbox();
    await subscribe(host);
    expect(await runDeadlines()).toBe(1);
    const [told] = await outbox(ranked.planId);
    expect(told).toMatchObject({ kind: 'deadline_reached' });
    expect(told.detail).toMatchObject({ date, dateVotes: 2, dateIfNeedBe: 1 });
  });

  it('at the deadline without auto-lock (or with no date voted): the host is told where things stand', async () => {
    const hostPhone = await subscribe(w.actors.host);
    await setDeadline(w.actors.host, '1 hour', false);
    await db.owner`update app.plans set deadline = now() - interval '1 second' where id = ${w.planA}`;
    expect(await runDeadlines()).toBe(1);
    expect(await deadlineOf()).toMatchObject({ closed: true, status: 'planning' });
    const rows = await outbox(w.planA);
    expect(rows.map((r) => [r.kind, r.channel, r.endpoint ?? r.user_id])).toEqual([
      ['deadline_reached', 'push', hostPhone],
      ['deadline_reached', 'email', w.users.host],
    ]);
    const [{ date }] = await db.owner`select (current_date + 3)::text as date`;
    expect(rows[0].detail).toMatchObject({ autoLock: false, ideaText: 'Bowling', ideaVotes: 2, date, dateVotes: 1, dateIfNeedBe: 0 });
  });

  it('two schedulers at once handle each plan once', async () => {
    await setDeadline(w.actors.host, '1 hour', true);
    await setDeadline({ role: 'authenticated', sub: w.users.otherHost }, '1 hour', false, w.planB);
    await db.owner`update app.plans set deadline = now() - interval '1 second' where id in ${db.owner([w.planA, w.planB])}`;
    const [a, b] = await Promise.all([runDeadlines(), runDeadlines()]);
    expect(a + b).toBe(2);
    expect(await db.owner`select count(*)::int as n from app.notification_events where kind in ('decided', 'deadline_reached')`).toEqual([{ n: 2 }]);
  });
});
