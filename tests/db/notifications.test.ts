// The notifications domain: subscriptions, the outbox written by the host's
// decisions within each plan's notice budget, reminders, deadlines, digests,
// and the claims of the deliverers (docs/notifications.md). The sending
// itself is the API's (tests/api/notifications*.test.ts).
import { randomBytes } from 'node:crypto';
import type { Sql, TransactionSql } from 'postgres';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addGuest, addIdea, addMember, addSlot, asGuest, createPlan, createUser, sha256Hex, signedIn, startSession } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db, { each: true });

const LIMITS = { perIdentity: 3, perGuest: 5, perPlan: 8 };
const RETRY = { first: 30, max: 3600, giveUp: 26 * 3600 };

const key = (bytes: number) => randomBytes(bytes).toString('base64url');
let endpoints = 0;
const newEndpoint = () => `https://push.example.test/send/${++endpoints}-${key(6)}`;

/**
 * Subscribe a device of whoever `claims` name; answers the endpoint. A member
 * named without a session signs in first (a subscription is its session's).
 */
async function subscribe(claims: Claims, endpoint = newEndpoint(), limits = LIMITS): Promise<string> {
  if (claims.sub && !claims.session_id) claims = signedIn(claims.sub, await startSession(db.owner, claims.sub));
  await db.as(claims, (sql) =>
    sql`select private.save_push_subscription(${endpoint}, ${key(65)}, ${key(16)}, ${limits.perIdentity}, ${limits.perGuest}, ${limits.perPlan})`);
  return endpoint;
}

/** Run as the scheduler does: role service_role, no claims. */
function asWorker<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
  return db.owner.begin(async (tx) => {
    await tx`set local role service_role`;
    return fn(tx as unknown as Sql);
  }) as Promise<T>;
}

interface Delivery {
  kind: string;
  channel: string;
  endpoint: string | null;
  user_id: string | null;
  guest_id: string | null;
  detail: Record<string, unknown>;
}

/** Every delivery waiting for the plan's events, oldest first. */
const outbox = (planId: string) =>
  db.owner<Delivery[]>`
    select e.kind, d.channel, d.endpoint, d.user_id, d.guest_id, e.detail || coalesce(d.detail, '{}') as detail
      from app.notification_deliveries d join app.notification_events e on e.id = d.event_id
     where e.plan_id = ${planId}
     order by d.id`;

const clearOutbox = () => db.owner`delete from app.notification_events`;

/** The notice budget's window, as the API passes it (NOTIFICATION_LIMITS.noticeWindowSeconds). */
const WINDOW = 600;

/**
 * A host's change as the API makes it: the change, then, in the same
 * transaction, the plan's notice if its budget allows one now.
 */
const hostDoes = (planId: string, change: (sql: TransactionSql) => Promise<unknown>, claims: Claims = w.actors.host) =>
  db.as(claims, async (sql) => {
    await change(sql);
    await sql`select private.send_plan_notices(${planId}, ${WINDOW})`;
  });

/** The scheduler's pass over every plan's waiting notice; how many it wrote. */
const sendDueNotices = () =>
  asWorker(async (sql) => (await sql`select private.send_plan_notices(null, ${WINDOW}) as n`)[0].n as number);

/** As if the window had passed since the last notice and the first waiting change. */
const windowPasses = (planId: string) =>
  db.owner`update app.plan_notices
              set quiet_until = quiet_until - interval '601 seconds', pending_since = pending_since - interval '601 seconds'
            where plan_id = ${planId}`;

// One database for the file: each test starts with this domain's tables empty.
beforeEach(async () => {
  await db.owner`truncate app.push_subscriptions, app.notification_events, app.notification_deliveries,
                          app.plan_digests, app.plan_notices, app.email_unsubscribes`;
});

describe('push subscriptions', () => {
  it('a member and a guest device save theirs; nobody is HP401; nothing is readable directly', async () => {
    const member = await subscribe(w.actors.member);
    const guest = await subscribe(w.actors.guest);
    const rows = await db.owner`select endpoint, user_id, guest_id, secret_hash is not null as device from app.push_subscriptions order by created_at`;
    expect(rows).toEqual([
      { endpoint: member, user_id: w.users.member, guest_id: null, device: false },
      { endpoint: guest, user_id: null, guest_id: w.guest, device: true },
    ]);
    await expectPgError(subscribe({ role: 'anon', plan_id: w.planA }), 'HP401');
    // A guest id without its device's secret is nobody.
    await expectPgError(subscribe({ role: 'anon', guest_id: w.guest }), 'HP401');
    for (const actor of ['member', 'guest', 'host'] as const) {
      await expectDenied(db.as(w.actors[actor], (sql) => sql`select * from app.push_subscriptions`));
      await expectDenied(db.as(w.actors[actor], (sql) => sql`delete from app.push_subscriptions`));
      await expectDenied(db.as(w.actors[actor], (sql) => sql`select * from app.notification_deliveries`));
    }
  });

  it('the same endpoint again refreshes it; one browser may be several identities, and is told once per event', async () => {
    const first = await subscribe(w.actors.member);
    await subscribe(w.actors.member, first);
    expect(await db.owner`select count(*)::int as n from app.push_subscriptions`).toEqual([{ n: 1 }]);
    // The same browser is also the plan's guest (and a guest of another plan):
    // each identity has it once, and signing one out leaves the others.
    await subscribe(w.actors.guest, first);
    await subscribe(w.actors.otherGuest, first);
    expect(await db.owner`select count(*)::int as n from app.push_subscriptions where endpoint = ${first}`).toEqual([{ n: 3 }]);
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'The Lanes')`);
    expect((await outbox(w.planA)).filter((r) => r.endpoint === first)).toHaveLength(1);
    await db.as(w.actors.member, (sql) => sql`select private.delete_push_subscription(${first})`);
    expect((await db.owner`select guest_id from app.push_subscriptions where endpoint = ${first} order by guest_id`).map((r) => r.guest_id))
      .toEqual([w.guest, w.otherGuest].sort());

    const mine = [await subscribe(w.actors.member), await subscribe(w.actors.member), await subscribe(w.actors.member)];
    const newest = await subscribe(w.actors.member);
    const kept = (await db.owner`select endpoint from app.push_subscriptions where user_id = ${w.users.member}`).map((r) => r.endpoint);
    expect(kept.sort()).toEqual([mine[1], mine[2], newest].sort());
  });

  it("a plan's guests have at most perPlan devices (HP409); another plan's are not counted", async () => {
    const others = [await addGuest(db.owner, w.planA, 'Ann'), await addGuest(db.owner, w.planA, 'Ben'), await addGuest(db.owner, w.planA, 'Cy')];
    // 3 + 3 + 2 = perPlan devices.
    for (const [guest, devices] of [[w.guest, 3], [others[0], 3], [others[1], 2]] as const) {
      for (let i = 0; i < devices; i++) await subscribe(asGuest(guest));
    }
    await expectPgError(subscribe(asGuest(others[2])), 'HP409', 'Too many devices of this plan have notifications on');
    await subscribe(w.actors.otherGuest);
  });

  it("one guest's devices together keep at most perGuest: the continued devices' oldest go, never the joined device's", async () => {
    const joined = [await subscribe(w.actors.guest), await subscribe(w.actors.guest)];
    // Three devices that continued as Gus by name, each turning notifications on.
    const restored = ['a', 'b', 'c'].map((d) => `restored-${d}-${w.guest}`);
    for (const secret of restored) {
      await db.owner`insert into app.guest_credentials (guest_id, secret_hash, kind) values (${w.guest}, ${sha256Hex(secret)}, 'restored')`;
    }
    const asDevice = (secret: string): Claims => ({ ...w.actors.guest, guest_secret_hash: sha256Hex(secret) });
    const fromRestored: string[] = [];
    for (const secret of restored) {
      fromRestored.push(await subscribe(asDevice(secret)));
      fromRestored.push(await subscribe(asDevice(secret)));
    }
    const kept = async () => (await db.owner`select endpoint from app.push_subscriptions where guest_id = ${w.guest}`).map((r) => r.endpoint).sort();
    expect(await kept()).toEqual([...joined, ...fromRestored.slice(-3)].sort());
    // The joined device adds one: a continued device's oldest makes room.
    const another = await subscribe(w.actors.guest);
    expect(await kept()).toEqual([...joined, another, ...fromRestored.slice(-2)].sort());
    // The plan's share is untouched by how often Gus was continued.
    await subscribe(asGuest(await addGuest(db.owner, w.planA, 'Ann')));
  });

  it("a guest's subscription ends with its device credential; delete takes only the caller's own", async () => {
    const guest = await subscribe(w.actors.guest);
    const member = await subscribe(w.actors.member);
    await db.as(w.actors.guest, (sql) => sql`select private.delete_push_subscription(${member})`);
    await db.as(w.actors.member, (sql) => sql`select private.delete_push_subscription(${member})`);
    expect((await db.owner`select endpoint from app.push_subscriptions`).map((r) => r.endpoint)).toEqual([guest]);
    await db.owner`delete from app.guest_credentials where guest_id = ${w.guest}`;
    expect(await db.owner`select * from app.push_subscriptions`).toEqual([]);
  });

  it("a member's subscription is its session's: it ends with it, another session's stays; none without a live session", async () => {
    const phoneSession = await startSession(db.owner, w.users.member);
    const laptopSession = await startSession(db.owner, w.users.member);
    const phone = await subscribe(signedIn(w.users.member, phoneSession));
    const laptop = await subscribe(signedIn(w.users.member, laptopSession));
    const owners = async () => Object.fromEntries((await db.owner`select endpoint, session_id from app.push_subscriptions`).map((r) => [r.endpoint, r.session_id]));
    expect(await owners()).toEqual({ [phone]: phoneSession, [laptop]: laptopSession });
    // The same browser given again by a later sign-in moves to that session.
    await subscribe(signedIn(w.users.member, laptopSession), phone);
    await db.owner`delete from app.sessions where id = ${phoneSession}`;
    expect(await owners()).toEqual({ [phone]: laptopSession, [laptop]: laptopSession });
    await db.owner`delete from app.sessions where id = ${laptopSession}`;
    expect(await db.owner`select * from app.push_subscriptions`).toEqual([]);

    // A member named without a session, or with an ended or expired one, is refused.
    const expired = await startSession(db.owner, w.users.member);
    await db.owner`update app.sessions set created_at = now() - interval '31 days', expires_at = now() - interval '1 minute' where id = ${expired}`;
    for (const claims of [w.actors.member, signedIn(w.users.member, phoneSession), signedIn(w.users.member, expired), signedIn(w.users.host, laptopSession)]) {
      await expectPgError(
        db.as(claims, (sql) => sql`select private.save_push_subscription(${newEndpoint()}, ${key(65)}, ${key(16)}, 3, 3, 4)`),
        'HP401',
        'Your session has expired, please sign in again',
      );
    }
  });

  it("an expired session's device hears nothing, and a member's 'plan deleted' is not sent to a device whose session ended", async () => {
    const session = await startSession(db.owner, w.users.member);
    const memberPhone = await subscribe(signedIn(w.users.member, session));
    const guestPhone = await subscribe(w.actors.guest);
    await db.owner`update app.sessions set created_at = now() - interval '31 days', expires_at = now() - interval '1 minute' where id = ${session}`;
    await hostDoes(w.planA, (sql) => sql`select app.set_location(${w.planA}, 'The Lanes')`);
    expect((await outbox(w.planA)).map((r) => r.endpoint)).toEqual([guestPhone]);
    await clearOutbox();

    await db.owner`update app.sessions set expires_at = now() + interval '1 day' where id = ${session}`;
    await db.as(w.actors.host, (sql) => sql`delete from app.plans where id = ${w.planA}`);
    expect((await outbox(w.planA)).filter((r) => r.channel === 'push').map((r) => r.endpoint).sort()).toEqual([memberPhone, guestPhone].sort());
    // The member signs out before it is sent: only the guest's copy is still sent.
    await db.owner`delete from app.sessions where id = ${session}`;
    const claimed = await asWorker((sql) => sql<{ endpoint: string | null }[]>`select endpoint from private.claim_deliveries(null, 50, 60) where channel = 'push'`);
    expect(claimed.map((r) => r.endpoint)).toEqual([guestPhone]);
  });
});

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
  it('has_responded: an idea or a date vote counts', async () => {
    const q = (user: string | null, guest: string | null) =>
      db.as(w.actors.host, async (sql) => (await sql`select private.has_responded(${w.planA}, ${user}, ${guest}) as r`)[0].r);
    expect(await q(w.users.member, null)).toBe(true); // an idea vote
    expect(await q(null, w.guest)).toBe(true); // idea and date votes
    expect(await q(w.users.host, null)).toBe(false);
    const ann = await addGuest(db.owner, w.planA, 'Ann');
    expect(await q(null, ann)).toBe(false);
    await db.owner`insert into app.time_slot_votes (time_slot_id, plan_id, guest_id) values (${w.slotA}, ${w.planA}, ${ann})`;
    expect(await q(null, ann)).toBe(true);
  });

  const remind = (claims: Claims, planId = w.planA, window = 43_200) =>
    db.as(claims, async (sql) => (await sql`select app.remind_unanswered(${planId}, ${window}, 'Reminded a moment ago') as n`)[0].n as number);

  it('reaches only who has not voted (never the host), once per window; a reminder that reaches nobody does not count', async () => {
    const ann = await addGuest(db.owner, w.planA, 'Ann');
    const noa = await createUser(db.owner, 'Noa', null);
    await addMember(db.owner, w.planA, noa);
    await subscribe(w.actors.member);
    await subscribe(w.actors.host);

    // Nobody who has not answered can be reached yet: 0, and the window is not used.
    expect(await remind(w.actors.host)).toBe(1); // Noa's e-mail
    await clearOutbox();
    await db.owner`update app.plans set reminded_at = null where id = ${w.planA}`;

    const annPhone = await subscribe(asGuest(ann, { plan_id: w.planA }));
    expect(await remind(w.actors.host)).toBe(2);
    expect((await outbox(w.planA)).map((r) => [r.kind, r.channel, r.endpoint ?? r.user_id])).toEqual([
      ['reminder', 'push', annPhone],
      ['reminder', 'email', noa],
    ]);
    await expectPgError(remind(w.actors.host), 'HP429', 'Reminded a moment ago');
    await expectPgError(remind(w.actors.member), 'HP403', 'Only the host can send reminders');
    await expectPgError(remind(w.actors.stranger), 'HP404');
  });

  it('with everyone answered: 0 and no window used; once locked: HP409', async () => {
    expect(await remind(w.actors.host)).toBe(0);
    expect((await db.owner`select reminded_at from app.plans where id = ${w.planA}`)[0].reminded_at).toBeNull();
    await db.as(w.actors.host, (sql) => sql`select app.lock_date(${w.planA}, current_date + 3)`);
    await expectPgError(remind(w.actors.host), 'HP409', 'The date is locked: there is nothing left to vote on');
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
    expect(rows[0].detail).toMatchObject({ autoLock: false, ideaText: 'Bowling', ideaVotes: 2, date, dateVotes: 1 });
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

describe('digests of new ideas and comments', () => {
  const runDigests = (window = 600, settle = 0) =>
    asWorker(async (sql) => (await sql`select private.run_digests(${window}, ${settle}) as n`)[0].n as number);

  it("counts for each person what the others wrote, once per window, and nobody hears of their own", async () => {
    // Start from a clean slate: the world's own ideas are covered, long ago.
    await runDigests();
    await clearOutbox();
    await db.owner`update app.plan_digests set sent_at = now() - interval '1 hour'`;
    const memberPhone = await subscribe(w.actors.member);
    const guestPhone = await subscribe(w.actors.guest);
    const hostPhone = await subscribe(w.actors.host);
    await addIdea(db.owner, w.planA, 'Picnic', { userId: w.users.member });
    await addIdea(db.owner, w.planA, 'Museum', { userId: w.users.member });
    await db.owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, guest_id) values (${w.ideaA}, ${w.planA}, 'Yes', 'x', ${w.guest})`;
    expect(await runDigests()).toBe(1);
    const rows = await outbox(w.planA);
    const byPhone = Object.fromEntries(rows.map((r) => [r.endpoint, r.detail]));
    expect(byPhone[memberPhone]).toMatchObject({ ideas: 0, comments: 1 });
    expect(byPhone[guestPhone]).toMatchObject({ ideas: 2, comments: 0 });
    expect(byPhone[hostPhone]).toMatchObject({ ideas: 2, comments: 1 });

    // More within the window: nothing yet; after it, only the new ones.
    await clearOutbox();
    await addIdea(db.owner, w.planA, 'Cinema', { guestId: w.guest });
    expect(await runDigests()).toBe(0);
    await db.owner`update app.plan_digests set sent_at = now() - interval '601 seconds'`;
    expect(await runDigests()).toBe(1);
    const later = await outbox(w.planA);
    expect(later.map((r) => [r.endpoint, r.detail.ideas, r.detail.comments]).sort()).toEqual([
      [memberPhone, 1, 0],
      [hostPhone, 1, 0],
    ].sort());
  });

  it('waits until the burst settles, and two schedulers send one digest', async () => {
    await runDigests();
    await clearOutbox();
    await subscribe(w.actors.host);
    await addIdea(db.owner, w.planA, 'Picnic', { userId: w.users.member });
    await db.owner`update app.plan_digests set sent_at = now() - interval '1 hour' where plan_id = ${w.planA}`;
    expect(await runDigests(600, 60)).toBe(0);
    await db.owner`update app.ideas set created_at = now() - interval '61 seconds' where text = 'Picnic'`;
    await db.owner`update app.plan_digests set covered_until = covered_until - interval '1 hour' where plan_id = ${w.planA}`;
    const [a, b] = await Promise.all([runDigests(600, 60), runDigests(600, 60)]);
    expect(a + b).toBe(1);
    expect((await outbox(w.planA)).length).toBe(1);
  });
});

describe('claiming and finishing deliveries', () => {
  const claim = (limit = 50, planId: string | null = null) =>
    asWorker((sql) => sql<{ id: number; endpoint: string; attempts: number }[]>`
      select id, endpoint, attempts from private.claim_deliveries(${planId}::uuid, ${limit}, 60)`);
  const finish = (results: { id: number; outcome: string; error?: string }[]) =>
    asWorker(async (sql) => (await sql`
      select private.finish_deliveries(${JSON.stringify(results)}::text::jsonb, ${RETRY.first}, ${RETRY.max}, ${RETRY.giveUp}) as n`)[0].n as number);

  async function threeDeliveries() {
    const phones = [await subscribe(w.actors.member), await subscribe(w.actors.member), await subscribe(w.actors.guest)];
    await hostDoes(w.planA, (sql) => sql`select app.pick_idea(${w.planA}, ${w.ideaA})`);
    return phones;
  }

  it('a claimed delivery is leased: a second claim (another instance) does not get it', async () => {
    await threeDeliveries();
    const [first, second] = await Promise.all([claim(2), claim(2)]);
    const ids = [...first, ...second].map((r) => r.id);
    expect(ids.length).toBe(3);
    expect(new Set(ids).size).toBe(3);
    expect(await claim()).toEqual([]);
  });

  it('sent: gone with its event; retry: back-off doubling; gone (410): the subscription too; old: given up', async () => {
    const phones = await threeDeliveries();
    const rows = await claim();
    const byEndpoint = Object.fromEntries(rows.map((r) => [r.endpoint, r.id]));
    expect(await finish([
      { id: byEndpoint[phones[0]], outcome: 'sent' },
      { id: byEndpoint[phones[1]], outcome: 'retry', error: 'HTTP 503' },
      { id: byEndpoint[phones[2]], outcome: 'gone' },
    ])).toBe(1); // the one to the gone subscription: dropped unsent
    expect((await db.owner`select endpoint from app.push_subscriptions order by endpoint`).map((r) => r.endpoint))
      .toEqual([phones[0], phones[1]].sort());
    const [retry] = await db.owner`
      select attempts, last_error, extract(epoch from next_attempt_at - now())::int as wait, claimed_until
        from app.notification_deliveries`;
    expect(retry).toMatchObject({ attempts: 1, last_error: 'HTTP 503', claimed_until: null });
    expect(retry.wait).toBeGreaterThanOrEqual(28);
    expect(retry.wait).toBeLessThanOrEqual(30);
    expect(await claim()).toEqual([]);

    await db.owner`update app.notification_deliveries set next_attempt_at = now()`;
    const [again] = await claim();
    expect(again.attempts).toBe(2);
    await finish([{ id: again.id, outcome: 'retry', error: 'HTTP 429' }]);
    const [{ wait }] = await db.owner`select extract(epoch from next_attempt_at - now())::int as wait from app.notification_deliveries`;
    expect(wait).toBeGreaterThanOrEqual(58);

    // Older than a day and then some: given up, and its event goes.
    await db.owner`update app.notification_deliveries set next_attempt_at = now(), created_at = now() - interval '27 hours'`;
    const [last] = await claim();
    expect(await finish([{ id: last.id, outcome: 'retry', error: 'HTTP 500' }])).toBe(1);
    expect(await db.owner`select * from app.notification_deliveries`).toEqual([]);
    expect(await db.owner`select * from app.notification_events`).toEqual([]);
  });

  it("a push whose subscription was turned off meanwhile is dropped unsent; a plan's claim takes only its own", async () => {
    const phones = await threeDeliveries();
    await db.as(w.actors.member, (sql) => sql`select private.delete_push_subscription(${phones[0]})`);
    const planBPhone = await subscribe(w.actors.otherGuest);
    await hostDoes(w.planB, (sql) => sql`select app.set_location(${w.planB}, 'There')`, { role: 'authenticated', sub: w.users.otherHost });
    expect((await claim(50, w.planA)).map((r) => r.endpoint).sort()).toEqual([phones[1], phones[2]].sort());
    expect((await claim()).map((r) => r.endpoint)).toEqual([planBPhone]);
    expect(await db.owner`select count(*)::int as n from app.notification_deliveries`).toEqual([{ n: 3 }]);
  });

  it("'failed' (refused by the push service) is dropped without a retry; the subscription stays", async () => {
    const phones = await threeDeliveries();
    const rows = await claim();
    expect(await finish(rows.map((r) => ({ id: r.id, outcome: 'failed', error: 'HTTP 400' })))).toBe(3);
    expect(await db.owner`select * from app.notification_deliveries`).toEqual([]);
    expect((await db.owner`select endpoint from app.push_subscriptions`).length).toBe(phones.length);
  });

  it('the request roles cannot run the worker functions', async () => {
    for (const actor of ['host', 'guest', 'anon'] as const) {
      await expectPgError(db.as(w.actors[actor], (sql) => sql`select * from private.claim_deliveries(null, 1, 60)`), '42501');
      await expectPgError(db.as(w.actors[actor], (sql) => sql`select private.run_deadlines(1, 1)`), '42501');
      await expectPgError(db.as(w.actors[actor], (sql) => sql`select * from private.set_plan_emails(${w.users.member}, ${w.planA}, false)`), '42501');
    }
  });
});

describe('e-mail opt-out per plan', () => {
  it('off and on again; an unknown plan or member answers nothing', async () => {
    const set = (on: boolean | null, planId = w.planA) =>
      asWorker((sql) => sql`select plan_title, emails from private.set_plan_emails(${w.users.member}, ${planId}, ${on})`);
    expect(await set(null)).toEqual([{ plan_title: 'Plan A', emails: true }]);
    expect(await set(false)).toEqual([{ plan_title: 'Plan A', emails: false }]);
    expect(await set(false)).toEqual([{ plan_title: 'Plan A', emails: false }]);
    expect(await set(null)).toEqual([{ plan_title: 'Plan A', emails: false }]);
    expect(await set(true)).toEqual([{ plan_title: 'Plan A', emails: true }]);
    const other = await createPlan(db.owner, w.users.host, 'Gone soon');
    await db.owner`delete from app.plans where id = ${other.id}`;
    expect(await set(false, other.id)).toEqual([]);
    // The link checks the address it was mailed to against the account's.
    expect(await asWorker((sql) => sql`select email from private.set_plan_emails(${w.users.member}, ${w.planA}, null)`)).toEqual([
      { email: (await db.owner`select email from app.users where id = ${w.users.member}`)[0].email },
    ]);
  });

  it('the signed-in member sets their own (an old link); nobody else, and not anon', async () => {
    const mine = (on: boolean | null) =>
      db.as(w.actors.member, (sql) => sql`select plan_title, emails from private.set_my_plan_emails(${w.planA}, ${on})`);
    expect(await mine(false)).toEqual([{ plan_title: 'Plan A', emails: false }]);
    expect(await db.owner`select user_id from app.email_unsubscribes where plan_id = ${w.planA}`).toEqual([{ user_id: w.users.member }]);
    expect(await mine(true)).toEqual([{ plan_title: 'Plan A', emails: true }]);
    await expectPgError(db.as(w.actors.anon, (sql) => sql`select * from private.set_my_plan_emails(${w.planA}, false)`), '42501');
  });
});
