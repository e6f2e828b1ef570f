// Sending: one sender per device (Web Locks, else a lease in localStorage),
// the oldest action first, the next only once it has its answer. 2xx is
// applied to the caches, a refusal is put back with the server's sentence; no
// answer, or a gateway's 408/502/503/504, keeps it for later.
import { ApiError, apiErrorOf } from '../api-error';
import { apiUrl } from '../api';
import { onGuestSecretRefused } from '../query-client';
import { planKeys } from '../query-keys';
import { showErrorMessage, showErrorToast } from '../toast';
import { isRecord, SEND_TIMEOUT_MS, SENDER_LOCK, TRANSIENT_STATUSES } from '../../service-worker/background-sync';
import { bodyOf, credentialsFor, methodOf } from './action';
import { sweep, unshow } from './cache-overlay';
import { answerFromWorker, handOverWaiting, removeDone } from './hand-off';
import { listen } from './other-tabs';
import { read, setSending, settle, settleQueued, write } from './queue';
import type { OutboxState } from './state';
import type { ActionOutcome, NewOfflineAction, OfflineAction } from './types';

const LEASE_KEY = 'offlineActionsLease';
/** How long a tab without Web Locks keeps the right to send. */
const LEASE_MS = 30_000;
const MAX_BACKOFF_MS = 60_000;
/** The wait before attempt n + 1 after n failed ones: 1, 2, 4 … 60 s. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
}

function takeLease(state: OutboxState): boolean {
  const { storage, now } = state.deps;
  try {
    const lease: unknown = JSON.parse(storage.getItem(LEASE_KEY) ?? 'null');
    if (isRecord(lease) && lease.tab !== state.tabId && typeof lease.until === 'number' && lease.until > now()) return false;
  } catch {
    // unreadable: take it
  }
  storage.setItem(LEASE_KEY, JSON.stringify({ tab: state.tabId, until: now() + LEASE_MS }));
  return true;
}

function dropLease(state: OutboxState): void {
  const { storage } = state.deps;
  try {
    const lease: unknown = JSON.parse(storage.getItem(LEASE_KEY) ?? 'null');
    if (isRecord(lease) && lease.tab === state.tabId) storage.removeItem(LEASE_KEY);
  } catch {
    storage.removeItem(LEASE_KEY);
  }
}

async function withSenderLock(state: OutboxState, send: () => Promise<void>): Promise<void> {
  const { deps } = state;
  if (deps.locks) {
    await deps.locks.request(SENDER_LOCK, send);
    return;
  }
  if (!takeLease(state)) {
    // Another tab is sending; look again once its lease may have run out.
    schedule(state, deps.now() + LEASE_MS);
    return;
  }
  try {
    await send();
  } finally {
    dropLease(state);
  }
}

function schedule(state: OutboxState, at: number): void {
  const { deps } = state;
  if (state.timer !== null && state.timerAt <= at) return;
  if (state.timer !== null) deps.clearTimer(state.timer);
  state.timerAt = at;
  state.timer = deps.setTimer(
    () => {
      state.timer = null;
      state.timerAt = Infinity;
      void flush(state);
    },
    Math.max(0, at - deps.now()),
  );
}

function retryLater(state: OutboxState, action: OfflineAction): void {
  const attempts = action.attempts + 1;
  const retryAt = state.deps.now() + backoffMs(attempts);
  write(state, { ...action, attempts, waiting: true, retryAt });
  schedule(state, retryAt);
}

class AttemptTimeout extends Error {}

async function attempt(state: OutboxState, action: OfflineAction, headers: Headers): Promise<Response> {
  const { deps } = state;
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
        method: methodOf(action),
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

async function readAnswer(res: Response): Promise<unknown> {
  try {
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function delivered(state: OutboxState, action: OfflineAction, answer: unknown): void {
  const kind = state.kinds.get(action.kind);
  let applied: Promise<unknown> = Promise.resolve();
  if (state.client) {
    const queryClient = state.client;
    applied = kind?.sent
      ? Promise.resolve()
          .then(() => kind.sent!(queryClient, action, answer))
          .catch(() => queryClient.invalidateQueries({ queryKey: planKeys.plan(action.planId) }))
      : queryClient.invalidateQueries({ queryKey: planKeys.plan(action.planId) });
  }
  // The tap is done once its answer is in the caches (the plan's live updates wait till then).
  void applied.finally(() => settle(state, action.key, 'sent'));
}

function refused(state: OutboxState, action: OfflineAction, error: ApiError): void {
  onGuestSecretRefused(error); // the same as for any write (lib/query-client.ts)
  unshow(state, action);
  showErrorToast(error, action.failure);
  settle(state, action.key, 'refused');
}

function dropped(state: OutboxState, action: OfflineAction): void {
  unshow(state, action);
  showErrorMessage('Not sent', `Your ${action.noun} wasn't sent: this device is no longer signed in as ${action.as.name}.`);
  settle(state, action.key, 'dropped');
}

async function sendQueue(state: OutboxState, force: boolean, gen: number): Promise<void> {
  const { deps } = state;
  for (;;) {
    if (gen !== state.generation) return;
    // Read afresh under the lock: another tab may have sent some meanwhile
    // (its `storage` events can come after the lock does).
    state.actions = null;
    const head = read(state)[0];
    if (!head) return;
    // Sent by the service worker meanwhile: its answer is this action's.
    const kept = await answerFromWorker(state, head);
    if (gen !== state.generation) return;
    let res: Response;
    if (kept) {
      res = kept;
    } else {
      if (!deps.online()) {
        // No network at all: nothing is tried until the `online` event.
        for (const action of read(state)) if (!action.waiting) write(state, { ...action, waiting: true });
        await handOverWaiting(state);
        settleQueued(state);
        return;
      }
      if (!force && head.retryAt > deps.now()) {
        schedule(state, head.retryAt);
        settleQueued(state);
        return;
      }
      const headers = credentialsFor(head);
      if (!headers) {
        await removeDone(state, head);
        dropped(state, head);
        continue;
      }
      if (!deps.locks) takeLease(state); // renewed for each request
      setSending(state, head.key);
      try {
        res = await attempt(state, head, headers);
      } catch {
        if (gen !== state.generation) return;
        // No answer (no network, a lost answer, a timeout): the same request, with its key, later.
        setSending(state, null);
        retryLater(state, head);
        await handOverWaiting(state);
        settleQueued(state);
        return;
      }
      if (gen !== state.generation) return;
      setSending(state, null);
    }
    if (res.ok) {
      const answer = await readAnswer(res);
      if (gen !== state.generation) return;
      await removeDone(state, head);
      delivered(state, head, answer);
      force = true; // the network works: the next ones need not wait for their timers
      continue;
    }
    if (TRANSIENT_STATUSES.has(res.status)) {
      void res.body?.cancel().catch(() => {});
      retryLater(state, head);
      await handOverWaiting(state);
      settleQueued(state);
      return;
    }
    const error = await apiErrorOf(res);
    if (gen !== state.generation) return;
    await removeDone(state, head);
    refused(state, head, error);
  }
}

/**
 * Sends what waits, oldest first. `now`: do not wait for back-off timers
 * (the network may be back: a tap, `online`, a live stream reconnecting,
 * the app starting).
 */
export function flush(state: OutboxState, { now = false }: { now?: boolean } = {}): Promise<void> {
  listenNow(state);
  if (now) state.forceNext = true;
  if (state.running) {
    state.again = true;
    return state.running;
  }
  const gen = state.generation;
  state.running = (async () => {
    try {
      do {
        state.again = false;
        const force = state.forceNext;
        state.forceNext = false;
        await withSenderLock(state, () => sendQueue(state, force, gen));
      } while (state.again && gen === state.generation);
    } finally {
      if (gen === state.generation) state.running = null;
    }
  })();
  return state.running;
}

/** Listens to the other tabs and to `online` (which sends what waits at once). */
export function listenNow(state: OutboxState): void {
  listen(state, () => void flush(state, { now: true }));
}

/** Writes a tap to the outbox, shows it at once, and sends it when it can. */
export function submit<D>(state: OutboxState, kind: string, input: NewOfflineAction<D>): Promise<ActionOutcome> {
  const { deps } = state;
  const action: OfflineAction<D> = {
    ...input,
    kind,
    key: deps.randomKey(),
    at: deps.now(),
    seq: ++state.seq,
    attempts: 0,
    waiting: !deps.online(),
    retryAt: 0,
  };
  const outcome = new Promise<ActionOutcome>((resolve) => state.waiters.set(action.key, resolve));
  write(state, action);
  sweep(state); // shown at once
  void flush(state, { now: true });
  return outcome;
}

/** Stops sending in this tab (tests: reset): a send under way ends at its next step. */
export function stopSending(state: OutboxState): void {
  state.generation += 1;
  if (state.timer !== null) state.deps.clearTimer(state.timer);
  state.timer = null;
  state.timerAt = Infinity;
  state.running = null;
  state.again = false;
  state.forceNext = false;
  state.sendingKey = null;
  state.waiters.clear();
}
