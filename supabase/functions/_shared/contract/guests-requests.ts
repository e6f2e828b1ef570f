// The guest and joining endpoints' requests (spec §7; docs/api.md "Guests").
import { z } from 'zod';
import { GUEST_NAME_MAX } from './common.ts';
import { body, text, uuid } from './fields.ts';

/** A name: invisible characters removed, whitespace collapsed, NFC (./text.ts), so look-alikes collide. */
const guestName = () => text('Name', { max: GUEST_NAME_MAX, kind: 'name' });

/** POST /api/plans/{id}/check-guest */
export const checkGuestBody = body({ name: guestName() });

/** POST /api/guest-session */
export const createGuestSessionBody = body({ name: guestName(), planId: uuid('Plan id') });

/** POST /api/guest-session/restore ("Yes, that's me"): the plan and the guest's name. */
export const restoreGuestSessionBody = body({ name: guestName(), planId: uuid('Plan id') });

/**
 * POST /api/plans/{id}/join. Signed in: `{name, userId}`, where name is ignored
 * (the participant's name comes from the account) and userId, when sent, must
 * be the token's. As a guest: `{name, guestId}`, name ignored likewise (the
 * guest's stored name is used).
 */
export const joinPlanBody = body({
  userId: z.union([z.string(), z.null()], { error: 'User id must be text' }).optional(),
  guestId: uuid('Guest id').nullable().optional(),
});

/** POST /api/auth/transfer-guest-votes */
export const transferGuestVotesBody = body({ guestId: uuid('Guest id') });
