import { describe, expect, it } from 'vitest';
import { stripFunctionsPrefix } from './app.ts';
import { handler } from './handler.ts';

describe('stripFunctionsPrefix', () => {
  it('removes a leading /functions/v1 (local serving) and leaves hosted paths alone', () => {
    expect(stripFunctionsPrefix('/functions/v1/api/health')).toBe('/api/health');
    expect(stripFunctionsPrefix('/functions/v1/api')).toBe('/api');
    expect(stripFunctionsPrefix('/functions/v1')).toBe('/');
    expect(stripFunctionsPrefix('/api/health')).toBe('/api/health');
    expect(stripFunctionsPrefix('/functions/v10/api')).toBe('/functions/v10/api');
    expect(stripFunctionsPrefix('/x/functions/v1/api')).toBe('/x/functions/v1/api');
  });
});

describe('handler', () => {
  it('serves both path shapes, keeping the query string', async () => {
    for (const url of ['http://h/functions/v1/api/health?x=1', 'http://h/api/health']) {
      const res = await handler(new Request(url));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
    }
  });

  it('keeps method and body under the local prefix', async () => {
    const res = await handler(
      new Request('http://h/functions/v1/api/auth/send-otp', { method: 'POST', body: '{"email":"nope"}' }),
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('Email must be a valid e-mail address');
  });
});
