import { z } from 'zod/mini';
import { planStatusSchema } from '../../../../supabase/functions/_shared/contract/common';

// The plan JSON of GET /api/plans/{id}, /slug/{slug} and POST /api/plans
// (shared/spec/decisions.md "Plans"). Nullable fields also accept a missing key.
// Each schema is built on first use (z.lazy), not when the app's code is
// evaluated: the entry carries this module (docs/performance.md).
const lockedTimeSlotShape = () => ({
  id: z.string(),
  date: z.string(),
  /** Named period, 'H:mm', or null for the whole day. */
  period: z.nullish(z.string()),
});

const planShape = () => ({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.nullish(z.string()),
  isOpenInvite: z.boolean(),
  /** The contract's union: a status the app does not know fails the parse, not a screen. */
  status: planStatusSchema,
  hostId: z.string(),
  location: z.nullish(z.string()),
  eventTime: z.nullish(z.string()),
  lockedIdeaId: z.nullish(z.string()),
  lockedTimeSlotId: z.nullish(z.string()),
  /** 'YYYY-MM-DD', a calendar day with no time zone. */
  lockedTimeSlotDate: z.nullish(z.string()),
  participantCount: z.number(),
  /** The picked idea's text; every plan JSON carries it (docs/decisions.md "Plans"). */
  lockedIdeaText: z.nullish(z.string()),
  /** The locked slot once the event time is set. */
  lockedTimeSlot: z.nullish(z.object(lockedTimeSlotShape())),
});

export const planSchema = z.lazy(() => z.object(planShape()));
export type Plan = z.infer<typeof planSchema>;

/** One entry of GET /api/plans: the plan plus what its home card shows. */
const planSummaryShape = () => ({
  ...planShape(),
  participants: z.array(z.object({ id: z.string(), name: z.string(), isGuest: z.boolean() })),
});
export const planSummaryListSchema = z.lazy(() => z.array(z.object(planSummaryShape())));
export type PlanSummary = z.infer<typeof planSummaryListSchema>[number];

/** GET /api/plans/{id}/participants. */
const participantShape = () => ({
  id: z.string(),
  name: z.string(),
  userId: z.nullish(z.string()),
  guestId: z.nullish(z.string()),
  isGuest: z.boolean(),
});
export const participantListSchema = z.lazy(() => z.array(z.object(participantShape())));
export type Participant = z.infer<typeof participantListSchema>[number];

export const leavePlanResultSchema = z.lazy(() => z.object({ planDeleted: z.boolean() }));
export type LeavePlanResult = z.infer<typeof leavePlanResultSchema>;

/** decisions.md: a title is 1-120 characters after trimming. */
export { TITLE_MAX as PLAN_TITLE_MAX_LENGTH } from '../../../../supabase/functions/_shared/contract/common';

export interface CreatePlanInput {
  title: string;
  isOpenInvite: boolean;
}
