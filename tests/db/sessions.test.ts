// Revocable sessions (the sessions domain): app.sessions' row security, the
// claims statement's gate private.check_request (its session part and its
// guest part), and private.sign_in_with_code starting a session per sign-in.
import { describe, expect, it } from 'vitest';
import {
  GUEST_SECRET_MISSING,
  GUEST_SECRET_WRONG,
} from '../../supabase/functions/_shared/contract/guest-secret.ts';
import { expectDenied, expectPgError, pgError, useFreshDatabase, usePlanWorld } from '../support/db.ts';
import { createUser, sessionsOf, sha256Hex, signedIn, startSession, testGuestSecret } from '../support/plan-fixture.ts';

const db = useFreshDatabase();
const w = usePlanWorld(db, { each: true });

const HASH = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const EXPIRED = 'Your session has expired, please sign in again';

describe('app.sessions RLS', () => {
  it('a user sees and ends only its own sessions', async () => {
    const mine = await startSession(db.owner, w.users.member);
    const theirs = await startSession(db.owner, w.users.host);
    const me = signedIn(w.users.member, mine);
    expect((await db.as(me, (sql) => sql`select id from app.sessions`)).map((r) => r.id)).toEqual([mine]);
    const deleted = await db.as(me, (sql) => sql`delete from app.sessions where id = ${theirs}`);
    expect(deleted.count).toBe(0);
    expect(await sessionsOf(db.owner, w.users.host)).toContain(theirs);
  });

  it('nobody creates, edits or (anon) reads sessions directly', async () => {
    const mine = await startSession(db.owner, w.users.member);
    const me = signedIn(w.users.member, mine);
    await expectDenied(db.as(me, (sql) => sql`insert into app.sessions (user_id) values (${w.users.member})`));
    await expectDenied(db.as(me, (sql) => sql`update app.sessions set expires_at = now() + interval '1 year'`));
    for (const actor of ['anon', 'anonWithLink', 'guest'] as const) {
      await expectDenied(db.as(w.actors[actor], (sql) => sql`select id from app.sessions`));
      await expectDenied(db.as(w.actors[actor], (sql) => sql`delete from app.sessions`));
    }
  });

  it('sessions go with their account', async () => {
    const user = await createUser(db.owner, 'Gone', null);
    await startSession(db.owner, user);
    await db.owner`delete from app.users where id = ${user}`;
    expect(await sessionsOf(db.owner, user)).toEqual([]);
  });
});

describe('private.check_request, session part (every request’s claims statement)', () => {
  const check = (userId: string | null, sessionId: string | null) =>
    db.as({ role: 'anon' }, async (sql) => (await sql`select private.check_request(${userId}, ${sessionId}, null, null) as ok`)[0].ok);

  it('passes a live session of that user, and requests without a user', async () => {
    const session = await startSession(db.owner, w.users.member);
    expect(await check(w.users.member, session)).toBe(true);
    expect(await check(null, null)).toBe(true);
  });

  it('refuses a signed-out, expired, unknown or someone else’s session, and a missing one', async () => {
    const signedOut = await startSession(db.owner, w.users.member);
    await db.owner`delete from app.sessions where id = ${signedOut}`;
    const expired = await startSession(db.owner, w.users.member);
    await db.owner`update app.sessions set created_at = now() - interval '31 days', expires_at = now() - interval '1 day' where id = ${expired}`;
    const hosts = await startSession(db.owner, w.users.host);
    for (const session of [signedOut, expired, crypto.randomUUID(), hosts, null]) {
      await expectPgError(check(w.users.member, session), 'HP401', EXPIRED);
    }
  });
});

describe('private.sign_in_with_code', () => {
  const signIn = (email: string, hash = HASH, limits: object[] = []) =>
    db.as({ role: 'anon' }, async (sql) => (await sql`select * from private.sign_in_with_code(${email}, '', ${hash}, ${JSON.stringify(limits)}::text::jsonb)`)[0]);
  const issue = (email: string) => db.as({ role: 'anon' }, (sql) => sql`select * from private.issue_sign_in_code(${email}, '', ${HASH}, null, '[]')`);

  it('starts a new session on every sign-in, none for a wrong code (whose try still counts)', async () => {
    const email = `sessions-${crypto.randomUUID()}@example.test`;
    await issue(email);
    expect(await signIn(email, OTHER)).toEqual({ user_id: null, session_id: null });
    expect((await db.owner`select failed_attempts from app.sign_in_codes where email = ${email}`)[0].failed_attempts).toBe(1);
    const first = await signIn(email);
    expect(first.user_id).toMatch(/^[0-9a-f-]{36}$/);
    await db.owner`update app.sign_in_codes set last_sent_at = now() - interval '1 minute' where email = ${email}`;
    await issue(email);
    const second = await signIn(email);
    expect(second.user_id).toBe(first.user_id);
    expect(second.session_id).not.toBe(first.session_id);
    expect(await sessionsOf(db.owner, first.user_id)).toEqual([first.session_id, second.session_id].sort());
    const [{ days }] = await db.owner`
      select round(extract(epoch from expires_at - created_at) / 86400)::int as days from app.sessions where id = ${second.session_id}`;
    expect(days).toBe(30);
  });

  it('wrong codes count on the guess limits; while one is full, even the right code is refused before it is compared', async () => {
    const email = `guess-${crypto.randomUUID()}@example.test`;
    const network = `test-guess:${crypto.randomUUID()}`;
    const limits = [
      { key: network, max: 2, window: 3600, message: 'Too many wrong codes were tried from your network' },
      { key: `${network}:all`, max: 100, window: 3600, message: 'Too many wrong codes are being tried right now' },
    ];
    await issue(email);
    const hits = async (key: string) => (await db.owner`select hits from app.rate_limit_counters where key = ${key}`)[0]?.hits;
    expect(await signIn(email, OTHER, limits)).toEqual({ user_id: null, session_id: null });
    expect(await hits(network)).toBe(1);
    expect(await hits(`${network}:all`)).toBe(1);
    // A right code counts nothing.
    await signIn(email, HASH, limits);
    expect(await hits(network)).toBe(1);
    await db.owner`update app.sign_in_codes set last_sent_at = now() - interval '1 minute' where email = ${email}`;
    await issue(email);
    expect(await signIn(email, OTHER, limits)).toEqual({ user_id: null, session_id: null });
    expect(await hits(network)).toBe(2);
    // Full: refused (HP429 with the wait), the right code is not even tried (it stays live, its tries unchanged).
    const refused = await pgError(signIn(email, HASH, limits));
    expect(refused.code).toBe('HP429');
    expect(refused.message).toBe('Too many wrong codes were tried from your network');
    const [row] = await db.owner`select code_hash, failed_attempts from app.sign_in_codes where email = ${email}`;
    expect(row).toEqual({ code_hash: HASH, failed_attempts: 1 });
    // Another network's limit is its own.
    expect((await signIn(email, HASH, [{ ...limits[0], key: `${network}:other` }])).user_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('clears the expired sessions of the user on the way', async () => {
    const email = `expired-${crypto.randomUUID()}@example.test`;
    await issue(email);
    const { user_id: user, session_id: old } = await signIn(email);
    await db.owner`update app.sessions set created_at = now() - interval '40 days', expires_at = now() - interval '10 days' where id = ${old}`;
    await db.owner`update app.sign_in_codes set last_sent_at = now() - interval '1 minute' where email = ${email}`;
    await issue(email);
    const { session_id: fresh } = await signIn(email);
    expect(await sessionsOf(db.owner, user)).toEqual([fresh]);
  });
});

describe('private.check_request (the claims statement’s gate), guest part', () => {
  const check = (guestId: string, hash: string | null) =>
    db.as({ role: 'anon' }, async (sql) => (await sql`select private.check_request(null, null, ${guestId}, ${hash}) as ok`)[0].ok);

  it('passes a guest with its secret; raises the sentences the web app knows otherwise', async () => {
    expect(await check(w.guest, sha256Hex(testGuestSecret(w.guest)))).toBe(true);
    await expectPgError(check(w.guest, null), 'HP401', GUEST_SECRET_MISSING);
    await expectPgError(check(w.guest, sha256Hex('a guess')), 'HP403', GUEST_SECRET_WRONG);
    await expectPgError(check(w.guest, sha256Hex(testGuestSecret(w.otherGuest))), 'HP403', GUEST_SECRET_WRONG);
    await expectPgError(check(crypto.randomUUID(), sha256Hex('x')), 'HP404', 'Guest not found');
  });

  it('refuses a device unused for 180 days like a revoked one, and notes a use at most once a day', async () => {
    const hash = sha256Hex(testGuestSecret(w.guest));
    const lastUsed = async () =>
      (await db.owner<{ at: Date }[]>`select last_used_at as at from app.guest_credentials where guest_id = ${w.guest} and secret_hash = ${hash}`)[0].at;
    await db.owner`update app.guest_credentials set last_used_at = now() - interval '179 days' where guest_id = ${w.guest}`;
    expect(await check(w.guest, hash)).toBe(true);
    expect(Date.now() - (await lastUsed()).getTime()).toBeLessThan(60_000);
    await db.owner`update app.guest_credentials set last_used_at = now() - interval '23 hours' where guest_id = ${w.guest}`;
    const dayOld = await lastUsed();
    expect(await check(w.guest, hash)).toBe(true);
    expect(await lastUsed()).toEqual(dayOld);

    await db.owner`update app.guest_credentials set last_used_at = now() - interval '180 days 1 minute' where guest_id = ${w.guest}`;
    await expectPgError(check(w.guest, hash), 'HP403', GUEST_SECRET_WRONG);
    // Policies and rules see no guest either.
    const claimed = await db.as({ role: 'anon', guest_id: w.guest, guest_secret_hash: hash }, async (sql) =>
      (await sql`select private.claimed_guest_id() as id`)[0].id);
    expect(claimed).toBeNull();
    await db.owner`update app.guest_credentials set last_used_at = now() where guest_id = ${w.guest}`;
  });
});
