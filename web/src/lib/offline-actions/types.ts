// The outbox's shapes (docs/offline.md "Offline votes and comments"): what an
// action is, what a feature says about a kind of action, and what the outbox
// needs from its surroundings.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { HandedAction } from '../../service-worker/background-sync';

/** Who an action is made as: sent as that member or guest, or not at all. */
export type ActionIdentity =
  | { kind: 'member'; userId: string; name: string }
  | { kind: 'guest'; guestId: string; name: string; secret: string };

/** The methods an action is sent with (POST unless it says PUT). */
export type ActionMethod = 'POST' | 'PUT';

export interface OfflineAction<D = unknown> {
  /** The idempotency key: one per tap, sent with every attempt. */
  key: string;
  /** Which defineOfflineActionKind handles it. */
  kind: string;
  planId: string;
  /** What the tap is about, e.g. `idea:{id}`: one action at a time per target. */
  target: string;
  /** The request's path under the API, and its JSON body (none for a member's idea vote). */
  path: string;
  body?: unknown;
  /** 'PUT' for an action that sets a value (an answer: `answer-rsvp`); absent: POST. */
  method?: ActionMethod;
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

export type NewOfflineAction<D> = Pick<OfflineAction<D>, 'planId' | 'target' | 'path' | 'body' | 'method' | 'as' | 'data' | 'noun' | 'failure'>;

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

/** Every pending action, oldest first, and the one this tab is sending. */
export interface OutboxView {
  actions: readonly OfflineAction[];
  sending: string | null;
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
