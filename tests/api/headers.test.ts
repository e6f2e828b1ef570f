// Security headers over HTTP (docs/headers.md "The API"): every
// answer of the function under Deno carries nosniff and the API's strict
// policy, whatever its status or shape (JSON, text/plain errors, 204, 304,
// 404 outside the router, CORS preflights, event streams), and no answer with
// personal data may be stored by a browser or proxy (Cache-Control: no-store).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { api, type ApiResult, testMailbox, uniqueEmail } from '../support/api.ts';
import { cleanUp, newGuest, newPlan, newUser, type User } from '../support/api-world.ts';
import { openSse } from '../support/sse.ts';

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

const securityOf = (headers: Headers) => Object.fromEntries(Object.keys(SECURITY).map((name) => [name, headers.get(name)]));

/** The answer's status (for the message) and its headers must be those of a safe API answer. */
function expectSafe(label: string, res: { status: number; headers: Headers }) {
  expect(securityOf(res.headers), `${label} (${res.status})`).toEqual(SECURITY);
  expect(res.headers.get('cache-control'), `${label} (${res.status})`).toBe('no-store');
}

let host: User;
let planId: string;
beforeAll(async () => {
  host = await newUser('Hana');
  planId = await newPlan(host);
});
afterAll(cleanUp);

describe('every answer carries nosniff and the API policy', () => {
  it('health, and 404s inside and outside the router', async () => {
    expectSafe('health', await api('GET', '/api/health'));
    expectSafe('unknown /api path', await api('GET', '/api/nope'));
    expectSafe('wrong method', await api('PUT', '/api/auth/me'));
    expectSafe('outside /api', await api('GET', '/elsewhere'));
    const hosted = inject('apiUrl').replace(/\/functions\/v1$/, '');
    expectSafe('hosted path shape', await api('GET', '/api/health', { baseUrl: hosted }));
  });

  it('refusals keep their format: one text/plain sentence', async () => {
    const refusals: Array<[string, ApiResult]> = [
      ['malformed JSON', await api('POST', '/api/auth/send-otp', { rawBody: '{"email":' })],
      ['too large', await api('POST', '/api/auth/send-otp', { rawBody: JSON.stringify({ email: 'x'.repeat(20_000) }) })],
      ['not signed in', await api('GET', '/api/auth/me')],
      ['bad token', await api('GET', '/api/auth/me', { token: 'a.b.c' })],
      ['unknown plan', await api('GET', `/api/plans/${randomUUID()}`)],
    ];
    for (const [label, res] of refusals) {
      expect(res.status, label).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('content-type'), label).toBe('text/plain; charset=utf-8');
      expect(res.text, label).toMatch(/^[A-Z][^\n]*[^.\n]$/);
      expectSafe(label, res);
    }
  });

  it('CORS preflights and simple requests keep their CORS headers', async () => {
    const origin = 'http://localhost:5173';
    const preflight = await api('OPTIONS', '/api/auth/profile', {
      headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expectSafe('preflight', preflight);
    const simple = await api('GET', '/api/auth/me', { token: host.token, headers: { origin } });
    expect(simple.headers.get('access-control-allow-origin')).toBe(origin);
    expectSafe('CORS GET', simple);
  });

  it('a plan read and its 304 keep their ETag and no-store', async () => {
    const first = await api('GET', `/api/plans/${planId}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"v\d+"$/);
    expectSafe('plan read', first);
    const again = await api('GET', `/api/plans/${planId}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.text).toBe('');
    expectSafe('plan 304', again);

    const list = await api('GET', '/api/plans', { token: host.token });
    expect(list.status).toBe(200);
    expectSafe('home list', list);
    const listAgain = await api('GET', '/api/plans', { token: host.token, headers: { 'if-none-match': list.headers.get('etag')! } });
    expect(listAgain.status).toBe(304);
    expectSafe('home list 304', listAgain);
  });

  it('event streams stay streams: text/event-stream, unbuffered, events still flow', async () => {
    for (const [label, path, token] of [
      ['plan stream', `/api/plans/${planId}/events`, undefined],
      ['home stream', '/api/plans/events', host.token],
    ] as const) {
      const stream = await openSse(path, { token });
      try {
        expect(stream.status, label).toBe(200);
        expect(stream.headers.get('content-type'), label).toBe('text/event-stream; charset=utf-8');
        expect(stream.headers.get('x-accel-buffering'), label).toBe('no');
        expectSafe(label, stream);
        expect((await stream.next()).event, label).toBe('ready');
      } finally {
        stream.close();
      }
    }
    // A refused stream is an ordinary error answer.
    const refused = await openSse(`/api/plans/${randomUUID()}/events`);
    expect(refused.status).toBe(404);
    expectSafe('refused stream', refused);
    refused.close();
  });
});

describe('personal data is no-store', () => {
  it('every sign-in answer: send-otp, verify-otp (the token), wrong codes', async () => {
    const email = uniqueEmail('headers');
    const sent = await api('POST', '/api/auth/send-otp', { body: { email } });
    expect(sent.status).toBe(204);
    expectSafe('send-otp', sent);
    const code = await testMailbox().latestCodeFor(email);
    const wrong = await api('POST', '/api/auth/verify-otp', { body: { email, code: code === '000000' ? '111111' : '000000' } });
    expect(wrong.status).toBe(400);
    expectSafe('verify-otp, wrong code', wrong);
    const verified = await api<{ token: string }>('POST', '/api/auth/verify-otp', { body: { email, code } });
    expect(verified.status).toBe(200);
    expect(verified.json.token).toBeTruthy();
    expectSafe('verify-otp', verified);
  });

  it('the user, the profile, the interests, the votes, the guest session and the transfer', async () => {
    const token = host.token;
    const answers: Array<[string, ApiResult]> = [
      ['GET /auth/me', await api('GET', '/api/auth/me', { token })],
      ['PATCH /auth/profile', await api('PATCH', '/api/auth/profile', { token, body: { firstName: 'Hana' } })],
      ['GET /users/me/interests', await api('GET', '/api/users/me/interests', { token })],
      ['POST /users/me/interests', await api('POST', '/api/users/me/interests', { token, body: { freeFormText: `Kayaking ${randomUUID().slice(0, 6)}` } })],
      ['GET /plans/{id}/my-votes', await api('GET', `/api/plans/${planId}/my-votes`, { token })],
      ['GET /plans/{id}/participants', await api('GET', `/api/plans/${planId}/participants`, { token })],
      ['GET /interests/catalog', await api('GET', '/api/interests/catalog')],
    ];
    for (const [label, res] of answers) {
      expect(res.status, `${label}: ${res.text}`).toBeLessThan(300);
      expectSafe(label, res);
    }
    const guest = await newGuest(planId);
    expect(guest.id).toBeTruthy();
    // Whatever the transfer answers for a foreign guest, it is not stored anywhere.
    expectSafe('transfer-guest-votes', await api('POST', '/api/auth/transfer-guest-votes', { token, body: { guestId: randomUUID() } }));
    expectSafe('POST /guest-session', await api('POST', '/api/guest-session', { body: { name: `Gus ${randomUUID().slice(0, 6)}`, planId } }));
  });
});
