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
//
// One tab's outbox is its state (state.ts) and the parts that share it: the
// stored queue (queue.ts), the cache overlay (cache-overlay.ts), sending
// (sending.ts), Background Sync (hand-off.ts) and the other tabs
// (other-tabs.ts). This file puts them together.
import type { QueryClient } from '@tanstack/react-query';
import { whenIdle } from '../when-idle';
import { browserDeps } from './browser';
import { attachCache, detachCache, register, sweep } from './cache-overlay';
import { stopListening } from './other-tabs';
import { changed, viewOf } from './queue';
import { flush, listenNow, stopSending, submit } from './sending';
import { createOutboxState } from './state';
import type { ActionOutcome, NewOfflineAction, OfflineActionKindHandle, OutboxDeps, OutboxView } from './types';

export type OfflineOutbox = ReturnType<typeof createOfflineOutbox>;

export function createOfflineOutbox(deps: OutboxDeps = browserDeps()) {
  const state = createOutboxState(deps);

  function attach(queryClient: QueryClient): void {
    if (!attachCache(state, queryClient)) return;
    listenNow(state);
    sweep(state);
  }

  return {
    attach,
    register: <D>(handle: OfflineActionKindHandle<D>): void => register(state, handle),
    submit: <D>(kind: string, input: NewOfflineAction<D>): Promise<ActionOutcome> => submit(state, kind, input),
    flush: (options?: { now?: boolean }): Promise<void> => flush(state, options),
    /** Attaches the app's cache and sends what an earlier visit left, once the page is idle. */
    start(queryClient: QueryClient): () => void {
      attach(queryClient);
      return whenIdle(() => void flush(state, { now: true }), { timeoutMs: 1000, fallbackMs: 0 });
    },
    /** Every pending action, oldest first, and the one this tab is sending. */
    view: (): OutboxView => viewOf(state),
    subscribe(listener: () => void): () => void {
      state.listeners.add(listener);
      return () => void state.listeners.delete(listener);
    },
    /** Tests: forget this tab's state (what is stored stays). */
    reset(): void {
      stopSending(state);
      detachCache(state);
      stopListening(state);
      changed(state);
    },
  };
}
