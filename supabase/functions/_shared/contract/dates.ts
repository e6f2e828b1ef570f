// The dates and lock endpoints' contract (spec §3 Time slot / Voter, §7;
// decisions.md "Time slots and the lock flow"): request schemas, sentences and
// the JSON shapes answered.
import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { isCalendarDate, normalizePeriod, parse24HourTime, toPeriodTime } from '../periods.ts';
import { body, cleaner } from '../validation.ts';
import { LOCATION_MAX } from './common.ts';

export { LOCATION_MAX };

export const TIME_SLOT_NOT_FOUND = 'Time slot not found';
export const JOIN_FIRST_TO_VOTE = 'Join the plan first to vote';
export const JOIN_FIRST_TO_SEE_VOTES = 'Join the plan first to see your votes';
export const DATE_INVALID = 'Date must be a real calendar date (YYYY-MM-DD)';
export const TIME_INVALID = 'Time must be HH:mm (24-hour)';
export const PERIOD_INVALID = 'Period must be Morning, Afternoon, Evening, Night or a time like 19:30';
export const GUEST_ID_INVALID = 'guestId must be a valid id';

/** Spec §3 "Time slot". */
export interface TimeSlot {
  id: string;
  /** 'YYYY-MM-DD', the group's local day. */
  date: string;
  /** 'Morning' | 'Afternoon' | 'Evening' | 'Night' | 'H:mm' | null (whole day). */
  period: string | null;
  voteCount: number;
}

export type { Voter } from './common.ts';

/** POST /api/plans/{id}/vote-date */
export interface VoteDateResult {
  /** True when the caller's vote now exists (false: this call removed it). */
  voted: boolean;
  timeSlotId: string;
  voteCount: number;
}

/** POST /api/timeslots/{id}/vote */
export interface TimeSlotVoteResult {
  voted: boolean;
  voteCount: number;
}

/** A calendar date 'YYYY-MM-DD' that exists (2026-02-30 does not). */
export function calendarDate(label = 'Date') {
  const invalid = label === 'Date' ? DATE_INVALID : `${label} must be a real calendar date (YYYY-MM-DD)`;
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required` : invalid) })
    .trim()
    .refine(isCalendarDate, invalid);
}

/** A guest acting without a token; null and absent alike mean "no guest". */
const guestId = z
  .union([z.string().pipe(z.uuid({ error: GUEST_ID_INVALID })), z.null()], { error: GUEST_ID_INVALID })
  .optional()
  .transform((value) => value?.toLowerCase() ?? null);

/**
 * A slot's period: a named period (any letter case), a 24-hour time ('19:30',
 * '07:30' becomes '7:30'), or blank / null / absent for the whole day.
 */
const period = z
  .union([z.string(), z.null()], { error: PERIOD_INVALID })
  .optional()
  .transform((value, ctx) => {
    const normalized = normalizePeriod(value);
    if (normalized === undefined) {
      ctx.addIssue({ code: 'custom', message: PERIOD_INVALID });
      return z.NEVER;
    }
    return normalized;
  });

/** The guestId query parameter of GET my-votes (a uuid) or absent. */
export const guestIdQuery = z
  .string({ error: GUEST_ID_INVALID })
  .pipe(z.uuid({ error: GUEST_ID_INVALID }))
  .transform((value) => value.toLowerCase());

export const voteDateBody = body({ date: calendarDate(), period, guestId });

export const timeSlotVoteBody = body({ guestId });

export const lockDateBody = body({ date: calendarDate() });

/** POST unlock takes no fields: an empty body (or any object; unknown keys are dropped). */
export const unlockBody = body({});

/** 'HH:mm' (or 'H:mm') 24-hour, normalised to 'H:mm'. */
export const setEventTimeBody = body({
  time: z
    .string({ error: (issue) => (issue.input === undefined ? 'Time is required' : TIME_INVALID) })
    .trim()
    .refine((value) => parse24HourTime(value) !== null, TIME_INVALID)
    .transform((value) => toPeriodTime(parse24HourTime(value)!)),
});

const cleanLocation = cleaner('Location', 'line');

/** 0-500 characters after cleaning (one line, _shared/text.ts); '' (or null) clears the location. */
export const setLocationBody = body({
  location: z
    .union([z.string(), z.null()], {
      error: (issue) => (issue.input === undefined ? 'Location is required' : 'Location must be text'),
    })
    .transform((value, ctx) => cleanLocation(value ?? '', ctx))
    .refine((value) => value.length <= LOCATION_MAX, `Location must be at most ${LOCATION_MAX} characters`),
});

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A time slot id from the URL: anything but a uuid is "Time slot not found" (404). */
export function timeSlotIdParam(value: string | undefined): string {
  if (!value || !UUID_PATTERN.test(value)) throw new HttpError(404, TIME_SLOT_NOT_FOUND);
  return value.toLowerCase();
}
