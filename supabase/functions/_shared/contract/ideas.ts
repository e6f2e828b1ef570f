// The ideas endpoints' answers and sentences (spec §3 Idea, Idea comment,
// Voter; §7; docs/api.md "Ideas, comments, votes", "Interests and suggestions").
import { z } from 'zod/mini';

export { COMMENT_TEXT_MAX, IDEA_TEXT_MAX, JOIN_TO_VOTE, PLAN_NOT_FOUND, type Voter, voterListSchema } from './common.ts';

export const IDEA_NOT_FOUND = 'Idea not found';
export const COMMENT_NOT_FOUND = 'Comment not found';
/** No token and no guestId (the database answers the same for an unknown guest). */
export const JOIN_TO_SUGGEST = 'Join the plan first to suggest ideas';
export const JOIN_TO_COMMENT = 'Join the plan first to comment';

/** Spec §3 Idea. */
export const ideaSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    text: z.string(),
    authorName: z.string(),
    /** The author's account, or null (a guest's idea, or the account is gone). */
    userId: z.nullish(z.string()),
    /** The author's guest id, or null. */
    guestId: z.nullish(z.string()),
    voteCount: z.number(),
    /** The signed-in caller (or the `?guestId=` guest) voted for it. */
    hasUserVoted: z.boolean(),
    commentCount: z.number(),
    /** ISO 8601, UTC, milliseconds ('2026-11-21T08:00:00.000Z'). */
    createdAt: z.string(),
  }),
);
export type Idea = z.infer<typeof ideaSchema>;
export const ideaListSchema = z.lazy(() => z.array(ideaSchema));

/** Spec §3 Idea comment. */
export const ideaCommentSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    text: z.string(),
    authorName: z.string(),
    /** The author's account or guest id, or null (as on an Idea): who may delete it. */
    userId: z.nullish(z.string()),
    guestId: z.nullish(z.string()),
    createdAt: z.string(),
  }),
);
export type IdeaComment = z.infer<typeof ideaCommentSchema>;
export const ideaCommentListSchema = z.lazy(() => z.array(ideaCommentSchema));

/** POST /api/ideas/{id}/vote: `voted` when the caller's vote exists after the toggle. */
export const voteResultSchema = z.lazy(() => z.object({ voted: z.boolean(), voteCount: z.number() }));
export type VoteResult = z.infer<typeof voteResultSchema>;

/** POST /api/plans/{id}/pick-idea: the picked idea, or null after picking the picked one again (un-pick). */
export const pickIdeaResultSchema = z.lazy(() => z.object({ lockedIdeaId: z.nullable(z.string()) }));
export type PickIdeaResult = z.infer<typeof pickIdeaResultSchema>;

/** GET /api/plans/{id}/activity-suggestions. */
export const activitySuggestionsSchema = z.lazy(() => z.object({ suggestions: z.array(z.string()) }));
export type ActivitySuggestions = z.infer<typeof activitySuggestionsSchema>;
