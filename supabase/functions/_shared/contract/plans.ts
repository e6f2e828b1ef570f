// The plans endpoints' contract (spec §3 Plan/Participant, §7; decisions.md "Plans",
// "Leaving and deleting"): request schemas and the JSON shapes answered.
import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { body, cleanString } from '../validation.ts';
import { PLAN_NOT_FOUND, type PlanStatus, TITLE_MAX } from './common.ts';

export { PLAN_NOT_FOUND, TITLE_MAX } from './common.ts';
export const ONLY_HOST_CAN_DELETE = 'Only the host can delete this plan';

/** `^[A-Za-z0-9_-]{8,64}$`, as the plans_slug_format check of the database. */
export const SLUG_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Plan status values of spec §4 ('date_locked' is read, never written). */
export type { PlanStatus } from './common.ts';

/** The plan JSON of decisions.md "Plans". */
export interface Plan {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  isOpenInvite: boolean;
  status: PlanStatus;
  hostId: string;
  location: string | null;
  eventTime: string | null;
  lockedIdeaId: string | null;
  lockedTimeSlotId: string | null;
  /** Calendar date 'YYYY-MM-DD' exactly as stored (no time zone). */
  lockedTimeSlotDate: string | null;
  participantCount: number;
  /** The picked idea's text (null when none is picked or the caller holds only the slug). */
  lockedIdeaText: string | null;
  /** The locked slot (set with the event time), else null. */
  lockedTimeSlot: LockedTimeSlot | null;
}

/** One participant as the plans list shows it (spec §2 Home: names, guests marked). */
export interface PlanListParticipant {
  id: string;
  name: string;
  isGuest: boolean;
}

export interface LockedTimeSlot {
  id: string;
  date: string;
  period: string | null;
}

/** An entry of GET /api/plans. */
export interface PlanListItem extends Plan {
  /** All participants, in join order. */
  participants: PlanListParticipant[];
}

/** GET /api/plans/{id}/participants (spec §3 Participant). */
export interface Participant {
  id: string;
  name: string;
  /** Set for members (participants with an account), else null. */
  userId: string | null;
  /** Set for guests, else null. */
  guestId: string | null;
  isGuest: boolean;
}

export interface LeavePlanResponse {
  planDeleted: boolean;
}

export const createPlanBody = body({
  title: cleanString('Title', 'line')
    .refine((value) => value.length >= 1, 'Title is required')
    .refine((value) => value.length <= TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`),
  isOpenInvite: z.boolean({ error: 'isOpenInvite must be true or false' }).optional(),
});

/** Optional `{guestId}` body of DELETE /api/plans/{id}/leave (the query parameter works too). */
export const guestIdSchema = z
  .string({ error: 'guestId must be a valid id' })
  .pipe(z.uuid({ error: 'guestId must be a valid id' }));

export const leavePlanBody = body({
  guestId: z.union([guestIdSchema, z.null()], { error: 'guestId must be a valid id' }).optional(),
});

/**
 * A plan id from the URL. Anything that is not a uuid cannot name a plan, so it
 * is "Plan not found" (404), the same answer as an unknown id: nothing leaks and
 * nothing malformed reaches the database.
 */
export function planIdParam(value: string | undefined): string {
  if (!value || !UUID_PATTERN.test(value)) throw new HttpError(404, PLAN_NOT_FOUND);
  return value.toLowerCase();
}

/** A slug from the URL; a malformed one is "Plan not found" like an unknown one. */
export function planSlugParam(value: string | undefined): string {
  if (!value || !SLUG_PATTERN.test(value)) throw new HttpError(404, PLAN_NOT_FOUND);
  return value;
}
