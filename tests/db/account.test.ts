// The account file (auth): "Sign out everywhere" ends every session (and with
// them the member's push subscriptions) and the calendar feed; deleting an
// account leaves every plan (hosting handed over, or the plan deleted when no
// one else has an account), keeps what the person wrote under "Deleted
// account" and takes everything else of theirs; the scheduler's housekeeping
// deletes expired sessions, guest devices unused for 180 days and feeds
// nobody polls.
import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import { describe, expect, it } from 'vitest';
import { expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { addGuest, addIdea, asGuest, createPlan, createUser, sha256Hex, signedIn, startSession } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db, { each: true });

const key = (bytes: number) => randomBytes(bytes).toString('base64url');
let endpoints = 0;
const newEndpoint = () => `https://push.example.test/send/end-${++endpoints}-${key(6)}`;

async function subscribe(claims: Claims, endpoint = newEndpoint()): Promise<string> {
  await db.as(claims, (sql) => sql`select private.save_push_subscription(${endpoint}, ${key(65)}, ${key(16)}, 10, 20, 400)`);
  return endpoint;
}

async function giveFeed(userId: string): Promise<string> {
  const hash = sha256Hex(key(32));
  await db.as({ role: 'authenticated', sub: userId }, (sql) => sql`select * from private.issue_calendar_feed(${key(16)}, ${hash})`);
  return hash;
}

const count = async (query: Promise<{ n: number }[]>) => (await query)[0].n;

function asWorker<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
  return db.owner.begin(async (tx) => {
    await tx`set local role service_role`;
    return fn(tx as unknown as Sql);
  }) as Promise<T>;
}

describe('private.sign_out_everywhere', () => {
  it("ends every session of the caller, their devices' notifications and the calendar feed; nobody else's", async () => {
    const phone = await startSession(db.owner, w.users.member);
    const laptop = await startSession(db.owner, w.users.member);
    const browser = await subscribe(signedIn(w.users.member, phone));
    await subscribe(signedIn(w.users.member, laptop));
    // The same browser is also the plan's guest: that stays.
    await subscribe(asGuest(w.guest), browser);
    await giveFeed(w.users.member);
    const otherSession = await startSession(db.owner, w.users.host);
    await subscribe(signedIn(w.users.host, otherSession));
    await giveFeed(w.users.host);

    await db.as(signedIn(w.users.member, laptop), (sql) => sql`select private.sign_out_everywhere()`);
    expect(await count(db.owner`select count(*)::int as n from app.sessions where user_id = ${w.users.member}`)).toBe(0);
    expect(await db.owner`select guest_id from app.push_subscriptions where endpoint = ${browser}`).toEqual([{ guest_id: w.guest }]);
    expect(await count(db.owner`select count(*)::int as n from app.push_subscriptions where user_id = ${w.users.member}`)).toBe(0);
    expect(await count(db.owner`select count(*)::int as n from app.calendar_feeds where user_id = ${w.users.member}`)).toBe(0);
    expect(await count(db.owner`select count(*)::int as n from app.push_subscriptions where user_id = ${w.users.host}`)).toBe(1);
    expect(await count(db.owner`select count(*)::int as n from app.calendar_feeds where user_id = ${w.users.host}`)).toBe(1);
    await expectPgError(db.as(w.actors.anon, (sql) => sql`select private.sign_out_everywhere()`), '42501');
  });
});

describe('private.delete_account', () => {
  const deleteAccount = (userId: string) =>
    db.as({ role: 'authenticated', sub: userId }, (sql) => sql`select private.delete_account()`);

  it('a host: the plan goes to the earliest-joined member; what the host wrote stays, signed "Deleted account"; the rest of theirs goes', async () => {
    const { host, member } = w.users;
    const session = await startSession(db.owner, host);
    await subscribe(signedIn(host, session));
    await giveFeed(host);
    const [{ email }] = await db.owner<{ email: string }[]>`select email from app.users where id = ${host}`;
    await db.owner`insert into app.sign_in_codes (email) values (${email})`;
    await db.owner`insert into app.user_interests (user_id, free_form_text) values (${host}, 'Bowling')`;
    await db.owner`insert into app.email_changes (user_id) values (${host})`;
    await db.owner`insert into app.email_change_undos (token_hash, user_id, old_email, new_email)
                   values (${sha256Hex(key(8))}, ${host}, ${email}, 'new@example.test')`;
    await db.owner`insert into app.email_unsubscribes (user_id, plan_id) values (${host}, ${w.planA})`;
    const [comment] = await db.owner<{ id: string }[]>`
      insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
      values (${w.ideaA}, ${w.planA}, 'See you there', 'x', ${host}) returning id`;
    await db.owner`insert into app.idea_votes (idea_id, plan_id, user_id) values (${w.ideaA}, ${w.planA}, ${host})`;

    await deleteAccount(host);

    expect(await db.owner`select host_id from app.plans where id = ${w.planA}`).toEqual([{ host_id: member }]);
    expect(await db.owner`select text, author_name, user_id from app.ideas where id = ${w.ideaA}`).toEqual([
      { text: 'Bowling', author_name: 'Deleted account', user_id: null },
    ]);
    expect(await db.owner`select author_name, user_id from app.idea_comments where id = ${comment.id}`).toEqual([
      { author_name: 'Deleted account', user_id: null },
    ]);
    // Others' words keep their names.
    expect(await db.owner`select author_name from app.idea_comments where id = ${w.commentA}`).toEqual([{ author_name: 'Mia' }]);
    for (const table of ['sessions', 'push_subscriptions', 'calendar_feeds', 'user_interests', 'email_changes', 'email_change_undos',
      'email_unsubscribes', 'participants', 'idea_votes', 'time_slot_votes']) {
      expect(await count(db.owner`select count(*)::int as n from ${db.owner(`app.${table}`)} where user_id = ${host}`), table).toBe(0);
    }
    expect(await db.owner`select * from app.users where id = ${host}`).toEqual([]);
    expect(await db.owner`select * from app.sign_in_codes where email = ${email}`).toEqual([]);
    // The rest of the plan is untouched.
    expect(await count(db.owner`select count(*)::int as n from app.participants where plan_id = ${w.planA}`)).toBe(2);
  });

  it('hands over to the earliest-joined other member, as leaving does', async () => {
    const host = await createUser(db.owner, 'Hal', null);
    const plan = await createPlan(db.owner, host, 'Hand over');
    const later = await createUser(db.owner, 'Later', null);
    const earlier = await createUser(db.owner, 'Earlier', null);
    await db.owner`insert into app.participants (plan_id, user_id, name, joined_at) values (${plan.id}, ${later}, '-', now() + interval '2 minutes')`;
    await db.owner`insert into app.participants (plan_id, user_id, name, joined_at) values (${plan.id}, ${earlier}, '-', now() + interval '1 minute')`;
    await addGuest(db.owner, plan.id, 'Gia');
    await deleteAccount(host);
    expect(await db.owner`select host_id from app.plans where id = ${plan.id}`).toEqual([{ host_id: earlier }]);
  });

  it("deletes a plan no one else with an account is in (its guests are told) and one the person was alone in; others' plans stay", async () => {
    const host = await createUser(db.owner, 'Solo', null);
    const withGuests = await createPlan(db.owner, host, 'Guests only');
    const guest = await addGuest(db.owner, withGuests.id, 'Gabe');
    const guestPhone = await subscribe(asGuest(guest));
    const alone = await createPlan(db.owner, host, 'Alone');
    await db.owner`insert into app.participants (plan_id, user_id, name) values (${w.planB}, ${host}, '-')`;
    await addIdea(db.owner, w.planB, 'Picnic', { userId: host });

    await deleteAccount(host);

    expect(await db.owner`select id from app.plans where id in ${db.owner([withGuests.id, alone.id])}`).toEqual([]);
    const told = await db.owner`select e.kind, d.endpoint from app.notification_deliveries d
                                  join app.notification_events e on e.id = d.event_id where e.plan_id = ${withGuests.id}`;
    expect(told).toEqual([{ kind: 'plan_deleted', endpoint: guestPhone }]);
    expect(await db.owner`select host_id from app.plans where id = ${w.planB}`).toEqual([{ host_id: w.users.otherHost }]);
    expect(await db.owner`select author_name from app.ideas where plan_id = ${w.planB} and text = 'Picnic'`).toEqual([{ author_name: 'Deleted account' }]);
  });

  it('a member: leaves every plan with their votes; the plan and its host stay', async () => {
    await deleteAccount(w.users.member);
    expect(await db.owner`select host_id from app.plans where id = ${w.planA}`).toEqual([{ host_id: w.users.host }]);
    expect(await count(db.owner`select count(*)::int as n from app.participants where plan_id = ${w.planA}`)).toBe(2);
    expect(await count(db.owner`select count(*)::int as n from app.idea_votes where idea_id = ${w.ideaA}`)).toBe(1);
    expect(await db.owner`select author_name, user_id from app.idea_comments where id = ${w.commentA}`).toEqual([
      { author_name: 'Deleted account', user_id: null },
    ]);
  });

  it('needs an account: HP401 for a gone one; anon may not call it', async () => {
    await deleteAccount(w.users.stranger);
    await expectPgError(deleteAccount(w.users.stranger), 'HP401', 'Your session has expired, please sign in again');
    await expectPgError(db.as(w.actors.anon, (sql) => sql`select private.delete_account()`), '42501');
  });
});

describe('private.end_idle_credentials (the scheduler)', () => {
  it('deletes expired sessions, guest devices unused for 180 days and feeds nobody polled for 180 days, with their subscriptions; nothing live', async () => {
    const expired = await startSession(db.owner, w.users.member);
    const live = await startSession(db.owner, w.users.member);
    const expiredPhone = await subscribe(signedIn(w.users.member, expired));
    const livePhone = await subscribe(signedIn(w.users.member, live));
    await db.owner`update app.sessions set created_at = now() - interval '31 days', expires_at = now() - interval '1 minute' where id = ${expired}`;
    const guestPhone = await subscribe(asGuest(w.guest));
    const otherGuestPhone = await subscribe(asGuest(w.otherGuest));
    await db.owner`update app.guest_credentials set last_used_at = now() - interval '181 days' where guest_id = ${w.guest}`;
    await db.owner`update app.guest_credentials set last_used_at = now() - interval '179 days' where guest_id = ${w.otherGuest}`;
    await giveFeed(w.users.host);
    await giveFeed(w.users.otherHost);
    await db.owner`update app.calendar_feeds set last_polled_at = now() - interval '181 days' where user_id = ${w.users.host}`;

    expect(await asWorker(async (sql) => (await sql`select private.end_idle_credentials(100) as n`)[0].n)).toBe(3);
    expect((await db.owner`select id from app.sessions where user_id = ${w.users.member}`).map((r) => r.id)).toEqual([live]);
    const mine = [expiredPhone, livePhone, guestPhone, otherGuestPhone];
    expect((await db.owner`select endpoint from app.push_subscriptions where endpoint in ${db.owner(mine)}`).map((r) => r.endpoint).sort())
      .toEqual([livePhone, otherGuestPhone].sort());
    expect(await count(db.owner`select count(*)::int as n from app.guest_credentials where guest_id = ${w.guest}`)).toBe(0);
    // The guest itself, its votes and what it wrote stay: "Is this you?" gives a new device credential.
    expect(await count(db.owner`select count(*)::int as n from app.participants where guest_id = ${w.guest}`)).toBe(1);
    expect((await db.owner`select user_id from app.calendar_feeds where user_id in ${db.owner([w.users.host, w.users.otherHost])}`).map((r) => r.user_id))
      .toEqual([w.users.otherHost]);
    expect(await asWorker(async (sql) => (await sql`select private.end_idle_credentials(100) as n`)[0].n)).toBe(0);
    await expectPgError(db.as(w.actors.host, (sql) => sql`select private.end_idle_credentials(1)`), '42501');
  });

  it('takes at most the limit of each per run', async () => {
    for (let i = 0; i < 3; i++) {
      const session = await startSession(db.owner, w.users.stranger);
      await db.owner`update app.sessions set created_at = now() - interval '31 days', expires_at = now() - interval '1 minute' where id = ${session}`;
    }
    expect(await asWorker(async (sql) => (await sql`select private.end_idle_credentials(2) as n`)[0].n)).toBe(2);
    expect(await asWorker(async (sql) => (await sql`select private.end_idle_credentials(2) as n`)[0].n)).toBe(1);
  });
});
