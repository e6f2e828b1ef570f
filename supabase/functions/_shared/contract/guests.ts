// The guest and joining endpoints' contract (spec §3 "Guest session", "Guest
// check result", "Transfer response"; §7; decisions.md "Guests", "Auth").
import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { body, text, uuid } from '../validation.ts';
import { GUEST_NAME_MAX } from './common.ts';

export { GUEST_NAME_MAX, PLAN_NOT_FOUND } from './common.ts';

export const GUEST_NOT_FOUND = 'Guest not found';
export const GUEST_OF_ANOTHER_PLAN = 'This guest belongs to another plan';
export const JOIN_NEEDS_IDENTITY = 'Sign in or continue as a guest to join this plan';
export const JOIN_ONLY_AS_YOURSELF = 'You can only join a plan as yourself';

export function guestNameTaken(name: string): string {
  return `Someone named ${name} already joined this plan`;
}

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id taken from the URL. Anything that is not a uuid cannot name a row, so
 * it is answered like an unknown id (404 with `notFound`), never a 500 from a
 * failed cast.
 */
export function pathId(value: string | undefined, notFound: string): string {
  if (!value || !UUID.test(value)) throw new HttpError(404, notFound);
  return value.toLowerCase();
}

/** Spec §3 "Guest check result". */
export interface GuestCheckResult {
  exists: boolean;
  guestId: string | null;
  name: string;
  ideaVotes: string[];
  timeSlotVotes: string[];
}

/** GET /api/guest-session/{id} answers `{id, name, planId}`. */
export interface GuestSession {
  id: string;
  name: string;
  planId: string;
}

/**
 * POST /api/guest-session and POST /api/guest-session/restore answer the
 * session plus the device's new secret, which only this answer ever shows.
 */
export interface GuestCredentials extends GuestSession {
  secret: string;
}

export interface JoinResult {
  joined: true;
  participantId: string;
  /** True when the caller already was a participant (joining is idempotent). */
  alreadyJoined: boolean;
}

export type { TransferResult } from './common.ts';
