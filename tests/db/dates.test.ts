// Dates and time slots (the dates domain): the two tables'
// row security per caller; the vote rules the API calls (app.vote_on_time_slot,
// app.vote_on_date) in sequence; and the removal of a slot with no votes that
// is not locked, also when a vote races the removal. The votes' parallel
// behaviour at scale is in concurrency.test.ts.
import { describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, runAs, useFreshDatabase, useHostAndMember, usePlanWorld, type Claims } from '../support/db.ts';
import {
  addGuest,
  addMember,
  asGuest,
  blindToA,
  createUser,
  dayFromToday,
  readersOfA,
  type ActorName,
} from '../support/plan-fixture.ts';
import { rankedPlan } from '../support/date-ranking.ts';

const db = useFreshDatabase();

describe('row security', () => {
  const w = usePlanWorld(db);

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
});

describe('the vote rules', () => {
  const w = usePlanWorld(db);

  const voteDate = (claims: Claims, planId: string, date: string, period: string | null = null) =>
    db.as(claims, async (sql) => (await sql`select voted from app.vote_on_date(${planId}, ${date}::date, ${period})`)[0].voted as boolean);
  const isoDay = (offset: number) => dayFromToday(db.owner, offset);

  describe('app.vote_on_time_slot', () => {
    const vote = (claims: Claims, slotId: string) =>
      db.as(claims, async (sql) => (await sql<{ voted: boolean; vote_count: number }[]>`select * from app.vote_on_time_slot(${slotId})`)[0]);
    const toggleSlot = async (claims: Claims, slotId: string) => (await vote(claims, slotId)).voted;

    it('toggles the caller\'s vote on a slot', async () => {
      expect(await toggleSlot(w.actors.member, w.slotA)).toBe(true);
      expect(await toggleSlot(w.actors.guest, w.slotA)).toBe(false); // Gus had voted in the fixture
      const rows = await db.owner`select user_id, guest_id from app.time_slot_votes where time_slot_id = ${w.slotA}`;
      expect(rows).toEqual([{ user_id: w.users.member, guest_id: null }]);
      // (Gus votes again before Mia leaves: a slot whose last vote goes is removed, see 'empty slots' below.)
      expect(await toggleSlot(w.actors.guest, w.slotA)).toBe(true);
      expect(await toggleSlot(w.actors.member, w.slotA)).toBe(false);
    });

    it("toggles the caller's vote and answers the slot's count after the toggle", async () => {
      const before = (await db.owner`select count(*)::int as n from app.time_slot_votes where time_slot_id = ${w.slotA}`)[0].n as number;
      const first = await vote(w.actors.member, w.slotA);
      expect(first.vote_count).toBe(first.voted ? before + 1 : before - 1);
      const second = await vote(w.actors.member, w.slotA);
      expect(second).toEqual({ voted: !first.voted, vote_count: before, if_need_be_count: 0, answer: first.voted ? null : 'yes' });
    });

    it('refuses an unknown slot, another plan’s slot and a guest of another plan, changing nothing', async () => {
      const count = async () => (await db.owner`select count(*)::int as n from app.time_slot_votes`)[0].n as number;
      const before = await count();
      await expectPgError(vote(w.actors.member, crypto.randomUUID()), 'HP404', 'Time slot not found');
      await expectPgError(vote(w.actors.member, w.slotB), 'HP404', 'Time slot not found');
      await expectPgError(vote(w.actors.otherGuestWithLink, w.slotA), 'HP403', 'Please join the plan first to vote');
      expect(await count()).toBe(before);
    });

    // The rule makes the row policies' checks itself (private.vote_on_time_slot,
    // a definer), so each refusal is tested here.
    it('refuses a caller without the link or a part in the plan, and a guest on another plan’s slot', async () => {
      const count = async () => (await db.owner`select count(*)::int as n from app.time_slot_votes`)[0].n as number;
      const before = await count();
      await expectPgError(vote(w.actors.stranger, w.slotA), 'HP404', 'Time slot not found');
      await expectPgError(vote(w.actors.anon, w.slotA), 'HP404', 'Time slot not found');
      await expectPgError(vote(w.actors.anonWithLink, w.slotA), 'HP403', 'Please join the plan first to vote');
      await expectPgError(vote(w.actors.guest, w.slotB), 'HP404', 'Time slot not found');
      expect(await count()).toBe(before);
      // A signed-in link holder joins on the first vote and votes as itself.
      const first = await vote(w.actors.strangerWithLink, w.slotA);
      expect(first.voted).toBe(true);
      expect(await db.owner`select 1 from app.time_slot_votes where time_slot_id = ${w.slotA} and user_id = ${w.users.stranger}`).toHaveLength(1);
      expect(await db.owner`select 1 from app.participants where plan_id = ${w.planA} and user_id = ${w.users.stranger}`).toHaveLength(1);
      await vote(w.actors.strangerWithLink, w.slotA);
      await db.owner`delete from app.participants where plan_id = ${w.planA} and user_id = ${w.users.stranger}`;
    });
  });

  describe('app.vote_on_date', () => {
    const vote = (claims: Claims, date: string, period: string | null = null) =>
      db.as(claims, async (sql) => (await sql<{ voted: boolean; time_slot_id: string; vote_count: number }[]>`
        select * from app.vote_on_date(${w.planA}, ${date}::date, ${period})`)[0]);

    it('answers the slot it found or made and its count; the last vote going answers the gone slot with 0', async () => {
      const day = await isoDay(11);
      const first = await vote(w.actors.guest, day, 'Night');
      const slot = await db.owner`select id from app.time_slots where plan_id = ${w.planA} and date = ${day}::date and period = 'Night'`;
      const answered = (voted: boolean, count: number) =>
        ({ voted, time_slot_id: slot[0].id, vote_count: count, if_need_be_count: 0, answer: voted ? 'yes' : null });
      expect(first).toEqual(answered(true, 1));
      expect(await vote(w.actors.member, day, ' Night ')).toEqual(answered(true, 2));
      expect(await vote(w.actors.member, day, 'Night')).toEqual(answered(false, 1));
      expect(await vote(w.actors.guest, day, 'Night')).toEqual(answered(false, 0));
      expect(await db.owner`select 1 from app.time_slots where id = ${slot[0].id}`).toHaveLength(0);
    });

    it('refuses a guest of another plan, a past date and an unknown period, and changes nothing', async () => {
      const slots = async () => (await db.owner`select count(*)::int as n from app.time_slots`)[0].n as number;
      const before = await slots();
      await expectPgError(vote(w.actors.otherGuestWithLink, await isoDay(12)), 'HP403', 'Please join the plan first to vote');
      await expectPgError(vote(w.actors.guest, await isoDay(-3)), 'HP400', 'Date must not be in the past');
      await expectPgError(vote(w.actors.guest, await isoDay(12), 'Brunch'), 'HP400');
      expect(await slots()).toBe(before);
    });

    // The rule makes the row policies' checks itself (private.vote_on_date, a
    // definer), so each refusal is tested here.
    it('refuses a caller without the link or a part in the plan, creating no slot', async () => {
      const rows = async () =>
        (await db.owner`select (select count(*) from app.time_slots)::int as slots, (select count(*) from app.time_slot_votes)::int as votes`)[0];
      const before = await rows();
      const day = await isoDay(13);
      const onPlanB = (claims: Claims) =>
        db.as(claims, async (sql) => sql`select * from app.vote_on_date(${w.planB}, ${day}::date, null)`);
      await expectPgError(vote(w.actors.stranger, day), 'HP404', 'Plan not found');
      await expectPgError(vote(w.actors.anon, day), 'HP404', 'Plan not found');
      await expectPgError(vote(w.actors.anonWithLink, day), 'HP403', 'Please join the plan first to vote');
      await expectPgError(onPlanB(w.actors.guest), 'HP404', 'Plan not found');
      await expectPgError(onPlanB(w.actors.member), 'HP404', 'Plan not found');
      expect(await rows()).toEqual(before);
    });
  });

  describe('app.vote_on_date, the date and period rules', () => {
    it('finds or creates the slot of (date, period) and toggles; the slot stays while a vote is left', async () => {
      const day = await isoDay(5);
      expect(await voteDate(w.actors.guest, w.planA, day, 'Morning')).toBe(true);
      expect(await voteDate(w.actors.member, w.planA, day, 'Morning')).toBe(true);
      const slots = await db.owner`select id from app.time_slots where plan_id = ${w.planA} and date = ${day} and period = 'Morning'`;
      expect(slots).toHaveLength(1);
      const [{ count }] = await db.owner`select count(*)::int from app.time_slot_votes where time_slot_id = ${slots[0].id}`;
      expect(count).toBe(2);
      expect(await voteDate(w.actors.guest, w.planA, day, 'Morning')).toBe(false);
      expect(await db.owner`select 1 from app.time_slots where id = ${slots[0].id}`).toHaveLength(1);
    });

    it('no period, null and blank all mean the whole day: one slot', async () => {
      const day = await isoDay(6);
      expect(await voteDate(w.actors.member, w.planA, day)).toBe(true);
      expect(await voteDate(w.actors.member, w.planA, day, '')).toBe(false);
      expect(await voteDate(w.actors.member, w.planA, day, '  ')).toBe(true);
      const slots = await db.owner`select period from app.time_slots where plan_id = ${w.planA} and date = ${day}`;
      expect(slots).toEqual([{ period: null }]);
    });

    it('accepts yesterday through 366 days ahead; 400 outside', async () => {
      expect(await voteDate(w.actors.member, w.planA, await isoDay(-1))).toBe(true);
      expect(await voteDate(w.actors.member, w.planA, await isoDay(366))).toBe(true);
      await expectPgError(voteDate(w.actors.member, w.planA, await isoDay(-2)), 'HP400', 'Date must not be in the past');
      await expectPgError(voteDate(w.actors.member, w.planA, await isoDay(367)), 'HP400', 'Date must be at most 366 days ahead');
    });

    it('400 for a period that is neither named nor H:mm', async () => {
      await expectPgError(voteDate(w.actors.member, w.planA, await isoDay(2), 'Brunch'), 'HP400', /^Period must be/);
    });

    it('404 for plans the caller cannot see, 403 for a guest of another plan', async () => {
      await expectPgError(voteDate(w.actors.member, crypto.randomUUID(), await isoDay(1)), 'HP404', 'Plan not found');
      await expectPgError(voteDate(w.actors.stranger, w.planA, await isoDay(1)), 'HP404', 'Plan not found');
      await expectPgError(voteDate(w.actors.otherGuestWithLink, w.planA, await isoDay(1)), 'HP403');
    });
  });
});

describe('answers on dates: yes, if need be, none of these work (docs/decisions/0108-answers-on-dates.md)', () => {
  const { newPlan } = useHostAndMember(db);
  type Answered = { voted: boolean; time_slot_id?: string; vote_count: number; if_need_be_count: number; answer: string | null };

  async function plan() {
    const p = await newPlan();
    const gus = await addGuest(db.owner, p.planId, 'Gus');
    return { ...p, gusId: gus, hostId: p.host.sub!, memberId: p.member.sub!, guest: asGuest(gus, { plan_id: p.planId }) };
  }
  const byDate = (claims: Claims, planId: string, days: number, answer?: string | null) =>
    db.as(claims, async (sql) =>
      (await sql<Answered[]>`
        select * from app.vote_on_date(${planId}, current_date + ${days}::int, null, ${answer === undefined ? 'yes' : answer})`)[0]);
  const bySlot = (claims: Claims, slotId: string, answer?: string | null) =>
    db.as(claims, async (sql) =>
      (await sql<Answered[]>`select * from app.vote_on_time_slot(${slotId}, ${answer === undefined ? 'yes' : answer})`)[0]);
  const votesOf = async (planId: string) =>
    await db.owner<{ days: number; voter: string; answer: string }[]>`
      select (s.date - current_date)::int as days, coalesce(v.user_id, v.guest_id)::text as voter, v.answer
        from app.time_slot_votes v join app.time_slots s on s.id = v.time_slot_id
       where v.plan_id = ${planId} order by 1, 2`;
  const noDates = (claims: Claims, planId: string) =>
    db.as(claims, async (sql) => (await sql<{ on: boolean }[]>`select app.set_no_dates(${planId}) as on`)[0].on);
  const saidNoDates = async (planId: string) =>
    (await db.owner<{ name: string }[]>`
      select pa.name from app.no_dates n join app.participants pa on pa.id = n.participant_id where n.plan_id = ${planId} order by 1`).map((r) => r.name);

  describe('the toggle table', () => {
    it('by date: none -> yes; the same yes removes; if need be -> yes replaces; yes -> if need be replaces; the same if need be removes', async () => {
      const p = await plan();
      const first = await byDate(p.member, p.planId, 4);
      expect(first).toMatchObject({ voted: true, vote_count: 1, if_need_be_count: 0, answer: 'yes' });
      expect(await byDate(p.member, p.planId, 4, 'yes')).toMatchObject({ voted: false, vote_count: 0, if_need_be_count: 0, answer: null });
      expect(await votesOf(p.planId)).toEqual([]);

      const maybe = await byDate(p.member, p.planId, 4, 'ifneedbe');
      expect(maybe).toMatchObject({ voted: true, vote_count: 0, if_need_be_count: 1, answer: 'ifneedbe' });
      expect(await byDate(p.guest, p.planId, 4)).toMatchObject({ voted: true, vote_count: 1, if_need_be_count: 1, answer: 'yes' });
      // Replacing keeps the slot and the one row.
      expect(await byDate(p.member, p.planId, 4, 'yes')).toEqual({
        voted: true, time_slot_id: maybe.time_slot_id, vote_count: 2, if_need_be_count: 0, answer: 'yes',
      });
      expect(await byDate(p.member, p.planId, 4, 'ifneedbe')).toMatchObject({ voted: true, vote_count: 1, if_need_be_count: 1, answer: 'ifneedbe' });
      expect(await votesOf(p.planId)).toEqual(
        [{ days: 4, voter: p.gusId, answer: 'yes' }, { days: 4, voter: p.memberId, answer: 'ifneedbe' }].sort((a, b) => a.voter.localeCompare(b.voter)),
      );
      expect(await byDate(p.member, p.planId, 4, 'ifneedbe')).toMatchObject({ voted: false, vote_count: 1, if_need_be_count: 0, answer: null });
      expect(await votesOf(p.planId)).toEqual([{ days: 4, voter: p.gusId, answer: 'yes' }]);
    });

    it('by slot the same, an absent answer (null) is yes; the last vote going takes the slot', async () => {
      const p = await plan();
      const slot = (await byDate(p.guest, p.planId, 5, 'ifneedbe')).time_slot_id!;
      expect(await bySlot(p.member, slot, null)).toEqual({ voted: true, vote_count: 1, if_need_be_count: 1, answer: 'yes' });
      expect(await bySlot(p.member, slot, 'ifneedbe')).toEqual({ voted: true, vote_count: 0, if_need_be_count: 2, answer: 'ifneedbe' });
      expect(await bySlot(p.guest, slot, 'yes')).toEqual({ voted: true, vote_count: 1, if_need_be_count: 1, answer: 'yes' });
      expect(await bySlot(p.guest, slot)).toEqual({ voted: false, vote_count: 0, if_need_be_count: 1, answer: null });
      expect(await bySlot(p.member, slot, 'ifneedbe')).toEqual({ voted: false, vote_count: 0, if_need_be_count: 0, answer: null });
      expect(await db.owner`select 1 from app.time_slots where id = ${slot}`).toHaveLength(0);
    });

    it('an unknown answer is 400 on both paths and changes nothing; the table refuses one too', async () => {
      const p = await plan();
      const slot = (await byDate(p.member, p.planId, 6)).time_slot_id!;
      const before = await votesOf(p.planId);
      for (const bad of ['no', 'maybe', 'Yes', '', 'if need be']) {
        await expectPgError(byDate(p.member, p.planId, 6, bad), 'HP400', 'answer must be "yes" or "ifneedbe"');
        await expectPgError(byDate(p.guest, p.planId, 7, bad), 'HP400', 'answer must be "yes" or "ifneedbe"');
        await expectPgError(bySlot(p.member, slot, bad), 'HP400', 'answer must be "yes" or "ifneedbe"');
      }
      expect(await votesOf(p.planId)).toEqual(before);
      expect(await db.owner`select 1 from app.time_slots where plan_id = ${p.planId} and date = current_date + 7`).toHaveLength(0);
      await expectPgError(
        db.owner`insert into app.time_slot_votes (time_slot_id, plan_id, user_id, answer) values (${slot}, ${p.planId}, ${p.hostId}, 'maybe')`,
        '23514',
      );
    });
  });

  describe('both answers at once', () => {
    it("one voter's yes and if need be on one slot at once, round after round: one row at most, never an error", async () => {
      const p = await plan();
      const pool = db.pool(2);
      const slot = (await byDate(p.host, p.planId, 8)).time_slot_id!;
      const mine = async () =>
        (await db.owner<{ answer: string }[]>`select answer from app.time_slot_votes where time_slot_id = ${slot} and user_id = ${p.memberId}`)
          .map((r) => r.answer);
      // What the two toggles answer, and leave, when one runs after the other.
      const toggle = (now: string | null, answer: string) => (now === answer ? null : answer);
      const inTurn = (before: string | null, first: string, second: string) => {
        const afterFirst = toggle(before, first);
        const afterSecond = toggle(afterFirst, second);
        return { [first]: afterFirst, [second]: afterSecond, left: afterSecond };
      };
      for (let round = 0; round < 6; round += 1) {
        const before = (await mine())[0] ?? null;
        const [yes, maybe] = await Promise.all(
          (['yes', 'ifneedbe'] as const).map((answer) =>
            runAs(pool, p.member, async (sql) => (await sql<Answered[]>`select * from app.vote_on_time_slot(${slot}, ${answer})`)[0]),
          ),
        );
        const rows = await mine();
        expect(rows.length).toBeLessThanOrEqual(1);
        const seen = { yes: yes.answer, ifneedbe: maybe.answer, left: rows[0] ?? null };
        expect([inTurn(before, 'yes', 'ifneedbe'), inTurn(before, 'ifneedbe', 'yes')], `round ${round} from ${before}`).toContainEqual(seen);
        // The counts each answered are the slot's at its commit: the host's yes is always among them.
        expect(Math.min(yes.vote_count, maybe.vote_count)).toBeGreaterThanOrEqual(1);
      }
    });

    it('twelve voters, half yes and half if need be at once, twice: counted exactly, then gone with the slot', async () => {
      const p = await plan();
      const voters: Claims[] = [];
      for (let i = 0; i < 12; i += 1) {
        const user = await createUser(db.owner, `Answerer${i}`, null);
        await addMember(db.owner, p.planId, user);
        voters.push({ role: 'authenticated', sub: user, plan_id: p.planId });
      }
      const pool = db.pool(12);
      const round = () =>
        Promise.all(
          voters.map((claims, i) =>
            runAs(pool, claims, (sql) => sql`select * from app.vote_on_date(${p.planId}, current_date + 9, null, ${i % 2 ? 'ifneedbe' : 'yes'})`),
          ),
        );
      await round();
      const counts = async () =>
        (await db.owner`
          select count(*) filter (where answer = 'yes')::int as yes, count(*) filter (where answer = 'ifneedbe')::int as maybe
            from app.time_slot_votes where plan_id = ${p.planId}`)[0];
      expect(await counts()).toEqual({ yes: 6, maybe: 6 });
      await round();
      expect(await counts()).toEqual({ yes: 0, maybe: 0 });
      expect(await db.owner`select 1 from app.time_slots where plan_id = ${p.planId}`).toHaveLength(0);
    });
  });

  describe('none of these dates work', () => {
    it("a toggle; on, it takes the caller's date votes (and the slots only they kept); any date vote clears it, on either path", async () => {
      const p = await plan();
      await byDate(p.member, p.planId, 2);
      await byDate(p.member, p.planId, 3, 'ifneedbe');
      await byDate(p.guest, p.planId, 3);
      expect(await noDates(p.member, p.planId)).toBe(true);
      expect(await saidNoDates(p.planId)).toEqual(['Mia']);
      expect(await votesOf(p.planId)).toEqual([{ days: 3, voter: p.gusId, answer: 'yes' }]);
      expect((await db.owner`select (date - current_date)::int as d from app.time_slots where plan_id = ${p.planId}`).map((r) => r.d)).toEqual([3]);
      expect(await noDates(p.member, p.planId)).toBe(false);
      expect(await saidNoDates(p.planId)).toEqual([]);

      // A vote by date, and one by slot, clear it (also a vote that removes one).
      expect(await noDates(p.member, p.planId)).toBe(true);
      expect(await noDates(p.guest, p.planId)).toBe(true);
      expect(await saidNoDates(p.planId)).toEqual(['Gus', 'Mia']);
      expect(await byDate(p.member, p.planId, 4, 'ifneedbe')).toMatchObject({ voted: true, answer: 'ifneedbe' });
      expect(await saidNoDates(p.planId)).toEqual(['Gus']);
      const slot = (await votesOf(p.planId))[0];
      expect(slot).toMatchObject({ days: 4 });
      const [{ id }] = await db.owner`select id from app.time_slots where plan_id = ${p.planId}`;
      await bySlot(p.guest, id);
      expect(await saidNoDates(p.planId)).toEqual([]);
    });

    // A cancelled plan's 409: tests/db/cancel.test.ts.
    it('refused like a date vote: unknown or unreadable 404, not a participant 403; a link holder joins', async () => {
      const p = await plan();
      const stranger = await createUser(db.owner, 'Sten', null);
      const otherPlan = await newPlan();
      const otherGuest = asGuest(await addGuest(db.owner, otherPlan.planId, 'Olga'), { plan_id: p.planId });
      await expectPgError(noDates(p.member, crypto.randomUUID()), 'HP404', 'Plan not found');
      await expectPgError(noDates({ role: 'authenticated', sub: stranger }, p.planId), 'HP404', 'Plan not found');
      await expectPgError(noDates({ role: 'anon', plan_id: p.planId }, p.planId), 'HP403', 'Please join the plan first to vote');
      await expectPgError(noDates(otherGuest, p.planId), 'HP403', 'Please join the plan first to vote');
      expect(await saidNoDates(p.planId)).toEqual([]);
      expect(await noDates({ role: 'authenticated', sub: stranger, plan_id: p.planId }, p.planId)).toBe(true);
      expect(await saidNoDates(p.planId)).toEqual(['Sten']);
    });

    it('read like the votes, written only by the rules; it goes with its participant', async () => {
      const p = await plan();
      await noDates(p.member, p.planId);
      await noDates(p.guest, p.planId);
      const read = (claims: Claims) => db.as(claims, async (sql) => (await sql`select count(*)::int as n from app.no_dates where plan_id = ${p.planId}`)[0].n);
      expect(await read({ role: 'anon', plan_id: p.planId })).toBe(2);
      expect(await read({ role: 'anon' })).toBe(0);
      const [{ pid }] = await db.owner`select id as pid from app.participants where plan_id = ${p.planId} and user_id = ${p.hostId}`;
      await expectDenied(db.as(p.host, (sql) => sql`insert into app.no_dates (participant_id, plan_id) values (${pid}, ${p.planId})`));
      await expectDenied(db.as(p.member, (sql) => sql`delete from app.no_dates`));
      await db.as(p.member, (sql) => sql`select app.leave_plan(${p.planId})`);
      await db.owner`delete from app.guests where id = ${p.gusId}`;
      expect(await saidNoDates(p.planId)).toEqual([]);
    });

    it("one person's date vote and 'none work' at once, round after round: never both", async () => {
      const p = await plan();
      const pool = db.pool(2);
      for (let round = 0; round < 6; round += 1) {
        await Promise.all([
          runAs(pool, p.member, (sql) => sql`select * from app.vote_on_date(${p.planId}, current_date + 2)`),
          runAs(pool, p.member, (sql) => sql`select app.set_no_dates(${p.planId})`),
        ]);
        const votes = (await votesOf(p.planId)).length;
        const said = (await saidNoDates(p.planId)).length;
        expect(votes * said, `round ${round}: ${votes} votes, ${said} none-work`).toBe(0);
      }
    });
  });

  it('private.date_ranking: most yes, then most if need be, then earliest; from today on; a request sees only what it may read', async () => {
    const ranked = await rankedPlan(db.owner);
    const rows = await db.owner<{ days: number; yes_votes: number; if_need_be_votes: number; place: number }[]>`
      select (date - current_date)::int as days, yes_votes, if_need_be_votes, place from private.date_ranking(${ranked.planId}) order by place`;
    expect(rows.map((r) => [r.days, r.yes_votes, r.if_need_be_votes])).toEqual(ranked.ranking);
    expect(rows.map((r) => r.place)).toEqual([1, 2, 3, 4]);
    const asReader = (claims: Claims) =>
      db.as(claims, async (sql) => (await sql`select count(*)::int as n from private.date_ranking(${ranked.planId})`)[0].n);
    expect(await asReader({ role: 'anon', plan_id: ranked.planId })).toBe(4);
    expect(await asReader({ role: 'anon' })).toBe(0);
  });
});

describe('empty slots', () => {
  const { newPlan } = useHostAndMember(db);

  async function plan() {
    const p = await newPlan();
    const guest = await addGuest(db.owner, p.planId, 'Gus');
    return { ...p, guest: asGuest(guest, { plan_id: p.planId }) };
  }

  const voteDate = (claims: Claims, planId: string, days: number, period: string | null = null) =>
    db.as(claims, async (sql) => (await sql`select voted from app.vote_on_date(${planId}, current_date + ${days}::int, ${period})`)[0].voted as boolean);
  const slotsOf = async (planId: string) =>
    (await db.owner`select id, (date - current_date)::int as days, period from app.time_slots where plan_id = ${planId} order by date, period`) as unknown as {
      id: string;
      days: number;
      period: string | null;
    }[];
  const votesOn = async (slotId: string) =>
    (await db.owner`select count(*)::int as n from app.time_slot_votes where time_slot_id = ${slotId}`)[0].n as number;

  describe('removing empty slots', () => {
    it('the last vote withdrawn removes the slot; a slot with votes left stays', async () => {
      const p = await plan();
      expect(await voteDate(p.member, p.planId, 2)).toBe(true);
      expect(await voteDate(p.guest, p.planId, 2)).toBe(true);
      expect(await voteDate(p.member, p.planId, 2)).toBe(false);
      expect(await slotsOf(p.planId)).toHaveLength(1);
      expect(await voteDate(p.guest, p.planId, 2)).toBe(false);
      expect(await slotsOf(p.planId)).toEqual([]);
    });

    it('also through timeslots/{id}/vote, a leave, and a deleted guest', async () => {
      const p = await plan();
      await voteDate(p.member, p.planId, 3, 'Evening');
      await voteDate(p.guest, p.planId, 4);
      await voteDate(p.member, p.planId, 5);
      const [evening, day4, day5] = await slotsOf(p.planId);
      await db.as(p.member, (sql) => sql`select * from app.vote_on_time_slot(${evening.id})`);
      expect((await slotsOf(p.planId)).map((s) => s.id)).toEqual([day4.id, day5.id]);
      // Leaving takes the leaver's votes, and with them the slots only they voted for.
      await db.as(p.member, (sql) => sql`select app.leave_plan(${p.planId})`);
      expect((await slotsOf(p.planId)).map((s) => s.id)).toEqual([day4.id]);
      // A guest deleted (e.g. after a transfer) takes its votes by cascade.
      await db.owner`delete from app.guests where plan_id = ${p.planId}`;
      expect(await slotsOf(p.planId)).toEqual([]);
    });

    it('the locked slot stays without votes; unlocking or another time removes it', async () => {
      const p = await plan();
      await db.as(p.host, (sql) => sql`select app.lock_date(${p.planId}, current_date + 6)`);
      await db.as(p.host, (sql) => sql`select app.set_event_time(${p.planId}, '19:00')`);
      const [seven] = await slotsOf(p.planId);
      expect(seven).toMatchObject({ days: 6, period: '19:00' });
      // Another time: the 19:00 slot (no votes) goes, the 20:00 one is locked.
      await db.as(p.host, (sql) => sql`select app.set_event_time(${p.planId}, '20:00')`);
      expect((await slotsOf(p.planId)).map((s) => s.period)).toEqual(['20:00']);
      // A member's vote keeps a slot through an unlock.
      const [eight] = await slotsOf(p.planId);
      await db.as(p.member, (sql) => sql`select * from app.vote_on_time_slot(${eight.id})`);
      await db.as(p.host, (sql) => sql`select app.unlock_plan(${p.planId})`);
      expect((await slotsOf(p.planId)).map((s) => s.id)).toEqual([eight.id]);
      await db.as(p.host, (sql) => sql`select app.lock_date(${p.planId}, current_date + 6)`);
      await db.as(p.host, (sql) => sql`select app.set_event_time(${p.planId}, '21:00')`);
      await db.as(p.host, (sql) => sql`select app.unlock_plan(${p.planId})`);
      expect((await slotsOf(p.planId)).map((s) => s.id)).toEqual([eight.id]);
    });

    it('deleting a plan still deletes everything', async () => {
      const p = await plan();
      await voteDate(p.member, p.planId, 2);
      await voteDate(p.guest, p.planId, 3);
      await db.as(p.host, (sql) => sql`delete from app.plans where id = ${p.planId}`);
      expect(await slotsOf(p.planId)).toEqual([]);
    });
  });

  describe('a vote racing the removal of its slot', () => {
    /** A transaction that holds until `release` is called; resolves when it has committed. */
    function heldTransaction(claims: Claims, work: (sql: Parameters<Parameters<typeof runAs>[2]>[0]) => Promise<unknown>) {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let ready: () => void = () => {};
      const started = new Promise<void>((resolve) => {
        ready = resolve;
      });
      const done = runAs(db.pool(1), claims, async (sql) => {
        await work(sql);
        ready();
        await gate;
      });
      return { started, release, done };
    }

    const settled = (promise: Promise<unknown>, ms = 300) =>
      Promise.race([promise.then(() => true, () => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

    it('a vote in flight keeps the slot: the removal waits for it and then sees it', async () => {
      const p = await plan();
      await voteDate(p.member, p.planId, 8);
      const [slot] = await slotsOf(p.planId);
      // Gus votes and has not committed yet.
      const gus = heldTransaction(p.guest, (sql) => sql`select * from app.vote_on_time_slot(${slot.id})`);
      await gus.started;
      // Mia withdraws the last committed vote: the removal must wait for Gus.
      const mia = runAs(db.pool(1), p.member, (sql) => sql`select * from app.vote_on_time_slot(${slot.id})`);
      expect(await settled(mia)).toBe(false);
      gus.release();
      await gus.done;
      await mia;
      expect(await slotsOf(p.planId)).toHaveLength(1);
      expect(await votesOn(slot.id)).toBe(1);
    });

    it('a vote by date after the removal took the slot creates it anew', async () => {
      const p = await plan();
      await voteDate(p.member, p.planId, 9);
      const [slot] = await slotsOf(p.planId);
      // Mia withdraws (the slot is locked for removal) and has not committed yet.
      const mia = heldTransaction(p.member, (sql) => sql`select * from app.vote_on_date(${p.planId}, current_date + 9)`);
      await mia.started;
      const gus = runAs(db.pool(1), p.guest, (sql) => sql`select voted as v from app.vote_on_date(${p.planId}, current_date + 9)`);
      expect(await settled(gus)).toBe(false);
      mia.release();
      await mia.done;
      const [{ v }] = await gus;
      expect(v).toBe(true);
      const slots = await slotsOf(p.planId);
      expect(slots).toHaveLength(1);
      expect(slots[0].id).not.toBe(slot.id);
      expect(await votesOn(slots[0].id)).toBe(1);
    });

    it('a vote by date in flight keeps the slot it found: a withdrawal of the last other vote waits for it', async () => {
      const p = await plan();
      await voteDate(p.member, p.planId, 11);
      const [slot] = await slotsOf(p.planId);
      // Gus votes by date on the slot he found and has not committed yet.
      const gus = heldTransaction(p.guest, (sql) => sql`select * from app.vote_on_date(${p.planId}, current_date + 11)`);
      await gus.started;
      const mia = runAs(db.pool(1), p.member, (sql) => sql`select voted as v from app.vote_on_date(${p.planId}, current_date + 11)`);
      expect(await settled(mia)).toBe(false);
      gus.release();
      await gus.done;
      const [{ v }] = await mia;
      expect(v).toBe(false);
      expect(await slotsOf(p.planId)).toEqual([expect.objectContaining({ id: slot.id })]);
      expect(await votesOn(slot.id)).toBe(1);
    });

    it('half withdrawing while half vote, at once and again: no error, and the slot exists exactly when it has votes', async () => {
      const p = await plan();
      const voters: Claims[] = [];
      for (let i = 0; i < 10; i += 1) {
        const user = await createUser(db.owner, `Toggler${i}`, null);
        await addMember(db.owner, p.planId, user);
        voters.push({ role: 'authenticated', sub: user, plan_id: p.planId });
      }
      const pool = db.pool(10);
      // The first half votes, so every round below has 5 votes and 5 withdrawals.
      for (const claims of voters.slice(0, 5)) await voteDate(claims, p.planId, 12);
      for (let round = 0; round < 6; round += 1) {
        await Promise.all(
          voters.map((claims) => runAs(pool, claims, (sql) => sql`select * from app.vote_on_date(${p.planId}, current_date + 12)`)),
        );
        const [{ n }] = await db.owner`select count(*)::int as n from app.time_slot_votes where plan_id = ${p.planId}`;
        expect(n).toBe(5);
        expect(await slotsOf(p.planId)).toHaveLength(1);
      }
    });

    it('many voters toggling one slot at once: the slot exists exactly when it has votes', async () => {
      const p = await plan();
      const voters: Claims[] = [];
      for (let i = 0; i < 12; i += 1) {
        const user = await createUser(db.owner, `Voter${i}`, null);
        await addMember(db.owner, p.planId, user);
        voters.push({ role: 'authenticated', sub: user, plan_id: p.planId });
      }
      const pool = db.pool(12);
      for (let round = 0; round < 4; round += 1) {
        await Promise.all(
          voters.map((claims) => runAs(pool, claims, (sql) => sql`select * from app.vote_on_date(${p.planId}, current_date + 10)`)),
        );
        const slots = await slotsOf(p.planId);
        const expected = round % 2 === 0 ? 12 : 0;
        const [{ n }] = await db.owner`select count(*)::int as n from app.time_slot_votes where plan_id = ${p.planId}`;
        expect(n).toBe(expected);
        expect(slots).toHaveLength(expected ? 1 : 0);
      }
    });
  });
});
