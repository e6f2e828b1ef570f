import { z } from 'zod/mini';

// One entry of GET /api/plans (docs: decisions.md "Plans"). Only what the home
// screen reads; the plans issue extends it.
export const planSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  lockedIdeaText: z.nullish(z.string()),
});
export type PlanSummary = z.infer<typeof planSummarySchema>;

export const planSummaryListSchema = z.array(planSummarySchema);
