// The dates and lock endpoints' answers and sentences (spec §3 Time slot /
// Voter, §7; docs/api.md "Time slots and the lock flow").
import { z } from 'zod/mini';

import { dateAnswerSchema } from './common.ts';

export { DATE_ANSWERS, type DateAnswer, dateAnswerSchema, type Voter, voterListSchema } from './common.ts';

export const TIME_SLOT_NOT_FOUND = 'Time slot not found';
export const JOIN_FIRST_TO_VOTE = 'Join the plan first to vote';
export const JOIN_FIRST_TO_SEE_VOTES = 'Join the plan first to see your votes';
export const DATE_INVALID = 'Date must be a real calendar date (YYYY-MM-DD)';
export const TIME_INVALID = 'Time must be HH:mm (24-hour)';
export const TIME_ZONE_INVALID = 'Time zone must be a time zone name such as Europe/Berlin';
export const PERIOD_INVALID = 'Period must be Morning, Afternoon, Evening, Night or a time like 19:30';
export const GUEST_ID_INVALID = 'guestId must be a valid id';
export const ANSWER_INVALID = 'answer must be "yes" or "ifneedbe"';

/** The host's line about who said "none of these dates work for me": "2 can't make any of these". */
export const noDatesLine = (count: number) => `${count} can't make any of these`;

/** Spec §3 "Time slot". */
export const timeSlotSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    /** 'YYYY-MM-DD', the group's local day. */
    date: z.string(),
    /** 'Morning' | 'Afternoon' | 'Evening' | 'Night' | 'H:mm' | null (whole day). */
    period: z.nullish(z.string()),
    /** The people who said yes (spec §3's meaning of the count). */
    voteCount: z.number(),
    /** The people who said "if need be". Optional: a copy kept from before answers still reads. */
    ifNeedBeCount: z.optional(z.number()),
    /**
     * A slot of the date that leads the plan's vote (most yes, then most if
     * need be, then earliest; one ranking, private.date_ranking): the host's
     * hint on Pick Date. Optional like ifNeedBeCount.
     */
    leading: z.optional(z.boolean()),
  }),
);
export type TimeSlot = z.infer<typeof timeSlotSchema>;
export const timeSlotListSchema = z.lazy(() => z.array(timeSlotSchema));

/** GET /api/plans/{id}/my-votes: the ids of the slots the caller voted on. */
export const myVotesSchema = z.lazy(() => z.array(z.string()));

/**
 * GET /api/plans/{id}/my-votes?answers=true: which answer the caller gave on
 * each slot, and whether it said "none of these dates work for me" (without
 * the parameter my-votes stays spec §7's list of slot ids, both answers).
 */
export const myDateAnswersSchema = z.lazy(() =>
  z.object({
    answers: z.array(z.object({ timeSlotId: z.string(), answer: dateAnswerSchema })),
    noDates: z.boolean(),
  }),
);
export type MyDateAnswers = z.infer<typeof myDateAnswersSchema>;

/** What a date vote answers besides the counts: the caller's answer now (null: no vote). */
const voteAnswerShape = () => ({
  /** Yes count. */
  voteCount: z.number(),
  ifNeedBeCount: z.optional(z.number()),
  answer: z.nullish(dateAnswerSchema),
});

/** POST /api/plans/{id}/vote-date: `voted` when the caller's vote now exists (false: this call removed it). */
export const voteDateResultSchema = z.lazy(() => z.object({ voted: z.boolean(), timeSlotId: z.string(), ...voteAnswerShape() }));
export type VoteDateResult = z.infer<typeof voteDateResultSchema>;

/** POST /api/timeslots/{id}/vote. */
export const timeSlotVoteResultSchema = z.lazy(() => z.object({ voted: z.boolean(), ...voteAnswerShape() }));
export type TimeSlotVoteResult = z.infer<typeof timeSlotVoteResultSchema>;

/** POST /api/plans/{id}/no-dates: whether the caller now says none of the dates work (a toggle). */
export const noDatesResultSchema = z.lazy(() => z.object({ noDates: z.boolean() }));
export type NoDatesResult = z.infer<typeof noDatesResultSchema>;
