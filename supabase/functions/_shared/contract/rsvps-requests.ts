// Who's coming: the requests (docs/api.md "Who's coming").
import { z } from 'zod';
import { body, optionalGuestId } from './fields.ts';
import {
  ANSWER_INVALID,
  CAPACITY_INVALID,
  CAPACITY_MAX,
  MAX_PLUS_ONES_INVALID,
  PLUS_ONES_INVALID,
  PLUS_ONES_MAX,
  RSVP_ANSWERS,
} from './rsvps.ts';

const answer = z.enum(RSVP_ANSWERS, {
  error: (issue) => (issue.input === undefined ? 'Answer is required' : ANSWER_INVALID),
});

/** Friends coming along: 0..PLUS_ONES_MAX (the plan's own max is the database's check); absent = 0. */
const plusOnes = z
  .number({ error: PLUS_ONES_INVALID })
  .int(PLUS_ONES_INVALID)
  .min(0, PLUS_ONES_INVALID)
  .max(PLUS_ONES_MAX, PLUS_ONES_INVALID)
  .optional()
  .transform((value) => value ?? 0);

/** PUT /api/plans/{id}/rsvp: a guest without a token names itself by guestId (its device secret proves it). */
export const rsvpBody = body({ answer, plusOnes, guestId: optionalGuestId() });

/** PUT /api/plans/{id}/rsvps/{participantId} (the host). */
export const rsvpForBody = body({ answer, plusOnes });

/** POST /api/plans/{id}/capacity: spots 1..CAPACITY_MAX or null (no limit); maxPlusOnes absent = unchanged. */
export const capacityBody = body({
  capacity: z.union([z.number().int(CAPACITY_INVALID).min(1, CAPACITY_INVALID).max(CAPACITY_MAX, CAPACITY_INVALID), z.null()], {
    error: (issue) => (issue.input === undefined ? 'Capacity is required' : CAPACITY_INVALID),
  }),
  maxPlusOnes: z
    .number({ error: MAX_PLUS_ONES_INVALID })
    .int(MAX_PLUS_ONES_INVALID)
    .min(0, MAX_PLUS_ONES_INVALID)
    .max(PLUS_ONES_MAX, MAX_PLUS_ONES_INVALID)
    .optional(),
});
