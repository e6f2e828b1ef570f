// The session token, GET /api/auth/me and PATCH /api/auth/profile.
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { api, apiDatabaseAsOwner, signIn, uniqueEmail } from '../support/api.ts';

const owner = apiDatabaseAsOwner();
afterAll(() => owner.end());

const EXPIRED = 'Your session has expired, please sign in again';
const me = (token?: string) => api('GET', '/api/auth/me', { token });
const patchProfile = (token: string | undefined, body: unknown) => api('PATCH', '/api/auth/profile', { token, body });

/** The session id a token names (its `sid`). */
const sessionOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;

function tokenFor(
  sub: string,
  { expiresAt, sid, secret = inject('jwtSecret') }: { expiresAt: number; sid?: string; secret?: string },
) {
  return new SignJWT(sid ? { sid } : {})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuer('hangplan')
    .setAudience('hangplan')
    .setIssuedAt(expiresAt - 3600)
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(secret));
}

describe('GET /api/auth/me', () => {
  it('needs a token', async () => {
    const res = await me();
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('Not signed in');
  });

  it('refuses a bad, forged, expired or orphaned token, one without a session (from before sessions) and one of another session', async () => {
    const { token } = await signIn();
    const sid = sessionOf(token);
    const userId = (await me(token)).json.id as string;
    const other = await signIn();
    const now = Math.floor(Date.now() / 1000);
    const tokens = [
      'garbage',
      `${token.slice(0, -4)}AAAA`,
      await tokenFor(userId, { sid, expiresAt: now - 60 }),
      await tokenFor(userId, { sid, expiresAt: now + 3600, secret: 'another-secret-that-is-long-enough-000000000' }),
      await tokenFor(crypto.randomUUID(), { sid, expiresAt: now + 3600 }),
      await tokenFor(userId, { expiresAt: now + 3600 }),
      await tokenFor(userId, { sid: crypto.randomUUID(), expiresAt: now + 3600 }),
      await tokenFor(userId, { sid: sessionOf(other.token), expiresAt: now + 3600 }),
    ];
    for (const bad of tokens) {
      const res = await me(bad);
      expect(res.status).toBe(401);
      expect(res.text).toBe(EXPIRED);
    }
    expect((await me(await tokenFor(userId, { sid, expiresAt: now + 3600 }))).status).toBe(200);
  });

  it('refuses the tokens of before sessions (no sid) on every kind of route, with the sentence, never a 500', async () => {
    const { token } = await signIn();
    const userId = (await me(token)).json.id as string;
    const old = await tokenFor(userId, { expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    const plan = crypto.randomUUID();
    for (const [method, path, body] of [
      ['GET', '/api/auth/me', undefined],
      ['GET', '/api/plans', undefined],
      ['POST', '/api/plans', { title: 'Old token' }],
      ['PATCH', '/api/auth/profile', { firstName: 'Old' }],
      ['POST', '/api/auth/sign-out', undefined],
      ['GET', `/api/plans/${plan}/ideas`, undefined],
    ] as const) {
      const res = await api(method, path, { token: old, body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.text).toBe(EXPIRED);
    }
  });
});

describe('PATCH /api/auth/profile', () => {
  it('needs a token', async () => {
    const res = await patchProfile(undefined, { firstName: 'Ann' });
    expect(res.status).toBe(401);
    expect(res.text).toBe('Not signed in');
    expect((await patchProfile('garbage', { firstName: 'Ann' })).text).toBe(EXPIRED);
  });

  it('updates names (trimmed, blank → null) at once and returns the user; a new e-mail waits for its code', async () => {
    const { token, email } = await signIn();
    const newEmail = uniqueEmail('moved');
    const res = await patchProfile(token, { firstName: '  Ann ', lastName: 'Lee', email: ` ${newEmail.toUpperCase()} ` });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ firstName: 'Ann', lastName: 'Lee', email, pendingEmail: newEmail });
    const { pendingEmail, ...user } = res.json;
    expect(pendingEmail).toBe(newEmail);
    expect((await me(token)).json).toEqual(user);

    const cleared = await patchProfile(token, { firstName: 'Ann', lastName: '   ', email });
    expect(cleared.json).toEqual({ ...user, lastName: null, pendingEmail: null });
  });

  it('leaves fields that are not sent as they were', async () => {
    const { token, email } = await signIn();
    await patchProfile(token, { firstName: 'Bo', lastName: 'Ng' });
    expect((await patchProfile(token, { lastName: null })).json).toMatchObject({ firstName: 'Bo', lastName: null, email });
    expect((await patchProfile(token, {})).json).toMatchObject({ firstName: 'Bo', lastName: null, email });
  });

  it('answers the same whether or not another account has the e-mail (the 409 waits for the code)', async () => {
    const ann = await signIn();
    const bob = await signIn();
    const res = await patchProfile(bob.token, { firstName: 'Bob', email: ann.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ email: bob.email, firstName: 'Bob', pendingEmail: ann.email });
    expect((await patchProfile(bob.token, { email: bob.email })).json).toMatchObject({ pendingEmail: null });
  });

  it.each([
    [{ firstName: 'x'.repeat(81) }, 'First name must be at most 80 characters'],
    [{ lastName: 'x'.repeat(81) }, 'Last name must be at most 80 characters'],
    [{ firstName: 12 }, 'First name must be text'],
    [{ email: 'nope' }, 'Email must be a valid e-mail address'],
    [{ email: '' }, 'Email must be a valid e-mail address'],
  ])('answers %j with 400 "%s"', async (body, message) => {
    const { token } = await signIn();
    const res = await patchProfile(token, body);
    expect(res.status).toBe(400);
    expect(res.text).toBe(message);
  });

  it('answers 401 for a deleted account', async () => {
    const { token, email } = await signIn();
    await owner`delete from app.users where email = ${email}`;
    expect((await patchProfile(token, { firstName: 'Ghost' })).text).toBe(EXPIRED);
    expect((await me(token)).text).toBe(EXPIRED);
  });
});
