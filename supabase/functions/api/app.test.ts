// The app through app.request(), without a database: everything here is
// decided before a handler opens a transaction.
import { beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_INVALID } from '../_shared/contract/idempotency.ts';
import { app } from './app.ts';

const ALLOWED = 'http://localhost:5173';

beforeAll(() => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  process.env.ALLOWED_ORIGINS = `${ALLOWED}, https://hangplan.example`;
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  app.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

async function expectText(res: Response, status: number, text: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(await res.text()).toBe(text);
}

describe('app', () => {
  it('answers health without a database', async () => {
    const res = await app.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('answers unknown paths and methods with 404 Not found', async () => {
    await expectText(await app.request('/api/nope'), 404, 'Not found');
    await expectText(await app.request('/api'), 404, 'Not found');
    await expectText(await app.request('/elsewhere'), 404, 'Not found');
    await expectText(await app.request('/api/auth/me', { method: 'DELETE' }), 404, 'Not found');
  });

  it('rejects malformed JSON with 400', async () => {
    await expectText(await post('/api/auth/send-otp', '{"email": '), 400, 'Request body must be valid JSON');
  });

  it('validates before touching the database', async () => {
    await expectText(await post('/api/auth/send-otp', '{}'), 400, 'Email is required');
    await expectText(await post('/api/auth/send-otp', ''), 400, 'Email is required');
    await expectText(await post('/api/auth/send-otp', '[1]'), 400, 'Request body must be a JSON object');
    await expectText(await post('/api/auth/verify-otp', '{"email":"a@b.co","code":"12"}'), 400, 'Code must be 6 digits');
  });

  it('refuses bodies over 16 KB with 413, with and without Content-Length', async () => {
    const big = JSON.stringify({ email: `${'a'.repeat(17 * 1024)}@b.co` });
    await expectText(await post('/api/auth/send-otp', big), 413, 'Request body is too large');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const res = await app.request('/api/auth/send-otp', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    await expectText(res, 413, 'Request body is too large');
  });

  it('needs a token for /me and /profile, and says when a token is bad', async () => {
    await expectText(await app.request('/api/auth/me'), 401, 'Not signed in');
    await expectText(await app.request('/api/auth/profile', { method: 'PATCH', body: '{}' }), 401, 'Not signed in');
    for (const authorization of ['Bearer nope', 'Bearer ', 'Basic abc', 'Bearer a.b.c']) {
      await expectText(
        await app.request('/api/auth/me', { headers: { authorization } }),
        401,
        'Your session has expired, please sign in again',
      );
    }
  });

  it('refuses a malformed Idempotency-Key with 400 before touching the database', async () => {
    const idea = '6b1f0c2e-0001-4c8a-9a61-000000000001';
    for (const key of ['', 'short', 'x'.repeat(101), 'has space in it', 'bad/char/s', 'key.with.dots']) {
      const res = await app.request(`/api/ideas/${idea}/vote`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
      });
      await expectText(res, 400, IDEMPOTENCY_KEY_INVALID);
    }
  });

  it('sends CORS headers with credentials to allowed origins only', async () => {
    const preflight = (origin: string) =>
      app.request('/api/auth/send-otp', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
      });
    const allowed = await preflight(ALLOWED);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    // The guest's device secret travels in a header of its own.
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-guest-secret');
    // A vote or comment sent again names itself, and the answer says when it was replayed.
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    expect((await preflight('https://hangplan.example')).headers.get('access-control-allow-origin')).toBe('https://hangplan.example');
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();

    const error = await app.request('/api/nope', { headers: { origin: ALLOWED } });
    expect(error.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(error.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('idempotent-replayed');
    const thrown = await post('/api/auth/send-otp', '{', { origin: ALLOWED });
    expect(thrown.status).toBe(400);
    expect(thrown.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });
});

describe('security headers (docs/headers.md "The API")', () => {
  const SECURITY = {
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };
  const expectSecure = (res: Response) =>
    expect(Object.fromEntries(Object.keys(SECURITY).map((name) => [name, res.headers.get(name)]))).toEqual(SECURITY);

  it('are on answers decided before any handler: health, 404s in and outside /api, 400, 401, 413, preflights', async () => {
    expectSecure(await app.request('/api/health'));
    expectSecure(await app.request('/api/nope'));
    expectSecure(await app.request('/elsewhere'));
    expectSecure(await app.request('/api/auth/me', { method: 'DELETE' }));
    expectSecure(await post('/api/auth/send-otp', '{'));
    expectSecure(await app.request('/api/auth/me'));
    expectSecure(await post('/api/auth/send-otp', JSON.stringify({ email: 'x'.repeat(17 * 1024) })));
    const preflight = await app.request('/api/auth/send-otp', {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expectSecure(preflight);
  });

  it('leave the error format alone: text/plain, one sentence', async () => {
    await expectText(await app.request('/api/auth/me'), 401, 'Not signed in');
  });
});
