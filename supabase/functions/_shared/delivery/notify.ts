// What notifications say (docs/notifications.md): the push message and the
// e-mail of every kind of event in the outbox, one line each, naming the plan
// and never anyone's e-mail address. Pure (no sending, no database), so it is
// unit-tested; the deliverer (./outbox.ts) sends what these build.
//
// The "time is set" e-mail keeps its own full form (what / when / where, with
// an .ics attached: docs/api.md "Time slots and the lock flow").
import { type EventTimeDetails, eventTimeSetMail, icsAttachment, planUrl } from './event-mail.ts';
import { escapeHtml } from '../contract/text.ts';
import type { MailMessage } from './mail.ts';
import { formatLongDate, formatPeriod } from '../contract/periods.ts';
import { plainText } from '../contract/text.ts';
import { readEnv } from '../config/env.ts';
import type { PushMessage } from '../contract/notifications.ts';
import { ASK_AGAIN } from '../contract/rsvps.ts';

/** The web app's origin for links (APP_ORIGIN, else the first allowed origin). */
export function appOrigin(): string {
  const origin = readEnv('APP_ORIGIN') ?? readEnv('ALLOWED_ORIGINS')?.split(',')[0]?.trim();
  if (!origin) throw new Error('Missing environment variable APP_ORIGIN');
  return origin.replace(/\/+$/, '');
}

export { planUrl };


/**
 * One line of user text: no line break (a header must never carry one), no
 * CR or other control character, no invisible bidi or zero-width character
 * (./text.ts), whatever the database holds.
 */
function oneLine(value: string): string {
  return plainText(value);
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
  | 'spot_opened'
  // docs/decisions/0100-cancelling-a-plan.md, 0102-event-reminders.md
  | 'plan_cancelled'
  | 'event_reminder'
  | 'rsvp_reminder';

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
  /** deadline_reached: the leading date's "if need be" answers (its yes are dateVotes). */
  dateIfNeedBe?: number | null;
  calendarSequence?: number | null;
  /**
   * A notice of the plan's decisions says what is true when it goes, however
   * many changes it covers (docs/notifications.md "The notice budget"): true
   * when the place changed too, which its kind alone does not say.
   */
  placeChanged?: boolean;
  /** A new date or time reset answers (docs/decisions/0097): the notice asks again. */
  askAgain?: boolean;
  /** plan_cancelled: the host's message, or null. */
  cancelMessage?: string | null;
  /** event_reminder: the day before ('day', with `today` when the event is later the same day) or about two hours before ('soon', with `hours`). */
  reminder?: 'day' | 'soon';
  today?: boolean;
  hours?: number;
  /** event_reminder: the recipient's own answer (going or maybe). */
  answer?: string | null;
}

function count(n: number, one: string): string {
  return `${n} new ${one}${n === 1 ? '' : 's'}`;
}

function votes(n: number | null | undefined): string {
  return `${n ?? 0} vote${n === 1 ? '' : 's'}`;
}

/** A date's answers: '2 votes', or with "if need be" answers '2 yes, 1 if need be'. */
function dateVotes(yes: number | null | undefined, ifNeedBe: number | null | undefined): string {
  return ifNeedBe ? `${yes ?? 0} yes, ${ifNeedBe} if need be` : votes(yes);
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

/** 'Tomorrow 7:30 PM at Kenji: you're going' (docs/notifications.md "Event reminders"). */
function eventReminderLine(detail: NoticeDetail): string {
  const time = detail.eventTime ? oneLine(detail.eventTime) : '';
  const where = detail.location ? ` at ${oneLine(detail.location)}` : '';
  const hours = Math.max(1, detail.hours ?? 2);
  const when = detail.reminder === 'soon' ? `In ${hours} hour${hours === 1 ? '' : 's'}` : `${detail.today ? 'Today' : 'Tomorrow'} ${time}`.trim();
  return `${when}${where}: ${detail.answer === 'maybe' ? 'you said maybe' : "you're going"}`;
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
    case 'plan_cancelled': {
      const message = detail.cancelMessage ? oneLine(detail.cancelMessage) : '';
      return message ? `The host cancelled the plan: ${message}` : 'The host cancelled the plan';
    }
    case 'event_reminder':
      return eventReminderLine(detail);
    case 'rsvp_reminder':
      return "Are you coming? Answer Going, Maybe or Can't go";
    case 'deadline_reached': {
      if (!idea && !detail.date) return 'Voting has closed, with no votes yet';
      const leaders = [
        ...(idea ? [`${idea} (${votes(detail.ideaVotes)})`] : []),
        ...(detail.date ? [`${formatLongDate(detail.date)} (${dateVotes(detail.dateVotes, detail.dateIfNeedBe)})`] : []),
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
  return kind === 'digest' || kind === 'reminder' || kind === 'deadline_soon' || kind === 'rsvp_reminder' ? 'normal' : 'high';
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

  const details: EventTimeDetails | null = delivery.detail.date ? {
      planId: delivery.planId,
      planTitle: delivery.planTitle,
      ideaText: delivery.detail.ideaText ?? null,
      location: delivery.detail.location ?? null,
      date: delivery.detail.date,
      eventTime: delivery.detail.eventTime ?? null,
      period: delivery.detail.period ?? null,
      timeZone: delivery.detail.timeZone ?? null,
      calendarSequence: delivery.detail.calendarSequence ?? null,
    } : null;
  if ((delivery.kind === 'time_set' || delivery.kind === 'time_changed') && details) {
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
  // A cancelled plan with a date: the invite's event, cancelled (docs/decisions/0101).
  const attachment = delivery.kind === 'plan_cancelled' && details ? icsAttachment(details, origin, timestamp, true) : null;
  return {
    ...(attachment ? { attachments: [attachment] } : {}),
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
