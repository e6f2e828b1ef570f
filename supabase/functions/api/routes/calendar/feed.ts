// The personal calendar feed (docs/calendars.md "Calendar feed";
// docs/decisions/0072-calendar-feed.md): the secret of a member's feed URL,
// the URL, and one poll of a feed.
//
// The secret is base64url(HMAC-SHA-256(key, "{user id}:{nonce}")): 256 bits
// that look random to anyone without the key. The database keeps the nonce
// (16 random bytes, new on every reset) and the secret's SHA-256, so the API
// can show the same URL again while neither column reveals it. The key is
// derived from JWT_SECRET with a label of its own, as the unsubscribe links'
// is: no other secret to configure, and a different key for a different
// purpose.
import { toBase64url } from '../../../_shared/http/bytes.ts';
import { buildCalendarEvent, type CalendarEventStatus, type FeedEntry, planEventUid, toIcsFeed } from '../../../_shared/contract/calendar.ts';
import { sha256Hex, type Tx } from '../../../_shared/db/client.ts';
import { jwtSecret } from '../../../_shared/config/env.ts';
import { limitEntry } from '../../../_shared/db/limits.ts';
import { purposeKey } from '../../../_shared/auth/purpose-key.ts';
import { appOrigin, planUrl } from '../../../_shared/delivery/notify.ts';
import { RecentMap } from '../../../_shared/db/recent-map.ts';

const encoder = new TextEncoder();
/** The HMAC key of feed secrets (a purpose of its own under JWT_SECRET). */
const feedKey = () => purposeKey('hangplan/calendar-feed/v1', jwtSecret());

/** A new nonce: 16 random bytes, base64url (22 characters, as app.calendar_feeds checks). */
export function newFeedNonce(): string {
  return toBase64url(crypto.getRandomValues(new Uint8Array(16)));
}

/** The secret of the member's feed with this nonce: 43 base64url characters. */
export async function feedSecret(userId: string, nonce: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await feedKey(), encoder.encode(`${userId.toLowerCase()}:${nonce}`));
  return toBase64url(new Uint8Array(mac));
}

/** A nonce with its secret and the secret's hash, ready to be stored. */
export async function newFeedCredential(userId: string): Promise<{ nonce: string; secret: string; secretHash: string }> {
  const nonce = newFeedNonce();
  const secret = await feedSecret(userId, nonce);
  return { nonce, secret, secretHash: await sha256Hex(secret) };
}

/** The feed's URL on the app's origin (which routes /api/* to the function): https://…/api/calendar/feed/{secret}.ics. */
export function feedUrl(secret: string): string {
  return `${appOrigin()}/api/calendar/feed/${secret}.ics`;
}

/** A row of app.calendar_feeds as the issuing and resetting functions answer it. */
export interface FeedRow {
  nonce: string;
  secretHash: string;
}

/** private.issue_calendar_feed: the member's feed, issued with this credential when there is none. */
export function issueFeed(tx: Tx, credential: { nonce: string; secretHash: string }) {
  return tx<FeedRow[]>`
    select f.nonce, f.secret_hash as "secretHash"
      from private.issue_calendar_feed(${credential.nonce}, ${credential.secretHash}) f`;
}

/** private.reset_calendar_feed: a new secret (only while `replacing` is current, when given). */
export function resetFeed(tx: Tx, credential: { nonce: string; secretHash: string }, replacing: string | null = null) {
  return tx<FeedRow[]>`
    select f.nonce, f.secret_hash as "secretHash"
      from private.reset_calendar_feed(${credential.nonce}, ${credential.secretHash}, ${replacing}::text) f`;
}

// ---------------------------------------------------------------------------
// A poll
// ---------------------------------------------------------------------------

/**
 * What the body is made of besides the database: this file's format (raise
 * it when the text a feed is written as changes, so that every client's copy
 * is replaced) and the app's origin (the events' links).
 */
const FEED_FORMAT = 'ics-2';

/** One plan of the feed, as private.calendar_feed answers it. */
interface FeedEvent {
  planId: string;
  /** Null when the feed's member may not see the plan's link (closed invitations, docs/decisions/0086). */
  slug: string | null;
  title: string;
  ideaText: string | null;
  location: string | null;
  date: string;
  eventTime: string | null;
  /** The plan's timeZone: the events' times are instants in UTC when set. */
  timeZone: string | null;
  period: string | null;
  /** CANCELLED (a cancelled plan), TENTATIVE (answered Maybe) or CONFIRMED (docs/decisions/0101-calendars-follow-the-answer.md). */
  status?: CalendarEventStatus;
  sequence: number;
  /** Seconds since the epoch. */
  changedAt: number;
}

/** null: no such feed; `events` absent: the caller's copy is current. */
export type FeedPoll = { tag: string; events?: FeedEvent[] } | null;

/**
 * The one statement of a poll (private.calendar_feed), with the limits it
 * counts: the events come back only when the feed's tag is none of `known`.
 */
export function pollFeed(tx: Tx, secretHash: string, known: string[], network: string) {
  const limits = JSON.stringify({
    miss: limitEntry({ limit: 'calendar-feed-miss', key: network }),
    // The function adds the feed's member to the key.
    feed: limitEntry({ limit: 'calendar-feed', key: '' }),
  });
  return tx<{ feed: FeedPoll }[]>`
    select private.calendar_feed(${secretHash}, ${known}::text[], ${`${FEED_FORMAT}|${appOrigin()}`}, ${limits}::text::jsonb) as feed`;
}

// This instance's copy of each feed's text, by the secret's hash, with its
// tag: a calendar service that polls without If-None-Match gets the same
// text again without it being built again (the statement still checks, as
// ever, that the secret is valid and the tag current). Bounded like the plan
// read copies (_shared/db/versioned.ts): 2,000 feeds and 16 MB, none over 256 KB.
const copies = new RecentMap<string, { tag: string; body: string }>(2000, 16 * 1024 * 1024);
const LARGEST_COPY_CHARS = 256 * 1024;

/** The copy this instance holds of a feed's text, if any. */
export function feedCopy(secretHash: string): { tag: string; body: string } | undefined {
  return copies.get(secretHash);
}

/** Keep a feed's text for its tag. */
export function keepFeedCopy(secretHash: string, tag: string, body: string): void {
  if (body.length <= LARGEST_COPY_CHARS) copies.set(secretHash, { tag, body }, body.length);
  else copies.delete(secretHash);
}

/**
 * The events' link: the plan's public /l/{slug}, as the "Add to Calendar"
 * download (docs/api.md "Dates, times and calendar"); the member's /plan/{id}
 * when the member may not see the link (closed invitations).
 */
function planLink(event: Pick<FeedEvent, 'planId' | 'slug'>): string {
  return event.slug ? `${appOrigin()}/l/${encodeURIComponent(event.slug)}` : planUrl(appOrigin(), event.planId);
}

/** The feed's text (text/calendar): one event per plan, by the feed's rules (docs/calendars.md). */
export function feedBody(events: FeedEvent[]): string {
  const entries: FeedEntry[] = [];
  for (const e of events) {
    try {
      entries.push({
        event: buildCalendarEvent({
          planTitle: e.title,
          ideaText: e.ideaText,
          location: e.location,
          planUrl: planLink(e),
          date: e.date,
          eventTime: e.eventTime,
          period: e.period,
          timeZone: e.timeZone,
          title: 'plan-and-idea',
          allDayWithoutTime: true,
          status: e.status ?? 'CONFIRMED',
        }),
        uid: planEventUid(e.planId),
        sequence: e.sequence,
        changedAt: e.changedAt * 1000,
      });
    } catch (error) {
      // A plan whose event cannot be built is left out, not the whole feed.
      console.error(`Building the calendar event of plan ${e.planId} failed:`, error);
    }
  }
  try {
    return toIcsFeed(entries);
  } catch {
    // `ics` refused one of them: the feed without the ones it refuses alone.
    return toIcsFeed(entries.filter((entry) => {
      try {
        toIcsFeed([entry]);
        return true;
      } catch (error) {
        console.error(`Writing the calendar event ${entry.uid} failed:`, error);
        return false;
      }
    }));
  }
}

/** W/"c{tag}": the feed's ETag. */
export function feedEtag(tag: string): string {
  return `W/"c${tag}"`;
}

/** The tag the client holds, from If-None-Match, or null. */
export function knownFeedTag(ifNoneMatch: string | undefined): string | null {
  const match = ifNoneMatch && /(?:^|,)\s*(?:W\/)?"c([0-9a-f]{32})"/.exec(ifNoneMatch);
  return match ? match[1] : null;
}
