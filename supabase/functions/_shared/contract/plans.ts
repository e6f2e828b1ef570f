// The plans endpoints' answers (spec §3 Plan/Participant, §7; docs/api.md
// "Plans", "Leaving and deleting"). Nullable fields also accept a missing key.
import { z } from 'zod/mini';
import { planStatusSchema } from './common.ts';

export { PLAN_NOT_FOUND, type PlanStatus, SLUG_PATTERN, TITLE_MAX } from './common.ts';
export const ONLY_HOST_CAN_DELETE = 'Only the host can delete this plan';
/** DELETE /api/plans/{id}/participants/{participantId} of someone not in the plan (or a malformed id). */
export const PARTICIPANT_NOT_FOUND = 'This person is not in the plan';
export { REMOVED_FROM_PLAN } from './guest-secret.ts';
/** DELETE /api/plans/{id}/removals/{removalId} of a removal that is not the plan's (or was undone, or a malformed id). */
export const REMOVAL_NOT_FOUND = 'This person was not removed from the plan';

// Co-hosts (docs/api-after-the-date.md "Co-hosts", docs/decisions/0098-cohosts.md): the
// database's sentences (private.set_cohost, private.remove_participant).
/** POST/DELETE /api/plans/{id}/cohosts... by anyone but the host. */
export const ONLY_HOST_CAN_CHOOSE_COHOSTS = 'Only the host can choose co-hosts';
/** POST /api/plans/{id}/cohosts of a guest. */
export const GUEST_CANNOT_BE_COHOST = "A guest can't be a co-host; ask them to sign in first.";
/** A co-host removing the host or another co-host. */
export const COHOST_CANNOT_REMOVE = 'A co-host cannot remove the host or another co-host';
/** A participant's part in running the plan: its host, a co-host, or neither (null). */
export const PARTICIPANT_ROLES = ['host', 'cohost'] as const;
export type ParticipantRole = (typeof PARTICIPANT_ROLES)[number];
/** Optional so a copy kept from before roles still reads. */
/** A participant's role in JSON: 'host', 'cohost' or null (docs/api-after-the-date.md "Co-hosts"). */
export const roleSchema = () => z.nullish(z.enum(PARTICIPANT_ROLES));


const lockedTimeSlotShape = () => ({
  id: z.string(),
  /** 'YYYY-MM-DD', a calendar day with no time zone. */
  date: z.string(),
  /** Named period, 'H:mm', or null for the whole day. */
  period: z.nullish(z.string()),
});

const planShape = () => ({
  id: z.string(),
  /**
   * The public link's code (/l/{slug}). Null for everyone but the host when
   * invitations are closed, unless the plan was read by that slug
   * (docs/decisions/0086).
   */
  slug: z.nullable(z.string()),
  title: z.string(),
  description: z.nullish(z.string()),
  isOpenInvite: z.boolean(),
  /**
   * "Show details in link previews" (./previews.ts): the link's card shows the
   * title, where the plan stands and the host's first name; off, the generic
   * card. Optional: a copy kept from before it existed still reads.
   */
  previewDetails: z.optional(z.boolean()),
  /** A status the app does not know fails the parse, not a screen. */
  status: planStatusSchema,
  hostId: z.string(),
  location: z.nullish(z.string()),
  eventTime: z.nullish(z.string()),
  /**
   * The IANA zone of the host's clock when the time was set ('Europe/Berlin'):
   * eventTime is the wall clock there. Null: a floating time (docs/decisions/0074).
   */
  timeZone: z.nullish(z.string()),
  lockedIdeaId: z.nullish(z.string()),
  lockedTimeSlotId: z.nullish(z.string()),
  /** 'YYYY-MM-DD' exactly as stored (no time zone). */
  lockedTimeSlotDate: z.nullish(z.string()),
  participantCount: z.number(),
  /** The picked idea's text (null when none is picked or the caller holds only the slug). */
  lockedIdeaText: z.nullish(z.string()),
  /** The locked slot once the event time is set. */
  lockedTimeSlot: z.nullish(z.object(lockedTimeSlotShape())),
  /** "Decide by": an ISO 8601 instant, or null (docs/api.md "Notifications"). */
  deadline: z.nullish(z.string()),
  /** At the deadline the most-voted idea and date are locked. */
  autoLock: z.optional(z.boolean()),
  /** When the host last reminded who has not answered (one per 12 hours). */
  remindedAt: z.nullish(z.string()),
  /**
   * The calendar event's revision: the SEQUENCE of the plan's .ics, which
   * rises whenever the event changes (docs/calendars.md "Calendar feed"). Optional:
   * a copy kept from before it existed still reads.
   */
  calendarSequence: z.optional(z.number()),
  /** Who's coming (./rsvps.ts): the spots, counting friends (null: no limit). Optional: older copies still read. */
  capacity: z.nullish(z.number()),
  /** The friends one person may bring (0-10, default 2). */
  maxPlusOnes: z.optional(z.number()),
  /** The answers at a glance, null before a date is locked (the home card, the Plan Status card). */
  answers: z.nullish(z.object({ going: z.number(), maybe: z.number(), headcount: z.number() })),
  /** A cancelled plan (status 'cancelled'): the host's message, or null (docs/decisions/0100). */
  cancelMessage: z.nullish(z.string()),
  /** When it was cancelled (ISO 8601), or null. */
  cancelledAt: z.nullish(z.string()),
});

/** GET /api/plans/{id}, /slug/{slug}, POST /api/plans and the host's writes. */
export const planSchema = z.lazy(() => z.object(planShape()));
export type Plan = z.infer<typeof planSchema>;
export type LockedTimeSlot = NonNullable<Plan['lockedTimeSlot']>;

/** One entry of GET /api/plans: the plan plus its participants in join order (spec §2 Home). */
const planSummaryShape = () => ({
  ...planShape(),
  participants: z.array(z.object({ id: z.string(), name: z.string(), isGuest: z.boolean(), role: roleSchema() })),
});
export const planSummaryListSchema = z.lazy(() => z.array(z.object(planSummaryShape())));
export type PlanSummary = z.infer<typeof planSummaryListSchema>[number];

/** GET /api/plans/{id}/participants (spec §3 Participant): userId for members, guestId for guests. */
const participantShape = () => ({
  id: z.string(),
  name: z.string(),
  userId: z.nullish(z.string()),
  guestId: z.nullish(z.string()),
  isGuest: z.boolean(),
  /** Voted on at least one idea or date, or said none of the dates work. */
  hasResponded: z.optional(z.boolean()),
  /** Said "none of these dates work for me" (docs/api.md "Time slots and the lock flow"). */
  noDates: z.optional(z.boolean()),
  /** 'host', 'cohost' or null (docs/api-after-the-date.md "Co-hosts"). */
  role: roleSchema(),
});
export const participantListSchema = z.lazy(() => z.array(z.object(participantShape())));
export type Participant = z.infer<typeof participantListSchema>[number];
/** POST and DELETE /api/plans/{id}/cohosts...: the participant, with its new role. */
export const participantSchema = z.lazy(() => z.object(participantShape()));

/** DELETE /api/plans/{id}/leave. */
export const leavePlanResultSchema = z.lazy(() => z.object({ planDeleted: z.boolean() }));
export type LeavePlanResult = z.infer<typeof leavePlanResultSchema>;

/**
 * GET /api/plans/{id}/removals (the host): who was removed, newest first; a
 * member by the name the account shows, a guest by the name it had.
 */
const removalShape = () => ({
  id: z.string(),
  name: z.string(),
  isGuest: z.boolean(),
  /** ISO 8601 (UTC). */
  removedAt: z.string(),
});
export const removalListSchema = z.lazy(() => z.array(z.object(removalShape())));
export type Removal = z.infer<typeof removalListSchema>[number];
