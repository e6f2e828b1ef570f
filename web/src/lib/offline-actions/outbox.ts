// The device's outbox of votes and comments (docs/offline.md "Offline votes
// and comments", decision 0069). Every idea vote, date vote and comment is an
// action written here the moment it is tapped, with its own idempotency key,
// and sent from here, in order, one at a time per device: at once when it can,
// else when the network is back (the `online` event, a plan's live stream
// reconnecting, the app starting, a back-off timer), and, where the browser
// has Background Sync, by the service worker once the network is back even
// with no tab open (service-worker/background-sync.ts: an action that found
// no network is handed to it too). The same key goes with
// every attempt, so the API answers a repeat from its first time instead of
// toggling twice. An action leaves the outbox only when the server answered:
// 2xx is applied to the caches, a refusal is put back with the server's
// sentence; no answer, or a gateway's 502/503/504, keeps it for later.
//
// What an action shows before its answer is written into the query cache
// (the votes show at once): at the tap, and again over every fresh answer of
// the plan's reads while it waits, so a reload or a refetch shows it too. The
// features say how, per kind of action (defineOfflineActionKind); this module
// knows no domain.
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { partialMatchKey, useQueryClient, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { GUEST_SECRET_HEADER } from '../../../supabase/functions/_shared/contract/guest-secret';
import { IDEMPOTENCY_KEY_HEADER } from '../../../supabase/functions/_shared/contract/idempotency';
import { ApiError, apiErrorOf } from './api-error';
import { fromBase64url } from './base64url';
import { apiUrl } from './api';
import { getAuthToken } from './auth-token';
import { getGuestSession } from './guest-storage';
import { OFFLINE_ACTION_PREFIX as PREFIX } from './offline-actions-start';
import { onGuestSecretRefused } from './query-client';
import { planKeys } from './query-keys';
import { showErrorMessage, showErrorToast } from './toast';
import { whenIdle } from './when-idle';
import {
  byTapOrder,
  handOver,
  type HandedAction,
  isRecord,
  keptAnswer,
  SEND_TIMEOUT_MS,
  SENDER_LOCK,
  SYNC_TAG,
  TRANSIENT_STATUSES,
  withdraw,
} from '../service-worker/background-sync';

/** Who an action is made as: sent as that member or guest, or not at all. */
export type ActionIdentity =
  | { kind: 'member'; userId: string; name: string }
  | { kind: 'guest'; guestId: string; name: string; secret: string };

export interface OfflineAction<D = unknown> {
  /** The idempotency key: one per tap, sent with every attempt. */
  key: string;
  /** Which defineOfflineActionKind handles it. */
  kind: string;
  planId: string;
  /** What the tap is about, e.g. `idea:{id}`: one action at a time per target. */
  target: string;
  /** The POST's path under the API, and its JSON body (none for a member's idea vote). */
  path: string;
  body?: unknown;
  as: ActionIdentity;
  /** The kind's own record of what the tap meant (the direction of a toggle, a comment's text). */
  data: D;
  /** 'vote' or 'comment': the sentence when it cannot be sent as its maker. */
  noun: string;
  /** The toast of a refusal without a sentence of the server's. */
  failure: string;
  /** When it was tapped (ms) and a tie-breaker: the order it is sent in. */
  at: number;
  seq: number;
  attempts: number;
  /** An attempt found no network (or the server failed): shown as "Waiting for connection". */
  waiting: boolean;
  /** Not tried again by the timer before this time (ms). */
  retryAt: number;
}

export type NewOfflineAction<D> = Pick<OfflineAction<D>, 'planId' | 'target' | 'path' | 'body' | 'as' | 'data' | 'noun' | 'failure'>;

/**
 * How a tap ended for the one who made it: the server answered ('sent',
 * 'refused', both already applied to the caches), it waits in the outbox for
 * the network ('queued': shown as pending, sent later), or it could not be
 * sent as its maker ('dropped').
 */
export type ActionOutcome = 'sent' | 'queued' | 'refused' | 'dropped';

/** What a feature says about one kind of action; every method is optional. */
export interface OfflineActionKind<D> {
  /**
   * One of the plan's cached reads as it looks with the action done: `data`
   * itself when the action does not touch it. Applied once to what is cached
   * at the tap, and once to every fresh answer of a read while it waits.
   */
  show?(key: QueryKey, data: unknown, action: OfflineAction<D>, client: QueryClient): unknown;
  /** The opposite of show(), for a read show() changed (a refusal, a drop). */
  unshow?(key: QueryKey, data: unknown, action: OfflineAction<D>, client: QueryClient): unknown;
  /** The server's 2xx answer (parsed JSON, null for none), into the caches. */
  sent?(client: QueryClient, action: OfflineAction<D>, answer: unknown): void | Promise<unknown>;
}

export interface OfflineActionKindHandle<D> {
  readonly name: string;
  readonly handler: OfflineActionKind<D>;
  /** Writes the action to the outbox, shows it, and sends it when it can. */
  submit(action: NewOfflineAction<D>): Promise<ActionOutcome>;
}

/** A pending action as the screens see it. */
export interface PendingAction<D = unknown> extends OfflineAction<D> {
  /** This tab is sending it right now. */
  sending: boolean;
}

/** The outbox's surroundings, replaceable in tests. */
export interface OutboxDeps {
  storage: Storage;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  now: () => number;
  online: () => boolean;
  locks: Pick<LockManager, 'request'> | null;
  randomKey: () => string;
  setTimer: (callback: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
  /** The service worker's Background Sync (null where the browser has none). */
  handOff: OutboxHandOff | null;
}

/** What the outbox asks of the service worker (service-worker/background-sync.ts). */
export interface OutboxHandOff {
  /** Gives it an action to send once the network is back, even with no tab open. */
  handOver(action: HandedAction): Promise<void>;
  /** Its answer to an action it sent, as the Response a send would have had; null when none. */
  answerOf(key: string): Promise<Response | null>;
  /** The action is done here: it neither sends it nor keeps its answer. */
  withdraw(key: string): Promise<void>;
}

const LEASE_KEY = 'offlineActionsLease';
/** How long a tab without Web Locks keeps the right to send. */
const LEASE_MS = 30_000;
const MAX_BACKOFF_MS = 60_000;
/** The wait before attempt n + 1 after n failed ones: 1, 2, 4 … 60 s. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
}

/** The order actions are sent in: as tapped (one rule for the page and the worker). */
export { byTapOrder };

function isIdentity(value: unknown): value is ActionIdentity {
  if (!isRecord(value) || typeof value.name !== 'string') return false;
  if (value.kind === 'member') return typeof value.userId === 'string';
  return value.kind === 'guest' && typeof value.guestId === 'string' && typeof value.secret === 'string';
}

/** A stored action, or null when the text is not one (corrupt, or written by another version). */
export function parseAction(raw: string | null): OfflineAction | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const strings = ['key', 'kind', 'planId', 'target', 'path', 'noun', 'failure'] as const;
  const numbers = ['at', 'seq', 'attempts', 'retryAt'] as const;
  if (!strings.every((name) => typeof value[name] === 'string')) return null;
  if (!numbers.every((name) => typeof value[name] === 'number')) return null;
  if (typeof value.waiting !== 'boolean' || !isIdentity(value.as)) return null;
  return value as unknown as OfflineAction;
}

/** The user id a session token names (its `sub`), or undefined when it cannot be read. */
export function tokenSubject(token: string): string | undefined {
  try {
    const payload: unknown = JSON.parse(new TextDecoder().decode(fromBase64url(token.split('.')[1]!)));
    return isRecord(payload) && typeof payload.sub === 'string' ? payload.sub.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The headers that send `action` as the one who made it, or null when this
 * device is no longer that person: a member's token is gone or names another
 * account, a guest's session here is gone or is another guest. A guest goes
 * by its secret and never by a token (a token would make it the member).
 */
export function credentialsFor(action: OfflineAction): Headers | null {
  const headers = new Headers({ [IDEMPOTENCY_KEY_HEADER]: action.key });
  if (action.body !== undefined) headers.set('Content-Type', 'application/json');
  const { as } = action;
  if (as.kind === 'member') {
    const token = getAuthToken();
    if (!token) return null;
    const subject = tokenSubject(token);
    // An unreadable token cannot act as anyone else (the server refuses it).
    if (subject !== undefined && subject !== as.userId.toLowerCase()) return null;
    headers.set('Authorization', `Bearer ${token}`);
    return headers;
  }
  const session = getGuestSession();
  if (session?.id !== as.guestId) return null;
  // The secret it was made with, unless this device confirmed the name again since.
  const secret = session.secret ?? as.secret;
  if (secret) headers.set(GUEST_SECRET_HEADER, secret);
  return headers;
}

/** The identity to make an action as: a plan's visitor, with this device's guest secret. */
export function actionIdentity(
  visitor: { kind: 'member'; userId: string; name: string } | { kind: 'guest'; guestId: string; name: string },
): ActionIdentity {
  if (visitor.kind === 'member') return { kind: 'member', userId: visitor.userId, name: visitor.name };
  const session = getGuestSession();
  const secret = session?.id === visitor.guestId ? (session.secret ?? '') : '';
  return { kind: 'guest', guestId: visitor.guestId, name: visitor.name, secret };
}

function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context (a phone on the LAN in development).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Background Sync where the browser has it and a service worker runs the app (not the dev server's bare page). */
function browserHandOff(): OutboxHandOff | null {
  if (typeof window === 'undefined' || !('SyncManager' in window) || typeof caches === 'undefined' || !navigator.serviceWorker) return null;
  return {
    async handOver(action) {
      if (!navigator.serviceWorker.controller) return;
      await handOver(caches, action);
      const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
      await registration.sync?.register(SYNC_TAG);
    },
    answerOf: (key) => keptAnswer(caches, key),
    withdraw: (key) => withdraw(caches, key),
  };
}

function browserDeps(): OutboxDeps {
  return {
    storage: localStorage,
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    online: () => navigator.onLine !== false,
    locks: typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null,
    randomKey,
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    handOff: browserHandOff(),
  };
}

class AttemptTimeout extends Error {}

export type OfflineOutbox = ReturnType<typeof createOfflineOutbox>;

export function createOfflineOutbox(deps: OutboxDeps = browserDeps()) {
  const { storage } = deps;
  const tabId = deps.randomKey();
  const kinds = new Map<string, OfflineActionKind<unknown>>();
  const waiters = new Map<string, (outcome: ActionOutcome) => void>();
  const listeners = new Set<() => void>();
  let seq = 0;
  let generation = 0;
  let sendingKey: string | null = null;
  let timer: unknown = null;
  let timerAt = Infinity;
  let running: Promise<void> | null = null;
  let again = false;
  let forceNext = false;

  // ---- The stored queue: one localStorage item per action, so two tabs never
  // overwrite each other's (no read-modify-write of a shared list).

  let actions: readonly OfflineAction[] | null = null;
  let view: { actions: readonly OfflineAction[]; sending: string | null } | null = null;

  function read(): readonly OfflineAction[] {
    if (actions) return actions;
    const names: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const name = storage.key(i);
      if (name?.startsWith(PREFIX)) names.push(name);
    }
    const found: OfflineAction[] = [];
    for (const name of names) {
      const action = parseAction(storage.getItem(name));
      if (action && name === PREFIX + action.key) found.push(action);
      else storage.removeItem(name); // not one of ours any more
    }
    actions = found.sort(byTapOrder);
    return actions;
  }

  function changed(): void {
    actions = null;
    view = null;
    for (const listener of [...listeners]) listener();
  }

  function write(action: OfflineAction): void {
    storage.setItem(PREFIX + action.key, JSON.stringify(action));
    changed();
  }

  function remove(action: OfflineAction): void {
    storage.removeItem(PREFIX + action.key);
    changed();
  }

  function setSending(key: string | null): void {
    sendingKey = key;
    view = null;
    for (const listener of [...listeners]) listener();
  }

  function settle(key: string, outcome: ActionOutcome): void {
    const resolve = waiters.get(key);
    waiters.delete(key);
    resolve?.(outcome);
  }

  /** Taps still waiting on this tab's first attempt: they are pending now, not sending. */
  function settleQueued(): void {
    const stored = new Set(read().map((action) => action.key));
    for (const key of [...waiters.keys()]) if (stored.has(key)) settle(key, 'queued');
  }

  // ---- Showing pending actions in the query cache. Each cached read carries
  // the keys of the actions already applied to it (`marks`), so an action is
  // applied once to each answer: a 304 answers the same object, and a write
  // derived from a read (setQueryData) keeps its marks.

  let client: QueryClient | null = null;
  let stopWatching: (() => void) | null = null;
  const marks = new WeakMap<object, ReadonlySet<string>>();
  let lastData = new Map<string, unknown>();

  const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
  const ofPlan = (key: QueryKey, planId: string) => partialMatchKey(key, planKeys.plan(planId));

  function showPending(queryClient: QueryClient, query: Query): void {
    const original = query.state.data;
    if (!isObject(original)) return;
    const pending = read().filter((action) => kinds.get(action.kind)?.show && ofPlan(query.queryKey, action.planId));
    if (pending.length === 0) return;
    const applied = new Set(marks.get(original));
    let data: unknown = original;
    for (const action of pending) {
      if (applied.has(action.key)) continue;
      const next = kinds.get(action.kind)!.show!(query.queryKey, data, action, queryClient);
      if (next === undefined || next === data) continue;
      data = next;
      applied.add(action.key);
    }
    if (data === original) return;
    put(queryClient, query.queryKey, data, applied);
  }

  /** Writes a read with the actions it shows (the cache may keep another object: structural sharing). */
  function put(queryClient: QueryClient, key: QueryKey, data: unknown, shown: ReadonlySet<string>): void {
    queryClient.setQueryData(key, data);
    const stored = queryClient.getQueryData(key);
    if (isObject(stored)) marks.set(stored, shown);
  }

  /** Shows the pending actions on every cached read of their plans. */
  function sweep(): void {
    if (!client) return;
    const planIds = new Set(read().map((action) => action.planId));
    if (planIds.size === 0) return;
    for (const query of client.getQueryCache().getAll()) {
      if ([...planIds].some((planId) => ofPlan(query.queryKey, planId))) showPending(client, query);
    }
  }

  /** Takes back what `action` showed, where it showed it; a read it cannot take back is read again. */
  function unshow(action: OfflineAction): void {
    if (!client) return;
    const kind = kinds.get(action.kind);
    for (const query of client.getQueryCache().getAll()) {
      const data = query.state.data;
      if (!isObject(data) || !ofPlan(query.queryKey, action.planId) || !marks.get(data)?.has(action.key)) continue;
      const next = kind?.unshow?.(query.queryKey, data, action, client);
      if (next === undefined || !isObject(next)) {
        void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
        continue;
      }
      const rest = new Set(marks.get(data));
      rest.delete(action.key);
      put(client, query.queryKey, next, rest);
    }
  }

  function attach(queryClient: QueryClient): void {
    if (client === queryClient) return;
    stopWatching?.();
    client = queryClient;
    // What each read holds now: the next write to it is told from a fresh answer by this.
    lastData = new Map(queryClient.getQueryCache().getAll().map((query) => [query.queryHash, query.state.data]));
    stopWatching = queryClient.getQueryCache().subscribe((event) => {
      const { query } = event;
      if (event.type === 'removed') {
        lastData.delete(query.queryHash);
        return;
      }
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      const data = query.state.data;
      const previous = lastData.get(query.queryHash);
      lastData.set(query.queryHash, data);
      if (!isObject(data) || data === previous) return;
      if (event.action.manual) {
        // Derived from what was shown: it shows the same pending actions.
        const inherited = isObject(previous) ? marks.get(previous) : undefined;
        if (inherited && !marks.has(data)) marks.set(data, inherited);
        return;
      }
      showPending(queryClient, query);
    });
    listen();
    sweep();
  }

  function register<D>(handle: OfflineActionKindHandle<D>): void {
    if (kinds.get(handle.name) === handle.handler) return;
    kinds.set(handle.name, handle.handler as OfflineActionKind<unknown>);
    sweep();
  }

  // ---- Sending: one sender per device (Web Locks, else a lease in
  // localStorage), the oldest action first, the next only once it has its answer.

  function takeLease(): boolean {
    try {
      const lease: unknown = JSON.parse(storage.getItem(LEASE_KEY) ?? 'null');
      if (isRecord(lease) && lease.tab !== tabId && typeof lease.until === 'number' && lease.until > deps.now()) return false;
    } catch {
      // unreadable: take it
    }
    storage.setItem(LEASE_KEY, JSON.stringify({ tab: tabId, until: deps.now() + LEASE_MS }));
    return true;
  }

  function dropLease(): void {
    try {
      const lease: unknown = JSON.parse(storage.getItem(LEASE_KEY) ?? 'null');
      if (isRecord(lease) && lease.tab === tabId) storage.removeItem(LEASE_KEY);
    } catch {
      storage.removeItem(LEASE_KEY);
    }
  }

  async function withSenderLock(send: () => Promise<void>): Promise<void> {
    if (deps.locks) {
      await deps.locks.request(SENDER_LOCK, send);
      return;
    }
    if (!takeLease()) {
      // Another tab is sending; look again once its lease may have run out.
      schedule(deps.now() + LEASE_MS);
      return;
    }
    try {
      await send();
    } finally {
      dropLease();
    }
  }

  function schedule(at: number): void {
    if (timer !== null && timerAt <= at) return;
    if (timer !== null) deps.clearTimer(timer);
    timerAt = at;
    timer = deps.setTimer(
      () => {
        timer = null;
        timerAt = Infinity;
        void flush();
      },
      Math.max(0, at - deps.now()),
    );
  }

  function retryLater(action: OfflineAction): void {
    const attempts = action.attempts + 1;
    const retryAt = deps.now() + backoffMs(attempts);
    write({ ...action, attempts, waiting: true, retryAt });
    schedule(retryAt);
  }

  /** The POST that sends `action`, as the page sends it and as it is handed to the worker. */
  const bodyOf = (action: OfflineAction) => (action.body === undefined ? null : JSON.stringify(action.body));

  async function attempt(action: OfflineAction, headers: Headers): Promise<Response> {
    const controller = new AbortController();
    let timeout: unknown;
    const timedOut = new Promise<never>((_, reject) => {
      timeout = deps.setTimer(() => {
        controller.abort();
        reject(new AttemptTimeout());
      }, SEND_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        deps.fetch(apiUrl(action.path), {
          method: 'POST',
          headers,
          body: bodyOf(action),
          credentials: 'include',
          signal: controller.signal,
        }),
        timedOut,
      ]);
    } finally {
      deps.clearTimer(timeout);
    }
  }

  // ---- Background Sync: what waits is handed to the service worker too, so
  // it goes out once the network is back even if every tab is closed; what
  // it sent is answered here from its kept answer, not sent again.

  /** Actions this tab handed over already (a reload hands them again, with the credentials of now). */
  const handed = new Set<string>();

  /** Hands every waiting action to the worker, as its maker. Never fails: the page still sends them. */
  async function handOverWaiting(): Promise<void> {
    const handOff = deps.handOff;
    if (!handOff) return;
    for (const action of read()) {
      if (handed.has(action.key)) continue;
      const headers = credentialsFor(action);
      if (!headers) continue; // dropped when its turn comes, never sent as someone else
      handed.add(action.key);
      const { key, at, seq } = action;
      try {
        await handOff.handOver({ key, url: apiUrl(action.path), headers: [...headers.entries()], body: bodyOf(action), at, seq });
      } catch {
        handed.delete(key);
      }
    }
  }

  /** The worker's answer to `action`, if it sent it. */
  async function answerFromWorker(action: OfflineAction): Promise<Response | null> {
    try {
      return (await deps.handOff?.answerOf(action.key)) ?? null;
    } catch {
      return null;
    }
  }

  /** Leaves the outbox: the worker's copy first (under the sender lock, so it cannot send it meanwhile). */
  async function removeDone(action: OfflineAction): Promise<void> {
    handed.delete(action.key);
    try {
      await deps.handOff?.withdraw(action.key);
    } catch {
      // Its copy stays: sent again, the key makes it a repeat.
    }
    remove(action);
  }

  async function readAnswer(res: Response): Promise<unknown> {
    try {
      const text = await res.text();
      return text ? JSON.parse(text) : null;
    } catch {
      return null;
    }
  }

  function delivered(action: OfflineAction, answer: unknown): void {
    const kind = kinds.get(action.kind);
    let applied: Promise<unknown> = Promise.resolve();
    if (client) {
      const queryClient = client;
      applied = kind?.sent
        ? Promise.resolve()
            .then(() => kind.sent!(queryClient, action, answer))
            .catch(() => queryClient.invalidateQueries({ queryKey: planKeys.plan(action.planId) }))
        : queryClient.invalidateQueries({ queryKey: planKeys.plan(action.planId) });
    }
    // The tap is done once its answer is in the caches (the plan's live updates wait till then).
    void applied.finally(() => settle(action.key, 'sent'));
  }

  function refused(action: OfflineAction, error: ApiError): void {
    onGuestSecretRefused(error); // the same as for any write (lib/query-client.ts)
    unshow(action);
    showErrorToast(error, action.failure);
    settle(action.key, 'refused');
  }

  function dropped(action: OfflineAction): void {
    unshow(action);
    showErrorMessage('Not sent', `Your ${action.noun} wasn't sent: this device is no longer signed in as ${action.as.name}.`);
    settle(action.key, 'dropped');
  }

  async function sendQueue(force: boolean, gen: number): Promise<void> {
    for (;;) {
      if (gen !== generation) return;
      // Read afresh under the lock: another tab may have sent some meanwhile
      // (its `storage` events can come after the lock does).
      actions = null;
      const head = read()[0];
      if (!head) return;
      // Sent by the service worker meanwhile: its answer is this action's.
      const kept = await answerFromWorker(head);
      if (gen !== generation) return;
      let res: Response;
      if (kept) {
        res = kept;
      } else {
        if (!deps.online()) {
          // No network at all: nothing is tried until the `online` event.
          for (const action of read()) if (!action.waiting) write({ ...action, waiting: true });
          await handOverWaiting();
          settleQueued();
          return;
        }
        if (!force && head.retryAt > deps.now()) {
          schedule(head.retryAt);
          settleQueued();
          return;
        }
        const headers = credentialsFor(head);
        if (!headers) {
          await removeDone(head);
          dropped(head);
          continue;
        }
        if (!deps.locks) takeLease(); // renewed for each request
        setSending(head.key);
        try {
          res = await attempt(head, headers);
        } catch {
          if (gen !== generation) return;
          // No answer (no network, a lost answer, a timeout): the same request, with its key, later.
          setSending(null);
          retryLater(head);
          await handOverWaiting();
          settleQueued();
          return;
        }
        if (gen !== generation) return;
        setSending(null);
      }
      if (res.ok) {
        const answer = await readAnswer(res);
        if (gen !== generation) return;
        await removeDone(head);
        delivered(head, answer);
        force = true; // the network works: the next ones need not wait for their timers
        continue;
      }
      if (TRANSIENT_STATUSES.has(res.status)) {
        void res.body?.cancel().catch(() => {});
        retryLater(head);
        await handOverWaiting();
        settleQueued();
        return;
      }
      const error = await apiErrorOf(res);
      if (gen !== generation) return;
      await removeDone(head);
      refused(head, error);
    }
  }

  /**
   * Sends what waits, oldest first. `now`: do not wait for back-off timers
   * (the network may be back: a tap, `online`, a live stream reconnecting,
   * the app starting).
   */
  function flush({ now = false }: { now?: boolean } = {}): Promise<void> {
    listen();
    if (now) forceNext = true;
    if (running) {
      again = true;
      return running;
    }
    const gen = generation;
    running = (async () => {
      try {
        do {
          again = false;
          const force = forceNext;
          forceNext = false;
          await withSenderLock(() => sendQueue(force, gen));
        } while (again && gen === generation);
      } finally {
        if (gen === generation) running = null;
      }
    })();
    return running;
  }

  function submit<D>(kind: string, input: NewOfflineAction<D>): Promise<ActionOutcome> {
    const action: OfflineAction<D> = {
      ...input,
      kind,
      key: deps.randomKey(),
      at: deps.now(),
      seq: ++seq,
      attempts: 0,
      waiting: !deps.online(),
      retryAt: 0,
    };
    const outcome = new Promise<ActionOutcome>((resolve) => waiters.set(action.key, resolve));
    write(action);
    sweep(); // shown at once
    void flush({ now: true });
    return outcome;
  }

  // ---- Other tabs: their writes arrive as `storage` events.

  function onStorage(event: StorageEvent): void {
    if (event.key !== null && !event.key.startsWith(PREFIX)) return;
    const before = read();
    changed();
    const now = new Set(read().map((action) => action.key));
    for (const action of before) {
      if (now.has(action.key)) continue;
      // Sent (or refused) by another tab, which applied the answer to its own
      // caches: this tab reads again what it showed, and the tap is done here.
      if (client) {
        for (const query of client.getQueryCache().getAll()) {
          const data = query.state.data;
          if (isObject(data) && marks.get(data)?.has(action.key)) void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
        }
      }
      settle(action.key, 'queued');
    }
    sweep(); // another tab's new taps show here too
  }

  let listening = false;
  const onOnline = () => void flush({ now: true });

  function listen(): void {
    if (listening || typeof window === 'undefined') return;
    listening = true;
    window.addEventListener('online', onOnline);
    window.addEventListener('storage', onStorage);
  }

  return {
    attach,
    register,
    submit,
    flush,
    /** Attaches the app's cache and sends what an earlier visit left, once the page is idle. */
    start(queryClient: QueryClient): () => void {
      attach(queryClient);
      return whenIdle(() => void flush({ now: true }), { timeoutMs: 1000, fallbackMs: 0 });
    },
    /** Every pending action, oldest first, and the one this tab is sending. */
    view(): { actions: readonly OfflineAction[]; sending: string | null } {
      view ??= { actions: read(), sending: sendingKey };
      return view;
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Tests: forget this tab's state (what is stored stays). */
    reset(): void {
      generation += 1;
      if (timer !== null) deps.clearTimer(timer);
      timer = null;
      timerAt = Infinity;
      running = null;
      again = false;
      forceNext = false;
      sendingKey = null;
      waiters.clear();
      stopWatching?.();
      stopWatching = null;
      client = null;
      lastData = new Map();
      if (listening && typeof window !== 'undefined') {
        window.removeEventListener('online', onOnline);
        window.removeEventListener('storage', onStorage);
      }
      listening = false;
      changed();
    },
  };
}

// ---- The tab's outbox, created on first use.

let tabOutbox: OfflineOutbox | null = null;

function outbox(): OfflineOutbox {
  tabOutbox ??= createOfflineOutbox();
  return tabOutbox;
}

/** A kind of action (idea vote, date vote, comment): its name and how it shows. */
export function defineOfflineActionKind<D>(name: string, handler: OfflineActionKind<D>): OfflineActionKindHandle<D> {
  const handle: OfflineActionKindHandle<D> = {
    name,
    handler,
    submit: (action) => {
      outbox().register(handle);
      return outbox().submit(name, action);
    },
  };
  return handle;
}

/** The app's start: the cache to show pending actions in, and what an earlier visit left is sent. */
export function startOfflineActions(queryClient: QueryClient): () => void {
  return outbox().start(queryClient);
}

/** Sends what waits now, without waiting for back-off timers (a live stream reconnected). */
export function sendOfflineActionsNow(): void {
  if (outbox().view().actions.length > 0) void outbox().flush({ now: true });
}

/** Whether this tab is sending a vote or comment of the plan right now (its live updates wait). */
export function isSendingOfflineAction(planId: string): boolean {
  if (!tabOutbox) return false;
  const { actions, sending } = tabOutbox.view();
  return sending !== null && actions.some((action) => action.key === sending && action.planId === planId);
}

/** Called whenever the outbox changes (what waits, what is being sent). */
export function watchOfflineActions(listener: () => void): () => void {
  return outbox().subscribe(listener);
}

/** A screen that makes or shows actions of `kind`: their answers and pending states land in this cache. */
export function useOfflineActionKind<D>(kind: OfflineActionKindHandle<D>): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    outbox().attach(queryClient);
    outbox().register(kind);
  }, [queryClient, kind]);
}

const subscribe = (listener: () => void) => outbox().subscribe(listener);
const snapshot = () => outbox().view();
// Rendered ahead of time (the static shells): no device, nothing pending.
const NOTHING_PENDING = { actions: [], sending: null };
const noSnapshot = () => NOTHING_PENDING;

/** The pending actions of a plan (all kinds), oldest first. */
export function usePendingActions(planId: string | undefined): PendingAction[] {
  const { actions, sending } = useSyncExternalStore(subscribe, snapshot, noSnapshot);
  return useMemo(
    () => actions.filter((action) => action.planId === planId).map((action) => ({ ...action, sending: action.key === sending })),
    [actions, sending, planId],
  );
}

/** Tests: a fresh outbox for the next test (what is stored is cleared with localStorage). */
export function resetOfflineActions(): void {
  tabOutbox?.reset();
}
