// Open live streams are bounded per client network and per instance
// (supabase/functions/api/routes/live/stream-slots.ts): beyond, 429
// with Retry-After and one sentence; a closed stream gives its slot back.
// A second instance with tiny numbers (the shared one is raised for tests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondApi } from '../support/api.ts';
import { cleanUp, newPlan, newUser } from '../support/api-world.ts';
import { openSse, type SseStream } from '../support/sse.ts';

let server: Awaited<ReturnType<typeof startSecondApi>>;
let planId: string;
const streams: SseStream[] = [];

beforeAll(async () => {
  server = await startSecondApi({ LIVE_STREAMS_PER_NETWORK: '2', LIVE_STREAMS_PER_INSTANCE: '3' });
  planId = await newPlan(await newUser('Hana'));
}, 60_000);
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server?.stop();
  await cleanUp();
});

async function watch(ip: string): Promise<SseStream> {
  const stream = await openSse(`/api/plans/${planId}/events`, { baseUrl: server.url, headers: { 'x-forwarded-for': ip } });
  streams.push(stream);
  return stream;
}

describe('open live streams', () => {
  it('per network, then per instance; a closed stream frees its slot', async () => {
    const a1 = await watch('198.51.100.1');
    await watch('198.51.100.1');
    expect(a1.status).toBe(200);
    const third = await watch('198.51.100.1');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('30');
    expect(third.text).toBe('Too many live connections from your network, please try again in 30 seconds');

    expect((await watch('198.51.100.2')).status).toBe(200);
    const full = await watch('198.51.100.3');
    expect(full.status).toBe(429);
    expect(full.text).toBe('Too many live connections right now, please try again in 30 seconds');

    a1.close();
    await expect.poll(async () => (await watch('198.51.100.3')).status, { timeout: 5000 }).toBe(200);
  });

  it('a refused plan (404) takes no slot for good', async () => {
    streams.splice(0).forEach((s) => s.close());
    const unknown = '00000000-0000-4000-8000-000000000000';
    const ip = '198.51.100.9';
    await expect
      .poll(async () => (await openSse(`/api/plans/${unknown}/events`, { baseUrl: server.url, headers: { 'x-forwarded-for': ip } })).status, { timeout: 5000 })
      .toBe(404);
    for (let i = 0; i < 3; i++) {
      const res = await openSse(`/api/plans/${unknown}/events`, { baseUrl: server.url, headers: { 'x-forwarded-for': ip } });
      expect(res.status).toBe(404);
    }
    // Its two slots are all still free.
    expect((await watch(ip)).status).toBe(200);
    expect((await watch(ip)).status).toBe(200);
  });
});
