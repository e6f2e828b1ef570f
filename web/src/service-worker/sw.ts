/// <reference lib="webworker" />
// Hangplan's service worker, built by web/service-worker-build.ts into /sw.js
// (a classic script: every browser with a service worker runs it); checked by
// web/src/service-worker/tsconfig.json, since it runs on the worker's types.
//   - Offline (docs/offline.md "Offline"): the build's shell is stored on
//     install, pages open from it with no network, and the API's last answers
//     are kept (offline.ts decides what goes where) until an answer says
//     their person or plan is gone (saved-reads.ts).
//   - Updates: a new build's worker installs in the background and waits;
//     the page tells it to take over at a safe moment (lib/app-update.ts)
//     and reloads.
//   - Web Push (docs/notifications.md "In the browser"): each message is shown
//     as a notification, and a tap opens its page.
//   - Background Sync (background-sync.ts): votes and comments made with no
//     network are sent once it is back, even with every tab closed.
import { GUEST_SECRET_HEADER } from '../../../supabase/functions/_shared/contract/guest-secret';
import {
  ACTIVE_BUILD_KEY,
  apiPrefix,
  type BuildManifest,
  isHasFileQuestion,
  META_CACHE,
  READS_CACHE,
  routeOf,
  SAVED_AT_HEADER,
  savedReadsToForget,
  savedReadKey,
  shellCacheName,
  shellCachesToDelete,
  TAKE_OVER_MESSAGE,
} from './offline';
import { notificationOf, windowToFocus } from './open-page';
import { SENDER_LOCK, sendHandedActions, SYNC_TAG } from './background-sync';
import { forgetSavedReads, planIdOfSlug, planIdsOf, savedAnswer } from './saved-reads';

declare const self: ServiceWorkerGlobalScope;
/** Put in by the build (service-worker-build.ts). */
declare const __HANGPLAN_BUILD__: BuildManifest;
const build = __HANGPLAN_BUILD__;

// ---- Install and take over -------------------------------------------------

/** The build's shell, in a cache of its own; a hashed file an earlier build already stored is copied, not fetched. */
async function storeShell(): Promise<void> {
  const cache = await caches.open(shellCacheName(build.version));
  await Promise.all(
    build.precache.map(async (path) => {
      if (await cache.match(path)) return;
      const earlier = path.startsWith('/assets/') ? await caches.match(path) : undefined;
      // The unhashed files (/, /shell.js) of this very build, not a copy the HTTP cache kept.
      const response = earlier ?? (await fetch(new Request(path, { cache: 'no-cache' })));
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      await cache.put(path, response);
    }),
  );
}

// Nothing stored (a failed file fails the install): the browser tries again on the next visit.
self.addEventListener('install', (event) => {
  if (build.version) event.waitUntil(storeShell());
});

// A waiting worker takes over when a page says it may (at a safe moment), and
// tells a page whether it is of this build.
self.addEventListener('message', (event) => {
  if (event.data === TAKE_OVER_MESSAGE) void self.skipWaiting();
  else if (isHasFileQuestion(event.data)) event.ports[0]?.postMessage(build.precache.includes(event.data.path));
});

/** Keeps this build's shell and the one it replaces (a tab may still be on it); deletes the rest. */
async function dropOldShells(): Promise<void> {
  const meta = await caches.open(META_CACHE);
  const replaced = (await (await meta.match(ACTIVE_BUILD_KEY))?.text()) ?? null;
  await meta.put(ACTIVE_BUILD_KEY, new Response(build.version));
  const stale = shellCachesToDelete(await caches.keys(), build.version, replaced === build.version ? null : replaced);
  await Promise.all(stale.map((name) => caches.delete(name)));
}

self.addEventListener('activate', (event) => {
  event.waitUntil((build.version ? dropOldShells() : Promise.resolve()).then(() => self.clients.claim()));
});

// ---- Requests --------------------------------------------------------------

/** A page load: the network; with none, the stored index.html (the app's router takes the path). */
async function navigation(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match('/', { cacheName: shellCacheName(build.version) });
    if (shell) return shell;
    throw error;
  }
}

/** A file of the shell: this build's copy, else an earlier build's, else the network. */
async function shellFile(request: Request): Promise<Response> {
  return (await caches.match(request.url, { cacheName: shellCacheName(build.version) })) ?? (await caches.match(request.url)) ?? fetch(request);
}

/** Who is asking, as a hash of the request's credentials (savedReadKey). */
async function identityOf(request: Request): Promise<string> {
  const credentials = `${request.headers.get('Authorization') ?? ''}\n${request.headers.get(GUEST_SECRET_HEADER) ?? ''}`;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(credentials)));
  return [...digest.subarray(0, 12)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `response` with the time it was saved. */
function stamped(response: Response, body: BodyInit | null, savedAt: number): Response {
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT_HEADER, String(savedAt));
  return new Response(body, { status: 200, statusText: 'OK', headers });
}

/**
 * Identities the server said are no one any more (a 401, a guest gone): an
 * answer to one of their requests still on its way is not saved after their
 * answers were forgotten. For the worker's lifetime; their credentials never
 * work again.
 */
const endedIdentities = new Set<string>();

async function saveRead(key: string, identity: string, response: Response): Promise<void> {
  const cache = await caches.open(READS_CACHE);
  const body = await response.arrayBuffer();
  if (endedIdentities.has(identity)) return;
  await cache.put(key, stamped(response, body, Date.now()));
}

/** A 304 vouches for the saved answer with that ETag: it is as of now. */
async function confirmRead(key: string, etag: string | null): Promise<void> {
  const cache = await caches.open(READS_CACHE);
  const saved = await cache.match(key);
  if (!saved || !etag || saved.headers.get('ETag') !== etag) return;
  await cache.put(key, stamped(saved, await saved.arrayBuffer(), Date.now()));
}

/**
 * What the network's answer changes in the saved answers: a 200 is saved, a
 * 304 confirms; an answer that says someone or a plan is gone here makes the
 * worker forget what it saved of them (offline.ts savedReadsToForget).
 */
async function afterAnswer(request: Request, key: string, identity: string, response: Response): Promise<void> {
  const prefix = apiPrefix(self.location.origin, build.apiBase);
  const url = new URL(request.url);
  url.search = '';
  const path = url.href.slice(prefix.length);
  const withCredentials = Boolean(request.headers.get('Authorization') || request.headers.get(GUEST_SECRET_HEADER));
  const forget = savedReadsToForget(path, response.status, withCredentials);
  if (forget === 'identity') {
    endedIdentities.add(identity);
    await forgetSavedReads(caches, prefix, { identity });
  } else if (forget === 'plan') {
    const [, first, slug] = path.split('/').map((part) => decodeURIComponent(part));
    const planId = first === 'slug' && slug !== undefined ? await planIdOfSlug(caches, prefix, slug) : first;
    if (planId) await forgetSavedReads(caches, prefix, { planIds: [planId] });
  } else if (forget === 'plan-list') {
    const before = planIdsOf(await savedAnswer(caches, key));
    const now = new Set(planIdsOf(await response.clone().json().catch(() => null)));
    await saveRead(key, identity, response);
    const gone = before.filter((planId) => !now.has(planId));
    if (gone.length > 0) await forgetSavedReads(caches, prefix, { identity, planIds: gone });
    return;
  }
  if (response.status === 200) await saveRead(key, identity, response);
  else if (response.status === 304) await confirmRead(key, response.headers.get('ETag'));
}

/** A read of the API: the network, its answer saved; with no network, the saved answer (SAVED_AT_HEADER says when). */
async function apiRead(event: FetchEvent): Promise<Response> {
  const identity = await identityOf(event.request);
  const key = savedReadKey(event.request.url, identity);
  let response: Response;
  try {
    response = await fetch(event.request);
  } catch (error) {
    const saved = await (await caches.open(READS_CACHE)).match(key);
    if (saved) return saved;
    throw error;
  }
  event.waitUntil(afterAnswer(event.request, key, identity, response.clone()));
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const route = routeOf(
    { method: request.method, url: request.url, mode: request.mode, accept: request.headers.get('Accept') },
    self.location.origin,
    build,
  );
  if (route === 'navigation') event.respondWith(navigation(request));
  else if (route === 'shell') event.respondWith(shellFile(request));
  else if (route === 'api-read') event.respondWith(apiRead(event));
});

// ---- Web Push --------------------------------------------------------------

self.addEventListener('push', (event) => {
  const message = notificationOf(event.data?.text(), self.location.origin);
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      data: { url: message.url },
      icon: '/icons/icon-192.png',
      lang: 'en',
    }),
  );
});

async function openPage(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const index = windowToFocus(windows, url, self.location.origin);
  if (index >= 0) {
    await windows[index]!.focus();
    return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data: unknown = event.notification.data;
  const url = data && typeof data === 'object' && 'url' in data && typeof data.url === 'string' ? data.url : '/';
  event.waitUntil(openPage(url));
});

// ---- Background Sync -------------------------------------------------------

/** The event the browser fires once the network is back (not in TypeScript's worker types). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

// Under the pages' sender lock: an action is never on its way twice at once.
// A rejection (no network yet, a gateway's 5xx) has the browser try again later.
self.addEventListener('sync', (event) => {
  const { tag } = event as SyncEvent;
  if (tag !== SYNC_TAG) return;
  const send = () => sendHandedActions(caches, (url, init) => fetch(url, init), () => Date.now());
  const locks = self.navigator?.locks;
  (event as SyncEvent).waitUntil(locks ? locks.request(SENDER_LOCK, send) : send());
});
