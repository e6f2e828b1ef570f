// Revocable sessions and the verified e-mail change in the database
// (migrations 20261124120100_sessions.sql, 20261124120200_email_change.sql).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, freshDatabase, type Claims, type TestDatabase } from '../support/db.ts';
import { createUser, seedPlan, type PlanWorld } from '../support/plan-fixture.ts';

let db: TestDatabase;
let w: PlanWorld;
beforeAll(async () => {
  db = await freshDatabase();
});
beforeEach(async () => {
  w = await seedPlan(db.owner);
});
afterAll(() => db?.close());

const HASH = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const EXPIRED = 'Your session has expired, please sign in again';

async function newSession(userId: string): Promise<string> {
  const [{ id }] = await db.owner`insert into app.sessions (user_id) values (${userId}) returning id`;
  return id;
}
const signedIn = (userId: string, sessionId: string): Claims => ({ role: 'authenticated', sub: userId, session_id: sessionId });
const sessionsOf = async (userId: string) =>
  (await db.owner`select id from app.sessions where user_id = ${userId} order by id`).map((r) => r.id as string);

describe('app.sessions RLS', () => {
  it('a user sees and ends only its own sessions', async () => {
    const mine = await newSession(w.users.member);
    const theirs = await newSession(w.users.host);
    const me = signedIn(w.users.member, mine);
    expect((await db.as(me, (sql) => sql`select id from app.sessions`)).map((r) => r.id)).toEqual([mine]);
    const deleted = await db.as(me, (sql) => sql`delete from app.sessions where id = ${theirs}`);
    expect(deleted.count).toBe(0);
    expect(await sessionsOf(w.users.host)).toContain(theirs);
  });

  it('nobody creates, edits or (anon) reads sessions directly', async () => {
    const mine = await newSession(w.users.member);
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
    await newSession(user);
    await db.owner`delete from app.users where id = ${user}`;
    expect(await sessionsOf(user)).toEqual([]);
  });
});

describe('private.check_request, session part (every request’s claims statement)', () => {
  const check = (userId: string | null, sessionId: string | null) =>
    db.as({ role: 'anon' }, async (sql) => (await sql`select private.check_request(${userId}, ${sessionId}, null, null) as ok`)[0].ok);

  it('passes a live session of that user, and requests without a user', async () => {
    const session = await newSession(w.users.member);
    expect(await check(w.users.member, session)).toBe(true);
    expect(await check(null, null)).toBe(true);
  });

  it('refuses a signed-out, expired, unknown or someone else’s session, and a missing one', async () => {
    const signedOut = await newSession(w.users.member);
    await db.owner`delete from app.sessions where id = ${signedOut}`;
    const expired = await newSession(w.users.member);
    await db.owner`update app.sessions set created_at = now() - interval '31 days', expires_at = now() - interval '1 day' where id = ${expired}`;
    const hosts = await newSession(w.users.host);
    for (const session of [signedOut, expired, crypto.randomUUID(), hosts, null]) {
      await expectPgError(check(w.users.member, session), 'HP401', EXPIRED);
    }
  });
});

describe('private.sign_in_with_code', () => {
  const signIn = (email: string, hash = HASH) =>
    db.as({ role: 'anon' }, async (sql) => (await sql`select * from private.sign_in_with_code(${email}, ${hash})`)[0]);
  const issue = (email: string) => db.as({ role: 'anon' }, (sql) => sql`select private.issue_sign_in_code(${email}, ${HASH})`);

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
    expect(await sessionsOf(first.user_id)).toEqual([first.session_id, second.session_id].sort());
    const [{ days }] = await db.owner`
      select round(extract(epoch from expires_at - created_at) / 86400)::int as days from app.sessions where id = ${second.session_id}`;
    expect(days).toBe(30);
  });

  it('clears the expired sessions of the user on the way', async () => {
    const email = `expired-${crypto.randomUUID()}@example.test`;
    await issue(email);
    const { user_id: user, session_id: old } = await signIn(email);
    await db.owner`update app.sessions set created_at = now() - interval '40 days', expires_at = now() - interval '10 days' where id = ${old}`;
    await db.owner`update app.sign_in_codes set last_sent_at = now() - interval '1 minute' where email = ${email}`;
    await issue(email);
    const { session_id: fresh } = await signIn(email);
    expect(await sessionsOf(user)).toEqual([fresh]);
  });
});

describe('verified e-mail change', () => {
  let user: string;
  let session: string;
  let me: Claims;
  beforeEach(async () => {
    user = await createUser(db.owner, 'Eve', null, `eve-${crypto.randomUUID()}@example.test`);
    session = await newSession(user);
    me = signedIn(user, session);
  });

  const request = (claims: Claims, email: string, hash = HASH) =>
    db.as(claims, async (sql) => (await sql`select private.request_email_change(${email}, ${hash}) as r`)[0].r as string);
  const confirm = (claims: Claims, hash = HASH) =>
    db.as(claims, async (sql) => (await sql`select private.confirm_email_change(${hash}) as r`)[0].r as string);
  const emailOf = async (id: string) => (await db.owner`select email from app.users where id = ${id}`)[0].email as string;

  it('stores only the hash and the target, 10 minutes, and moves nothing yet', async () => {
    const target = `new-${crypto.randomUUID()}@example.test`;
    const before = await emailOf(user);
    expect(await request(me, target)).toBe('ok');
    const [row] = await db.owner`
      select new_email, code_hash, failed_attempts, extract(epoch from expires_at - now())::int as ttl
        from app.email_changes where user_id = ${user}`;
    expect(row).toMatchObject({ new_email: target, code_hash: HASH, failed_attempts: 0 });
    expect(row.ttl).toBeGreaterThanOrEqual(598);
    expect(await emailOf(user)).toBe(before);
  });

  it('answers the same for a free and a taken address (no enumeration); "same" for its own', async () => {
    const [{ email: taken }] = await db.owner`select email from app.users where id = ${w.users.host}`;
    expect(await request(me, `free-${crypto.randomUUID()}@example.test`)).toBe('ok');
    await db.owner`update app.email_changes set last_sent_at = now() - interval '1 minute' where user_id = ${user}`;
    expect(await request(me, taken)).toBe('ok');
    expect(await request(me, await emailOf(user))).toBe('same');
  });

  it('the send limits of sign-in codes: 30 s while a code is pending, 5 per hour', async () => {
    const target = () => `limit-${crypto.randomUUID()}@example.test`;
    expect(await request(me, target())).toBe('ok');
    expect(await request(me, target())).toBe('too_soon');
    for (let i = 2; i <= 5; i++) {
      await db.owner`update app.email_changes set last_sent_at = now() - interval '31 seconds' where user_id = ${user}`;
      expect(await request(me, target())).toBe('ok');
    }
    await db.owner`update app.email_changes set last_sent_at = now() - interval '31 seconds' where user_id = ${user}`;
    expect(await request(me, target())).toBe('too_many');
    await db.owner`update app.email_changes set last_sent_at = now() - interval '61 minutes', hour_started_at = now() - interval '61 minutes' where user_id = ${user}`;
    expect(await request(me, target())).toBe('ok');
  });

  it('a wrong code counts; the 5th kills it, after which even the right one fails', async () => {
    const target = `tries-${crypto.randomUUID()}@example.test`;
    await request(me, target);
    for (let i = 1; i <= 4; i++) expect(await confirm(me, OTHER)).toBe('invalid');
    expect((await db.owner`select failed_attempts from app.email_changes where user_id = ${user}`)[0].failed_attempts).toBe(4);
    expect(await confirm(me, OTHER)).toBe('invalid');
    expect(await confirm(me)).toBe('invalid');
    expect(await emailOf(user)).not.toBe(target);
  });

  it('an expired code fails', async () => {
    await request(me, `late-${crypto.randomUUID()}@example.test`);
    await db.owner`update app.email_changes set expires_at = now() - interval '1 second' where user_id = ${user}`;
    expect(await confirm(me)).toBe('invalid');
  });

  it('the right code moves the account and ends every OTHER session of the user; single use', async () => {
    const laptop = await newSession(user);
    const phone = await newSession(user);
    const hostSession = await newSession(w.users.host);
    const target = `moved-${crypto.randomUUID()}@example.test`;
    await request(me, target);
    expect(await confirm(me)).toBe('changed');
    expect(await emailOf(user)).toBe(target);
    const left = await sessionsOf(user);
    expect(left).toEqual([session]);
    expect(left).not.toContain(laptop);
    expect(left).not.toContain(phone);
    expect(await sessionsOf(w.users.host)).toContain(hostSession);
    expect(await confirm(me)).toBe('invalid');
  });

  it('"taken" only after the right code, when another account has the address; nothing moves', async () => {
    const [{ email: taken }] = await db.owner`select email from app.users where id = ${w.users.host}`;
    const other = await newSession(user);
    await request(me, taken);
    expect(await confirm(me, OTHER)).toBe('invalid');
    expect(await confirm(me)).toBe('taken');
    expect(await emailOf(user)).not.toBe(taken);
    expect(await sessionsOf(user)).toContain(other);
  });

  it('the code is the account’s: another user cannot confirm it', async () => {
    const target = `mine-${crypto.randomUUID()}@example.test`;
    await request(me, target);
    const mallory = signedIn(w.users.stranger, await newSession(w.users.stranger));
    expect(await confirm(mallory)).toBe('invalid');
    expect(await emailOf(w.users.stranger)).not.toBe(target);
  });

  it('only for signed-in callers; pending changes are unreadable', async () => {
    await expectDenied(request(w.actors.anon, 'x@example.test'));
    await expectDenied(confirm(w.actors.guest));
    await expectDenied(db.as(me, (sql) => sql`select * from app.email_changes`));
    await expectPgError(request(me, 'Not An Email'), 'HP400', 'Email must be a valid e-mail address');
  });
});
