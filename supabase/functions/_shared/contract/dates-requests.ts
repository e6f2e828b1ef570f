// The dates and lock endpoints' requests (spec §7; docs/api.md "Time slots
// and the lock flow").
import { z } from 'zod';
import { LOCATION_MAX } from './common.ts';
import { ANSWER_INVALID, DATE_ANSWERS, DATE_INVALID, GUEST_ID_INVALID, PERIOD_INVALID, TIME_INVALID, TIME_ZONE_INVALID } from './dates.ts';
import { body, cleaner, optionalGuestId, optionalText } from './fields.ts';
import { isCalendarDate, normalizePeriod, parse24HourTime, toPeriodTime } from './periods.ts';
import { isTimeZoneName } from './zoned-time.ts';

/** A calendar date 'YYYY-MM-DD' that exists (2026-02-30 does not). */
function calendarDate() {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'Date is required' : DATE_INVALID) })
    .trim()
    .refine(isCalendarDate, DATE_INVALID);
}

/** A guest acting without a token; null and absent alike mean "no guest". */
const guestId = optionalGuestId();

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

/** A date vote's answer: "yes" (also when absent: spec §7's toggle) or "ifneedbe". */
const answer = z.enum(DATE_ANSWERS, { error: ANSWER_INVALID }).optional().transform((value) => value ?? 'yes');

export const voteDateBody = body({ date: calendarDate(), period, guestId, answer });

export const timeSlotVoteBody = body({ guestId, answer });

/** POST /api/plans/{id}/no-dates: "none of these dates work for me" (a toggle). */
export const noDatesBody = body({ guestId });

/** GET my-votes' `answers` parameter: `true` asks for each slot's answer and "none work". */
export const myVotesAnswersQuery = z.enum(['true', 'false'], { error: 'answers must be true or false' }).optional();

export const lockDateBody = body({ date: calendarDate() });

/** POST unlock takes no fields: an empty body (or any object; unknown keys are dropped). */
export const unlockBody = body({});

/** The longest time zone name taken (the longest IANA name is 30 characters). */
export const TIME_ZONE_MAX = 64;

/**
 * 'HH:mm' (or 'H:mm') 24-hour, normalised to 'H:mm', and the IANA time zone
 * of the host's clock ('Europe/Berlin', as the browser names it; null or
 * absent: none, the time is floating; docs/decisions/0074).
 */
export const setEventTimeBody = body({
  time: z
    .string({ error: (issue) => (issue.input === undefined ? 'Time is required' : TIME_INVALID) })
    .trim()
    .refine((value) => parse24HourTime(value) !== null, TIME_INVALID)
    .transform((value) => toPeriodTime(parse24HourTime(value)!)),
  timeZone: z
    .union([z.string(), z.null()], { error: TIME_ZONE_INVALID })
    .optional()
    .transform((value, ctx) => {
      if (value === null || value === undefined) return null;
      const zone = value.trim();
      if (zone.length > TIME_ZONE_MAX || !isTimeZoneName(zone)) {
        ctx.addIssue({ code: 'custom', message: TIME_ZONE_INVALID });
        return z.NEVER;
      }
      return zone;
    }),
});

const cleanLocation = cleaner('Location', 'line');

/** 0-500 characters after cleaning (one line, ./text.ts); '' (or null) clears the location. */
export const setLocationBody = body({
  location: z
    .union([z.string(), z.null()], {
      error: (issue) => (issue.input === undefined ? 'Location is required' : 'Location must be text'),
    })
    .transform((value, ctx) => cleanLocation(value ?? '', ctx))
    .refine((value) => value.length <= LOCATION_MAX, `Location must be at most ${LOCATION_MAX} characters`),
});

/** The longest message a host may give when cancelling (app.cancel_plan checks it too). */
export const CANCEL_MESSAGE_MAX = 500;

/**
 * POST cancel: an optional message to everyone (several lines allowed;
 * blank, null or absent: none; docs/decisions/0100-cancelling-a-plan.md).
 */
export const cancelPlanBody = body({
  message: optionalText('Message', { max: CANCEL_MESSAGE_MAX, kind: 'multiline' }),
});
