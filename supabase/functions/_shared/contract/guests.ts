// The guest and joining endpoints' answers and sentences (spec §3 "Guest
// session", "Guest check result", "Transfer response"; §7; docs/api.md
// "Guests", "Auth"; docs/auth-and-guests.md).
import { z } from 'zod/mini';

export { GUEST_NAME_MAX, PLAN_NOT_FOUND, type TransferResult, transferResultSchema } from './common.ts';

export const GUEST_NOT_FOUND = 'Guest not found';
export const GUEST_OF_ANOTHER_PLAN = 'This guest belongs to another plan';
export const JOIN_NEEDS_IDENTITY = 'Sign in or continue as a guest to join this plan';
export const JOIN_ONLY_AS_YOURSELF = 'You can only join a plan as yourself';
/**
 * Joining a plan whose invitations are closed without its link (by its id
 * alone): raised by the database (private.require_plan_link), decision 0086.
 */
export const JOIN_NEEDS_LINK = "Only people with the host's link can join this plan";

export function guestNameTaken(name: string): string {
  return `Someone named ${name} already joined this plan`;
}

const guestSessionShape = () => ({ id: z.string(), name: z.string(), planId: z.string() });

/**
 * GET /api/guest-session/{id} answers the session plus `continuedAt`: when
 * another device last continued as this guest by name ("Yes, that's me")
 * after the asking device got its secret, else null (decision 0064); and
 * `planSlug`, the plan's link as it is now, which the guest's pages follow
 * when the host resets it (decision 0087; optional: a copy kept from before
 * it existed still reads).
 */
export const guestSessionReadSchema = z.lazy(() =>
  z.object({ ...guestSessionShape(), continuedAt: z.nullable(z.string()), planSlug: z.nullish(z.string()) }),
);
export type GuestSessionRead = z.infer<typeof guestSessionReadSchema>;

/** A guest session: `{id, name, planId}` (spec §3 "Guest session"). */
export type GuestSession = Omit<GuestSessionRead, 'continuedAt' | 'planSlug'>;

/**
 * POST /api/guest-session and POST /api/guest-session/restore answer the
 * session plus the device's new secret, which only this answer ever shows.
 */
export const guestCredentialsSchema = z.lazy(() =>
  z.object({ ...guestSessionShape(), secret: z.string().check(z.minLength(1)) }),
);
export type GuestCredentials = z.infer<typeof guestCredentialsSchema>;

/** Spec §3 "Guest check result" (POST /api/plans/{id}/check-guest). */
export const guestCheckResultSchema = z.lazy(() =>
  z.object({
    exists: z.boolean(),
    guestId: z.nullish(z.string()),
    name: z.string(),
    ideaVotes: z.array(z.string()),
    timeSlotVotes: z.array(z.string()),
  }),
);
export type GuestCheckResult = z.infer<typeof guestCheckResultSchema>;

/** POST /api/plans/{id}/join; `alreadyJoined` when the caller already was a participant (joining is idempotent). */
export const joinResultSchema = z.lazy(() => z.object({ joined: z.literal(true), participantId: z.string(), alreadyJoined: z.boolean() }));
export type JoinResult = z.infer<typeof joinResultSchema>;
