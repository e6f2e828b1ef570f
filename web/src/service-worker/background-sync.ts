// Background Sync for the outbox of votes and comments (docs/offline.md
// "Offline votes and comments", decision 0071). The page's outbox
// (lib/offline-actions/, in localStorage, which a worker cannot read) stays
// the record of every tap; an action that found no network is also handed to
// the service worker here, with the request that sends it, and a sync is
// registered. When the browser has the network again it wakes the worker,
// even with every tab closed, and the worker sends what was handed to it in
// tap order and keeps each answer. The page, when it next runs, takes the
// worker's answer for its action instead of sending it again, and applies it
// as its own (a vote shown, a refusal taken back with the server's sentence).
//
// Both sides run this file: the page hands over, reads answers and withdraws;
// the worker sends. Both send only under the same Web Lock, so one request of
// an action is on its way at a time; a repeat would be harmless anyway (the
// Idempotency-Key). The hand-over lives in Cache Storage (which both sides
// have, as the saved reads do): one entry per action, one per answer.

/** The tag the page registers and the worker's `sync` event carries. */
export const SYNC_TAG = 'hangplan-outbox';
/** One sender per device: pages and the worker take this Web Lock to send. */
export const SENDER_LOCK = 'hangplan-offline-actions';
/** The Cache Storage cache of handed actions and their answers. */
export const OUTBOX_CACHE = 'hangplan-outbox';

/**
 * Answers that say the request did not get through to Hangplan, or not in
 * time (the platform's gateway, a cold or overloaded function): kept and sent
 * again. Any other answer is the server's word on the action, a 500 too
 * (sent again it would most likely fail the same way): it is final.
 */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 502, 503, 504]);

/** A request with no answer after this long counts as lost (it is sent again with its key). */
export const SEND_TIMEOUT_MS = 15_000;

/** An answer the worker kept is forgotten after this long (the API forgets its keys after 7 days too). */
export const ANSWER_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** An action as the worker sends it: the whole request, made by the page. */
export interface HandedAction {
  /** The idempotency key (also in `headers`). */
  key: string;
  url: string;
  /** POST, or PUT for an action that sets a value; absent (handed over by an earlier build): POST. */
  method?: 'POST' | 'PUT';
  headers: Array<[string, string]>;
  body: string | null;
  /** Tap order: when it was tapped (ms), then the page's tie-breaker. */
  at: number;
  seq: number;
}

/** What the server answered to a handed action. */
export interface KeptAnswer {
  status: number;
  body: string;
  contentType: string | null;
  answeredAt: number;
}

/** The parts of Cache Storage this file uses (the page's and the worker's are the same). */
export interface CachesLike {
  open(name: string): Promise<Pick<Cache, 'match' | 'put' | 'delete' | 'keys'>>;
  delete(name: string): Promise<boolean>;
}

// Entries are keyed by paths that are never requested: the cache only needs URLs.
const HANDED = '/__hangplan-outbox/handed/';
const ANSWERED = '/__hangplan-outbox/answered/';
const handedUrl = (key: string) => HANDED + encodeURIComponent(key);
const answeredUrl = (key: string) => ANSWERED + encodeURIComponent(key);
const keyOf = (url: string, prefix: string) => decodeURIComponent(new URL(url, 'https://x').pathname.slice(prefix.length));

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The order actions are sent in, by the page and by the worker: as tapped (time, the page's tie-breaker, the key). */
export function byTapOrder(a: Pick<HandedAction, 'at' | 'seq' | 'key'>, b: Pick<HandedAction, 'at' | 'seq' | 'key'>): number {
  return a.at - b.at || a.seq - b.seq || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function parseHanded(value: unknown): HandedAction | null {
  if (!isRecord(value)) return null;
  const { key, url, method, headers, body, at, seq } = value;
  if (typeof key !== 'string' || typeof url !== 'string' || typeof at !== 'number' || typeof seq !== 'number') return null;
  if (method !== undefined && method !== 'POST' && method !== 'PUT') return null;
  if (body !== null && typeof body !== 'string') return null;
  if (!Array.isArray(headers) || !headers.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string'))) return null;
  return { key, url, method, headers: headers as Array<[string, string]>, body, at, seq };
}

function parseAnswer(value: unknown): KeptAnswer | null {
  if (!isRecord(value)) return null;
  const { status, body, contentType, answeredAt } = value;
  if (typeof status !== 'number' || typeof body !== 'string' || typeof answeredAt !== 'number') return null;
  if (contentType !== null && typeof contentType !== 'string') return null;
  return { status, body, contentType, answeredAt };
}

async function readJson(response: Response | undefined): Promise<unknown> {
  try {
    return response ? await response.json() : null;
  } catch {
    return null;
  }
}

const jsonEntry = (value: unknown) => new Response(JSON.stringify(value), { headers: { 'Content-Type': 'application/json' } });

// ---- The page's side -------------------------------------------------------

/** Hands an action to the worker (replacing an earlier hand-over of it: its credentials may have changed). */
export async function handOver(caches: CachesLike, action: HandedAction): Promise<void> {
  await (await caches.open(OUTBOX_CACHE)).put(handedUrl(action.key), jsonEntry(action));
}

/** The worker's answer to an action, as the Response the page would have had; null when it has none. */
export async function keptAnswer(caches: CachesLike, key: string): Promise<Response | null> {
  const answer = parseAnswer(await readJson(await (await caches.open(OUTBOX_CACHE)).match(answeredUrl(key))));
  if (!answer) return null;
  const headers = new Headers();
  if (answer.contentType) headers.set('Content-Type', answer.contentType);
  // A 204 or 304 has no body.
  return new Response(answer.status === 204 || answer.status === 304 ? null : answer.body, { status: answer.status, headers });
}

/** The action is done on the page: the worker neither sends it nor keeps its answer. */
export async function withdraw(caches: CachesLike, key: string): Promise<void> {
  const cache = await caches.open(OUTBOX_CACHE);
  await Promise.all([cache.delete(handedUrl(key)), cache.delete(answeredUrl(key))]);
}

/** Every handed action and kept answer goes (signing out: their credentials with them). */
export async function forgetHandedActions(caches: CachesLike): Promise<void> {
  await caches.delete(OUTBOX_CACHE);
}

// ---- The worker's side -----------------------------------------------------

/**
 * Sends the handed actions, oldest tap first, each once: its answer is kept
 * for the page and the action leaves the hand-over. Stops at the first that
 * gets no answer, or a gateway's 408/502/503/504, and rejects, so the browser
 * fires the sync again later (with its own back-off); the order is kept.
 * Answers older than ANSWER_TTL_MS (their page never came back) are dropped.
 */
export async function sendHandedActions(
  caches: CachesLike,
  fetch: (url: string, init: RequestInit) => Promise<Response>,
  now: () => number,
): Promise<void> {
  const cache = await caches.open(OUTBOX_CACHE);
  const handed: HandedAction[] = [];
  for (const request of await cache.keys()) {
    const path = new URL(request.url, 'https://x').pathname;
    if (path.startsWith(ANSWERED)) {
      const answer = parseAnswer(await readJson(await cache.match(request)));
      if (!answer || now() - answer.answeredAt > ANSWER_TTL_MS) await cache.delete(request);
      continue;
    }
    if (!path.startsWith(HANDED)) continue;
    const action = parseHanded(await readJson(await cache.match(request)));
    if (action && action.key === keyOf(request.url, HANDED)) handed.push(action);
    else await cache.delete(request); // not one of ours any more
  }
  handed.sort(byTapOrder);
  for (const action of handed) {
    // Answered already (a sync that ended before it could clean up): not again.
    if (await cache.match(answeredUrl(action.key))) {
      await cache.delete(handedUrl(action.key));
      continue;
    }
    const response = await fetch(action.url, {
      method: action.method ?? 'POST',
      headers: action.headers,
      body: action.body,
      credentials: 'include',
      // A dead zone can hold a request for minutes, and the pages wait for the lock.
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    if (TRANSIENT_STATUSES.has(response.status)) {
      void response.body?.cancel().catch(() => {});
      throw new Error(`${action.url}: ${response.status}, sent again at the next sync`);
    }
    const answer: KeptAnswer = {
      status: response.status,
      body: await response.text().catch(() => ''),
      contentType: response.headers.get('Content-Type'),
      answeredAt: now(),
    };
    await cache.put(answeredUrl(action.key), jsonEntry(answer));
    await cache.delete(handedUrl(action.key));
  }
}
