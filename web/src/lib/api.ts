import { hashKey, type QueryClient, type QueryFunction, type QueryFunctionContext } from '@tanstack/react-query';
import { env } from '../config/env';
import { GUEST_SECRET_HEADER } from '../../../supabase/functions/_shared/contract/guest-secret';
import { throwIfResNotOk } from './api-error';
import { getAuthToken } from './auth-token';
import { takeEarlyAnswer } from './early-answer';
import { getGuestSecret } from './guest-storage';
import { noteAnswer } from './offline-reads';

// The fetch contract of spec §7: credentials included, JSON bodies, Bearer token
// when one is stored, and non-2xx answers thrown as ApiError. A stored guest
// session's secret goes along in the X-Guest-Secret header (never in a URL or
// a body): the server needs it for the guest's writes (docs/auth-and-guests.md
// "Guests") and ignores it elsewhere.

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export function buildHeaders(hasBody: boolean): Headers {
  const headers = new Headers();
  if (hasBody) headers.set('Content-Type', 'application/json');
  const token = getAuthToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const guestSecret = getGuestSecret();
  if (guestSecret) headers.set(GUEST_SECRET_HEADER, guestSecret);
  return headers;
}

export const apiUrl = (path: string) => `${env.apiBaseUrl}${path}`;

export interface RequestOptions {
  /** Extra headers, e.g. the secret of a guest session that is not stored yet. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function apiRequest(method: HttpMethod, path: string, body?: unknown, options: RequestOptions = {}): Promise<Response> {
  const hasBody = body !== undefined;
  const headers = buildHeaders(hasBody);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  const res = await fetch(apiUrl(path), {
    method,
    headers,
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: 'include',
    signal: options.signal,
  });
  await throwIfResNotOk(res);
  return res;
}

// Cheap refetches (docs/live-updates.md): plan reads answer an
// ETag and 304 to a matching If-None-Match. The ETag of each query is kept per
// QueryClient, keyed by the query's hash, and only once its answer is really in
// the cache (a cancelled fetch or a hand-written setQueryData drops it), so a
// 304 can never stand for data the cache does not hold.

interface EtagEntry {
  etag: string;
  /** The plan version the ETag names (`W/"v12"`, `W/"v12.ab12cd34"`); undefined for others (`W/"l…"`). */
  version: number | undefined;
}

interface EtagStore {
  /** ETags whose answer is the query's current data. */
  committed: Map<string, EtagEntry>;
  /** The ETag of an answer on its way into the cache. */
  pending: Map<string, EtagEntry>;
}

const stores = new WeakMap<QueryClient, EtagStore>();

function etagStore(client: QueryClient): EtagStore {
  const store = stores.get(client);
  if (store) return store;
  const created: EtagStore = { committed: new Map(), pending: new Map() };
  client.getQueryCache().subscribe((event) => {
    const hash = event.query.queryHash;
    if (event.type === 'removed') {
      created.committed.delete(hash);
      created.pending.delete(hash);
    } else if (event.type === 'updated') {
      const { action } = event;
      if (action.type === 'success') {
        const entry = created.pending.get(hash);
        created.pending.delete(hash);
        if (entry && !action.manual) created.committed.set(hash, entry);
        else created.committed.delete(hash);
      } else if (action.type === 'setState') {
        // A reset, or a cancelled fetch put back: whatever is cached now, no ETag vouches for it.
        created.committed.delete(hash);
      }
    }
  });
  stores.set(client, created);
  return created;
}

/** The plan version in a plan read's ETag, e.g. 12 for `W/"v12"` or `W/"v12.ab12cd34"`. */
export function parseEtagVersion(etag: string): number | undefined {
  const match = /^(?:W\/)?"v(\d+)(?:\.[^"]*)?"$/.exec(etag.trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * The plan version of the data a query holds, read from the ETag it was
 * answered with; undefined when unknown (no ETag, never fetched, set by hand).
 */
export function queryVersion(client: QueryClient, queryHash: string): number | undefined {
  return stores.get(client)?.committed.get(queryHash)?.version;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

interface ApiGetOptions {
  on401: UnauthorizedBehavior;
}

async function getJson<T>(
  path: string,
  parse: (body: unknown) => T,
  { on401 }: ApiGetOptions,
  context: QueryFunctionContext,
  revalidate: boolean,
): Promise<T | null> {
  const { client, queryKey, signal } = context;
  const store = etagStore(client);
  const hash = hashKey(queryKey);
  const cached = client.getQueryData<T | null>(queryKey);
  const wholeAnswer = wholeAnswersWanted.delete(hash);
  const known = revalidate && !wholeAnswer && cached !== undefined ? store.committed.get(hash) : undefined;
  const headers = buildHeaders(false);
  if (known) headers.set('If-None-Match', known.etag);

  const url = apiUrl(path);
  const res = await (takeEarlyAnswer(url, headers) ?? fetch(url, { headers, credentials: 'include', signal }));
  noteAnswer(client, hash, res);
  const etag = res.headers.get('ETag');
  const entry = etag ? { etag, version: parseEtagVersion(etag) } : undefined;

  if (res.status === 304) {
    const current = client.getQueryData<T | null>(queryKey);
    // The copy was dropped while we asked: ask once more, for the whole answer.
    if (!known || current === undefined) return getJson(path, parse, { on401 }, context, false);
    store.pending.set(hash, entry ?? known);
    return current;
  }
  if (on401 === 'returnNull' && res.status === 401) {
    store.pending.delete(hash);
    // Release the unread sentence: an unread body keeps the request open (DevTools,
    // the e2e suite's settle()) when the answer is no-store and no cache drains it.
    void res.body?.cancel().catch(() => {});
    return null;
  }
  await throwIfResNotOk(res);
  const data = parse(await res.json());
  if (entry) store.pending.set(hash, entry);
  else store.pending.delete(hash);
  return data;
}

/** Queries whose next fetch asks for the whole answer, not a 304 (saveShownReads). */
const wholeAnswersWanted = new Set<string>();

/**
 * Reads everything on screen again, whole (no If-None-Match), once the
 * service worker serves the page: it saves only the answers it sees, and a
 * 304 carries none (docs/offline.md "Offline").
 */
export function saveShownReads(client: QueryClient): void {
  const active = client.getQueryCache().findAll({ type: 'active' });
  for (const query of active) wholeAnswersWanted.add(query.queryHash);
  void client.refetchQueries({ type: 'active' });
}

/**
 * The data fetch of every query: a GET of `path`, parsed by `parse`. It sends
 * `If-None-Match` while the cache holds the query's data with an ETag, and a
 * 304 answers with that cached data (not parsed again).
 */
export function apiGet<T>(path: string, parse: (body: unknown) => T): QueryFunction<T>;
export function apiGet<T>(path: string, parse: (body: unknown) => T, options: { on401: 'returnNull' }): QueryFunction<T | null>;
export function apiGet<T>(path: string, parse: (body: unknown) => T, options: ApiGetOptions = { on401: 'throw' }) {
  return (context: QueryFunctionContext) => getJson(path, parse, options, context, true);
}
