import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { SSE_HEADERS } from '../../api/routes/live/plan-stream.ts';
import { API_SECURITY_HEADERS, securityHeaders } from './security-headers.ts';

function appWith(route: (app: Hono) => void): Hono {
  const app = new Hono();
  app.use('*', securityHeaders);
  route(app);
  return app;
}

const securityOf = (res: Response) => Object.fromEntries(Object.keys(API_SECURITY_HEADERS).map((name) => [name, res.headers.get(name)]));

describe('securityHeaders', () => {
  it('adds no-store where the route set no Cache-Control, and keeps the one it set', async () => {
    const app = appWith((a) =>
      a.get('/plain', (c) => c.json({ ok: true })).get('/own', (c) => {
        c.header('Cache-Control', 'public, max-age=60');
        return c.json({ ok: true });
      }),
    );
    const plain = await app.request('/plain');
    expect(plain.headers.get('cache-control')).toBe('no-store');
    expect(securityOf(plain)).toEqual(API_SECURITY_HEADERS);
    const own = await app.request('/own');
    expect(own.headers.get('cache-control')).toBe('public, max-age=60');
    expect(securityOf(own)).toEqual(API_SECURITY_HEADERS);
  });

  it('keeps a 304 a 304 with its ETag, and an event stream a stream', async () => {
    const app = appWith((a) =>
      a
        .get('/etag', (c) => {
          c.header('ETag', 'W/"v1"');
          c.header('Cache-Control', 'no-store');
          return c.body(null, 304);
        })
        .get('/events', () => new Response(new ReadableStream({ start: (ctl) => ctl.enqueue(new TextEncoder().encode('retry: 1000\n\n')) }), { headers: SSE_HEADERS })),
    );
    const notModified = await app.request('/etag');
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe('W/"v1"');
    expect(securityOf(notModified)).toEqual(API_SECURITY_HEADERS);

    const stream = await app.request('/events');
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(securityOf(stream)).toEqual(API_SECURITY_HEADERS);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('retry: 1000\n\n');
    await reader.cancel();
  });

  it('is on answers of a thrown error', async () => {
    const app = appWith((a) =>
      a.get('/boom', () => {
        throw new Error('boom');
      }),
    );
    app.onError(() => new Response('Something went wrong on our side', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } }));
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(securityOf(res)).toEqual(API_SECURITY_HEADERS);
  });
});
