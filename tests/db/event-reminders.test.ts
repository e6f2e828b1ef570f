// Event reminders (the reminders file's private.run_event_reminders;
// docs/decisions/0102-event-reminders.md): the day before and about two
// hours before a timed plan, who answered Going or Maybe is reminded once
// (push; members e-mail too), Can't go and the unanswered are not; marks on
// the plan make each go once however many schedulers run, and a new time
// clears them. The clock: the event is set days ahead at 7:30 PM UTC,
// and each run is told the moment it runs at (the function's p_now), so
// "the day before", "two hours before" and "after the start" are exact.
// Also the host's reminder after the lock, which goes to who has not answered.
import { beforeEach, describe, expect, it } from 'vitest';
import { useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addGuest, addMember, asGuest, createUser } from '../support/plan-fixture.ts';
import { useOutbox } from './outbox-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db, { each: true });
const { subscribe, asWorker, outbox, clearOutbox } = useOutbox(db, w);

const DAY = 86_400;
const SOON = 7_200;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The event's start (set by setEvent). */
let starts = new Date(0);
/** The scheduler, run `before` ms before the start (negative: after it). */
const runAt = (before: number) =>
  asWorker(
    async (sql) =>
      (await sql`select private.run_event_reminders(${DAY}, ${SOON}, ${new Date(starts.getTime() - before)}) as n`)[0].n as number,
  );

// Each test's plan A is a new plan in the same database, so each test's event
// is three days after the one before: no run of a test reaches back to an
// earlier test's plan (a run looks at dates from the day before its own).
let daysAhead = 0;
beforeEach(() => void (daysAhead += 3));

/** The host sets plan A's event at `time` (UTC, 24-hour) on this test's day, unlocking it first. */
async function setEvent(time = '19:30') {
  const [{ date }] = await db.owner<{ date: string }[]>`select to_char(current_date + ${daysAhead}::int, 'YYYY-MM-DD') as date`;
  await db.as(w.actors.host, async (sql) => {
    await sql`select app.unlock_plan(${w.planA})`;
    await sql`select app.lock_date(${w.planA}, ${date}::date)`;
    await sql`select app.set_event_time(${w.planA}, ${time}, 'UTC')`;
  });
  starts = new Date(`${date}T${time}:00Z`);
}

const answer = (claims: Claims, what: string) => db.as(claims, (sql) => sql`select * from app.rsvp(${w.planA}, ${what}, 0)`);

/**
 * Plan A with phones: the host, Mia (member, going), Gus (guest, maybe),
 * Nia (member, can't go) and Una (guest, no answer).
 */
async function crowd() {
  const nia = await createUser(db.owner, 'Nia', null);
  await addMember(db.owner, w.planA, nia);
  const una = await addGuest(db.owner, w.planA, 'Una');
  const people = {
    host: w.actors.host,
    mia: w.actors.member,
    gus: w.actors.guest,
    nia: { role: 'authenticated', sub: nia, plan_id: w.planA } as Claims,
    una: asGuest(una, { plan_id: w.planA }),
  };
  const phones = {
    host: await subscribe(people.host),
    mia: await subscribe(people.mia),
    gus: await subscribe(people.gus),
    nia: await subscribe(people.nia),
    una: await subscribe(people.una),
  };
  return { people, phones, nia };
}

async function answerAll(people: Awaited<ReturnType<typeof crowd>>['people']) {
  await answer(people.mia, 'going');
  await answer(people.gus, 'maybe');
  await answer(people.nia, 'no');
}

/** The reminders in the outbox: [reminder, channel, who, answer]. */
const reminders = async () =>
  (await outbox(w.planA))
    .filter((r) => r.kind === 'event_reminder')
    .map((r) => [r.detail.reminder, r.channel, r.endpoint ?? r.user_id, r.detail.answer]);

describe('the day before', () => {
  it("Going and Maybe get one push (members one e-mail too); Can't go and the unanswered nothing; once", async () => {
    const { people, phones } = await crowd();
    await setEvent();
    await answerAll(people);
    await clearOutbox();
    expect(await runAt(20 * HOUR)).toBe(1);
    expect((await reminders()).sort()).toEqual([
      ['day', 'email', w.users.member, 'going'],
      ['day', 'push', phones.gus, 'maybe'],
      ['day', 'push', phones.mia, 'going'],
    ].sort());
    const [first] = (await outbox(w.planA)).filter((r) => r.kind === 'event_reminder');
    expect(first.detail).toMatchObject({ reminder: 'day', location: null, date: expect.any(String), eventTime: '7:30 PM', today: false });
    // Nothing twice, however often the scheduler runs before the two hours.
    expect(await runAt(20 * HOUR)).toBe(0);
    expect(await runAt(3 * HOUR)).toBe(0);
    expect(await reminders()).toHaveLength(3);
  });

  it('not yet more than a day ahead; never for a cancelled plan', async () => {
    const { people } = await crowd();
    await setEvent();
    await answerAll(people);
    expect(await runAt(26 * HOUR)).toBe(0);
    await db.as(w.actors.host, (sql) => sql`select app.cancel_plan(${w.planA}, null)`);
    await clearOutbox();
    expect(await runAt(20 * HOUR)).toBe(0);
    expect(await runAt(HOUR)).toBe(0);
    expect(await reminders()).toEqual([]);
  });
});

describe('about two hours before', () => {
  it('time passes: after the day-before one, "in 2 hours" once, to the same people', async () => {
    const { people, phones } = await crowd();
    await setEvent();
    await answerAll(people);
    expect(await runAt(20 * HOUR)).toBe(1);
    await clearOutbox();
    expect(await runAt(100 * MINUTE)).toBe(1);
    expect((await reminders()).sort()).toEqual([
      ['soon', 'email', w.users.member, 'going'],
      ['soon', 'push', phones.gus, 'maybe'],
      ['soon', 'push', phones.mia, 'going'],
    ].sort());
    expect((await outbox(w.planA))[0].detail).toMatchObject({ hours: 2 });
    expect(await runAt(90 * MINUTE)).toBe(0);
    expect(await runAt(-5 * MINUTE)).toBe(0);
  });

  it('a plan set for within two hours gets only the "soon" one; a start that passed unseen sends nothing', async () => {
    const { people } = await crowd();
    await setEvent();
    await answerAll(people);
    await clearOutbox();
    expect(await runAt(60 * MINUTE)).toBe(1);
    expect(new Set((await reminders()).map((r) => r[0]))).toEqual(new Set(['soon']));
    expect((await outbox(w.planA))[0].detail).toMatchObject({ hours: 1 });

    // Another time (the marks are cleared), and no scheduler ran until after its start.
    await setEvent('20:30');
    await answerAll(people);
    await clearOutbox();
    expect(await runAt(-5 * MINUTE)).toBe(1);
    expect(await reminders()).toEqual([]);
    const [marks] = await db.owner`select event_day_reminded_at is not null as day, event_soon_reminded_at is not null as soon
                                     from app.plans where id = ${w.planA}`;
    expect(marks).toEqual({ day: true, soon: true });
  });

  it('a new time clears the marks: the new time is reminded afresh', async () => {
    const { people } = await crowd();
    await setEvent();
    await answerAll(people);
    expect(await runAt(20 * HOUR)).toBe(1);
    await setEvent('21:00');
    const [marks] = await db.owner`select event_day_reminded_at, event_soon_reminded_at from app.plans where id = ${w.planA}`;
    expect(marks).toEqual({ event_day_reminded_at: null, event_soon_reminded_at: null });
    await answerAll(people);
    await clearOutbox();
    expect(await runAt(20 * HOUR)).toBe(1);
    expect(await reminders()).toHaveLength(3);
  });
});

describe('any number of schedulers', () => {
  it('two at once: the one that holds the plan sends, the other skips it; neither sends again', async () => {
    const { people } = await crowd();
    await setEvent();
    await answerAll(people);
    await clearOutbox();
    const at = new Date(starts.getTime() - 20 * HOUR);
    const [first, second] = await db.owner.begin(async (tx) => {
      await tx`set local role service_role`;
      const a = (await tx`select private.run_event_reminders(${DAY}, ${SOON}, ${at}) as n`)[0].n as number;
      // Another scheduler while the first has not committed yet.
      const b = await runAt(20 * HOUR);
      return [a, b];
    });
    expect([first, second]).toEqual([1, 0]);
    expect(await runAt(20 * HOUR)).toBe(0);
    expect(await reminders()).toHaveLength(3);
  });
});

describe("the host's reminder after the lock", () => {
  it('goes to who has not answered (never the host nor a co-host), not to who has', async () => {
    const { people, phones } = await crowd();
    await setEvent();
    await answer(people.mia, 'going');
    await answer(people.nia, 'no');
    // Cora co-hosts and has not answered: like the host, she is the one reminding.
    const cora = await createUser(db.owner, 'Cora', null);
    await addMember(db.owner, w.planA, cora);
    await db.owner`update app.participants set is_cohost = true where plan_id = ${w.planA} and user_id = ${cora}`;
    await subscribe({ role: 'authenticated', sub: cora, plan_id: w.planA });
    await clearOutbox();
    const [{ reached }] = await db.as(w.actors.host, (sql) => sql`select app.remind_unanswered(${w.planA}, 3600, 'wait') as reached`);
    expect(reached).toBe(2);
    expect((await outbox(w.planA)).map((r) => [r.kind, r.channel, r.endpoint ?? r.user_id]).sort()).toEqual([
      ['rsvp_reminder', 'push', phones.gus],
      ['rsvp_reminder', 'push', phones.una],
    ].sort());
  });
});
