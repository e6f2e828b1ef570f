// The abuse-limit counters (20261124100000_rate_limits.sql): private.hit_rate_limit
// and private.enforce_rate_limits, as the API calls them (under anon/authenticated).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, freshDatabase, pgError, runAs, type Claims, type TestDatabase } from '../support/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db?.close());

const anon: Claims = { role: 'anon' };
const key = (name = 'test') => `${name}:${randomUUID()}`;

const hit = (k: string, max: number, window: number, claims: Claims = anon) =>
  db.as(claims, async (sql) => (await sql`select private.hit_rate_limit(${k}, ${max}, ${window}) as wait`)[0].wait as number);

const enforce = (limits: unknown[], claims: Claims = anon) =>
  db.as(claims, (sql) => sql`select private.enforce_rate_limits(${JSON.stringify(limits)}::text::jsonb)`);

const counter = async (k: string) =>
  (await db.owner`select hits, extract(epoch from window_ends_at - now())::float as left from app.rate_limit_counters where key = ${k}`)[0] as
    | { hits: number; left: number }
    | undefined;

describe('private.hit_rate_limit', () => {
  it('counts up to max in a window, then answers the seconds left (not counting)', async () => {
    const k = key();
    for (let i = 0; i < 3; i += 1) expect(await hit(k, 3, 600)).toBe(0);
    const wait = await hit(k, 3, 600);
    expect(wait).toBeGreaterThan(590);
    expect(wait).toBeLessThanOrEqual(600);
    expect((await counter(k))?.hits).toBe(3);
  });

  it('a new window starts with the first hit after the old one ended', async () => {
    const k = key();
    expect(await hit(k, 1, 60)).toBe(0);
    expect(await hit(k, 1, 60)).toBeGreaterThan(0);
    await db.owner`update app.rate_limit_counters set window_ends_at = now() - interval '1 second' where key = ${k}`;
    expect(await hit(k, 1, 60)).toBe(0);
    const row = await counter(k);
    expect(row?.hits).toBe(1);
    expect(row?.left).toBeGreaterThan(55);
    expect(await hit(k, 1, 60)).toBeGreaterThan(0);
  });

  it('keys are independent; authenticated callers use it too', async () => {
    const a = key();
    const b = key();
    expect(await hit(a, 1, 60)).toBe(0);
    expect(await hit(b, 1, 60, { role: 'authenticated', sub: randomUUID() })).toBe(0);
    expect(await hit(a, 1, 60)).toBeGreaterThan(0);
  });

  it('answers at least 1 second, never 0, while full', async () => {
    const k = key();
    expect(await hit(k, 1, 1)).toBe(0);
    const wait = await hit(k, 1, 1);
    expect(wait).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad arguments as a bug (a plain exception), not as input', async () => {
    for (const [k, max, window] of [
      ['', 1, 1],
      ['x'.repeat(201), 1, 1],
      [key(), 0, 60],
      [key(), 1, 0],
    ] as const) {
      const error = await pgError(hit(k, max, window));
      expect(error.code).toBe('P0001');
    }
  });

  it('housekeeping: each hit that starts a window deletes up to 4 counters whose window ended over a minute ago', async () => {
    const stale = Array.from({ length: 6 }, () => key('stale'));
    for (const k of stale) {
      await db.owner`insert into app.rate_limit_counters (key, window_ends_at, hits) values (${k}, now() - interval '2 minutes', 1)`;
    }
    const recent = key('recent');
    await db.owner`insert into app.rate_limit_counters (key, window_ends_at, hits) values (${recent}, now() - interval '10 seconds', 1)`;
    const count = async () =>
      (await db.owner`select count(*)::int as n from app.rate_limit_counters where key = any(${[...stale, recent]})`)[0].n as number;
    expect(await count()).toBe(7);
    await hit(key(), 5, 60);
    expect(await count()).toBe(3);
    await hit(key(), 5, 60);
    // Every stale one is gone; the one that ended 10 s ago stays for now.
    expect(await count()).toBe(1);
  });

  it('housekeeping: a hit inside a running window is the count alone', async () => {
    const running = key('running');
    await hit(running, 5, 60);
    const stale = key('stale');
    await db.owner`insert into app.rate_limit_counters (key, window_ends_at, hits) values (${stale}, now() - interval '2 minutes', 1)`;
    const staleLeft = async () => (await db.owner`select 1 from app.rate_limit_counters where key = ${stale}`).length;
    await hit(running, 5, 60);
    expect(await staleLeft()).toBe(1);
    expect((await db.owner`select hits from app.rate_limit_counters where key = ${running}`)[0].hits).toBe(2);
    // The next window somebody starts takes it away.
    await hit(key(), 5, 60);
    expect(await staleLeft()).toBe(0);
  });

  it('is atomic: N parallel hits on one key never exceed max', async () => {
    const k = key('parallel');
    const pool = db.pool(12);
    const attempts = 40;
    const results = await Promise.all(
      Array.from({ length: attempts }, () =>
        runAs(pool, anon, async (sql) => (await sql`select private.hit_rate_limit(${k}, 10, 600) as wait`)[0].wait as number),
      ),
    );
    expect(results.filter((wait) => wait === 0)).toHaveLength(10);
    expect(results.filter((wait) => wait > 0)).toHaveLength(attempts - 10);
    expect((await counter(k))?.hits).toBe(10);
  });

  it('the request roles cannot read or write the counters directly', async () => {
    await expectDenied(db.as(anon, (sql) => sql`select * from app.rate_limit_counters`));
    await expectDenied(db.as({ role: 'authenticated', sub: randomUUID() }, (sql) => sql`delete from app.rate_limit_counters`));
    await expectDenied(
      db.as(anon, (sql) => sql`insert into app.rate_limit_counters (key, window_ends_at, hits) values ('x', now(), 1)`),
    );
  });
});

describe('private.enforce_rate_limits', () => {
  it('raises HP429 with the message and the seconds to wait as DETAIL', async () => {
    const k = key();
    const limits = [{ key: k, max: 2, window: 300, message: 'Too many ideas in a short time' }];
    await enforce(limits);
    await enforce(limits);
    try {
      await enforce(limits);
      expect.fail('expected HP429');
    } catch (error) {
      const e = error as { code: string; message: string; detail: string };
      expect(e.code).toBe('HP429');
      expect(e.message).toBe('Too many ideas in a short time');
      expect(Number(e.detail)).toBeGreaterThan(290);
      expect(Number(e.detail)).toBeLessThanOrEqual(300);
    }
    expect((await counter(k))?.hits).toBe(2);
  });

  it('hits every key in order; a full later key rolls back the earlier hits of the request', async () => {
    const ip = key('ip');
    const global = key('global');
    await enforce([{ key: global, max: 1, window: 60, message: 'Too many codes right now' }]);
    await expectPgError(
      enforce([
        { key: ip, max: 5, window: 60, message: 'Too many from your network' },
        { key: global, max: 1, window: 60, message: 'Too many codes right now' },
      ]),
      'HP429',
      'Too many codes right now',
    );
    expect(await counter(ip)).toBeUndefined();
  });

  it('a request that fails later rolls its hits back: only what happened counts', async () => {
    const k = key();
    await expect(
      db.as(anon, async (sql) => {
        await sql`select private.enforce_rate_limits(${JSON.stringify([{ key: k, max: 1, window: 60, message: 'x' }])}::text::jsonb)`;
        await sql`select 1 / 0`;
      }),
    ).rejects.toThrow();
    expect(await counter(k)).toBeUndefined();
    await enforce([{ key: k, max: 1, window: 60, message: 'x' }]);
    expect((await counter(k))?.hits).toBe(1);
  });

  it('an empty list is fine', async () => {
    await enforce([]);
  });
});
