import { z } from 'zod/mini';

// The guest endpoints' answers (spec §3; shared/spec/decisions.md "Guests";
// supabase/functions/_shared/contract/guests.ts). Each built on first use
// (z.lazy), not when the app's code is evaluated (docs/performance.md).

/** POST /api/guest-session answers `{id, name, planId}`; GET /api/guest-session/{id} too. */
export const guestSessionSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    /** decisions.md: the API adds the plan; older answers without it are still read. */
    planId: z.optional(z.string()),
  }),
);

/**
 * POST /api/guest-session and POST /api/guest-session/restore: the session
 * and this device's new secret (docs/decisions.md "Guest secrets").
 */
export const guestCredentialsSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    planId: z.string(),
    secret: z.string().check(z.minLength(1)),
  }),
);

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

/** An existing guest of the plan, as the "Is this you?" card shows it. */
export type ExistingGuest = GuestCheckResult & { guestId: string };


/** decisions.md: guest names are trimmed, 1-80 characters. */
export { GUEST_NAME_MAX as GUEST_NAME_MAX_LENGTH } from '../../../../supabase/functions/_shared/contract/common';
