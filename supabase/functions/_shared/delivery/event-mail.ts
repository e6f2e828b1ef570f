// The e-mails that carry the plan's calendar event (docs/notifications.md):
// the "time is set" e-mail with its .ics (what / when / where: docs/api.md
// "Time slots and the lock flow"), and the cancel notice with the same
// event as METHOD:CANCEL (docs/decisions/0101-calendars-follow-the-answer.md).
// Pure (no sending), so it is unit-tested; ./notify.ts chooses which a
// delivery gets.
import { buildCalendarEvent, type CalendarEvent, icsFileName, planEventUid, toIcs } from '../contract/calendar.ts';
import { escapeHtml } from '../contract/text.ts';
import type { MailAttachment, MailMessage } from './mail.ts';
import { formatLongDate, formatPeriod } from '../contract/periods.ts';
import { plainText } from '../contract/text.ts';

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

/** The member's plan page. */
export function planUrl(origin: string, planId: string): string {
  return `${origin.replace(/\/+$/, '')}/plan/${planId}`;
}

/** One line of user text (./notify.ts oneLine). */
const oneLine = (value: string) => plainText(value);

/** The calendar event the e-mail describes and attaches (CANCELLED for the cancel notice). */
function eventOf(details: EventTimeDetails, origin: string, cancelled: boolean): CalendarEvent {
  return buildCalendarEvent({
    planTitle: details.planTitle,
    ideaText: details.ideaText,
    location: details.location,
    planUrl: planUrl(origin, details.planId),
    date: details.date,
    eventTime: details.eventTime,
    period: details.period,
    timeZone: details.timeZone,
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
  });
}

/**
 * The .ics attachment, or null (logged) if it cannot be built: the e-mail goes
 * out anyway. With `cancelled`, METHOD:CANCEL and STATUS:CANCELLED: the
 * calendar that holds the invite (the same UID, a lower SEQUENCE) marks it
 * cancelled.
 */
export function icsAttachment(details: EventTimeDetails, origin: string, timestamp = Date.now(), cancelled = false): MailAttachment | null {
  const method = cancelled ? 'CANCEL' : 'PUBLISH';
  try {
    const event = eventOf(details, origin, cancelled);
    return {
      filename: icsFileName(event),
      // The plan's one UID and its revision: the feed and a later e-mail update this event.
      content: toIcs(event, {
        uid: planEventUid(details.planId),
        timestamp,
        method,
        ...(typeof details.calendarSequence === 'number' ? { sequence: details.calendarSequence } : {}),
      }),
      contentType: `text/calendar; charset=utf-8; method=${method}`,
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

