// Outgoing e-mail over SMTP, the same path everywhere: maildev locally,
// SMTPS (465) in production since Supabase blocks outbound 25 and 587.
import nodemailer from 'nodemailer';
import { smtpSettings } from '../config/env.ts';
import { HttpError } from '../http/errors.ts';
import { escapeHtml } from '../contract/text.ts';

export interface MailAttachment {
  filename: string;
  /** Text content (an .ics is text); binary would need base64 plus `encoding`. */
  content: string;
  contentType?: string;
}

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** Extra header lines (List-Unsubscribe and List-Unsubscribe-Post of a notification). */
  headers?: Record<string, string>;
}

type Transport = ReturnType<typeof nodemailer.createTransport>;
let transport: Transport | undefined;

function transporter(): Transport {
  if (!transport) {
    const smtp = smtpSettings();
    transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.pass ?? '' } : undefined,
      // A fixed EHLO name: os.hostname() is not reliable inside an Edge Function.
      name: 'hangplan',
      // Bounded, because the sign-in code is sent inside the request's transaction.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 15_000,
    });
  }
  return transport;
}

/** Send one message from MAIL_FROM. Throws whatever the SMTP server or network said. */
export async function sendMail(message: MailMessage): Promise<void> {
  await transporter().sendMail({
    from: smtpSettings().from,
    ...message,
  });
}

const SIGN_IN_CODE_MINUTES = 10;

/** The sign-in code e-mail; the code sits in the subject so it shows in notifications. */
export function signInCodeMail(code: string): Pick<MailMessage, 'subject' | 'text' | 'html'> {
  return {
    subject: `Your Hangplan code is ${code}`,
    text: [
      `Your Hangplan sign-in code is ${code}.`,
      '',
      `It expires in ${SIGN_IN_CODE_MINUTES} minutes. If you did not ask for it, you can ignore this e-mail.`,
    ].join('\n'),
    html: [
      '<div style="font-family: sans-serif; line-height: 1.5">',
      '<p>Your Hangplan sign-in code is</p>',
      `<p style="font-size: 28px; font-weight: bold; letter-spacing: 4px">${code}</p>`,
      `<p>It expires in ${SIGN_IN_CODE_MINUTES} minutes. If you did not ask for it, you can ignore this e-mail.</p>`,
      '</div>',
    ].join('\n'),
  };
}

/**
 * The code for moving an account to this address. It reads the same whether
 * or not the address already has an account (nothing is revealed by mail).
 */
function emailChangeCodeMail(code: string): Pick<MailMessage, 'subject' | 'text' | 'html'> {
  const note = `It expires in ${SIGN_IN_CODE_MINUTES} minutes. If you did not ask to use this address for Hangplan, you can ignore this e-mail: nothing changes without the code.`;
  return {
    subject: `Your Hangplan code is ${code}`,
    text: [`To use this e-mail address for your Hangplan account, enter the code ${code}.`, '', note].join('\n'),
    html: [
      '<div style="font-family: sans-serif; line-height: 1.5">',
      '<p>To use this e-mail address for your Hangplan account, enter the code</p>',
      `<p style="font-size: 28px; font-weight: bold; letter-spacing: 4px">${code}</p>`,
      `<p>${note}</p>`,
      '</div>',
    ].join('\n'),
  };
}

/** Days an e-mail change can be undone from the old address. */
export const UNDO_EMAIL_CHANGE_DAYS = 7;

/**
 * To the OLD address, when the account moved away from it: the new address,
 * and the link that undoes it (valid 7 days, single use).
 */
export function emailChangedMail(oldEmail: string, newEmail: string, undoUrl: string): Pick<MailMessage, 'subject' | 'text' | 'html'> {
  const what = `The e-mail address of your Hangplan account was changed from ${oldEmail} to ${newEmail}.`;
  const ok = 'If you did this, there is nothing to do.';
  const undo = `If you did not, undo it within ${UNDO_EMAIL_CHANGE_DAYS} days: this puts ${oldEmail} back and signs out every device.`;
  return {
    subject: 'Your Hangplan e-mail address was changed',
    text: [what, '', ok, undo, '', undoUrl].join('\n'),
    html: [
      '<div style="font-family: sans-serif; line-height: 1.5">',
      `<p>${escapeHtml(what)}</p>`,
      `<p>${escapeHtml(ok)}</p>`,
      `<p>${escapeHtml(undo)}</p>`,
      `<p><a href="${escapeHtml(undoUrl)}">Undo the change</a></p>`,
      '</div>',
    ].join('\n'),
  };
}

const MAIL_FAILED = 'We could not send the e-mail, please try again';

/**
 * Send a message the request cannot do without (it is sent before COMMIT):
 * any SMTP failure becomes a 502, the details logged, not shown.
 */
async function sendOr502(message: MailMessage, what: string): Promise<void> {
  try {
    await sendMail(message);
  } catch (error) {
    console.error(`Sending ${what} failed:`, error);
    throw new HttpError(502, MAIL_FAILED);
  }
}

/** Send the sign-in code e-mail (a 502 when SMTP fails). */
export function sendSignInCode(email: string, code: string): Promise<void> {
  return sendOr502({ to: email, ...signInCodeMail(code) }, 'the sign-in code e-mail');
}

/** Send the e-mail-change code to the new address (a 502 when SMTP fails). */
export function sendEmailChangeCode(email: string, code: string): Promise<void> {
  return sendOr502({ to: email, ...emailChangeCodeMail(code) }, 'the e-mail change code');
}

/** Tell the old address it was replaced, with the undo link (a 502 when SMTP fails, and the change rolls back). */
export function sendEmailChangedNotice(oldEmail: string, newEmail: string, undoUrl: string): Promise<void> {
  return sendOr502({ to: oldEmail, ...emailChangedMail(oldEmail, newEmail, undoUrl) }, 'the e-mail changed notice');
}
