// What notifications say (docs/notifications.md): the push message and the
// e-mail of every kind of event in the outbox, one line each, naming the plan
// and never anyone's e-mail address. Pure (no sending, no database), so it is
// unit-tested; the deliverer (./outbox.ts) sends what these build.
//
// The "time is set" e-mail keeps its own full form (what / when / where, with
// an .ics attached: docs/api.md "Time slots and the lock flow").
import { buildCalendarEvent, type CalendarEvent, icsFileName, planEventUid, toIcs } from '../contract/calendar.ts';
import { readEnv } from '../config/env.ts';
import { escapeHtml, type MailAttachment, type MailMessage } from './mail.ts';
import { formatLongDate, formatPeriod } from '../contract/periods.ts';
import { plainText } from '../contract/text.ts';
import type { PushMessage } from '../contract/notifications.ts';
import { ASK_AGAIN } from '../contract/rsvps.ts';

/** What the e-mail says, read in the transaction that set the time. */
export interface EventTimeDetails {
  planId: string;
  planTitle: string;
  /** The picked idea's text, or null. */
  ideaText: string | null;
  location: string | null;
  /** The locked date 'YYYY-MM-DD'. */
  date: string;
  /** The plan's eventTime, '7:00 PM'. */
  eventTime: string | null;
  /** The locked slot's period ('19:00'), used only when eventTime is missing. */
  period: string | null;
  /** The plan's timeZone, in which eventTime is the wall clock (absent or null: floating). */
  timeZone?: string | null;
  /** The plan's calendar sequence when the time was set: the .ics's SEQUENCE (absent in older outbox rows). */
  calendarSequence?: number | null;
}

export interface Recipient {
  email: string;
  /** Display name (participants.name), for the greeting. */
  name: string | null;
}

/** The web app's origin for links (APP_ORIGIN, else the first allowed origin). */
export function appOrigin(): string {
  const origin = readEnv('APP_ORIGIN') ?? readEnv('ALLOWED_ORIGINS')?.split(',')[0]?.trim();
  if (!origin) throw new Error('Missing environment variable APP_ORIGIN');
  return origin.replace(/\/+$/, '');
}

export function planUrl(origin: string, planId: string): string {
  return `${origin.replace(/\/+$/, '')}/plan/${planId}`;
}


/**
 * One line of user text: no line break (a header must never carry one), no
 * CR or other control character, no invisible bidi or zero-width character
 * (./text.ts), whatever the database holds.
 */
function oneLine(value: string): string {
  return plainText(value);
}

/** The calendar event the e-mail describes and attaches. */
function eventOf(details: EventTimeDetails, origin: string): CalendarEvent {
  return buildCalendarEvent({
    planTitle: details.planTitle,
    ideaText: details.ideaText,
    location: details.location,
    planUrl: planUrl(origin, details.planId),
    date: details.date,
    eventTime: details.eventTime,
    period: details.period,
    timeZone: details.timeZone,
  });
}

/** The .ics attachment, or null (logged) if it cannot be built: the e-mail goes out anyway. */
export function icsAttachment(details: EventTimeDetails, origin: string, timestamp = Date.now()): MailAttachment | null {
  try {
    const event = eventOf(details, origin);
    return {
      filename: icsFileName(event),
      // The plan's one UID and its revision: the feed and a later e-mail update this event.
      content: toIcs(event, {
        uid: planEventUid(details.planId),
        timestamp,
        ...(typeof details.calendarSequence === 'number' ? { sequence: details.calendarSequence } : {}),
      }),
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
    };
  } catch (error) {
    console.error(`Building the .ics of plan ${details.planId} failed:`, error);
    return null;
  }
}

/**
 * The e-mail to one member: subject 'Time set: Bowling on Saturday, March 14,
 * 2026 at 7:00 PM', a text and an HTML body with what / when / where and the
 * plan's link. Pure (no sending), so it is unit-tested.
 */
export function eventTimeSetMail(
  details: EventTimeDetails,
  recipient: Recipient,
  origin: string,
): Pick<MailMessage, 'subject' | 'text' | 'html'> {
  const title = oneLine(details.planTitle);
  const what = (details.ideaText ? oneLine(details.ideaText) : '') || title;
  const time = (details.eventTime ? oneLine(details.eventTime) : '') || formatPeriod(details.period);
  const when = time ? `${formatLongDate(details.date)} at ${time}` : formatLongDate(details.date);
  const where = details.location ? oneLine(details.location) || null : null;
  const link = planUrl(origin, details.planId);
  const name = recipient.name ? oneLine(recipient.name) : '';
  const greeting = name ? `Hi ${name},` : 'Hi,';

  const text = [
    greeting,
    '',
    `The time is set for ${title}.`,
    '',
    `What: ${what}`,
    `When: ${when}`,
    ...(where ? [`Where: ${where}`] : []),
    '',
    `See the plan: ${link}`,
    '',
    'Add it to your calendar with the attached invite.',
  ].join('\n');

  const row = (label: string, value: string) =>
    `<tr><td style="padding: 2px 12px 2px 0; color: #555">${label}</td><td style="padding: 2px 0"><strong>${escapeHtml(value)}</strong></td></tr>`;
  const html = [
    '<div style="font-family: sans-serif; line-height: 1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>The time is set for <strong>${escapeHtml(title)}</strong>.</p>`,
    '<table style="border-collapse: collapse">',
    row('What', what),
    row('When', when),
    ...(where ? [row('Where', where)] : []),
    '</table>',
    `<p><a href="${escapeHtml(link)}">See the plan on Hangplan</a></p>`,
    '<p style="color: #555">Add it to your calendar with the attached invite.</p>',
    '</div>',
  ].join('\n');

  return { subject: `Time set: ${what} on ${when}`, text, html };
}

/** The kinds of events in the outbox (app.notification_events.kind). */
export type NoticeKind =
  | 'idea_picked'
  | 'date_locked'
  | 'decided'
  | 'time_set'
  | 'time_changed'
  | 'place_changed'
  | 'unlocked'
  | 'plan_deleted'
  | 'digest'
  | 'reminder'
  | 'deadline_soon'
  | 'deadline_reached'
  | 'spot_opened';

/** One claimed delivery (private.claim_deliveries), as the deliverer reads it. */
export interface Delivery {
  id: number;
  eventId: number;
  channel: 'push' | 'email';
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  email: string | null;
  /** The recipient's name in the plan (for the greeting). */
  name: string | null;
  userId: string | null;
  guestId: string | null;
  planId: string;
  planTitle: string;
  planSlug: string;
  kind: NoticeKind;
  /** The event's detail with the recipient's own part merged over it. */
  detail: NoticeDetail;
  attempts: number;
}

/** What the one line may need (each kind reads its own fields). */
export interface NoticeDetail {
  ideaText?: string | null;
  date?: string | null;
  eventTime?: string | null;
  timeZone?: string | null;
  period?: string | null;
  location?: string | null;
  ideas?: number;
  comments?: number;
  autoLock?: boolean;
  ideaVotes?: number | null;
  dateVotes?: number | null;
  calendarSequence?: number | null;
  /**
   * A notice of the plan's decisions says what is true when it goes, however
   * many changes it covers (docs/notifications.md "The notice budget"): true
   * when the place changed too, which its kind alone does not say.
   */
  placeChanged?: boolean;
  /** A new date or time reset answers (docs/decisions/0097): the notice asks again. */
  askAgain?: boolean;
}

function count(n: number, one: string): string {
  return `${n} new ${one}${n === 1 ? '' : 's'}`;
}

function votes(n: number | null | undefined): string {
  return `${n ?? 0} vote${n === 1 ? '' : 's'}`;
}

/** 'Saturday, March 14, 2026 at 7:00 PM' (or without the time, or '' without a date). */
function whenOf(detail: NoticeDetail): string {
  if (!detail.date) return '';
  const time = (detail.eventTime ? oneLine(detail.eventTime) : '') || formatPeriod(detail.period);
  return time ? `${formatLongDate(detail.date)} at ${time}` : formatLongDate(detail.date);
}

/** 'New place: The Lanes', or 'The place was removed'. */
function placeLine(detail: NoticeDetail): string {
  const where = detail.location ? oneLine(detail.location) : '';
  return where ? `New place: ${where}` : 'The place was removed';
}

/**
 * What happened, in one line (the push's body, the e-mail's subject after the
 * plan's title); a new place that came with another change is added to it.
 */
export function noticeLine(kind: NoticeKind, detail: NoticeDetail, planTitle: string): string {
  let line = kindLine(kind, detail, planTitle);
  const stop = (text: string) => `${text}${text.endsWith('.') ? '' : '.'}`;
  if (detail.placeChanged && kind !== 'place_changed') line = `${stop(line)} ${placeLine(detail)}`;
  if (detail.askAgain && ASKING_AGAIN.has(kind)) line = `${stop(line)} ${ASK_AGAIN}`;
  return line;
}

/** The notices of a new date or time, which ask again when answers were reset. */
const ASKING_AGAIN: ReadonlySet<NoticeKind> = new Set(['date_locked', 'decided', 'time_set', 'time_changed']);

function kindLine(kind: NoticeKind, detail: NoticeDetail, planTitle: string): string {
  const idea = detail.ideaText ? oneLine(detail.ideaText) : '';
  const when = whenOf(detail);
  switch (kind) {
    case 'idea_picked':
      return idea ? `The host picked ${idea}` : 'The host picked an idea';
    case 'date_locked':
      return `The date is locked: ${when}. The time comes next.`;
    case 'decided':
      return idea ? `Decided: ${idea} on ${when}` : `Decided: ${when}`;
    case 'time_set':
      return idea ? `It's on: ${idea}, ${when}` : `It's on: ${when}`;
    case 'time_changed':
      return `New time: ${when}`;
    case 'place_changed':
      return placeLine(detail);
    case 'unlocked':
      return 'Voting is open again: vote for a new date';
    case 'plan_deleted':
      return `The host deleted ${oneLine(planTitle)}`;
    case 'digest': {
      const parts = [
        ...(detail.ideas ? [count(detail.ideas, 'idea')] : []),
        ...(detail.comments ? [count(detail.comments, 'comment')] : []),
      ];
      return `${parts.join(' and ') || 'News'} in ${oneLine(planTitle)}`;
    }
    case 'reminder':
      return 'Your friends are waiting for your votes on ideas and dates';
    case 'deadline_soon':
      return 'Less than a day left to vote: add yours before the deadline';
    case 'deadline_reached': {
      if (!idea && !detail.date) return 'Voting has closed, with no votes yet';
      const leaders = [
        ...(idea ? [`${idea} (${votes(detail.ideaVotes)})`] : []),
        ...(detail.date ? [`${formatLongDate(detail.date)} (${votes(detail.dateVotes)})`] : []),
      ].join(' and ');
      const reason = detail.autoLock && !detail.date ? ' No date has votes, so nothing was locked.' : ' Time to decide.';
      return `Voting has closed. Leading: ${leaders}.${reason}`;
    }
    case 'spot_opened':
      return `A spot opened: you're going to ${oneLine(planTitle)}`;
  }
}

/** The page a notification opens: the plan's link for a guest, the member's plan page, home when the plan is gone. */
export function noticePath(delivery: Pick<Delivery, 'kind' | 'userId' | 'planId' | 'planSlug'>): string {
  if (delivery.kind === 'plan_deleted') return '/';
  return delivery.userId ? `/plan/${delivery.planId}` : `/l/${delivery.planSlug}`;
}

/** Decisions are worth waking a phone for; news and reminders are not. */
export function noticeUrgency(kind: NoticeKind): 'high' | 'normal' {
  return kind === 'digest' || kind === 'reminder' || kind === 'deadline_soon' ? 'normal' : 'high';
}

/** The Web Push message of a delivery (the service worker shows it as is). */
export function pushPayload(delivery: Delivery): PushMessage {
  return {
    title: oneLine(delivery.planTitle),
    body: noticeLine(delivery.kind, delivery.detail, delivery.planTitle),
    url: noticePath(delivery),
    // Per event: a delivery sent twice (a lease ran out mid-send) replaces
    // the notification instead of adding one.
    tag: `hangplan-${delivery.eventId}`,
  };
}

/** The one-click unsubscribe of an e-mail: the page (footer) and the RFC 8058 POST target (header). */
export interface UnsubscribeLinks {
  page: string;
  oneClick: string;
}

/**
 * The e-mail of a delivery to a member: the time's full form with its .ics,
 * or the plan's title, the one line and the plan's link; always the
 * List-Unsubscribe headers (RFC 8058) and the same link in the footer.
 */
export function noticeMail(
  delivery: Delivery,
  origin: string,
  unsubscribe: UnsubscribeLinks,
  timestamp = Date.now(),
): Omit<MailMessage, 'to'> {
  const headers = {
    'List-Unsubscribe': `<${unsubscribe.oneClick}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
  const footerText = ['', '--', `Stop e-mails about this plan: ${unsubscribe.page}`];
  const footerHtml = `<p style="color: #555; font-size: 12px">Don't want these? <a href="${escapeHtml(unsubscribe.page)}">Stop e-mails about this plan</a>.</p>`;
  const title = oneLine(delivery.planTitle);

  if ((delivery.kind === 'time_set' || delivery.kind === 'time_changed') && delivery.detail.date) {
    const details: EventTimeDetails = {
      planId: delivery.planId,
      planTitle: delivery.planTitle,
      ideaText: delivery.detail.ideaText ?? null,
      location: delivery.detail.location ?? null,
      date: delivery.detail.date,
      eventTime: delivery.detail.eventTime ?? null,
      period: delivery.detail.period ?? null,
      timeZone: delivery.detail.timeZone ?? null,
      calendarSequence: delivery.detail.calendarSequence ?? null,
    };
    const mail = eventTimeSetMail(details, { email: delivery.email ?? '', name: delivery.name }, origin);
    const attachment = icsAttachment(details, origin, timestamp);
    return {
      subject: mail.subject,
      text: [mail.text, ...footerText].join('\n'),
      html: `${mail.html}\n${footerHtml}`,
      headers,
      ...(attachment ? { attachments: [attachment] } : {}),
    };
  }

  const line = noticeLine(delivery.kind, delivery.detail, delivery.planTitle);
  const name = delivery.name ? oneLine(delivery.name) : '';
  const greeting = name ? `Hi ${name},` : 'Hi,';
  const link = `${origin.replace(/\/+$/, '')}${noticePath({ ...delivery, userId: delivery.userId ?? 'member' })}`;
  const linkLabel = delivery.kind === 'plan_deleted' ? 'Open Hangplan' : 'See the plan';
  return {
    subject: `${title}: ${line}`,
    text: [greeting, '', `${title}: ${line}`, '', `${linkLabel}: ${link}`, ...footerText].join('\n'),
    html: [
      '<div style="font-family: sans-serif; line-height: 1.5">',
      `<p>${escapeHtml(greeting)}</p>`,
      `<p><strong>${escapeHtml(title)}</strong>: ${escapeHtml(line)}</p>`,
      `<p><a href="${escapeHtml(link)}">${linkLabel} on Hangplan</a></p>`,
      footerHtml,
      '</div>',
    ].join('\n'),
    headers,
  };
}
