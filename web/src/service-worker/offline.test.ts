import { describe, expect, it } from 'vitest';
import { type BuildManifest, routeOf, savedReadKey, savedReadsToForget, shellCacheName, shellCachesToDelete } from './offline';

const origin = 'https://hangplan.app';
const build: BuildManifest = { version: 'b2', precache: ['/', '/assets/index-b2.js', '/shell.js', '/manifest.webmanifest'], apiBase: '' };
const get = (url: string, extra: Partial<{ mode: string; accept: string | null; method: string }> = {}) => ({
  method: 'GET',
  url,
  mode: 'cors',
  accept: null,
  ...extra,
});

describe('routeOf', () => {
  it('serves page loads from the network, else the stored index.html; only on the app’s origin', () => {
    expect(routeOf(get(`${origin}/plan/p1`, { mode: 'navigate' }), origin, build)).toBe('navigation');
    expect(routeOf(get('https://elsewhere.example/', { mode: 'navigate' }), origin, build)).toBe('browser');
  });

  it('serves the shell’s files and any hashed asset from the stored builds', () => {
    expect(routeOf(get(`${origin}/assets/index-b2.js`), origin, build)).toBe('shell');
    expect(routeOf(get(`${origin}/shell.js`), origin, build)).toBe('shell');
    // A lazy file of the build before, asked by a tab still on it.
    expect(routeOf(get(`${origin}/assets/ideas-b1.js`), origin, build)).toBe('shell');
    expect(routeOf(get(`${origin}/shell.js?x=1`), origin, build)).toBe('browser');
    expect(routeOf(get(`${origin}/og-image.png`), origin, build)).toBe('browser');
  });

  it('keeps the API’s reads on its own origin or the configured one, never the live stream or a write', () => {
    expect(routeOf(get(`${origin}/api/plans/p1`), origin, build)).toBe('api-read');
    expect(routeOf(get(`${origin}/api/plans/p1/events`, { accept: 'text/event-stream' }), origin, build)).toBe('browser');
    expect(routeOf(get(`${origin}/api/ideas/i1/vote`, { method: 'POST' }), origin, build)).toBe('browser');
    const remote = { ...build, apiBase: 'https://x.supabase.co/functions/v1' };
    expect(routeOf(get('https://x.supabase.co/functions/v1/api/plans/p1'), origin, remote)).toBe('api-read');
    expect(routeOf(get(`${origin}/api/plans/p1`), origin, remote)).toBe('browser');
    expect(routeOf(get('https://x.supabase.co/functions/v1/other'), origin, remote)).toBe('browser');
  });

  it('does nothing in the dev server (no build to store)', () => {
    const dev: BuildManifest = { version: '', precache: [], apiBase: '' };
    expect(routeOf(get(`${origin}/`, { mode: 'navigate' }), origin, dev)).toBe('browser');
    expect(routeOf(get(`${origin}/api/plans/p1`), origin, dev)).toBe('browser');
  });
});

describe('savedReadKey', () => {
  it('keeps one answer per URL and per identity', () => {
    const a = savedReadKey(`${origin}/api/plans/p1?guestId=g1`, 'aaa');
    expect(a).toBe(`${origin}/api/plans/p1?guestId=g1&hangplan-as=aaa`);
    expect(savedReadKey(`${origin}/api/plans/p1?guestId=g1`, 'bbb')).not.toBe(a);
    expect(savedReadKey(`${origin}/api/plans/p2?guestId=g1`, 'aaa')).not.toBe(a);
  });
});

describe('savedReadsToForget', () => {
  it("forgets a person's answers on a 401 to a request with credentials, and a guest's when its own session is refused or gone", () => {
    expect(savedReadsToForget('plans', 401, true)).toBe('identity');
    expect(savedReadsToForget('plans/p1/ideas', 401, true)).toBe('identity');
    // Nobody was named: nobody to forget.
    expect(savedReadsToForget('plans', 401, false)).toBeNull();
    expect(savedReadsToForget('guest-session/g1', 404, true)).toBe('identity');
    expect(savedReadsToForget('guest-session/g1', 403, true)).toBe('identity');
    expect(savedReadsToForget('guest-session/g1', 200, true)).toBeNull();
    expect(savedReadsToForget('guest-session/g1/other-devices', 404, true)).toBeNull();
  });

  it("forgets a plan that is gone (its read is 404), and looks for plans gone from the member's list", () => {
    expect(savedReadsToForget('plans/p1', 404, false)).toBe('plan');
    expect(savedReadsToForget('plans/slug/abc', 404, true)).toBe('plan');
    expect(savedReadsToForget('plans/p1/ideas', 404, false)).toBeNull();
    expect(savedReadsToForget('ideas/i1/comments', 404, false)).toBeNull();
    expect(savedReadsToForget('plans', 200, true)).toBe('plan-list');
    expect(savedReadsToForget('plans/p1', 200, true)).toBeNull();
    expect(savedReadsToForget('plans', 503, true)).toBeNull();
  });
});

describe('shellCachesToDelete', () => {
  it('keeps this build’s shell and the one it replaces, and leaves other caches alone', () => {
    const names = [shellCacheName('b0'), shellCacheName('b1'), shellCacheName('b2'), 'hangplan-reads', 'hangplan-meta', 'other'];
    expect(shellCachesToDelete(names, 'b2', 'b1')).toEqual([shellCacheName('b0')]);
    expect(shellCachesToDelete(names, 'b2', null)).toEqual([shellCacheName('b0'), shellCacheName('b1')]);
  });
});
