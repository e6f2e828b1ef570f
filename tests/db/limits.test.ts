// Abuse limits (the limits domain): the rate-limit counters
// (private.hit_rate_limit and private.enforce_rate_limits, as the API calls
// them under anon/authenticated) and the caps per plan (guests, ideas,
// comments per idea and distinct date slots, whatever path inserts the row;
// HP409 over a cap; race-free).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  expectDenied,
  expectPgError,
  freshDatabase,
  pgError,
  runAs,
  useFreshDatabase,
  useHostAndMember,
  type Claims,
} from '../support/db.ts';
import { addGuest, addIdea, addMember, asGuest, createPlan, createUser } from '../support/plan-fixture.ts';

const db = useFreshDatabase();

const anon: Claims = { role: 'anon' };
const key = (name = 'test') => `${name}:${randomUUID()}`;

const hit = (k: string, max: number, window: number, claims: Claims = anon) =>
  db.as(claims, async (sql) => (await sql`select private.hit_rate_limit(${k}, ${max}, ${window}) as wait`)[0].wait as number);

const enforce = (limits: unknown[], claims: Claims = anon) =>
  db.as(claims, (sql) => sql`select private.enforce_rate_limits(${JSON.stringify(limits)}::text::jsonb)`);

const counter = async (k: string) =>
  (await db.owner`select hits, extract(epoch from window_ends_at - now())::float as left from app.rate_limit_counters where key = ${k}`)[0] as
    | { hits: number; left: number }
    | undefined;

describe('private.hit_rate_limit', () => {
  it('counts up to max in a window, then answers the seconds left (not counting)', async () => {
    const k = key();
    for (let i = 0; i < 3; i += 1) expect(await hit(k, 3, 600)).toBe(0);
    const wait = await hit(k, 3, 600);
    expect(wait).toBeGreaterThan(590);
    expect(wait).toBeLessThanOrEqual(600);
    expect((await counter(k))?.hits).toBe(3);
  });

  it('a new window starts with the first hit after the old one ended', async () => {
    const k = key();
    expect(await hit(k, 1, 60)).toBe(0);
    expect(await hit(k, 1, 60)).toBeGreaterThan(0);
    await db.owner`update app.rate_limit_counters set window_ends_at = now() - interval '1 second' where key = ${k}`;
    expect(await hit(k, 1, 60)).toBe(0);
    const row = await counter(k);
    expect(row?.hits).toBe(1);
    expect(row?.left).toBeGreaterThan(55);
    expect(await hit(k, 1, 60)).toBeGreaterThan(0);
  });

  it('keys are independent; authenticated callers use it too', async () => {
    const a = key();
    const b = key();
    expect(await hit(a, 1, 60)).toBe(0);
    expect(await hit(b, 1, 60, { role: 'authenticated', sub: randomUUID() })).toBe(0);
    expect(await hit(a, 1, 60)).toBeGreaterThan(0);
  });

  it('answers at least 1 second, never 0, while full', async () => {
    const k = key();
    expect(await hit(k, 1, 1)).toBe(0);
    const wait = await hit(k, 1, 1);
    expect(wait).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad arguments as a bug (a plain exception), not as input', async () => {
    for (const [k, max, window] of [
      ['', 1, 1],
      ['x'.repeat(201), 1, 1],
      [key(), 0, 60],
      [key(), 1, 0],
    ] as const) {
      const error = await pgError(hit(k, max, window));
      expect(error.code).toBe('P0001');
    }
  });

  it('housekeeping: each hit that starts a window deletes up to 4 counters whose window ended over a minute ago', async () => {
    const stale = Array.from({ length: 6 }, () => key('stale'));
    for (const k of stale) {
      await db.owner`insert into app.rate_limit_counters (key, window_ends_at, hits) values (${k}, now() - interval '2 minutes', 1)`;
    }
    const recent = key('recent');
    await db.owner`insert into app.rate_limit_counters (key, window_ends_at, hits) values (${recent}, now() - interval '10 seconds', 1)`;
    const count = async () =>
      (await db.owner`select count(*)::int as n from app.rate_limit_counters where key = any(${[...stale, recent]})`)[0].n as number;
    expect(await count()).toBe(7);
    await hit(key(), 5, 60);
    expect(await count()).toBe(3);
    await hit(key(), 5, 60);
    // Every stale one is gone; the one that ended 10 s ago stays for now.
    expect(await count()).toBe(1);
  });

  it('housekeeping: a hit inside a running window is the count alone', async () => {
    const running = key('running');
    await hit(running, 5, 60);
    const stale = key('stale');
    await db.owner`insert into app.rate_limit_counters (key, window_ends_at, hits) values (${stale}, now() - interval '2 minutes', 1)`;
    const staleLeft = async () => (await db.owner`select 1 from app.rate_limit_counters where key = ${stale}`).length;
    await hit(running, 5, 60);
    expect(await staleLeft()).toBe(1);
    expect((await db.owner`select hits from app.rate_limit_counters where key = ${running}`)[0].hits).toBe(2);
    // The next window somebody starts takes it away.
    await hit(key(), 5, 60);
    expect(await staleLeft()).toBe(0);
  });

  it('is atomic: N parallel hits on one key never exceed max', async () => {
    const k = key('parallel');
    const pool = db.pool(12);
    const attempts = 40;
    const results = await Promise.all(
      Array.from({ length: attempts }, () =>
        runAs(pool, anon, async (sql) => (await sql`select private.hit_rate_limit(${k}, 10, 600) as wait`)[0].wait as number),
      ),
    );
    expect(results.filter((wait) => wait === 0)).toHaveLength(10);
    expect(results.filter((wait) => wait > 0)).toHaveLength(attempts - 10);
    expect((await counter(k))?.hits).toBe(10);
  });

  it('the request roles cannot read or write the counters directly', async () => {
    await expectDenied(db.as(anon, (sql) => sql`select * from app.rate_limit_counters`));
    await expectDenied(db.as({ role: 'authenticated', sub: randomUUID() }, (sql) => sql`delete from app.rate_limit_counters`));
    await expectDenied(
      db.as(anon, (sql) => sql`insert into app.rate_limit_counters (key, window_ends_at, hits) values ('x', now(), 1)`),
    );
  });
});

describe('private.enforce_rate_limits', () => {
  it('raises HP429 with the message and the seconds to wait as DETAIL', async () => {
    const k = key();
    const limits = [{ key: k, max: 2, window: 300, message: 'Too many ideas in a short time' }];
    await enforce(limits);
    await enforce(limits);
    try {
      await enforce(limits);
      expect.fail('expected HP429');
    } catch (error) {
      const e = error as { code: string; message: string; detail: string };
      expect(e.code).toBe('HP429');
      expect(e.message).toBe('Too many ideas in a short time');
      expect(Number(e.detail)).toBeGreaterThan(290);
      expect(Number(e.detail)).toBeLessThanOrEqual(300);
    }
    expect((await counter(k))?.hits).toBe(2);
  });

  it('hits every key in order; a full later key rolls back the earlier hits of the request', async () => {
    const ip = key('ip');
    const global = key('global');
    await enforce([{ key: global, max: 1, window: 60, message: 'Too many codes right now' }]);
    await expectPgError(
      enforce([
        { key: ip, max: 5, window: 60, message: 'Too many from your network' },
        { key: global, max: 1, window: 60, message: 'Too many codes right now' },
      ]),
      'HP429',
      'Too many codes right now',
    );
    expect(await counter(ip)).toBeUndefined();
  });

  it('a request that fails later rolls its hits back: only what happened counts', async () => {
    const k = key();
    await expect(
      db.as(anon, async (sql) => {
        await sql`select private.enforce_rate_limits(${JSON.stringify([{ key: k, max: 1, window: 60, message: 'x' }])}::text::jsonb)`;
        await sql`select 1 / 0`;
      }),
    ).rejects.toThrow();
    expect(await counter(k)).toBeUndefined();
    await enforce([{ key: k, max: 1, window: 60, message: 'x' }]);
    expect((await counter(k))?.hits).toBe(1);
  });

  it('an empty list is fine', async () => {
    await enforce([]);
  });
});

const { users, newPlan } = useHostAndMember(db);

const cap = async (name: string) => (await db.owner`select private.plan_cap(${name}) as n`)[0].n as number;

const planWithMember = async () => (await newPlan()).planId;

const memberOf = (planId: string): Claims => ({ role: 'authenticated', sub: users.member, plan_id: planId });
const hostOf = (planId: string): Claims => ({ role: 'authenticated', sub: users.host, plan_id: planId });

describe('the numbers', () => {
  it('are the ones in docs/security-and-limits.md', async () => {
    expect(await cap('guests')).toBe(200);
    expect(await cap('ideas')).toBe(1000);
    expect(await cap('comments_per_idea')).toBe(500);
    expect(await cap('slots')).toBe(500);
    expect(await cap('interests_per_user')).toBe(50);
    expect(await cap('ideas_per_participant')).toBe(100);
    expect(await cap('comments_per_participant')).toBe(100);
    expect(await cap('slots_per_participant')).toBe(50);
  });
});

describe('interests per person', () => {
  it('the interest after the cap is HP409 naming the limit; removing one makes room', async () => {
    const userId = await createUser(db.owner, 'Ivy', null);
    const max = await cap('interests_per_user');
    await db.owner`insert into app.user_interests (user_id, free_form_text) select ${userId}, 'Interest ' || n from generate_series(1, ${max - 1}) n`;
    const me: Claims = { role: 'authenticated', sub: userId };
    const add = (text: string) => db.as(me, (sql) => sql`insert into app.user_interests (user_id, free_form_text) values (${userId}, ${text})`);
    await add('The last one');
    await expectPgError(add('One too many'), 'HP409', `You already have ${max} interests, the most you can have; remove one first`);
    await db.owner`delete from app.user_interests where user_id = ${userId} and free_form_text = 'Interest 1'`;
    await add('One too many');
    const [{ n }] = await db.owner`select count(*)::int as n from app.user_interests where user_id = ${userId}`;
    expect(n).toBe(max);
  });
});

describe('guests per plan', () => {
  it('the guest after the cap is HP409 with a sentence', async () => {
    const planId = await planWithMember();
    const max = await cap('guests');
    await db.owner`insert into app.guests (plan_id, name) select ${planId}, 'Guest ' || n from generate_series(1, ${max - 1}) n`;
    const newGuest = (name: string) =>
      db.as({ role: 'anon', plan_id: planId }, (sql) => sql`insert into app.guests (plan_id, name) values (${planId}, ${name})`);
    await newGuest('Last one');
    await expectPgError(newGuest('One too many'), 'HP409', `This plan already has ${max} guests, the most a plan can have`);
    const [{ n }] = await db.owner`select count(*)::int as n from app.guests where plan_id = ${planId}`;
    expect(n).toBe(max);
  });

  it('parallel joins at the cap: exactly one gets in', async () => {
    const planId = await planWithMember();
    const max = await cap('guests');
    await db.owner`insert into app.guests (plan_id, name) select ${planId}, 'Guest ' || n from generate_series(1, ${max - 1}) n`;
    const pool = db.pool(10);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        runAs(pool, { role: 'anon', plan_id: planId }, (sql) => sql`insert into app.guests (plan_id, name) values (${planId}, ${`Racer ${i}`})`),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as { code: string }).code).toBe('HP409');
    const [{ n }] = await db.owner`select count(*)::int as n from app.guests where plan_id = ${planId}`;
    expect(n).toBe(max);
  });
});

describe('ideas per plan and comments per idea', () => {
  it('app.add_idea over the cap is HP409', async () => {
    const planId = await planWithMember();
    const max = await cap('ideas');
    await db.owner`insert into app.ideas (plan_id, text, author_name, user_id)
                   select ${planId}, 'Idea ' || n, 'x', ${users.host} from generate_series(1, ${max - 1}) n`;
    await db.as(memberOf(planId), (sql) => sql`select app.add_idea(${planId}, 'The last one')`);
    await expectPgError(
      db.as(memberOf(planId), (sql) => sql`select app.add_idea(${planId}, 'One too many')`),
      'HP409',
      `This plan already has ${max} ideas, the most a plan can have`,
    );
  });

  it('app.add_idea_comment over the cap is HP409; another idea still takes comments', async () => {
    const planId = await planWithMember();
    const full = await addIdea(db.owner, planId, 'Bowling', { userId: users.host });
    const other = await addIdea(db.owner, planId, 'Karaoke', { userId: users.host });
    const max = await cap('comments_per_idea');
    await db.owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
                   select ${full}, ${planId}, 'Comment ' || n, 'x', ${users.host} from generate_series(1, ${max}) n`;
    await expectPgError(
      db.as(memberOf(planId), (sql) => sql`select app.add_idea_comment(${full}, 'One too many')`),
      'HP409',
      `This idea already has ${max} comments, the most an idea can have`,
    );
    await db.as(memberOf(planId), (sql) => sql`select app.add_idea_comment(${other}, 'Fine here')`);
  });
});

describe('distinct date slots per plan', () => {
  async function fullPlan() {
    const planId = await planWithMember();
    const max = await cap('slots');
    // max slots: whole days 1..366 ahead, then Mornings until the cap (each with a vote, so none is empty).
    await db.owner`
      with s as (
        insert into app.time_slots (plan_id, date, period)
        select ${planId}, current_date + (n % 366) + 1, case when n < 366 then null else 'Morning' end
          from generate_series(0, ${max - 1}) n
        returning id
      )
      insert into app.time_slot_votes (time_slot_id, plan_id, user_id) select id, ${planId}, ${users.member} from s`;
    return { planId, max };
  }

  it('a vote that would add a slot is HP409; voting on an existing slot still works', async () => {
    const { planId, max } = await fullPlan();
    await expectPgError(
      db.as(memberOf(planId), (sql) => sql`select * from app.vote_on_date(${planId}, current_date + 5, 'Evening')`),
      'HP409',
      `This plan already has ${max} dates and times to vote on, the most a plan can have; vote for one of them`,
    );
    // Existing (date, whole day): the toggle works (removes Mia's vote, then adds it back).
    const voted = async () =>
      (await db.as(memberOf(planId), (sql) => sql`select voted from app.vote_on_date(${planId}, current_date + 5)`))[0].voted as boolean;
    expect(await voted()).toBe(false);
    // The slot lost its last vote and went; it comes back under the cap.
    expect(await voted()).toBe(true);
    const [{ n }] = await db.owner`select count(*)::int as n from app.time_slots where plan_id = ${planId}`;
    expect(n).toBe(max);
  });

  it("the host's event time always gets its slot", async () => {
    const { planId, max } = await fullPlan();
    await db.as(hostOf(planId), (sql) => sql`select app.lock_date(${planId}, current_date + 3)`);
    await db.as(hostOf(planId), (sql) => sql`select app.set_event_time(${planId}, '19:30')`);
    const [{ n }] = await db.owner`select count(*)::int as n from app.time_slots where plan_id = ${planId}`;
    expect(n).toBe(max + 1);
  });

  it('parallel votes for new slots at the cap: exactly one slot is added', async () => {
    const { planId, max } = await fullPlan();
    // One slot free.
    await db.owner`delete from app.time_slots where id = (select id from app.time_slots where plan_id = ${planId} order by date desc, period limit 1)`;
    const pool = db.pool(8);
    const outcomes = await Promise.allSettled(
      ['Morning', 'Afternoon', 'Evening', 'Night', '10:00', '11:00', '12:00', '13:00'].map((period) =>
        runAs(pool, memberOf(planId), (sql) => sql`select * from app.vote_on_date(${planId}, current_date + 200, ${period})`),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [{ n }] = await db.owner`select count(*)::int as n from app.time_slots where plan_id = ${planId}`;
    expect(n).toBe(max);
  });
});

// docs/decisions/0084-caps-per-participant.md: below the plan's caps, no one
// participant but the host can fill a plan for the others.
describe('caps per participant', () => {
  const guestOf = async (planId: string, name: string) => {
    const guestId = await addGuest(db.owner, planId, name);
    return { guestId, claims: asGuest(guestId, { plan_id: planId }) };
  };

  it('ideas: the member past its share is HP409; a guest and the host still add theirs', async () => {
    const planId = await planWithMember();
    const max = await cap('ideas_per_participant');
    await db.owner`insert into app.ideas (plan_id, text, author_name, user_id)
                   select ${planId}, 'Idea ' || n, 'x', ${users.member} from generate_series(1, ${max - 1}) n`;
    const add = (claims: Claims, text: string) => db.as(claims, (sql) => sql`select app.add_idea(${planId}, ${text})`);
    await add(memberOf(planId), 'The last one');
    await expectPgError(add(memberOf(planId), 'One too many'), 'HP409', `You already suggested ${max} ideas in this plan, the most one person can`);
    const gus = await guestOf(planId, 'Gus');
    await add(gus.claims, "Gus's idea");
    await db.owner`insert into app.ideas (plan_id, text, author_name, user_id)
                   select ${planId}, 'Host idea ' || n, 'x', ${users.host} from generate_series(1, ${max}) n`;
    await add(hostOf(planId), 'The host has no share of their own');
    // A guest has its own share too.
    await db.owner`insert into app.ideas (plan_id, text, author_name, guest_id)
                   select ${planId}, 'Guest idea ' || n, 'x', ${gus.guestId} from generate_series(2, ${max}) n`;
    await expectPgError(add(gus.claims, 'One too many'), 'HP409');
  });

  it('comments on one idea: the member past its share is HP409; another idea, and others, still take comments', async () => {
    const planId = await planWithMember();
    const idea = await addIdea(db.owner, planId, 'Bowling', { userId: users.host });
    const other = await addIdea(db.owner, planId, 'Karaoke', { userId: users.host });
    const max = await cap('comments_per_participant');
    await db.owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
                   select ${idea}, ${planId}, 'Comment ' || n, 'x', ${users.member} from generate_series(1, ${max}) n`;
    const comment = (claims: Claims, ideaId: string) => db.as(claims, (sql) => sql`select app.add_idea_comment(${ideaId}, 'Hi')`);
    await expectPgError(comment(memberOf(planId), idea), 'HP409', `You already wrote ${max} comments on this idea, the most one person can`);
    await comment(memberOf(planId), other);
    await comment((await guestOf(planId, 'Gus')).claims, idea);
    await comment(hostOf(planId), idea);
    const gina = await guestOf(planId, 'Gina');
    await db.owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, guest_id)
                   select ${idea}, ${planId}, 'Guest comment ' || n, 'x', ${gina.guestId} from generate_series(1, ${max}) n`;
    await expectPgError(comment(gina.claims, idea), 'HP409');
  });

  describe('date slots proposed', () => {
    const vote = (claims: Claims, planId: string, days: number, period: string | null = null) =>
      db.as(claims, async (sql) => (await sql`select * from app.vote_on_date(${planId}, current_date + ${days}::int, ${period})`)[0]);
    const participantId = async (planId: string, column: 'user_id' | 'guest_id', id: string) =>
      (await db.owner`select id from app.participants where plan_id = ${planId} and ${db.owner(column)} = ${id}`)[0].id as string;
    /** `n` slots proposed by the participant (each with its vote, so none is empty). */
    async function proposed(planId: string, userId: string, n: number) {
      const me = await participantId(planId, 'user_id', userId);
      const slots = await db.owner<{ id: string }[]>`
        insert into app.time_slots (plan_id, date, period)
        select ${planId}, current_date + n + 1, null from generate_series(1, ${n}) n returning id`;
      await db.owner`update app.time_slots set proposed_by = ${me} where id in ${db.owner(slots.map((s) => s.id))}`;
      await db.owner`insert into app.time_slot_votes (time_slot_id, plan_id, user_id)
                     select id, ${planId}, ${userId} from app.time_slots where id in ${db.owner(slots.map((s) => s.id))}`;
    }

    it('a new slot is the proposal of the participant whose vote made it', async () => {
      const planId = await planWithMember();
      const gus = await guestOf(planId, 'Gus');
      const { time_slot_id: byGus } = await vote(gus.claims, planId, 3);
      const { time_slot_id: byMia } = await vote(memberOf(planId), planId, 4, 'Evening');
      await vote(memberOf(planId), planId, 3);
      const rows = await db.owner`select id, proposed_by from app.time_slots where plan_id = ${planId}`;
      const proposer = (id: string) => rows.find((r) => r.id === id)?.proposed_by;
      expect(proposer(byGus)).toBe(await participantId(planId, 'guest_id', gus.guestId));
      expect(proposer(byMia)).toBe(await participantId(planId, 'user_id', users.member));
    });

    it('past its share the member is HP409 for a new slot; voting on any slot, and others proposing, still work', async () => {
      const planId = await planWithMember();
      const max = await cap('slots_per_participant');
      await proposed(planId, users.member, max);
      await expectPgError(
        vote(memberOf(planId), planId, 200, 'Evening'),
        'HP409',
        `You already proposed ${max} dates and times in this plan, the most one person can; vote for one of them`,
      );
      const gus = await guestOf(planId, 'Gus');
      const { time_slot_id: gusSlot } = await vote(gus.claims, planId, 200, 'Evening');
      expect((await vote(memberOf(planId), planId, 200, 'Evening')).voted).toBe(true);
      await db.as(memberOf(planId), (sql) => sql`select * from app.vote_on_time_slot(${gusSlot})`);
      await vote(hostOf(planId), planId, 201, 'Morning');
      // Taking back the vote on one of its own empties it (the slot goes): room for one more.
      expect((await vote(memberOf(planId), planId, 2)).voted).toBe(false);
      expect((await vote(memberOf(planId), planId, 202)).voted).toBe(true);
      await expectPgError(vote(memberOf(planId), planId, 203), 'HP409');
    });

    it('parallel votes for new slots at the share: exactly one is added', async () => {
      const planId = await planWithMember();
      const max = await cap('slots_per_participant');
      await proposed(planId, users.member, max - 1);
      const pool = db.pool(8);
      const outcomes = await Promise.allSettled(
        ['Morning', 'Afternoon', 'Evening', 'Night', '10:00', '11:00', '12:00', '13:00'].map((period) =>
          runAs(pool, memberOf(planId), (sql) => sql`select * from app.vote_on_date(${planId}, current_date + 300, ${period})`),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const [{ n }] = await db.owner`select count(*)::int as n from app.time_slots where plan_id = ${planId}`;
      expect(n).toBe(max);
    });
  });
});

// A cap is counted on every insert, so its count must go through its index
// however few rows the table held when it was last analysed: a plan cached
// while the table was small scanned every row of it on every later insert
// (docs/performance.md's bench: each comment read all comments of every plan).
describe('the counts use their indexes', () => {
  it('comments added after the table was analysed nearly empty scan no table', async () => {
    // A database of its own: the table holds only this plan's rows.
    const fresh = await freshDatabase();
    try {
      const owner = fresh.owner;
      const hostId = await createUser(owner, 'Hanna', 'Host');
      const plan = await createPlan(owner, hostId);
      const memberId = await createUser(owner, 'Mia', null);
      await addMember(owner, plan.id, memberId);
      const guestId = await addGuest(owner, plan.id, 'Gus');
      const idea = await addIdea(owner, plan.id, 'Bowling', { userId: hostId });
      await owner`analyze app.idea_comments`;
      // Past the five custom plans into the cached generic one; the caps'
      // counts (the idea's, and the author's own for a member and a guest)
      // are the only statements here that read app.idea_comments.
      const claims: Claims[] = [
        { role: 'authenticated', sub: hostId, plan_id: plan.id },
        { role: 'authenticated', sub: memberId, plan_id: plan.id },
        asGuest(guestId, { plan_id: plan.id }),
      ];
      for (const who of claims) {
        const sequentialScans = await fresh.as(who, async (sql) => {
          for (let i = 0; i < 8; i++) await sql`select app.add_idea_comment(${idea}, ${`Comment ${i}`})`;
          return (await sql<{ n: number }[]>`select pg_stat_get_xact_numscans('app.idea_comments'::regclass)::int as n`)[0].n;
        });
        expect(sequentialScans).toBe(0);
      }
    } finally {
      await fresh.close();
    }
  });
});
