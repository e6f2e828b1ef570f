// The client side of the live updates (docs/decisions.md "Live updates"): what
// a plan's change feed says, whatever carries it (SSE or Supabase Realtime).

export const PLAN_PARTS = ['plan', 'participants', 'ideas', 'comments', 'dates'] as const;
export type PlanPart = (typeof PLAN_PARTS)[number] | 'deleted';

/** One committed change of a plan. The payload names nobody: it reaches every link holder. */
export interface PlanChange {
  planId: string;
  /** The plan's version after the change; Infinity when unknown ("refetch regardless"). */
  version: number;
  parts: PlanPart[];
  /** Ideas whose votes or comments changed: absent none, null all. */
  ideaIds?: string[] | null;
  /** Slots whose votes changed: absent none, null all. */
  slotIds?: string[] | null;
}

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

/** A change that says "assume everything changed" (a gap nobody can fill). */
export function fullChange(planId: string, version = Number.POSITIVE_INFINITY): PlanChange {
  return { planId, version, parts: [...PLAN_PARTS], ideaIds: null, slotIds: null };
}

const isIdList = (value: unknown) =>
  value === undefined || value === null || (Array.isArray(value) && value.every((id) => typeof id === 'string'));

/** A change payload as sent by the server, or null for anything else. */
export function parseChange(value: unknown): PlanChange | null {
  if (typeof value !== 'object' || value === null) return null;
  const { planId, version, parts, ideaIds, slotIds } = value as Record<string, unknown>;
  if (typeof planId !== 'string' || typeof version !== 'number' || !Array.isArray(parts)) return null;
  if (!parts.every((part) => typeof part === 'string') || !isIdList(ideaIds) || !isIdList(slotIds)) return null;
  const change: PlanChange = { planId, version, parts: parts as PlanPart[] };
  if (ideaIds !== undefined) change.ideaIds = ideaIds as string[] | null;
  if (slotIds !== undefined) change.slotIds = slotIds as string[] | null;
  return change;
}
