// Who's coming (the rsvps domain): answers once the date is set, the spots
// and the waitlist in tap order, promotion in the same transaction (with its
// spot_opened notice in the outbox), the host answering for someone, a new
// date asking again, leaving or removal opening a spot, the row security of
// app.rsvps, and 20 people tapping Going at once on 4 spots.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from 'postgres';
import { expectDenied, expectPgError, runAs, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addGuest, addMember, asGuest, createPlan, createUser } from '../support/plan-fixture.ts';

const db = useFreshDatabase();

interface Answer {
  answer: string;
  plus_ones: number;
  position: number | null;
  promoted: number;
}

const answer = async (claims: Claims, planId: string, what: string, plusOnes = 0): Promise<Answer> =>
  (await db.as(claims, (sql) => sql<Answer[]>`select * from app.rsvp(${planId}, ${what}, ${plusOnes}::int)`))[0];
const answerFor = async (claims: Claims, planId: string, participantId: string, what: string, plusOnes = 0) =>
  (await db.as(claims, (sql) => sql<Answer[]>`select * from app.rsvp_for(${planId}, ${participantId}, ${what}, ${plusOnes}::int)`))[0];
const setCapacity = (claims: Claims, planId: string, capacity: number | null, maxPlusOnes: number | null = null) =>
  db.as(claims, (sql) => sql`select app.set_capacity(${planId}, ${capacity}::int, ${maxPlusOnes}::int)`);
const lockDate = (planId: string, offset = 3) =>
  db.owner`update app.plans set status = 'time_range_locked', locked_time_slot_date = current_date + ${offset}::int where id = ${planId}`;
const rows = (planId: string) =>
  db.owner<{ name: string; answer: string | null; plus_ones: number; ask_again: boolean; set_by_host: boolean }[]>`
    select pa.name, r.answer, r.plus_ones, r.ask_again, r.set_by_host
      from app.rsvps r join app.participants pa on pa.id = r.participant_id
     where r.plan_id = ${planId} order by r.queued_at, pa.name`;
const byName = async (planId: string) => Object.fromEntries((await rows(planId)).map((r) => [r.name, r.answer]));
const spotNotices = (planId: string) =>
  db.owner<{ detail: { plusOnes: number }; to: string }[]>`
    select e.detail, coalesce(d.user_id, d.guest_id)::text as to
      from app.notification_events e join app.notification_deliveries d on d.event_id = e.id
     where e.plan_id = ${planId} and e.kind = 'spot_opened' and d.channel = 'email' order by e.id`;
const participantOf = async (planId: string, who: { userId?: string; guestId?: string }) =>
  (await db.owner<{ id: string }[]>`
    select id from app.participants
     where plan_id = ${planId} and (user_id = ${who.userId ?? null} or guest_id = ${who.guestId ?? null})`)[0].id;

/** A plan of its own: Hanna hosts, members Mia, Max and Zoe, guest Gus, with the date locked. */
async function newPlan({ locked = true } = {}) {
  const host = await createUser(db.owner, 'Hanna', 'Host');
  const plan = await createPlan(db.owner, host);
  const people: Record<string, Claims> = { host: { role: 'authenticated', sub: host, plan_id: plan.id } };
  const ids: Record<string, string> = { host };
  for (const name of ['Mia', 'Max', 'Zoe']) {
    const id = await createUser(db.owner, name, null);
    await addMember(db.owner, plan.id, id);
    people[name] = { role: 'authenticated', sub: id, plan_id: plan.id };
    ids[name] = id;
  }
  const gus = await addGuest(db.owner, plan.id, 'Gus');
  people.Gus = asGuest(gus, { plan_id: plan.id });
  ids.Gus = gus;
  if (locked) await lockDate(plan.id);
  return { planId: plan.id, people, ids };
}

describe('answering', () => {
  it('opens once the date is set; maybe and no bring nobody; answering again replaces the answer', async () => {
    const { planId, people } = await newPlan({ locked: false });
    await expectPgError(answer(people.Mia, planId, 'going'), 'HP409', 'Answers open once the date is set.');
    await lockDate(planId);
    expect(await answer(people.Mia, planId, 'going', 2)).toEqual({ answer: 'going', plus_ones: 2, position: null, promoted: 0 });
    expect(await answer(people.Mia, planId, 'maybe', 2)).toEqual({ answer: 'maybe', plus_ones: 0, position: null, promoted: 0 });
    expect(await answer(people.Gus, planId, 'no')).toMatchObject({ answer: 'no', plus_ones: 0 });
    expect(await byName(planId)).toEqual({ Mia: 'maybe', Gus: 'no' });
  });

  it("refuses an unknown answer and more friends than the plan's limit, and changes nothing", async () => {
    const { planId, people } = await newPlan();
    await expectPgError(answer(people.Mia, planId, 'waitlist'), 'HP400', 'Answer must be going, maybe or no');
    await expectPgError(answer(people.Mia, planId, 'going', 3), 'HP400', 'You can bring at most 2 friends to this plan.');
    await setCapacity(people.host, planId, null, 0);
    await expectPgError(answer(people.Mia, planId, 'going', 1), 'HP400', 'You can bring at most 0 friends to this plan.');
    await expectPgError(setCapacity(people.host, planId, 0), 'HP400', 'Spots must be a whole number from 1 to 1000');
    await expectPgError(setCapacity(people.host, planId, 1001), 'HP400', 'Spots must be a whole number from 1 to 1000');
    await expectPgError(setCapacity(people.host, planId, 5, 11), 'HP400', 'Friends per person must be a whole number from 0 to 10');
    expect(await rows(planId)).toEqual([]);
    expect((await db.owner`select capacity, max_plus_ones from app.plans where id = ${planId}`)[0]).toEqual({ capacity: null, max_plus_ones: 0 });
  });

  it('each kind of caller: member, guest, restored guest device, host, signed-in link holder (joined), outsiders', async () => {
    const { planId, people, ids } = await newPlan();
    expect((await answer(people.host, planId, 'going')).answer).toBe('going');
    expect((await answer(people.Gus, planId, 'maybe')).answer).toBe('maybe');
    // A device that continued as Gus by name (decision 0064: it votes, so it answers).
    await db.owner`insert into app.guest_credentials (guest_id, secret_hash, kind) values (${ids.Gus}, ${'b'.repeat(64)}, 'restored')`;
    expect((await answer({ role: 'anon', guest_id: ids.Gus, guest_secret_hash: 'b'.repeat(64), plan_id: planId }, planId, 'no')).answer).toBe('no');
    const sam = await createUser(db.owner, 'Sam', null);
    expect((await answer({ role: 'authenticated', sub: sam, plan_id: planId }, planId, 'going')).answer).toBe('going');
    expect(await byName(planId)).toMatchObject({ 'Hanna Host': 'going', Gus: 'no', Sam: 'going' });
    // Outsiders: no link (404), the link but no guest (401), a guest of another plan (403).
    await expectPgError(answer({ role: 'authenticated', sub: sam }, crypto.randomUUID(), 'going'), 'HP404', 'Plan not found');
    const other = await newPlan();
    await expectPgError(answer({ role: 'authenticated', sub: await createUser(db.owner, 'Out', null) }, planId, 'going'), 'HP404', 'Plan not found');
    await expectPgError(answer({ role: 'anon', plan_id: planId }, planId, 'going'), 'HP401', 'Join the plan first to answer');
    await expectPgError(
      answer(asGuest(other.ids.Gus, { plan_id: planId }), planId, 'going'),
      'HP403',
      'This guest belongs to another plan',
    );
  });

  it('row security: link holders and participants read the answers, nobody writes them directly', async () => {
    const w = await newPlan();
    await answer(w.people.Mia, w.planId, 'going');
    const read = (claims: Claims) => db.as(claims, (sql) => sql`select answer from app.rsvps where plan_id = ${w.planId}`);
    expect(await read({ role: 'anon', plan_id: w.planId })).toHaveLength(1);
    expect(await read(w.people.Gus)).toHaveLength(1);
    expect(await read({ role: 'authenticated', sub: await createUser(db.owner, 'Nobody', null) })).toHaveLength(0);
    const me = await participantOf(w.planId, { userId: w.ids.Mia });
    await expectDenied(db.as(w.people.Mia, (sql) => sql`update app.rsvps set answer = 'no' where participant_id = ${me}`));
    await expectDenied(db.as(w.people.Mia, (sql) => sql`delete from app.rsvps where participant_id = ${me}`));
    await expectDenied(
      db.as(w.people.Zoe, (sql) => sql`insert into app.rsvps (participant_id, plan_id, answer) values (${me}, ${w.planId}, 'no')`),
    );
  });
});

describe('spots and the waitlist', () => {
  it('a going party that does not fit waits in tap order; a smaller one behind it may go; a drop promotes and tells', async () => {
    const { planId, people, ids } = await newPlan();
    await setCapacity(people.host, planId, 3);
    expect(await answer(people.Mia, planId, 'going', 1)).toMatchObject({ answer: 'going', position: null });
    expect(await answer(people.Gus, planId, 'going', 1)).toMatchObject({ answer: 'waitlist', plus_ones: 1, position: 1 });
    expect(await answer(people.Max, planId, 'going', 1)).toMatchObject({ answer: 'waitlist', position: 2 });
    // One spot left: Zoe alone fits (the parties ahead of her need two).
    expect(await answer(people.Zoe, planId, 'going')).toMatchObject({ answer: 'going' });
    // Mia can't go: two spots open, Gus (first in line, a party of two) is promoted, Max still waits.
    expect(await answer(people.Mia, planId, 'no')).toMatchObject({ answer: 'no', promoted: 1 });
    expect(await byName(planId)).toEqual({ Mia: 'no', Gus: 'going', Max: 'waitlist', Zoe: 'going' });
    expect(await spotNotices(planId)).toEqual([]); // a guest without a push device: nobody to tell, no event kept
    // Zoe drops: one spot, Max's party of two still does not fit.
    expect(await answer(people.Zoe, planId, 'maybe')).toMatchObject({ promoted: 0 });
    // Max brings nobody after all: he fits, and stays promoted.
    expect(await answer(people.Max, planId, 'going', 0)).toMatchObject({ answer: 'going', promoted: 1 });
    // His own change let him in: he sees it in the answer, no notice.
    expect(await spotNotices(planId)).toEqual([]);
    // Zoe wants back in: full (3 of 3), so she waits; the host raises the spots: promoted and e-mailed.
    expect(await answer(people.Zoe, planId, 'going')).toMatchObject({ answer: 'waitlist', position: 1 });
    await setCapacity(people.host, planId, 4);
    expect(await byName(planId)).toMatchObject({ Zoe: 'going' });
    expect(await spotNotices(planId)).toEqual([{ detail: { plusOnes: 0 }, to: ids.Zoe }]);
  });

  it('someone going keeps their place but cannot add friends past the spots; lowering the spots bumps nobody', async () => {
    const { planId, people } = await newPlan();
    await setCapacity(people.host, planId, 3);
    await answer(people.Mia, planId, 'going', 1);
    await answer(people.Max, planId, 'going');
    await expectPgError(answer(people.Mia, planId, 'going', 2), 'HP409', 'Only 0 more can come: bring fewer friends.');
    expect(await byName(planId)).toEqual({ Mia: 'going', Max: 'going' });
    await setCapacity(people.host, planId, 1);
    expect(await byName(planId)).toEqual({ Mia: 'going', Max: 'going' });
    expect((await answer(people.Zoe, planId, 'going')).answer).toBe('waitlist');
    // Over the spots, fewer friends is still fine.
    expect((await answer(people.Mia, planId, 'going', 0)).answer).toBe('going');
    // No limit: everyone waiting goes.
    await setCapacity(people.host, planId, null);
    expect(await byName(planId)).toEqual({ Mia: 'going', Max: 'going', Zoe: 'going' });
  });

  it('leaving, being removed or deleting the plan opens a spot (or ends it all) in the same transaction', async () => {
    const { planId, people, ids } = await newPlan();
    await setCapacity(people.host, planId, 1);
    await answer(people.Mia, planId, 'going');
    await answer(people.Gus, planId, 'going');
    await answer(people.Max, planId, 'going');
    await db.as(people.Mia, (sql) => sql`select app.leave_plan(${planId})`);
    expect(await byName(planId)).toEqual({ Gus: 'going', Max: 'waitlist' });
    const gus = await participantOf(planId, { guestId: ids.Gus });
    await db.as(people.host, (sql) => sql`select app.remove_participant(${planId}, ${gus})`);
    expect(await byName(planId)).toEqual({ Max: 'going' });
    expect((await spotNotices(planId)).map((n) => n.to)).toEqual([ids.Max]);
    await answer(people.Zoe, planId, 'going');
    await db.as(people.host, (sql) => sql`delete from app.plans where id = ${planId}`);
    expect(await rows(planId)).toEqual([]);
  });
});

describe('the host answers for someone', () => {
  it('marks it set by the host; their own answer clears that; only the host; only people of the plan', async () => {
    const { planId, people, ids } = await newPlan();
    const gus = await participantOf(planId, { guestId: ids.Gus });
    expect(await answerFor(people.host, planId, gus, 'going', 1)).toMatchObject({ answer: 'going', plus_ones: 1 });
    expect((await rows(planId))[0]).toMatchObject({ name: 'Gus', set_by_host: true });
    await answer(people.Gus, planId, 'maybe');
    expect((await rows(planId))[0]).toMatchObject({ answer: 'maybe', set_by_host: false });
    await expectPgError(answerFor(people.Mia, planId, gus, 'no'), 'HP403', 'Only the host can answer for someone');
    await expectPgError(setCapacity(people.Mia, planId, 5), 'HP403', 'Only the host can set the spots');
    const other = await newPlan();
    const stranger = await participantOf(other.planId, { guestId: other.ids.Gus });
    await expectPgError(answerFor(people.host, planId, stranger, 'no'), 'HP404', 'This person is not in the plan');
    await expectPgError(answerFor(people.host, other.planId, stranger, 'no'), 'HP404', 'Plan not found');
  });
});

describe('a new date asks again', () => {
  it('another date or another time resets every answer (with the waitlist); the same date and the first time keep them', async () => {
    const { planId, people } = await newPlan();
    await setCapacity(people.host, planId, 1);
    await answer(people.Mia, planId, 'going');
    await answer(people.Max, planId, 'going');
    await answer(people.Gus, planId, 'no');
    // Unlock and lock the same date again: nothing asked again.
    const date = (await db.owner`select locked_time_slot_date::text as d from app.plans where id = ${planId}`)[0].d as string;
    await db.as(people.host, (sql) => sql`select app.unlock_plan(${planId})`);
    await db.as(people.host, (sql) => sql`select app.lock_date(${planId}, ${date}::date)`);
    expect(await byName(planId)).toEqual({ Mia: 'going', Max: 'waitlist', Gus: 'no' });
    // The time, set after the answers: they stand for it.
    await db.as(people.host, (sql) => sql`select app.set_event_time(${planId}, '19:30')`);
    expect(await byName(planId)).toEqual({ Mia: 'going', Max: 'waitlist', Gus: 'no' });
    const noticeAsksAgain = async () =>
      (await db.owner`select private.plan_notice_detail(p) -> 'askAgain' as a from app.plans p where p.id = ${planId}`)[0].a;
    expect(await noticeAsksAgain()).toBe(false);
    // Another time: everyone is asked again (and the time's notice says so).
    await db.as(people.host, (sql) => sql`select app.set_event_time(${planId}, '20:00')`);
    expect((await rows(planId)).map((r) => [r.answer, r.ask_again])).toEqual([[null, true], [null, true], [null, true]]);
    expect(await noticeAsksAgain()).toBe(true);
    await answer(people.Max, planId, 'going');
    expect((await rows(planId)).find((r) => r.name === 'Max')).toMatchObject({ answer: 'going', ask_again: false });
    // Another date: asked again.
    await db.as(people.host, (sql) => sql`select app.unlock_plan(${planId})`);
    await db.as(people.host, (sql) => sql`select app.lock_date(${planId}, current_date + 5)`);
    expect((await rows(planId)).every((r) => r.answer === null && r.ask_again)).toBe(true);
  });
});

describe('20 people tapping Going at once on 4 spots', () => {
  const N = 20;
  let pool: Sql;
  let planId: string;
  let host: string;
  let members: string[];
  beforeAll(async () => {
    pool = db.pool(N);
    host = await createUser(db.owner, 'Host', null);
    planId = (await createPlan(db.owner, host, 'Four spots')).id;
    members = [];
    for (let i = 0; i < N; i++) {
      const m = await createUser(db.owner, `Tap${String(i).padStart(2, '0')}`, null);
      await addMember(db.owner, planId, m);
      members.push(m);
    }
    await lockDate(planId);
    await db.owner`update app.plans set capacity = 4 where id = ${planId}`;
    await Promise.all(Array.from({ length: N }, () => pool`select pg_sleep(0.05)`));
  });
  const as = (i: number): Claims => ({ role: 'authenticated', sub: members[i], plan_id: planId });
  const tap = (i: number, what: string) =>
    runAs(pool, as(i), async (sql) => (await sql<Answer[]>`select * from app.rsvp(${planId}, ${what}, 0)`)[0]);
  const queue = () =>
    db.owner<{ user_id: string; answer: string }[]>`
      select pa.user_id, r.answer from app.rsvps r join app.participants pa on pa.id = r.participant_id
       where r.plan_id = ${planId} order by r.queued_at, r.participant_id`;

  it('gives exactly 4 going and 16 waitlisted in tap order; a drop promotes exactly one; four drops at once promote four', async () => {
    const results = await Promise.all(Array.from({ length: N }, (_, i) => tap(i, 'going')));
    expect(results.filter((r) => r.answer === 'going')).toHaveLength(4);
    const waiting = results.filter((r) => r.answer === 'waitlist');
    expect(waiting.map((r) => r.position).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    // Tap order: the first four taps (the order the lock let them in) are going, then positions 1..16.
    const order = await queue();
    expect(order.map((r) => r.answer)).toEqual([...Array(4).fill('going'), ...Array(16).fill('waitlist')]);
    const position = new Map(results.map((r, i) => [members[i], r.position]));
    expect(order.slice(4).map((r) => position.get(r.user_id))).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));

    // One of the four can't go: exactly the first in line is promoted, and told once.
    const goingIdx = members.indexOf(order[0].user_id);
    expect((await tap(goingIdx, 'no')).promoted).toBe(1);
    const after = await queue();
    expect(after.filter((r) => r.answer === 'going').map((r) => r.user_id)).toEqual(
      [order[1], order[2], order[3], order[4]].map((r) => r.user_id),
    );
    expect((await spotNotices(planId)).map((n) => n.to)).toEqual([order[4].user_id]);

    // The four going drop at the same moment: four promoted, each once, in line order.
    const going = after.filter((r) => r.answer === 'going').map((r) => members.indexOf(r.user_id));
    const drops = await Promise.all(going.map((i) => tap(i, 'maybe')));
    expect(drops.reduce((n, r) => n + r.promoted, 0)).toBe(4);
    const final = await queue();
    expect(final.filter((r) => r.answer === 'going').map((r) => r.user_id).sort()).toEqual(
      order.slice(5, 9).map((r) => r.user_id).sort(),
    );
    const told = (await spotNotices(planId)).map((n) => n.to);
    expect(told).toHaveLength(5);
    expect(new Set(told).size).toBe(5);
    const [{ headcount }] = await db.owner`
      select count(*)::int as headcount from app.rsvps where plan_id = ${planId} and answer = 'going'`;
    expect(headcount).toBe(4);
  });
});

describe('an answer and a removal of the same person at the same moment', () => {
  // The removal takes the plan's rsvps lock before it deletes anyone, and an
  // answer looks up who answers under it (the rsvps file's lock order): no
  // deadlock (40P01, a 503), and the answer either comes first and goes with
  // the person, or is refused with the removal's sentence (before, it could
  // also fail on the person's row going under it: the foreign key's or a
  // not-null error, not a sentence). Members and guests, with and without an
  // earlier answer, on a plan with and without spots (an answer there takes
  // the spots lock too).
  const ROUNDS = 30;
  const REMOVED = 'The host removed you from this plan';
  let pool: Sql;
  beforeAll(async () => {
    pool = db.pool(2);
    await Promise.all([pool`select 1`, pool`select 1`]);
  });

  it(`${ROUNDS} rounds: never a deadlock, never an answer left behind`, async () => {
    const host = await createUser(db.owner, 'Hanna', 'Host');
    const plans = [(await createPlan(db.owner, host, 'No spots')).id, (await createPlan(db.owner, host, 'Spots')).id];
    for (const planId of plans) await lockDate(planId);
    await db.owner`update app.plans set capacity = 100 where id = ${plans[1]}`;
    const outcomes = { answeredFirst: 0, refused: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const planId = plans[round % 2];
      const asHost: Claims = { role: 'authenticated', sub: host, plan_id: planId };
      let who: Claims;
      let participantId: string;
      if (round % 4 < 2) {
        const member = await createUser(db.owner, `Member${round}`, null);
        await addMember(db.owner, planId, member);
        who = { role: 'authenticated', sub: member, plan_id: planId };
        participantId = await participantOf(planId, { userId: member });
      } else {
        const guest = await addGuest(db.owner, planId, `Guest ${round}`);
        who = asGuest(guest, { plan_id: planId });
        participantId = await participantOf(planId, { guestId: guest });
      }
      if (round % 8 >= 4) await answer(who, planId, 'maybe');

      const [answered, removed] = await Promise.allSettled([
        runAs(pool, who, (sql) => sql`select * from app.rsvp(${planId}, 'going', 1)`),
        runAs(pool, asHost, (sql) => sql`select app.remove_participant(${planId}, ${participantId})`),
      ]);
      const round_ = `round ${round}`;
      expect(removed.status === 'rejected' ? (removed.reason as Error).message : 'removed', round_).toBe('removed');
      if (answered.status === 'rejected') {
        const error = answered.reason as { code: string; message: string };
        expect(`${error.code} ${error.message}`, round_).toBe(`HP403 ${REMOVED}`);
        outcomes.refused++;
      } else {
        outcomes.answeredFirst++;
      }
      const [left] = await db.owner`
        select (select count(*)::int from app.participants where id = ${participantId}) as people,
               (select count(*)::int from app.rsvps where participant_id = ${participantId}) as answers`;
      expect(left, round_).toEqual({ people: 0, answers: 0 });
    }
    expect(outcomes.answeredFirst + outcomes.refused).toBe(ROUNDS);

    // And the removal long done: the same sentence, for a member and for a guest's device.
    const planId = plans[0];
    const asHost: Claims = { role: 'authenticated', sub: host, plan_id: planId };
    const member = await createUser(db.owner, 'Late', null);
    await addMember(db.owner, planId, member);
    const guest = await addGuest(db.owner, planId, 'Later');
    for (const participantId of [await participantOf(planId, { userId: member }), await participantOf(planId, { guestId: guest })]) {
      await db.as(asHost, (sql) => sql`select app.remove_participant(${planId}, ${participantId})`);
    }
    await expectPgError(answer({ role: 'authenticated', sub: member, plan_id: planId }, planId, 'going'), 'HP403', REMOVED);
    await expectPgError(answer(asGuest(guest, { plan_id: planId }), planId, 'going'), 'HP403', REMOVED);
  });
});

describe('the plan JSON answers', () => {
  const w = usePlanWorld(db);
  it('are null before a date, then counts for every reader, also by the slug alone', async () => {
    const answers = (claims: Claims) =>
      db.as(claims, async (sql) => (await sql`select private.plan_answers(${w.planA}) as a`)[0].a);
    expect(await answers(w.actors.member)).toBeNull();
    await lockDate(w.planA);
    await answer({ ...w.actors.member, plan_id: w.planA }, w.planA, 'going', 2);
    await answer(w.actors.guest, w.planA, 'maybe');
    for (const actor of ['member', 'guest', 'anonWithLink', 'anonWithSlug', 'host'] as const) {
      expect(await answers(w.actors[actor]), actor).toEqual({ going: 1, maybe: 1, headcount: 3 });
    }
    expect(await answers(w.actors.stranger)).toBeNull();
  });
});
