// The part of the API's contract that the web app imports as it is: pure
// (zod/mini and nothing else: no Hono, no Deno or DOM API), so that the
// server and the app hold one copy of each shape, limit and sentence.
import { z } from 'zod/mini';

/** decisions.md text limits (after trimming), checked by the API and kept by the app's inputs. */
export const IDEA_TEXT_MAX = 280;
export const COMMENT_TEXT_MAX = 1000;
export const TITLE_MAX = 120;
export const LOCATION_MAX = 500;
export const GUEST_NAME_MAX = 80;
export const INTEREST_TEXT_MAX = 80;

/** Digits of an e-mailed sign-in code. */
export const SIGN_IN_CODE_LENGTH = 6;

/** An unknown plan (or one out of the caller's reach), answered by the API and said by the app. */
export const PLAN_NOT_FOUND = 'Plan not found';

/** Spec §8: voting before joining. The app says it before asking; the vote rules answer it too. */
export const JOIN_TO_VOTE = 'Please join the plan first to vote';

/** Spec §3 Plan status, in the order a plan goes through them. */
export const PLAN_STATUSES = ['planning', 'time_range_locked', 'date_locked', 'completed'] as const;
export const planStatusSchema = z.enum(PLAN_STATUSES);
export type PlanStatus = z.infer<typeof planStatusSchema>;

/** Spec §3 Voter (an idea's or a time slot's): `id` is the user id of a member, the guest id of a guest. */
export const voterSchema = z.object({ id: z.string(), name: z.string(), isGuest: z.boolean() });
export type Voter = z.infer<typeof voterSchema>;

/** Spec §3 "Transfer response" (POST /api/auth/transfer-guest-votes): the votes now the member's. */
export const transferResultSchema = z.object({
  transferredIdeaVotes: z.number(),
  transferredTimeVotes: z.number(),
});
export type TransferResult = z.infer<typeof transferResultSchema>;
