import { z } from 'zod/mini';
import { planStatusSchema } from '../../../../supabase/functions/_shared/contract/common';

// The plan JSON of GET /api/plans/{id}, /slug/{slug} and POST /api/plans
// (shared/spec/decisions.md "Plans"). Nullable fields also accept a missing key.
export const lockedTimeSlotSchema = z.object({
  id: z.string(),
  date: z.string(),
  /** Named period, 'H:mm', or null for the whole day. */
  period: z.nullish(z.string()),
});

export const planSchema = z.object({
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
  lockedTimeSlot: z.nullish(lockedTimeSlotSchema),
});
export type Plan = z.infer<typeof planSchema>;

/** One entry of GET /api/plans: the plan plus what its home card shows. */
export const planSummarySchema = z.extend(planSchema, {
  participants: z.array(z.object({ id: z.string(), name: z.string(), isGuest: z.boolean() })),
});
export type PlanSummary = z.infer<typeof planSummarySchema>;
export const planSummaryListSchema = z.array(planSummarySchema);

/** GET /api/plans/{id}/participants. */
export const participantSchema = z.object({
  id: z.string(),
  name: z.string(),
  userId: z.nullish(z.string()),
  guestId: z.nullish(z.string()),
  isGuest: z.boolean(),
});
export type Participant = z.infer<typeof participantSchema>;
export const participantListSchema = z.array(participantSchema);

export const leavePlanResultSchema = z.object({ planDeleted: z.boolean() });
export type LeavePlanResult = z.infer<typeof leavePlanResultSchema>;

/** decisions.md: a title is 1-120 characters after trimming. */
export { TITLE_MAX as PLAN_TITLE_MAX_LENGTH } from '../../../../supabase/functions/_shared/contract/common';

export interface CreatePlanInput {
  title: string;
  isOpenInvite: boolean;
}
