// The ideas endpoints' contract (spec §3 Idea, Idea comment, Voter; §7;
// decisions.md "Ideas, comments, votes", "Interests and suggestions"): request
// schemas, the sentences answered, and the JSON shapes.
import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { body, cleanString } from '../validation.ts';
import { COMMENT_TEXT_MAX, IDEA_TEXT_MAX } from './common.ts';

export { COMMENT_TEXT_MAX, IDEA_TEXT_MAX, JOIN_TO_VOTE, PLAN_NOT_FOUND, type Voter } from './common.ts';

export const IDEA_NOT_FOUND = 'Idea not found';
/** No token and no guestId (the database answers the same for an unknown guest). */
export const JOIN_TO_SUGGEST = 'Join the plan first to suggest ideas';
export const JOIN_TO_COMMENT = 'Join the plan first to comment';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id from the URL. Anything that is not a uuid cannot name a row, so it is
 * answered like an unknown id (404 `notFound`), never a 500 from a failed cast.
 */
export function idParam(value: string | undefined, notFound: string): string {
  if (!value || !UUID_PATTERN.test(value)) throw new HttpError(404, notFound);
  return value.toLowerCase();
}

/**
 * Required multi-line text (the plan page's idea box is a textarea; `\n` is
 * the only control character allowed, see _shared/text.ts); blank counts as
 * missing ("Idea text is required").
 */
function requiredText(label: string, max: number) {
  return cleanString(label, 'multiline')
    .refine((value) => value.length >= 1, `${label} is required`)
    .refine((value) => value.length <= max, `${label} must be at most ${max} characters`);
}

/** A guest's id (null, '' and absent alike mean "no guest"). Lower-cased like the database prints it. */
export const guestIdField = z
  .union([z.literal(''), z.string().regex(UUID_PATTERN, 'Guest id must be a valid id'), z.null()], { error: 'Guest id must be a valid id' })
  .optional()
  .transform((value) => value?.toLowerCase() || null);

/** `?guestId=` of GET /api/plans/{id}/ideas (hasUserVoted for that guest). */
export const guestIdQuery = z
  .string()
  .regex(UUID_PATTERN, 'Guest id must be a valid id')
  .optional()
  .transform((value) => value?.toLowerCase() ?? null);

/**
 * POST /api/plans/{id}/ideas `{text, authorName?, guestId?}`. authorName is
 * accepted and ignored: the name comes from the author's participants row
 * (trigger), so nobody can post under someone else's name.
 */
export const createIdeaBody = body({
  text: requiredText('Idea text', IDEA_TEXT_MAX),
  guestId: guestIdField,
});

/** POST /api/ideas/{id}/comments `{text, authorName?, guestId?}` (authorName ignored likewise). */
export const createCommentBody = body({
  text: requiredText('Comment text', COMMENT_TEXT_MAX),
  guestId: guestIdField,
});

/** POST /api/ideas/{id}/vote `{guestId?}` (an empty body for a signed-in caller). */
export const voteBody = body({ guestId: guestIdField });

/** POST /api/plans/{id}/pick-idea `{ideaId}`. */
export const pickIdeaBody = body({
  ideaId: z
    .string({ error: (issue) => (issue.input === undefined ? 'Idea id is required' : 'Idea id must be a valid id') })
    .regex(UUID_PATTERN, 'Idea id must be a valid id')
    .transform((value) => value.toLowerCase()),
});

/** Spec §3 Idea. */
export interface Idea {
  id: string;
  text: string;
  authorName: string;
  /** The author's account, or null (a guest's idea, or the account is gone). */
  userId: string | null;
  /** The author's guest id, or null. */
  guestId: string | null;
  voteCount: number;
  /** The signed-in caller (or the `?guestId=` guest) voted for it. */
  hasUserVoted: boolean;
  commentCount: number;
  /** ISO 8601, UTC, milliseconds ('2026-11-21T08:00:00.000Z'). */
  createdAt: string;
}

/** Spec §3 Idea comment. */
export interface IdeaComment {
  id: string;
  text: string;
  authorName: string;
  createdAt: string;
}


export interface VoteResult {
  /** True when the caller's vote exists after the toggle. */
  voted: boolean;
  voteCount: number;
}

export interface PickIdeaResult {
  /** The picked idea, or null after picking the picked one again (un-pick). */
  lockedIdeaId: string | null;
}

export interface ActivitySuggestions {
  suggestions: string[];
}
