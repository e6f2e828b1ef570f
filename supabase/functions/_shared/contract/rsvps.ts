// Who's coming (docs/api-after-the-date.md "Who's coming"): the answers once the date is
// set, the headcount, the spots and the waitlist, the host answering for
// someone. The answers' shapes, limits and sentences.
import { z } from 'zod/mini';

import { roleSchema } from './plans.ts';

export { PLAN_CANCELLED } from './common.ts';

/** What a participant may answer (PUT rsvp, PUT rsvps/{participantId}). */
export const RSVP_ANSWERS = ['going', 'maybe', 'no'] as const;
export type RsvpAnswer = (typeof RSVP_ANSWERS)[number];
/** What an answer may come back as: a `going` that does not fit waits. */
export const RSVP_STATES = [...RSVP_ANSWERS, 'waitlist'] as const;
export const rsvpStateSchema = z.enum(RSVP_STATES);
export type RsvpState = z.infer<typeof rsvpStateSchema>;

/** The most spots a plan can have (docs/decisions/0096): the plans_capacity_range check of the database. */
export const CAPACITY_MAX = 1000;
/** The most friends the host may let one person bring: the plans_max_plus_ones_range check. */
export const PLUS_ONES_MAX = 10;
/** The friends one may bring until the host says otherwise. */
export const DEFAULT_MAX_PLUS_ONES = 2;

/** A new date reset one's answer (GET rsvps askAgain; added to the new date's notice). */
export const ASK_AGAIN = 'New date: are you still coming?';
/** 409 before a date is locked. */
export const ANSWERS_NOT_OPEN = 'Answers open once the date is set.';
/** 400: more friends than the plan allows (N = the plan's maxPlusOnes). */
export const tooManyFriends = (max: number) => `You can bring at most ${max} friends to this plan.`;
/** 403: someone else than the host answering for a participant. */
export const ONLY_HOST_ANSWERS_FOR = 'Only the host can answer for someone';
/** 403: someone else than the host setting the spots. */
export const ONLY_HOST_SETS_SPOTS = 'Only the host can set the spots';
/** 401: no member token and no guest of the plan. */
export const JOIN_TO_ANSWER = 'Join the plan first to answer';
export const ANSWER_INVALID = 'Answer must be going, maybe or no';
export const PLUS_ONES_INVALID = `Friends must be a whole number from 0 to ${PLUS_ONES_MAX}`;
export const CAPACITY_INVALID = `Spots must be a whole number from 1 to ${CAPACITY_MAX}`;
export const MAX_PLUS_ONES_INVALID = `Friends per person must be a whole number from 0 to ${PLUS_ONES_MAX}`;

/** PUT rsvp / PUT rsvps/{participantId}: the answer as it now stands; `position` in the waitlist (1, 2, ...), else null. */
const rsvpResultShape = () => ({
  answer: rsvpStateSchema,
  plusOnes: z.number(),
  position: z.nullable(z.number()),
});
export const rsvpResultSchema = z.lazy(() => z.object(rsvpResultShape()));
export type RsvpResult = z.infer<typeof rsvpResultSchema>;

/** One person of GET rsvps: `answer` null when not answered (or asked again after a new date). */
const rsvpPersonShape = () => ({
  participantId: z.string(),
  name: z.string(),
  isGuest: z.boolean(),
  /** The participants' role: 'host', 'cohost' or null. */
  role: roleSchema(),
  answer: z.nullable(rsvpStateSchema),
  plusOnes: z.number(),
  position: z.nullable(z.number()),
  setByHost: z.boolean(),
});
export type RsvpPerson = z.infer<z.ZodMiniObject<ReturnType<typeof rsvpPersonShape>>>;

/**
 * GET rsvps and POST capacity: the counts of people per answer, the
 * headcount (people going plus their friends), the spots, the caller's own
 * answer (null when the caller has none or is no participant) and everyone:
 * going (in answer order), maybe, waitlist (by position), no, unanswered.
 */
const rsvpsShape = () => ({
  going: z.number(),
  maybe: z.number(),
  no: z.number(),
  waitlist: z.number(),
  unanswered: z.number(),
  headcount: z.number(),
  capacity: z.nullable(z.number()),
  maxPlusOnes: z.number(),
  /** The caller's answer was reset by a new date and not given since: "New date: are you still coming?" */
  askAgain: z.boolean(),
  mine: z.nullable(
    z.object({
      answer: z.nullable(rsvpStateSchema),
      plusOnes: z.number(),
      position: z.nullable(z.number()),
      setByHost: z.boolean(),
    }),
  ),
  people: z.array(z.object(rsvpPersonShape())),
});
export const rsvpsSchema = z.lazy(() => z.object(rsvpsShape()));
export type Rsvps = z.infer<typeof rsvpsSchema>;
