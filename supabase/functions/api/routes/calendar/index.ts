// /api/calendar: the member's personal calendar feed (docs/calendars.md "Calendar
// feed"; docs/decisions/0072-calendar-feed.md).
//
//   GET  /calendar/feed              (member) → {url}: the feed's URL, issued on
//                                    first use
//   POST /calendar/feed/rotate       (member) → {url}: a new URL; the old one
//                                    stops at once
//   GET  /calendar/feed/{secret}.ics (no credentials but the secret: calendar
//                                    apps send none) → text/calendar, ETag, 304
//                                    when unchanged
//
// The feed's SQL, body and per-instance copies are ./feed.ts.
import { Hono } from 'hono';
import { requireUserId } from '../../../_shared/auth/tokens.ts';
import {
  feedBody,
  feedCopy,
  feedEtag,
  feedSecret,
  feedUrl,
  issueFeed,
  keepFeedCopy,
  knownFeedTag,
  newFeedCredential,
  pollFeed,
  resetFeed,
} from './feed.ts';
import { CALENDAR_FEED_FILE, CALENDAR_FEED_NOT_FOUND, type CalendarFeed } from '../../../_shared/contract/calendar-feed.ts';
import { requestNetwork } from '../../../_shared/http/client-ip.ts';
import { requestRow, sha256Hex } from '../../../_shared/db/client.ts';
import { HttpError, messages } from '../../../_shared/http/errors.ts';

export const calendarRoutes = new Hono()
  // One round trip: the credential made here is kept only when the member has
  // no feed yet; otherwise the URL is made again from the stored nonce. When
  // that does not give the stored hash (the server's key changed since), the
  // feed is issued anew, once (a second round trip, only then).
  .get('/calendar/feed', async (c) => {
    const userId = await requireUserId(c);
    const fresh = await newFeedCredential(userId);
    const row = await requestRow({ userId }, (tx) => issueFeed(tx, fresh));
    if (!row) throw new HttpError(401, messages.sessionExpired);
    let secret = row.nonce === fresh.nonce ? fresh.secret : await feedSecret(userId, row.nonce);
    if ((await sha256Hex(secret)) !== row.secretHash) {
      const reissued = await newFeedCredential(userId);
      const now = await requestRow({ userId }, (tx) => resetFeed(tx, reissued, row.secretHash));
      if (!now) throw new HttpError(401, messages.sessionExpired);
      secret = now.nonce === reissued.nonce ? reissued.secret : await feedSecret(userId, now.nonce);
    }
    const answer: CalendarFeed = { url: feedUrl(secret) };
    return c.json(answer);
  })

  .post('/calendar/feed/rotate', async (c) => {
    const userId = await requireUserId(c);
    const fresh = await newFeedCredential(userId);
    const row = await requestRow({ userId }, (tx) => resetFeed(tx, fresh));
    if (!row) throw new HttpError(401, messages.sessionExpired);
    const answer: CalendarFeed = { url: feedUrl(fresh.secret) };
    return c.json(answer);
  })

  // The feed. Runs as anon with no claims: the secret (hashed) is all the
  // statement is given; any Authorization header is ignored. A malformed
  // secret is refused before anything is hashed or looked up. The events are
  // built only when the feed's tag is neither the client's (304) nor that of
  // this instance's copy of the text (answered from the copy).
  .get('/calendar/feed/:file', async (c) => {
    const match = CALENDAR_FEED_FILE.exec(c.req.param('file'));
    if (!match) throw new HttpError(404, CALENDAR_FEED_NOT_FOUND);
    const secretHash = await sha256Hex(match[1]);
    const client = knownFeedTag(c.req.header('if-none-match'));
    const copy = feedCopy(secretHash);
    const known = [client, copy?.tag].filter((tag): tag is string => Boolean(tag));
    const row = await requestRow({}, (tx) => pollFeed(tx, secretHash, known, requestNetwork(c)));
    const feed = row?.feed;
    if (!feed) throw new HttpError(404, CALENDAR_FEED_NOT_FOUND);
    c.header('ETag', feedEtag(feed.tag));
    // Personal: kept by the calendar app, never by a shared cache, and
    // revalidated on every poll (304 when unchanged).
    c.header('Cache-Control', 'private, no-cache');
    if (feed.tag === client) return c.body(null, 304);
    let body: string;
    if (feed.events) {
      body = feedBody(feed.events);
      keepFeedCopy(secretHash, feed.tag, body);
    } else if (copy && copy.tag === feed.tag) {
      body = copy.body;
    } else {
      // Not reached: a known tag is the client's or the copy's.
      throw new Error('calendar feed: a known tag that is neither the client\'s nor the copy\'s');
    }
    return c.body(body, 200, { 'Content-Type': 'text/calendar; charset=utf-8' });
  });
