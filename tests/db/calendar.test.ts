// The calendar domain (the calendar feed): the plan's calendar sequence rises with every
// change of its event (and only then); app.calendar_feeds is out of the
// request roles' reach; a member's feed is issued once, reset at once, and a
// poll (private.calendar_feed) finds the member's dated plans by the secret's
// hash, answers only the tag when the caller's copy is current, and counts
// the limits it is given.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addIdea, addMember, createPlan, createUser, dayFromToday, sha256Hex } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db);

const nonce = () => randomBytes(16).toString('base64url');
const newSecret = () => randomBytes(32).toString('base64url');

const sequenceOf = async (planId: string) =>
  (await db.owner<{ n: number; at: Date }[]>`select calendar_sequence as n, calendar_changed_at as at from app.plans where id = ${planId}`)[0];

const member = (userId: string): Claims => ({ role: 'authenticated', sub: userId });

/** Limits as the API passes them; `scope` keeps each test's counters apart. */
function limits(scope: string, max = { miss: 100, feed: 100 }) {
  return {
    miss: { key: `${scope}/calendar-feed-miss:198.51.100.0`, max: max.miss, window: 3600, message: 'Too many unknown calendar links from your network' },
    feed: { key: `${scope}/calendar-feed:`, max: max.feed, window: 3600, message: 'This calendar was fetched too often' },
  };
}

/** One poll, as the feed route sends it (anon, no claims). */
async function poll(secret: string, known: string | null, scope: string, max?: { miss: number; feed: number }) {
  const [row] = await db.as({ role: 'anon' }, (tx) =>
    tx<{ feed: { tag: string; events?: Record<string, unknown>[] } | null }[]>`
      select private.calendar_feed(${sha256Hex(secret)}, ${known === null ? [] : [known]}::text[], 'salt', ${JSON.stringify(limits(scope, max))}::text::jsonb) as feed`,
  );
  return row.feed;
}

/** A member with a feed: the secret of its URL. */
async function feedOf(userId: string): Promise<string> {
  const secret = newSecret();
  await db.as(member(userId), (tx) => tx`select * from private.issue_calendar_feed(${nonce()}, ${sha256Hex(secret)})`);
  return secret;
}

describe('the calendar sequence of a plan', () => {
  it('rises with each change of what a calendar shows, once per change, and notes when', async () => {
    const host = await createUser(db.owner, 'Cal', 'Host');
    const plan = await createPlan(db.owner, host, 'Seq plan');
    const idea = await addIdea(db.owner, plan.id, 'Bowling', { userId: host });
    const hostClaims: Claims = { role: 'authenticated', sub: host };
    const date = await dayFromToday(db.owner, 5);
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['pick an idea', () => db.as(hostClaims, (tx) => tx`select app.pick_idea(${plan.id}, ${idea})`)],
      ['lock a date', () => db.as(hostClaims, (tx) => tx`select app.lock_date(${plan.id}, ${date}::date)`)],
      ['set the time', () => db.as(hostClaims, (tx) => tx`select app.set_event_time(${plan.id}, '19:00')`)],
      ['move the time', () => db.as(hostClaims, (tx) => tx`select app.set_event_time(${plan.id}, '20:30')`)],
      ['set the same time from another zone', () => db.as(hostClaims, (tx) => tx`select app.set_event_time(${plan.id}, '20:30', 'Asia/Tokyo')`)],
      ['set the place', () => db.as(hostClaims, (tx) => tx`select app.set_location(${plan.id}, 'The Lanes')`)],
      ['rename the plan', () => db.owner`update app.plans set title = 'Seq plan, renamed' where id = ${plan.id}`],
      ['unlock', () => db.as(hostClaims, (tx) => tx`select app.unlock_plan(${plan.id})`)],
    ];
    let previous = await sequenceOf(plan.id);
    expect(previous.n).toBe(0);
    for (const [what, step] of steps) {
      await step();
      const now = await sequenceOf(plan.id);
      expect(now.n, what).toBe(previous.n + 1);
      expect(now.at.getTime(), what).toBeGreaterThanOrEqual(previous.at.getTime());
      previous = now;
    }
  });

  it('stays when nothing a calendar shows changes, and when the same value is written again', async () => {
    const host = await createUser(db.owner, 'Still', null);
    const plan = await createPlan(db.owner, host);
    const before = (await sequenceOf(plan.id)).n;
    await db.owner`update app.plans set description = 'Bring snacks', reminded_at = now(), auto_lock = true where id = ${plan.id}`;
    await db.as(member(host), (tx) => tx`select app.set_location(${plan.id}, '')`);
    await db.as(member(host), (tx) => tx`select app.unlock_plan(${plan.id})`);
    expect((await sequenceOf(plan.id)).n).toBe(before);
  });

  it('rises when the picked idea is deleted (its foreign key un-picks it)', async () => {
    const host = await createUser(db.owner, 'Del', null);
    const plan = await createPlan(db.owner, host);
    const idea = await addIdea(db.owner, plan.id, 'Karaoke', { userId: host });
    await db.as(member(host), (tx) => tx`select app.pick_idea(${plan.id}, ${idea})`);
    const picked = (await sequenceOf(plan.id)).n;
    await db.as(member(host), (tx) => tx`select app.delete_idea(${idea})`);
    expect((await sequenceOf(plan.id)).n).toBe(picked + 1);
  });

  it('cannot be written by the host', async () => {
    await expectDenied(db.as(w.actors.host, (tx) => tx`update app.plans set calendar_sequence = 99 where id = ${w.planA}`));
    await expectDenied(db.as(w.actors.host, (tx) => tx`update app.plans set calendar_changed_at = now() where id = ${w.planA}`));
  });

  it('is in the time notice\'s detail, for the e-mailed .ics', async () => {
    const host = await createUser(db.owner, 'Mail', null);
    const plan = await createPlan(db.owner, host);
    const other = await createUser(db.owner, 'Reader', null);
    await addMember(db.owner, plan.id, other);
    const date = await dayFromToday(db.owner, 6);
    await db.as(member(host), (tx) => tx`select app.lock_date(${plan.id}, ${date}::date)`);
    await db.as(member(host), async (tx) => {
      await tx`select app.set_event_time(${plan.id}, '18:00')`;
      await tx`select private.send_plan_notices(${plan.id}, 600)`;
    });
    const [event] = await db.owner<{ detail: { calendarSequence: number } }[]>`
      select detail from app.notification_events where plan_id = ${plan.id} and kind = 'time_set'`;
    expect(event.detail.calendarSequence).toBe((await sequenceOf(plan.id)).n);
  });
});

describe('app.calendar_feeds is out of the request roles\' reach', () => {
  it('anon and authenticated can neither read nor write it', async () => {
    await feedOf(w.users.member);
    for (const claims of [w.actors.anon, w.actors.guest, w.actors.member, w.actors.host]) {
      await expectDenied(db.as(claims, (tx) => tx`select * from app.calendar_feeds`));
      await expectDenied(
        db.as(claims, (tx) => tx`insert into app.calendar_feeds (user_id, nonce, secret_hash) values (${w.users.stranger}, ${nonce()}, ${sha256Hex('x')})`),
      );
      await expectDenied(db.as(claims, (tx) => tx`update app.calendar_feeds set secret_hash = ${sha256Hex('mine')}`));
      await expectDenied(db.as(claims, (tx) => tx`delete from app.calendar_feeds`));
    }
  });

  it('has row-level security with a deny-all policy, and no grants', async () => {
    const [table] = await db.owner<{ rls: boolean; acl: string | null }[]>`
      select c.relrowsecurity as rls, c.relacl::text as acl from pg_class c where c.oid = 'app.calendar_feeds'::regclass`;
    expect(table).toEqual({ rls: true, acl: null });
    const policies = await db.owner`select policyname, permissive, roles::text[] as roles, qual, with_check from pg_policies
                                     where schemaname = 'app' and tablename = 'calendar_feeds'`;
    expect(policies).toEqual([
      { policyname: 'calendar_feeds_no_direct_access', permissive: 'RESTRICTIVE', roles: ['anon', 'authenticated'], qual: 'false', with_check: 'false' },
    ]);
  });

  it('issuing and resetting are for members; a poll is anon\'s only', async () => {
    for (const claims of [w.actors.anon, w.actors.guest]) {
      await expectDenied(db.as(claims, (tx) => tx`select * from private.issue_calendar_feed(${nonce()}, ${sha256Hex('x')})`));
      await expectDenied(db.as(claims, (tx) => tx`select * from private.reset_calendar_feed(${nonce()}, ${sha256Hex('x')}, null)`));
    }
    await expectDenied(db.as(w.actors.member, (tx) => tx`select private.calendar_feed(${sha256Hex('x')}, '{}'::text[], '', '{}'::jsonb)`));
  });

  it('keeps only a hash and a nonce, of the right shapes', async () => {
    const user = await createUser(db.owner, 'Shape', null);
    await expectPgError(db.owner`insert into app.calendar_feeds (user_id, nonce, secret_hash) values (${user}, ${nonce()}, 'plain secret')`, '23514');
    await expectPgError(db.owner`insert into app.calendar_feeds (user_id, nonce, secret_hash) values (${user}, 'short', ${sha256Hex('x')})`, '23514');
  });
});

describe('a member\'s feed', () => {
  it('is issued once: later calls answer the first nonce and hash', async () => {
    const user = await createUser(db.owner, 'Once', null);
    const first = { nonce: nonce(), hash: sha256Hex(newSecret()) };
    const issue = (n: string, h: string) =>
      db.as(member(user), async (tx) => (await tx<{ nonce: string; secret_hash: string }[]>`select * from private.issue_calendar_feed(${n}, ${h})`)[0]);
    expect(await issue(first.nonce, first.hash)).toEqual({ nonce: first.nonce, secret_hash: first.hash });
    expect(await issue(nonce(), sha256Hex(newSecret()))).toEqual({ nonce: first.nonce, secret_hash: first.hash });
  });

  it('is reset at once: the old secret finds nothing, the new one the feed', async () => {
    const user = await createUser(db.owner, 'Reset', null);
    const old = await feedOf(user);
    expect(await poll(old, null, 'reset')).not.toBeNull();
    const fresh = newSecret();
    const n = nonce();
    await db.as(member(user), (tx) => tx`select * from private.reset_calendar_feed(${n}, ${sha256Hex(fresh)}, null)`);
    expect(await poll(old, null, 'reset')).toBeNull();
    expect(await poll(fresh, null, 'reset')).not.toBeNull();
    // A conditional reset of a hash that is no longer current changes nothing.
    const [row] = await db.as(member(user), (tx) => tx`select * from private.reset_calendar_feed(${nonce()}, ${sha256Hex(newSecret())}, ${sha256Hex(old)})`);
    expect(row).toEqual({ nonce: n, secret_hash: sha256Hex(fresh) });
  });

  it('has the member\'s plans with a date, as host or member, and nobody else\'s', async () => {
    const mine = await createUser(db.owner, 'Feed', 'Owner');
    const other = await createUser(db.owner, 'Not', 'Me');
    const hosted = await createPlan(db.owner, mine, 'Hosted');
    const joined = await createPlan(db.owner, other, 'Joined');
    await addMember(db.owner, joined.id, mine);
    const undated = await createPlan(db.owner, mine, 'No date yet');
    const notMine = await createPlan(db.owner, other, 'Not mine');
    const [d1, d2] = [await dayFromToday(db.owner, 3), await dayFromToday(db.owner, 9)];
    await db.as(member(mine), (tx) => tx`select app.lock_date(${hosted.id}, ${d1}::date)`);
    await db.as(member(other), async (tx) => {
      await tx`select app.lock_date(${joined.id}, ${d2}::date)`;
      await tx`select app.set_event_time(${joined.id}, '19:30', 'America/Chicago')`;
      await tx`select app.lock_date(${notMine.id}, ${d2}::date)`;
    });
    void undated;
    const secret = await feedOf(mine);
    const feed = await poll(secret, null, 'mine');
    expect(feed?.events?.map((e) => e.title)).toEqual(['Joined', 'Hosted']);
    expect(feed?.events?.[0]).toMatchObject({ planId: joined.id, date: d2, eventTime: '7:30 PM', timeZone: 'America/Chicago', period: '19:30', sequence: 2 });
    expect(feed?.events?.[1]).toMatchObject({ planId: hosted.id, slug: hosted.slug, date: d1, eventTime: null, timeZone: null, period: null, sequence: 1 });
    expect(JSON.stringify(feed)).not.toMatch(/@/);
  });

  it('answers only the tag when the caller holds it; the tag moves with a change, a join and a leave', async () => {
    const user = await createUser(db.owner, 'Tag', null);
    const other = await createUser(db.owner, 'Host', 'Two');
    const plan = await createPlan(db.owner, other, 'Tagged');
    const date = await dayFromToday(db.owner, 4);
    await db.as(member(other), (tx) => tx`select app.lock_date(${plan.id}, ${date}::date)`);
    const secret = await feedOf(user);
    const empty = await poll(secret, null, 'tag');
    expect(empty?.events).toEqual([]);
    expect(await poll(secret, empty!.tag, 'tag')).toEqual({ tag: empty!.tag });
    // Any of the tags the caller holds (the client's, the API's copy).
    const [row] = await db.as({ role: 'anon' }, (tx) => tx`
      select private.calendar_feed(${sha256Hex(secret)}, ${['0'.repeat(32), empty!.tag]}::text[], 'salt', ${JSON.stringify(limits('tag'))}::text::jsonb) as feed`);
    expect(row.feed).toEqual({ tag: empty!.tag });

    await addMember(db.owner, plan.id, user);
    const joined = await poll(secret, empty!.tag, 'tag');
    expect(joined?.tag).not.toBe(empty!.tag);
    expect(joined?.events).toHaveLength(1);

    await db.as(member(other), (tx) => tx`select app.set_location(${plan.id}, 'Somewhere')`);
    const moved = await poll(secret, joined!.tag, 'tag');
    expect(moved?.tag).not.toBe(joined!.tag);
    expect(moved?.events?.[0]).toMatchObject({ location: 'Somewhere' });

    await db.owner`delete from app.participants where plan_id = ${plan.id} and user_id = ${user}`;
    const left = await poll(secret, moved!.tag, 'tag');
    expect(left?.events).toEqual([]);
    expect(left?.tag).toBe(empty!.tag);
  });

  it('counts a miss per network and a build per feed (not a known tag), HP429 when full', async () => {
    const user = await createUser(db.owner, 'Limit', null);
    const secret = await feedOf(user);
    const max = { miss: 2, feed: 2 };
    const scope = `limits-${randomBytes(4).toString('hex')}`;
    expect(await poll(newSecret(), null, scope, max)).toBeNull();
    expect(await poll(newSecret(), null, scope, max)).toBeNull();
    await expectPgError(poll(newSecret(), null, scope, max), 'HP429', 'Too many unknown calendar links from your network');

    const first = await poll(secret, null, scope, max);
    for (let i = 0; i < 3; i++) expect(await poll(secret, first!.tag, scope, max)).toEqual({ tag: first!.tag });
    expect(await poll(secret, null, scope, max)).not.toBeNull();
    await expectPgError(poll(secret, null, scope, max), 'HP429', 'This calendar was fetched too often');
    const [counter] = await db.owner<{ key: string }[]>`select key from app.rate_limit_counters where key = ${`${scope}/calendar-feed:${user}`}`;
    expect(counter).toBeDefined();
  });

  it('goes with the member\'s account', async () => {
    const user = await createUser(db.owner, 'Gone', null);
    const secret = await feedOf(user);
    await db.owner`delete from app.users where id = ${user}`;
    expect(await poll(secret, null, 'gone')).toBeNull();
  });

  it('ends when the account\'s address changes (a confirmed change, or its undo), not when a name does', async () => {
    const user = await createUser(db.owner, 'Moved', null);
    const secret = await feedOf(user);
    await db.owner`update app.users set first_name = 'Renamed' where id = ${user}`;
    expect(await poll(secret, null, 'moved')).not.toBeNull();
    await db.owner`update app.users set email = ${`moved-${nonce().toLowerCase()}@example.test`} where id = ${user}`;
    expect(await poll(secret, null, 'moved')).toBeNull();
    expect(await db.owner`select * from app.calendar_feeds where user_id = ${user}`).toEqual([]);
  });

  it('ends once no calendar polled it for 180 days; a poll is noted at most once a day; the next issue is a new link', async () => {
    const user = await createUser(db.owner, 'Idle', null);
    const secret = await feedOf(user);
    const polledAt = async () => (await db.owner<{ at: Date }[]>`select last_polled_at as at from app.calendar_feeds where user_id = ${user}`)[0].at;

    // Polled 179 days ago: still works, and the poll is noted (once: a second poll the same day writes nothing).
    await db.owner`update app.calendar_feeds set last_polled_at = now() - interval '179 days' where user_id = ${user}`;
    expect(await poll(secret, null, 'idle')).not.toBeNull();
    const noted = await polledAt();
    expect(Date.now() - noted.getTime()).toBeLessThan(60_000);
    await db.owner`update app.calendar_feeds set last_polled_at = now() - interval '23 hours' where user_id = ${user}`;
    const dayOld = await polledAt();
    expect(await poll(secret, null, 'idle')).not.toBeNull();
    expect(await polledAt()).toEqual(dayOld);

    // Not polled for 180 days: 404 like a reset link, and a new link when the member next asks.
    await db.owner`update app.calendar_feeds set last_polled_at = now() - interval '180 days 1 minute' where user_id = ${user}`;
    expect(await poll(secret, null, 'idle')).toBeNull();
    const fresh = newSecret();
    const n = nonce();
    const [row] = await db.as(member(user), (tx) => tx`select * from private.issue_calendar_feed(${n}, ${sha256Hex(fresh)})`);
    expect(row).toEqual({ nonce: n, secret_hash: sha256Hex(fresh) });
    expect(await poll(fresh, null, 'idle')).not.toBeNull();
    expect(await poll(secret, null, 'idle')).toBeNull();
  });
});
