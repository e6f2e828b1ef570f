import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_SECONDS, signSessionToken, verifySessionToken } from './tokens.ts';

const SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
const USER = '6f1c2f6e-3b7a-4d1e-9a55-0f2f7b8c9d10';
const SESSION = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
const key = new TextEncoder().encode(SECRET);

function payloadOf(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

describe('session tokens', () => {
  it('round-trips the user id and the session id', async () => {
    const token = await signSessionToken(USER, SESSION, { secret: SECRET });
    expect(await verifySessionToken(token, SECRET)).toEqual({ userId: USER, sessionId: SESSION });
  });

  it('refuses tokens from before sessions (no sid) and a sid that is not a uuid', async () => {
    const old = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('hangplan')
      .setAudience('hangplan')
      .setSubject(USER)
      .setIssuedAt()
      .setExpirationTime('30d')
      .sign(key);
    expect(await verifySessionToken(old, SECRET)).toBeNull();
    const odd = await new SignJWT({ sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('hangplan')
      .setAudience('hangplan')
      .setSubject(USER)
      .setExpirationTime('30d')
      .sign(key);
    expect(await verifySessionToken(odd, SECRET)).toBeNull();
  });

  it('lasts 30 days with issuer and audience hangplan', async () => {
    const now = Date.UTC(2026, 0, 1);
    const payload = payloadOf(await signSessionToken(USER, SESSION, { secret: SECRET, now }));
    expect(payload).toMatchObject({ sub: USER, sid: SESSION, iss: 'hangplan', aud: 'hangplan', iat: now / 1000 });
    expect(payload.exp - payload.iat).toBe(SESSION_SECONDS);
    expect(SESSION_SECONDS).toBe(30 * 24 * 3600);
  });

  it('rejects an expired token', async () => {
    const token = await signSessionToken(USER, SESSION, { secret: SECRET, now: Date.now() - (SESSION_SECONDS + 60) * 1000 });
    expect(await verifySessionToken(token, SECRET)).toBeNull();
  });

  it('rejects another secret, a tampered payload and garbage', async () => {
    const token = await signSessionToken(USER, SESSION, { secret: SECRET });
    expect(await verifySessionToken(token, `${SECRET}-other`)).toBeNull();
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payloadOf(token), sub: crypto.randomUUID() })).toString('base64url');
    expect(await verifySessionToken(`${h}.${forged}.${s}`, SECRET)).toBeNull();
    expect(await verifySessionToken('not.a.jwt', SECRET)).toBeNull();
    expect(await verifySessionToken('', SECRET)).toBeNull();
  });

  it('rejects alg none, a wrong audience or issuer, and a non-uuid sub', async () => {
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: USER, iss: 'hangplan', aud: 'hangplan', exp: 9999999999 }),
    ).toString('base64url')}.`;
    expect(await verifySessionToken(none, SECRET)).toBeNull();
    const sign = (claims: { iss: string; aud: string; sub: string }) =>
      new SignJWT({ sid: SESSION })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(claims.iss)
        .setAudience(claims.aud)
        .setSubject(claims.sub)
        .setExpirationTime('1h')
        .sign(key);
    expect(await verifySessionToken(await sign({ iss: 'hangplan', aud: 'other', sub: USER }), SECRET)).toBeNull();
    expect(await verifySessionToken(await sign({ iss: 'other', aud: 'hangplan', sub: USER }), SECRET)).toBeNull();
    expect(await verifySessionToken(await sign({ iss: 'hangplan', aud: 'hangplan', sub: 'admin' }), SECRET)).toBeNull();
  });

  it('rejects a token without exp', async () => {
    const token = await new SignJWT({ sid: SESSION }).setProtectedHeader({ alg: 'HS256' }).setIssuer('hangplan').setAudience('hangplan').setSubject(USER).sign(key);
    expect(await verifySessionToken(token, SECRET)).toBeNull();
  });

  describe('verified tokens remembered by the instance', () => {
    afterEach(() => vi.useRealTimers());

    it('still refuses a remembered token once it has expired', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const now = Date.UTC(2026, 10, 24, 12);
      vi.setSystemTime(now);
      const token = await signSessionToken(USER, SESSION, { secret: SECRET, now });
      expect(await verifySessionToken(token, SECRET)).toEqual({ userId: USER, sessionId: SESSION });
      vi.setSystemTime(now + SESSION_SECONDS * 1000 - 1000);
      expect(await verifySessionToken(token, SECRET)).toEqual({ userId: USER, sessionId: SESSION });
      vi.setSystemTime(now + SESSION_SECONDS * 1000 + 1000);
      expect(await verifySessionToken(token, SECRET)).toBeNull();
    });

    it('does not carry a token verified with one secret over to another', async () => {
      const token = await signSessionToken(USER, SESSION, { secret: SECRET });
      expect(await verifySessionToken(token, SECRET)).not.toBeNull();
      expect(await verifySessionToken(token, `${SECRET}-rotated`)).toBeNull();
      expect(await verifySessionToken(token, SECRET)).not.toBeNull();
    });

    it('never remembers a token whose signature failed, even if a valid one differs only there', async () => {
      const token = await signSessionToken(USER, SESSION, { secret: SECRET });
      const [h, p] = token.split('.');
      expect(await verifySessionToken(`${h}.${p}.${'A'.repeat(43)}`, SECRET)).toBeNull();
      expect(await verifySessionToken(token, SECRET)).not.toBeNull();
      expect(await verifySessionToken(`${h}.${p}.${'A'.repeat(43)}`, SECRET)).toBeNull();
    });
  });
});
