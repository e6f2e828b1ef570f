// The "time is set" e-mail (docs/api.md "Time slots and the lock flow", set-event-time: every participant who
// has an account is told what, when and where, with an .ics attached).
//
// Sent AFTER the transaction that set the time has committed: an SMTP failure
// must not undo the host's decision (unlike the sign-in code, whose e-mail is
// the whole point of its request). Failures are logged and counted, never
// thrown; the request still answers 200 with the plan.
import { buildCalendarEvent, type CalendarEvent, icsFileName, toIcs } from './contract/calendar.ts';
import { readEnv } from './env.ts';
import { escapeHtml, type MailAttachment, type MailMessage, sendMail } from './mail.ts';
import { formatLongDate, formatPeriod } from './contract/periods.ts';
import { plainText } from './contract/text.ts';

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
}

export interface Recipient {
  email: string;
  /** Display name (participants.name), for the greeting. */
  name: string | null;
}

interface NotifyResult {
  sent: number;
  failed: number;
}

/** At most this many SMTP conversations at once. */
const CONCURRENCY = 4;

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
  });
}

/** The .ics attachment, or null (logged) if it cannot be built: the e-mail goes out anyway. */
export function icsAttachment(details: EventTimeDetails, origin: string, timestamp = Date.now()): MailAttachment | null {
  try {
    const event = eventOf(details, origin);
    return {
      filename: icsFileName(event),
      content: toIcs(event, { uid: `plan-${details.planId}@hangplan`, timestamp }),
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

/**
 * E-mail every recipient (one message each, so nobody sees the others'
 * addresses), a few at a time. Never throws: each failure is logged (without
 * the address) and counted.
 */
export async function notifyEventTimeSet(
  details: EventTimeDetails,
  recipients: Recipient[],
  send: (message: MailMessage) => Promise<void> = sendMail,
): Promise<NotifyResult> {
  if (recipients.length === 0) return { sent: 0, failed: 0 };
  let origin: string;
  try {
    origin = appOrigin();
  } catch (error) {
    console.error(`Not sending the event time of plan ${details.planId}:`, error);
    return { sent: 0, failed: recipients.length };
  }
  const attachment = icsAttachment(details, origin);
  const result: NotifyResult = { sent: 0, failed: 0 };
  for (let i = 0; i < recipients.length; i += CONCURRENCY) {
    const batch = recipients.slice(i, i + CONCURRENCY);
    const outcomes = await Promise.allSettled(
      batch.map((recipient) =>
        send({
          to: recipient.email,
          ...eventTimeSetMail(details, recipient, origin),
          ...(attachment ? { attachments: [attachment] } : {}),
        }),
      ),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') {
        result.sent += 1;
      } else {
        result.failed += 1;
        console.error(`Sending the event time of plan ${details.planId} failed:`, outcome.reason);
      }
    }
  }
  return result;
}
