// The guest and joining endpoints' requests (spec §7; docs/api-accounts.md "Guests").
import { z } from 'zod';
import { GUEST_NAME_MAX } from './common.ts';
import { body, planLink, text, uuid } from './fields.ts';

/** A name: invisible characters removed, whitespace collapsed, NFC (./text.ts), so look-alikes collide. */
const guestName = () => text('Name', { max: GUEST_NAME_MAX, kind: 'name' });

/** POST /api/plans/{id}/check-guest */
export const checkGuestBody = body({ name: guestName() });

/**
 * POST /api/guest-session. `slug`: the link the join page was opened with,
 * which a plan with closed invitations needs (docs/decisions/0086).
 */
export const createGuestSessionBody = body({ name: guestName(), planId: uuid('Plan id'), slug: planLink() });

/** POST /api/guest-session/restore ("Yes, that's me"): the plan and the guest's name, and the link as above. */
export const restoreGuestSessionBody = body({ name: guestName(), planId: uuid('Plan id'), slug: planLink() });

/**
 * POST /api/plans/{id}/join. Signed in: `{name, userId}`, where name is ignored
 * (the participant's name comes from the account) and userId, when sent, must
 * be the token's. As a guest: `{name, guestId}`, name ignored likewise (the
 * guest's stored name is used).
 */
export const joinPlanBody = body({
  userId: z.union([z.string(), z.null()], { error: 'User id must be text' }).optional(),
  guestId: uuid('Guest id').nullable().optional(),
  /** The link the join page was opened with (closed invitations need it). */
  slug: planLink(),
});

/** POST /api/auth/transfer-guest-votes */
export const transferGuestVotesBody = body({ guestId: uuid('Guest id') });
