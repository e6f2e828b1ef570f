// The client side of the live updates (docs/live-updates.md): what
// a plan's change feed says, whatever carries it (SSE or Supabase Realtime).

// The payload, its parts and its parser are the server's own contract (one
// source of truth; pure TypeScript, no Deno APIs).
import type { PlanChange } from '../../../../supabase/functions/_shared/contract/live';

export {
  fullChange,
  parseChange,
  realtimeTopic,
  type PlanChange,
  type PlanPart,
} from '../../../../supabase/functions/_shared/contract/live';

/**
 * 'live': events flow. 'reconnecting': the connection is down and being
 * retried. 'stopped': given up for good (401, or the plan is gone).
 */
export type LiveStatus = 'live' | 'reconnecting' | 'stopped';

/**
 * What a plan's subscriber hears. `ready`: the feed is open at `version` (null
 * when the transport has no versions); `replayed` when the connection was
 * already open and the subscriber merely joined it.
 */
export type PlanLiveEvent =
  | { type: 'ready'; version: number | null; replayed?: boolean }
  | { type: 'change'; change: PlanChange }
  | { type: 'status'; status: LiveStatus };

/** The home list's feed: every plan of the signed-in user, no resume. */
export type MyPlansLiveEvent =
  | { type: 'ready'; planIds: string[]; replayed?: boolean }
  | { type: 'change'; change: PlanChange }
  | { type: 'status'; status: LiveStatus };

export interface LiveConnection {
  close(): void;
}

export interface MyPlansConnection extends LiveConnection {
  /** The plans the client now shows; the connection widens itself when one is new to it. */
  watch(planIds: readonly string[]): void;
}

/** A way to hear a plan's changes. Each connection reconnects by itself until closed. */
export interface LiveTransport {
  openPlan(planId: string, emit: (event: PlanLiveEvent) => void): LiveConnection;
  openMyPlans(planIds: readonly string[], emit: (event: MyPlansLiveEvent) => void): MyPlansConnection;
}
