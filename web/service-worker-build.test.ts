// The service worker's bundle (service-worker-build.ts): one classic script
// with nothing left to load, which really shows a push as a notification and
// opens its page on a tap: run here in a vm context standing in for the
// worker's global scope.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bundleServiceWorker } from './service-worker-build';

type Listener = (event: Record<string, unknown>) => void;

function runWorker(code: string) {
  const listeners = new Map<string, Listener>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const waited: Promise<unknown>[] = [];
  const self = {
    location: { origin: 'https://hangplan.app' },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: async () => {},
    clients: {
      claim: async () => {},
      matchAll: async () => [],
      openWindow: async (url: string) => void opened.push(url),
    },
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => void shown.push({ title, options }),
    },
  };
  runInNewContext(code, { self, URL, JSON, Promise, Object, Array, Symbol, Error, Map, Set, WeakMap, Reflect, RegExp, Number, String, Boolean, Date, Math });
  const fire = async (type: string, event: Record<string, unknown>) => {
    listeners.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => waited.push(p) });
    await Promise.all(waited);
  };
  return { listeners, shown, opened, fire };
}

describe('the service worker bundle', () => {
  it('is one classic script (no import, no export) that shows a push and opens its page on a tap', { timeout: 30_000 }, async () => {
    const code = await bundleServiceWorker(true);
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    const worker = runWorker(code);
    expect([...worker.listeners.keys()].sort()).toEqual(['activate', 'install', 'notificationclick', 'push']);

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
});
