// The API's contract (this folder): the one copy of every JSON shape, limit
// and sentence that the function, the web app and the tests share. Pure: zod
// (zod/mini for the answers the web app parses) and this folder's own files,
// no Hono, no Deno or DOM API (eslint.config.js checks it). Answer schemas
// are built on first use (z.lazy), not when a module loads: the web app's
// entry carries them, and building a schema is most of what parsing once
// costs (docs/performance.md).
import { z } from 'zod/mini';

/** docs/api.md text limits (after trimming), checked by the API and kept by the app's inputs. */
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

/** `^[A-Za-z0-9_-]{8,64}$`, as the plans_slug_format check of the database. */
export const SLUG_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** Spec §8: voting before joining. The app says it before asking; the vote rules answer it too. */
export const JOIN_TO_VOTE = 'Please join the plan first to vote';

/** A cancelled plan's answers, votes, comments and ideas are frozen (409). */
export const PLAN_CANCELLED = 'This plan was cancelled.';

/** A request body that is not a JSON object (an array, a string, null). */
export const NOT_AN_OBJECT = 'Request body must be a JSON object';

/** Spec §3 Plan status, in the order a plan goes through them; any of them may end `cancelled` (docs/decisions/0100). */
export const PLAN_STATUSES = ['planning', 'time_range_locked', 'date_locked', 'completed', 'cancelled'] as const;
export const planStatusSchema = z.enum(PLAN_STATUSES);
export type PlanStatus = z.infer<typeof planStatusSchema>;

/**
 * A date vote's answer (docs/api.md "Time slots and the lock flow"): yes, or
 * "if need be". Ideas stay yes-only (spec §3).
 */
export const DATE_ANSWERS = ['yes', 'ifneedbe'] as const;
export type DateAnswer = (typeof DATE_ANSWERS)[number];
export const dateAnswerSchema = z.enum(DATE_ANSWERS);

/**
 * Spec §3 Voter (an idea's or a time slot's): `id` is the user id of a member,
 * the guest id of a guest; a time slot's voters also say which answer they gave
 * (absent on an idea's, and on a copy kept from before answers).
 */
export const voterSchema = z.lazy(() =>
  z.object({ id: z.string(), name: z.string(), isGuest: z.boolean(), answer: z.optional(dateAnswerSchema) }),
);
export const voterListSchema = z.lazy(() => z.array(voterSchema));
export type Voter = z.infer<typeof voterSchema>;

/** Spec §3 "Transfer response" (POST /api/auth/transfer-guest-votes): the votes now the member's. */
export const transferResultSchema = z.lazy(() =>
  z.object({
    transferredIdeaVotes: z.number(),
    transferredTimeVotes: z.number(),
  }),
);
export type TransferResult = z.infer<typeof transferResultSchema>;
