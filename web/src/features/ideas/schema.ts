import { z } from 'zod/mini';

// The ideas JSON of the API (spec §3 Idea, Idea comment, Voter;
// supabase/functions/_shared/contract/ideas.ts).

import { voterSchema } from '../../../../supabase/functions/_shared/contract/common';

// The limits and the voter's shape are the server's own (its pure contract).
export {
  COMMENT_TEXT_MAX,
  IDEA_TEXT_MAX,
  voterSchema,
  type Voter,
} from '../../../../supabase/functions/_shared/contract/common';

export const ideaSchema = z.object({
  id: z.string(),
  text: z.string(),
  authorName: z.string(),
  userId: z.nullish(z.string()),
  guestId: z.nullish(z.string()),
  voteCount: z.number(),
  hasUserVoted: z.boolean(),
  commentCount: z.number(),
  createdAt: z.string(),
});
export type Idea = z.infer<typeof ideaSchema>;
export const ideaListSchema = z.array(ideaSchema);

export const ideaCommentSchema = z.object({
  id: z.string(),
  text: z.string(),
  authorName: z.string(),
  createdAt: z.string(),
});
export type IdeaComment = z.infer<typeof ideaCommentSchema>;
export const ideaCommentListSchema = z.array(ideaCommentSchema);

export const voterListSchema = z.array(voterSchema);

export const voteResultSchema = z.object({ voted: z.boolean(), voteCount: z.number() });
export type VoteResult = z.infer<typeof voteResultSchema>;

export const pickIdeaResultSchema = z.object({ lockedIdeaId: z.nullable(z.string()) });

export const activitySuggestionsSchema = z.object({ suggestions: z.array(z.string()) });
