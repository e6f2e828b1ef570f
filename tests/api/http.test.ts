// The HTTP shell of the function under Deno: paths, errors, limits, CORS.
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { api, type ApiResult } from '../support/api.ts';

const ALLOWED_ORIGIN = 'http://localhost:5173';

function expectError(res: ApiResult, status: number, text: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(res.text).toBe(text);
}

describe('HTTP basics', () => {
  it('answers health under /functions/v1/api (local) and /api (hosted shape)', async () => {
    const local = await api('GET', '/api/health');
    expect(local.status).toBe(200);
    expect(local.json).toEqual({ ok: true });
    const hosted = await api('GET', '/api/health', { baseUrl: inject('apiUrl').replace(/\/functions\/v1$/, '') });
    expect(hosted.json).toEqual({ ok: true });
  });

  it('answers unknown paths with 404 Not found', async () => {
    expectError(await api('GET', '/api/nope'), 404, 'Not found');
    expectError(await api('POST', '/api/auth/nope', { body: {} }), 404, 'Not found');
    expectError(await api('PUT', '/api/auth/me'), 404, 'Not found');
  });

  it('answers malformed JSON with 400', async () => {
    expectError(await api('POST', '/api/auth/send-otp', { rawBody: '{"email":' }), 400, 'Request body must be valid JSON');
    expectError(await api('POST', '/api/auth/verify-otp', { rawBody: "{'email': 1}" }), 400, 'Request body must be valid JSON');
  });

  it('answers bodies over 16 KB with 413', async () => {
    const rawBody = JSON.stringify({ email: 'a@b.co', padding: 'x'.repeat(20_000) });
    expectError(await api('POST', '/api/auth/send-otp', { rawBody }), 413, 'Request body is too large');
  });

  it('answers 400 (never 500) to wrong shapes and types', async () => {
    for (const body of [null, [], 'a@b.co', 12, { email: { $ne: 1 } }, { email: ['a@b.co'] }]) {
      const res = await api('POST', '/api/auth/send-otp', { body });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    }
  });

  it('sends CORS headers with credentials to allowed origins only', async () => {
    const preflight = (origin: string) =>
      api('OPTIONS', '/api/auth/send-otp', {
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
    const allowed = await preflight(ALLOWED_ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('PATCH');

    const refused = await preflight('https://evil.example');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();

    const simple = await api('GET', '/api/health', { headers: { origin: ALLOWED_ORIGIN } });
    expect(simple.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    const error = await api('GET', '/api/auth/me', { headers: { origin: ALLOWED_ORIGIN } });
    expect(error.status).toBe(401);
    expect(error.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect((await api('GET', '/api/health', { headers: { origin: 'https://evil.example' } })).headers.get('access-control-allow-origin')).toBeNull();
  });
});
