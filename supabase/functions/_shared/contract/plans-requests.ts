// The plans endpoints' requests (spec §7; docs/api.md "Plans").
import { z } from 'zod';
import { TITLE_MAX } from './common.ts';
import { body, cleanString, uuid } from './fields.ts';

export const createPlanBody = body({
  title: cleanString('Title', 'line')
    .refine((value) => value.length >= 1, 'Title is required')
    .refine((value) => value.length <= TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`),
  isOpenInvite: z.boolean({ error: 'isOpenInvite must be true or false' }).optional(),
});
export type CreatePlanInput = z.input<typeof createPlanBody>;

/** POST /api/plans/{id}/rotate-link: nothing to say (a body, if any, must be an object). */
export const rotateLinkBody = body({});

/**
 * The `?guestId=` of a DELETE a guest may make (leave, delete an idea or a
 * comment), and the optional `{guestId}` body it may send instead.
 */
export const guestIdSchema = z
  .string({ error: 'guestId must be a valid id' })
  .pipe(z.uuid({ error: 'guestId must be a valid id' }));

export const guestDeleteBody = body({
  guestId: z.union([guestIdSchema, z.null()], { error: 'guestId must be a valid id' }).optional(),
});

/** POST /api/plans/{id}/cohosts: the participant the host makes a co-host (docs/api-after-the-date.md "Co-hosts"). */
export const cohostBody = body({ participantId: uuid('participantId') });
