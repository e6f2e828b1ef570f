// The personal calendar feed's answers, sentences and URL forms (docs/calendars.md
// "Calendar feed"; docs/decisions/0072-calendar-feed.md). Pure, so the web app
// shows the same links the API makes.
import { z } from 'zod/mini';

/** GET /api/calendar/feed and POST /api/calendar/feed/rotate: the member's feed URL (https or http, never webcal). */
export const calendarFeedSchema = z.lazy(() => z.object({ url: z.string() }));
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/**
 * The secret in the feed's URL: 43 base64url characters (256 bits), and the
 * path it is served at, /api/calendar/feed/{secret}.ics.
 */
export const CALENDAR_FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

/** A malformed, wrong or reset feed link (404). */
export const CALENDAR_FEED_NOT_FOUND = 'This calendar link is not valid; copy the current one from your Hangplan profile';

/**
 * The same URL in the webcal:// scheme, which phones and desktop calendars
 * open as "subscribe" (Apple Calendar at once; others offer their own flow).
 */
export function webcalUrl(url: string): string {
  return url.replace(/^https?:\/\//i, 'webcal://');
}
