// The ideas endpoints' requests (spec §7; docs/api.md "Ideas, comments, votes").
import { z } from 'zod';
import { COMMENT_TEXT_MAX, IDEA_TEXT_MAX } from './common.ts';
import { body, cleanString, UUID_PATTERN } from './fields.ts';

/**
 * Required multi-line text (the plan page's idea box is a textarea; `\n` is
 * the only control character allowed, see ./text.ts); blank counts as
 * missing ("Idea text is required").
 */
function requiredText(label: string, max: number) {
  return cleanString(label, 'multiline')
    .refine((value) => value.length >= 1, `${label} is required`)
    .refine((value) => value.length <= max, `${label} must be at most ${max} characters`);
}

/** A guest's id (null, '' and absent alike mean "no guest"). Lower-cased like the database prints it. */
const guestIdField = z
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
