// One tab's outbox state, in one object that each part of the outbox is
// handed: the stored queue (queue.ts), the cache overlay (cache-overlay.ts),
// sending (sending.ts), the hand-off to Background Sync (hand-off.ts) and the
// other tabs (other-tabs.ts). Each field says which part writes it.
import type { QueryClient } from '@tanstack/react-query';
import type { ActionOutcome, OfflineAction, OfflineActionKind, OutboxDeps, OutboxView } from './types';

export interface OutboxState {
  readonly deps: OutboxDeps;
  /** This tab, in the sender lease where the browser has no Web Locks. */
  readonly tabId: string;
  /** The kinds the features registered, by name. */
  readonly kinds: Map<string, OfflineActionKind<unknown>>;
  /** This tab's taps still waiting for their outcome, by key. */
  readonly waiters: Map<string, (outcome: ActionOutcome) => void>;
  /** Told of every change (the screens' useSyncExternalStore). */
  readonly listeners: Set<() => void>;

  // The queue (queue.ts).
  /** The tie-breaker of the next tap. */
  seq: number;
  /** What is stored, as last read; null: read again. */
  actions: readonly OfflineAction[] | null;
  /** The screens' snapshot; null: made again. */
  view: OutboxView | null;
  /** The key this tab is sending right now. */
  sendingKey: string | null;

  // Sending (sending.ts).
  /** Bumped by reset(): a send of an earlier generation stops. */
  generation: number;
  timer: unknown;
  timerAt: number;
  running: Promise<void> | null;
  /** Asked to send again while running. */
  again: boolean;
  /** The next round does not wait for back-off timers. */
  forceNext: boolean;

  // The cache overlay (cache-overlay.ts).
  client: QueryClient | null;
  stopWatching: (() => void) | null;
  /** The keys of the actions each cached read shows. */
  readonly marks: WeakMap<object, ReadonlySet<string>>;
  /** What each read held last, by query hash: a fresh answer is told from it. */
  lastData: Map<string, unknown>;

  // Background Sync (hand-off.ts).
  /** Actions this tab handed over already (a reload hands them again, with the credentials of now). */
  readonly handed: Set<string>;

  // Other tabs (other-tabs.ts).
  /** The window's listeners while listening (`online`, `storage`). */
  listening: { online: () => void; storage: (event: StorageEvent) => void } | null;
}

export function createOutboxState(deps: OutboxDeps): OutboxState {
  return {
    deps,
    tabId: deps.randomKey(),
    kinds: new Map(),
    waiters: new Map(),
    listeners: new Set(),
    seq: 0,
    actions: null,
    view: null,
    sendingKey: null,
    generation: 0,
    timer: null,
    timerAt: Infinity,
    running: null,
    again: false,
    forceNext: false,
    client: null,
    stopWatching: null,
    marks: new WeakMap(),
    lastData: new Map(),
    handed: new Set(),
    listening: null,
  };
}
