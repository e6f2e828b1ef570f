// The notifications domain: push subscriptions, the outbox's delivery (the
// deliverers' claims and what became of them), digests and the per-plan
// e-mail opt-out (docs/notifications.md). What the host's decisions,
// reminders and deadlines write to the outbox is reminders.test.ts; the
// sending itself is the API's (tests/api/notifications*.test.ts).
import { describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addGuest, addIdea, asGuest, createPlan, sha256Hex, signedIn, startSession } from '../support/plan-fixture.ts';
import { key, newEndpoint, useOutbox } from './outbox-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db, { each: true });
const { subscribe, asWorker, outbox, clearOutbox, hostDoes } = useOutbox(db, w);

const RETRY = { first: 30, max: 3600, giveUp: 26 * 3600 };

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
