// What the service worker does with each request (docs/offline.md "Offline"),
// as pure decisions: sw.ts does the fetching and the caching.
//   - the app's shell (index.html, the hashed assets of this build, shell.js,
//     the manifest and icons) is stored when the worker installs, one cache
//     per build, and served from there: a page keeps the files of the build
//     it started with, and opens with no network;
//   - every GET of the API (but the live stream) goes to the network first;
//     its last answer is kept per URL and per identity, and served when the
//     network is gone, marked with the time it was saved (SAVED_AT_HEADER);
//   - an answer that says someone or a plan is gone here any more (a 401,
//     a guest's session gone, a plan gone or no longer in the member's
//     list) makes the worker forget what it saved of them (saved-reads.ts);
//   - everything else is the browser's, untouched.
// Also imported by the page (sign-out forgets the saved answers).

/** The saved API answers of this device. */
export const READS_CACHE = 'hangplan-reads';
/** The shell of one build: `hangplan-shell-{version}`. */
export const SHELL_CACHE_PREFIX = 'hangplan-shell-';
/** Set on an answer served from READS_CACHE because the network failed: when it was saved (ms since the epoch). */
export const SAVED_AT_HEADER = 'X-Hangplan-Saved-At';
/** Which build's worker is active: a cache of one entry, ACTIVE_BUILD_KEY. */
export const META_CACHE = 'hangplan-meta';
export const ACTIVE_BUILD_KEY = '/active-build';
/** The page asks a waiting worker to take over (lib/app-update.ts). */
export const TAKE_OVER_MESSAGE = 'hangplan:take-over';
/**
 * The page asks a waiting worker whether a file (the page's own entry
 * script) is of its build, on a MessagePort it sends along; the answer is a
 * boolean. Yes: the page is of the new build already, and needs no reload.
 */
export const HAS_FILE_MESSAGE = 'hangplan:has-file';

export interface HasFileQuestion {
  type: typeof HAS_FILE_MESSAGE;
  path: string;
}

export const isHasFileQuestion = (data: unknown): data is HasFileQuestion =>
  typeof data === 'object' && data !== null && (data as HasFileQuestion).type === HAS_FILE_MESSAGE && typeof (data as HasFileQuestion).path === 'string';

export const shellCacheName = (version: string) => `${SHELL_CACHE_PREFIX}${version}`;

/** What a build tells its worker (web/service-worker-build.ts). */
export interface BuildManifest {
  /** Changes with every file of the build; '' in the dev server (nothing is stored). */
  version: string;
  /** Paths of the app's shell, e.g. '/', '/assets/app-1a2b.js', '/shell.js'. */
  precache: string[];
  /** The API's origin and base path ('' when it is the app's own origin: `/api` there). */
  apiBase: string;
}

export type RequestRoute =
  /** A page load: the network, else the stored index.html. */
  | 'navigation'
  /** A file of the shell: the stored copy, else the network. */
  | 'shell'
  /** A read of the API: the network, its answer saved; else the saved answer. */
  | 'api-read'
  /** Not the worker's business. */
  | 'browser';

interface RequestFacts {
  method: string;
  url: string;
  mode: string;
  accept: string | null;
}

/** The URL prefix of the API's paths: `{apiBase}/api/`, or `{origin}/api/` on the app's own origin. */
export const apiPrefix = (origin: string, apiBase: string) => `${apiBase || origin}/api/`;

export function routeOf(request: RequestFacts, origin: string, manifest: BuildManifest): RequestRoute {
  // Nothing is stored by the dev server's worker (its files are not a build).
  if (!manifest.version || request.method !== 'GET') return 'browser';
  const url = new URL(request.url);
  if (request.mode === 'navigate') return url.origin === origin ? 'navigation' : 'browser';
  // The shell's files, and any hashed asset: a tab still on the build before
  // this one finds its lazy files in that build's cache.
  if (url.origin === origin && !url.search && (manifest.precache.includes(url.pathname) || url.pathname.startsWith('/assets/'))) {
    return 'shell';
  }
  if (!request.url.startsWith(apiPrefix(origin, manifest.apiBase))) return 'browser';
  // The live stream is a connection, not an answer to keep.
  if (request.accept?.includes('text/event-stream')) return 'browser';
  return 'api-read';
}

/** The query parameter of a saved answer's key that says who asked. */
export const IDENTITY_PARAM = 'hangplan-as';

/**
 * The key a saved answer is kept under: the URL and who asked (a hash of the
 * request's Authorization and guest-secret headers), so a device shared by
 * two people never shows one what the other saw.
 */
export function savedReadKey(url: string, identity: string): string {
  const key = new URL(url);
  key.searchParams.set(IDENTITY_PARAM, identity);
  return key.href;
}

/**
 * What an answer from the network says about the saved answers
 * (docs/offline.md "Offline and updates"), by the read's path under the API
 * prefix ('plans/p1/ideas') and its status:
 *   - `identity`: who asked is no longer anyone here (a 401 to a request
 *     with credentials; a guest's own session read refused, 403, or gone,
 *     404: removed by the host, left on another device): every answer saved
 *     for them goes;
 *   - `plan`: the plan is gone (its read is 404): its answers go, for everyone;
 *   - `plan-list`: the member's list of plans, new: the plans no longer in
 *     it (left, removed, deleted) lose their answers saved for this member;
 *   - null: nothing to forget.
 */
export type ForgetSaved = 'identity' | 'plan' | 'plan-list' | null;

export function savedReadsToForget(path: string, status: number, withCredentials: boolean): ForgetSaved {
  const parts = path.split('/');
  if (status === 401 && withCredentials) return 'identity';
  if (parts[0] === 'guest-session' && parts.length === 2 && (status === 403 || status === 404)) return 'identity';
  if (status === 404 && parts[0] === 'plans' && (parts.length === 2 || (parts.length === 3 && parts[1] === 'slug'))) return 'plan';
  if (status === 200 && path === 'plans') return 'plan-list';
  return null;
}

/**
 * The caches to delete when a build's worker takes over: every other build's
 * shell but the one it replaces (a tab still open on that build may load a
 * lazy file of it until it reloads).
 */
export function shellCachesToDelete(names: string[], current: string, replaced: string | null): string[] {
  const keep = new Set([shellCacheName(current), replaced ? shellCacheName(replaced) : '']);
  return names.filter((name) => name.startsWith(SHELL_CACHE_PREFIX) && !keep.has(name));
}
