// The dates and lock endpoints' answers and sentences (spec §3 Time slot /
// Voter, §7; docs/api.md "Time slots and the lock flow").
import { z } from 'zod/mini';

export { type Voter, voterListSchema } from './common.ts';

export const TIME_SLOT_NOT_FOUND = 'Time slot not found';
export const JOIN_FIRST_TO_VOTE = 'Join the plan first to vote';
export const JOIN_FIRST_TO_SEE_VOTES = 'Join the plan first to see your votes';
export const DATE_INVALID = 'Date must be a real calendar date (YYYY-MM-DD)';
export const TIME_INVALID = 'Time must be HH:mm (24-hour)';
export const TIME_ZONE_INVALID = 'Time zone must be a time zone name such as Europe/Berlin';
export const PERIOD_INVALID = 'Period must be Morning, Afternoon, Evening, Night or a time like 19:30';
export const GUEST_ID_INVALID = 'guestId must be a valid id';

/** Spec §3 "Time slot". */
export const timeSlotSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    /** 'YYYY-MM-DD', the group's local day. */
    date: z.string(),
    /** 'Morning' | 'Afternoon' | 'Evening' | 'Night' | 'H:mm' | null (whole day). */
    period: z.nullish(z.string()),
    voteCount: z.number(),
  }),
);
export type TimeSlot = z.infer<typeof timeSlotSchema>;
export const timeSlotListSchema = z.lazy(() => z.array(timeSlotSchema));

/** GET /api/plans/{id}/my-votes: the ids of the slots the caller voted on. */
export const myVotesSchema = z.lazy(() => z.array(z.string()));

/** POST /api/plans/{id}/vote-date: `voted` when the caller's vote now exists (false: this call removed it). */
export const voteDateResultSchema = z.lazy(() => z.object({ voted: z.boolean(), timeSlotId: z.string(), voteCount: z.number() }));
export type VoteDateResult = z.infer<typeof voteDateResultSchema>;

/** POST /api/timeslots/{id}/vote. */
export const timeSlotVoteResultSchema = z.lazy(() => z.object({ voted: z.boolean(), voteCount: z.number() }));
export type TimeSlotVoteResult = z.infer<typeof timeSlotVoteResultSchema>;
