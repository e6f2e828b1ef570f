// The live feed's contract (docs/live-updates.md), shared by the
// function (SSE streams) and the web app (which also receives it from Supabase
// Realtime): pure TypeScript, no runtime APIs, so both sides import it.

/** The parts of a plan a change can touch; `deleted` ends the plan. */
export const PLAN_PARTS = ['plan', 'participants', 'ideas', 'comments', 'dates', 'rsvps'] as const;
export type PlanPart = (typeof PLAN_PARTS)[number] | 'deleted';

/** One committed change of a plan, as the database announces it. It names no person. */
export interface PlanChange {
  planId: string;
  /** The plan's version after the change (strictly increasing per plan). */
  version: number;
  parts: PlanPart[];
  /** Ideas whose votes or comments changed: absent = none, null = all of them. */
  ideaIds?: string[] | null;
  /** Slots whose votes changed: absent = none, null = all of them. */
  slotIds?: string[] | null;
}

/** The Realtime topic of a plan; its broadcast event is `change`, like the SSE stream's. */
export const realtimeTopic = (planId: string) => `plan:${planId}`;

/** A change that says "assume everything changed" (a gap the stream cannot fill). */
export function fullChange(planId: string, version: number): PlanChange {
  return { planId, version, parts: [...PLAN_PARTS], ideaIds: null, slotIds: null };
}

const PARTS: ReadonlySet<string> = new Set([...PLAN_PARTS, 'deleted']);
const isIdList = (value: unknown) =>
  value === undefined || value === null || (Array.isArray(value) && value.every((id) => typeof id === 'string'));

/** A change from untrusted text (a notification, an event's data), or null if it is not one. */
export function parseChange(payload: string | unknown): PlanChange | null {
  let value: unknown = payload;
  if (typeof payload === 'string') {
    try {
      value = JSON.parse(payload);
    } catch {
      return null;
    }
  }
  const change = value as Partial<PlanChange> | null;
  if (
    !change ||
    typeof change.planId !== 'string' ||
    // A version is a count from 0; anything else (1.5, -1, 1e300) is no change.
    !Number.isSafeInteger(change.version) ||
    (change.version as number) < 0 ||
    !Array.isArray(change.parts) ||
    !change.parts.every((part) => PARTS.has(part)) ||
    !isIdList(change.ideaIds) ||
    !isIdList(change.slotIds)
  ) {
    return null;
  }
  return change as PlanChange;
}
