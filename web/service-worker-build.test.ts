// The service worker's bundle (service-worker-build.ts): one classic script
// with nothing left to load, run here in a vm context standing in for the
// worker's global scope, with a Cache Storage and a network of its own. It
// really shows a push as a notification and opens its page on a tap, and, in
// a build, stores the shell, keeps the API's answers and serves them with no
// network.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildManifest, bundleServiceWorker, PUBLIC_SHELL_FILES } from './service-worker-build';
import { MemoryCaches } from './src/test/memory-caches';
import { handOver, keptAnswer, SYNC_TAG } from './src/service-worker/background-sync';
import { type BuildManifest, SAVED_AT_HEADER, shellCacheName, TAKE_OVER_MESSAGE } from './src/service-worker/offline';

type Listener = (event: Record<string, unknown>) => void;
const ORIGIN = 'https://hangplan.app';

function runWorker(code: string, network: (request: Request) => Promise<Response>) {
  const listeners = new Map<string, Listener>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  let skippedWaiting = false;
  const caches = new MemoryCaches(ORIGIN);
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: async () => void (skippedWaiting = true),
    clients: {
      claim: async () => {},
      matchAll: async () => [],
      openWindow: async (url: string) => void opened.push(url),
    },
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => void shown.push({ title, options }),
    },
  };
  // Relative URLs are the worker's origin's, as in a worker.
  class WorkerRequest extends Request {
    constructor(input: Request | string, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, ORIGIN) : input, init);
    }
  }
  const fetch = (input: Request | string, init?: RequestInit) => network(typeof input === 'string' ? new Request(new URL(input, ORIGIN), init) : input);
  runInNewContext(code, {
    self, caches, fetch, crypto, Request: WorkerRequest, Response, Headers, TextEncoder, Uint8Array, URL, JSON, Promise, Object, Array, Symbol,
    Error, Map, Set, WeakMap, Reflect, RegExp, Number, String, Boolean, Date, Math, AbortSignal, encodeURIComponent, decodeURIComponent,
  });
  /** Everything handed to waitUntil, also after the handler returned (a fetch's work after its answer). */
  const extended: Promise<unknown>[] = [];
  const fire = async (type: string, event: Record<string, unknown>) => {
    const waited: Promise<unknown>[] = [];
    listeners.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => void (waited.push(p), extended.push(p)) });
    await Promise.all(waited);
  };
  /** Waits for every waitUntil so far (what the worker does after answering). */
  const settled = async () => {
    while (extended.length > 0) await Promise.all(extended.splice(0));
  };
  /** A fetch event: what the worker answers, or null when it leaves the request to the browser. */
  const request = async (req: Request, mode = 'cors') => {
    let answer: Promise<Response> | null = null;
    const event = Object.assign({ request: Object.defineProperty(req, 'mode', { value: mode }) }, {
      respondWith: (p: Promise<Response>) => void (answer = p),
    });
    await fire('fetch', event);
    return answer as Promise<Response> | null;
  };
  return { listeners, shown, opened, fire, request, settled, caches, skippedWaiting: () => skippedWaiting };
}

const noNetwork = async (): Promise<Response> => {
  throw new TypeError('Failed to fetch');
};

describe('the service worker bundle', () => {
  it('is one classic script (no import, no export) that shows a push and opens its page on a tap', { timeout: 30_000 }, async () => {
    const code = await bundleServiceWorker(true);
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    const worker = runWorker(code, noNetwork);
    expect([...worker.listeners.keys()].sort()).toEqual(['activate', 'fetch', 'install', 'message', 'notificationclick', 'push', 'sync']);

    const message = { title: 'Friday hangout', body: 'The host locked Fri, Nov 28.', url: '/l/abc123', tag: 'hangplan-7' };
    await worker.fire('push', { data: { text: () => JSON.stringify(message) } });
    expect(worker.shown).toEqual([
      { title: 'Friday hangout', options: expect.objectContaining({ body: message.body, tag: message.tag, data: { url: '/l/abc123' } }) },
    ]);

    let closed = false;
    await worker.fire('notificationclick', { notification: { data: { url: '/l/abc123' }, close: () => (closed = true) } });
    expect(closed).toBe(true);
    expect(worker.opened).toEqual(['/l/abc123']);
  });

  it('in the dev server, stores nothing and leaves every request to the browser', { timeout: 30_000 }, async () => {
    const worker = runWorker(await bundleServiceWorker(false), noNetwork);
    await worker.fire('install', {});
    expect(await worker.caches.keys()).toEqual([]);
    expect(await worker.request(new Request(`${ORIGIN}/api/plans/p1`))).toBeNull();
  });
});

describe("a build's worker", () => {
  const manifest: BuildManifest = { version: 'v2', precache: ['/', '/assets/index-v2.js', '/shell.js'], apiBase: '' };
  const files: Record<string, string> = { '/': '<html>v2</html>', '/assets/index-v2.js': 'app v2', '/shell.js': 'shell' };

  it('stores the shell on install, and opens pages from it with no network', { timeout: 30_000 }, async () => {
    const fetched: string[] = [];
    let online = true;
    const worker = runWorker(await bundleServiceWorker(false, manifest), async (req) => {
      if (!online) throw new TypeError('Failed to fetch');
      const path = new URL(req.url).pathname;
      fetched.push(path);
      return path in files ? new Response(files[path]) : new Response('Not found', { status: 404 });
    });
    await worker.fire('install', {});
    expect(fetched.sort()).toEqual(['/', '/assets/index-v2.js', '/shell.js']);
    await worker.fire('activate', {});

    online = false;
    const page = await worker.request(new Request(`${ORIGIN}/l/abc123`), 'navigate');
    expect(await (await page!).text()).toBe('<html>v2</html>');
    expect(await (await (await worker.request(new Request(`${ORIGIN}/assets/index-v2.js`)))!).text()).toBe('app v2');
  });

  it("keeps each identity's last answer of an API read and serves it, marked with when it was saved, when the network fails", { timeout: 30_000 }, async () => {
    let online = true;
    let version = 1;
    const worker = runWorker(await bundleServiceWorker(false, manifest), async (req) => {
      if (!online) throw new TypeError('Failed to fetch');
      if (req.headers.get('If-None-Match') === `W/"v${version}"`) return new Response(null, { status: 304, headers: { ETag: `W/"v${version}"` } });
      return Response.json({ title: 'Friday', version, as: req.headers.get('Authorization') }, { headers: { ETag: `W/"v${version}"` } });
    });
    const read = (auth: string, etag?: string) =>
      worker.request(new Request(`${ORIGIN}/api/plans/p1`, { headers: { Authorization: auth, ...(etag ? { 'If-None-Match': etag } : {}) } }));

    const fresh = await (await read('Bearer a'))!;
    expect(fresh.headers.get(SAVED_AT_HEADER)).toBeNull();
    expect(await fresh.json()).toMatchObject({ version: 1 });
    version = 2;
    await (await read('Bearer a'))!;
    const before = Date.now();
    // A 304 confirms the saved answer as of now.
    expect((await (await read('Bearer a', 'W/"v2"'))!).status).toBe(304);

    online = false;
    const saved = await (await read('Bearer a'))!;
    expect(await saved.json()).toEqual({ title: 'Friday', version: 2, as: 'Bearer a' });
    expect(Number(saved.headers.get(SAVED_AT_HEADER))).toBeGreaterThanOrEqual(before);
    expect(saved.headers.get('ETag')).toBe('W/"v2"');
    // Someone else on this device never gets it.
    await expect(read('Bearer b')).rejects.toThrow('Failed to fetch');
  });

  it("forgets what it saved of someone the server no longer knows, and of a plan left, removed or deleted", { timeout: 30_000 }, async () => {
    // The server as this test scripts it: each path answers what `answers` says now.
    const answers = new Map<string, () => Response>();
    const worker = runWorker(await bundleServiceWorker(false, manifest), async (req) => {
      const url = new URL(req.url);
      const answer = answers.get(url.pathname + url.search);
      if (!answer) throw new TypeError('Failed to fetch');
      return answer();
    });
    const read = async (path: string, headers: Record<string, string>) => {
      await (await worker.request(new Request(`${ORIGIN}${path}`, { headers })))!;
      await worker.settled();
    };
    const ana = { Authorization: 'Bearer ana' };
    const gus = { 'X-Guest-Secret': 'gus-secret' };
    const savedNow = async () =>
      (await (await worker.caches.open('hangplan-reads')).keys()).map((r) => new URL(r.url).pathname).sort();

    answers.set('/api/plans', () => Response.json([{ id: 'p1' }, { id: 'p2' }]));
    answers.set('/api/plans/p1', () => Response.json({ id: 'p1', slug: 'one' }));
    answers.set('/api/plans/p1/ideas', () => Response.json([{ id: 'i1' }]));
    answers.set('/api/ideas/i1/comments', () => Response.json([]));
    answers.set('/api/plans/p2', () => Response.json({ id: 'p2', slug: 'two' }));
    answers.set('/api/plans/slug/three', () => Response.json({ id: 'p3', slug: 'three' }));
    answers.set('/api/guest-session/g1', () => Response.json({ id: 'g1' }));
    for (const path of ['/api/plans', '/api/plans/p1', '/api/plans/p1/ideas', '/api/ideas/i1/comments', '/api/plans/p2']) await read(path, ana);
    for (const path of ['/api/plans/slug/three', '/api/guest-session/g1']) await read(path, gus);
    expect(await savedNow()).toHaveLength(7);

    // Ana left p1 (on another phone, or the host removed her): her new list no longer has it.
    answers.set('/api/plans', () => Response.json([{ id: 'p2' }]));
    await read('/api/plans', ana);
    expect(await savedNow()).toEqual(['/api/guest-session/g1', '/api/plans', '/api/plans/p2', '/api/plans/slug/three'].sort());

    // Gus was removed: his own session read is 404, and what was saved for him goes.
    answers.set('/api/guest-session/g1', () => new Response('Guest not found', { status: 404 }));
    await read('/api/guest-session/g1', gus);
    expect(await savedNow()).toEqual(['/api/plans', '/api/plans/p2']);
    // A read of his still on its way (the page had not heard yet) is not saved either.
    await read('/api/plans/slug/three', gus);
    expect(await savedNow()).toEqual(['/api/plans', '/api/plans/p2']);

    // p2 was deleted: its read is 404.
    answers.set('/api/plans/p2', () => new Response('Plan not found', { status: 404 }));
    await read('/api/plans/p2', ana);
    expect(await savedNow()).toEqual(['/api/plans']);

    // Ana's session ended elsewhere: a 401, and nothing of hers stays.
    answers.set('/api/plans', () => new Response('Your session has expired, please sign in again', { status: 401 }));
    await read('/api/plans', ana);
    expect(await savedNow()).toEqual([]);
  });

  it('waits to take over until a page says so, then keeps only its shell and the one it replaced', { timeout: 30_000 }, async () => {
    const worker = runWorker(await bundleServiceWorker(false, manifest), async () => new Response('file'));
    for (const old of ['v0', 'v1']) await worker.caches.open(shellCacheName(old));
    const meta = await worker.caches.open('hangplan-meta');
    await meta.put('/active-build', new Response('v1'));

    await worker.fire('install', {});
    expect(worker.skippedWaiting()).toBe(false);
    let answer: unknown;
    await worker.fire('message', { data: { type: 'hangplan:has-file', path: '/assets/index-v2.js' }, ports: [{ postMessage: (a: unknown) => (answer = a) }] });
    expect(answer).toBe(true);
    await worker.fire('message', { data: { type: 'hangplan:has-file', path: '/assets/index-v1.js' }, ports: [{ postMessage: (a: unknown) => (answer = a) }] });
    expect(answer).toBe(false);
    await worker.fire('message', { data: TAKE_OVER_MESSAGE });
    expect(worker.skippedWaiting()).toBe(true);

    await worker.fire('activate', {});
    expect((await worker.caches.keys()).filter((name) => name.startsWith('hangplan-shell-')).sort()).toEqual([shellCacheName('v1'), shellCacheName('v2')]);
  });
  it('sends the votes handed to it when the browser fires the sync, in tap order, once, and keeps the answers for the page', { timeout: 30_000 }, async () => {
    let online = false;
    const sent: Array<[string, string | null, string | null, string]> = [];
    const worker = runWorker(await bundleServiceWorker(false, manifest), async (req) => {
      if (!online) throw new TypeError('Failed to fetch');
      sent.push([new URL(req.url).pathname, req.headers.get('Idempotency-Key'), req.headers.get('X-Guest-Secret'), await req.text()]);
      return Response.json({ voted: true, voteCount: sent.length });
    });
    const handed = (key: string, idea: string, at: number) =>
      handOver(worker.caches, {
        key,
        url: `${ORIGIN}/api/ideas/${idea}/vote`,
        headers: [['Idempotency-Key', key], ['Content-Type', 'application/json'], ['X-Guest-Secret', 's3cret']],
        body: '{"guestId":"g1"}',
        at,
        seq: 1,
      });
    await handed('k2', 'i2', 2000);
    await handed('k1', 'i1', 1000);

    // Still no network: the sync fails, so the browser fires it again later.
    await expect(worker.fire('sync', { tag: SYNC_TAG })).rejects.toThrow('Failed to fetch');
    expect(await keptAnswer(worker.caches, 'k1')).toBeNull();

    online = true;
    await worker.fire('sync', { tag: 'someone-else' });
    expect(sent).toEqual([]);
    await worker.fire('sync', { tag: SYNC_TAG });
    expect(sent).toEqual([
      ['/api/ideas/i1/vote', 'k1', 's3cret', '{"guestId":"g1"}'],
      ['/api/ideas/i2/vote', 'k2', 's3cret', '{"guestId":"g1"}'],
    ]);
    expect(await (await keptAnswer(worker.caches, 'k1'))!.json()).toEqual({ voted: true, voteCount: 1 });
    expect(await (await keptAnswer(worker.caches, 'k2'))!.json()).toEqual({ voted: true, voteCount: 2 });
    // Once sent, not again.
    await worker.fire('sync', { tag: SYNC_TAG });
    expect(sent).toHaveLength(2);
  });
});

describe('buildManifest', () => {
  it("lists the build's files (index.html as /) and the public shell files, and changes with any unhashed file", () => {
    const files = [
      { fileName: 'index.html', content: '<html>a</html>' },
      { fileName: 'assets/index-abc.js', content: 'code' },
      { fileName: 'assets/index-abc.js.map', content: '{}' },
      { fileName: 'sw.js', content: 'worker' },
    ];
    const a = buildManifest(files, '');
    expect(a.precache).toEqual(['/', '/assets/index-abc.js', ...PUBLIC_SHELL_FILES].sort());
    expect(a.version).toMatch(/^[0-9a-f]{16}$/);
    expect(buildManifest(files, '').version).toBe(a.version);
    expect(buildManifest([{ ...files[0]!, content: '<html>b</html>' }, ...files.slice(1)], '').version).not.toBe(a.version);
    expect(buildManifest(files, 'https://x.supabase.co/functions/v1').version).not.toBe(a.version);
  });
});
