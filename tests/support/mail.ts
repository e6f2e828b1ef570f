// The maildev catcher's JSON API (`GET /email`, `DELETE /email/all`), for the
// API tests and the e2e tests alike: no vitest import, the base URL is passed in.

export interface CaughtMail {
  id: string;
  subject: string;
  text?: string;
  html?: string;
  to: { address: string; name?: string }[];
  time: string;
  attachments?: { fileName?: string; generatedFileName?: string; contentType?: string }[] | null;
}

export interface Mailbox {
  /** Every caught mail to `email` (case-insensitive), oldest first. */
  mailsTo(email: string): Promise<CaughtMail[]>;
  /** Poll until at least `count` mails to `email` arrived; the newest one. */
  latestMailTo(email: string, opts?: { count?: number; timeoutMs?: number }): Promise<CaughtMail>;
  /** The sign-in code of the newest mail to `email` (pass count: 2 to wait for a resend). */
  latestCodeFor(email: string, opts?: { count?: number; timeoutMs?: number }): Promise<string>;
  clear(): Promise<void>;
}

const CODE = /\b(\d{6})\b/;

export function mailbox(mailUrl: string): Mailbox {
  const base = mailUrl.replace(/\/+$/, '');

  async function mailsTo(email: string): Promise<CaughtMail[]> {
    const res = await fetch(`${base}/email`);
    if (!res.ok) throw new Error(`maildev answered ${res.status}`);
    const all = (await res.json()) as CaughtMail[];
    const address = email.trim().toLowerCase();
    return all.filter((m) => m.to?.some((t) => t.address.toLowerCase() === address));
  }

  async function latestMailTo(email: string, { count = 1, timeoutMs = 5000 } = {}): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mails = await mailsTo(email);
      if (mails.length >= count) return mails[mails.length - 1];
      if (Date.now() > deadline) throw new Error(`Expected ${count} mail(s) to ${email}, found ${mails.length}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function latestCodeFor(email: string, opts: { count?: number; timeoutMs?: number } = {}): Promise<string> {
    const mail = await latestMailTo(email, opts);
    const code = CODE.exec(mail.subject)?.[1] ?? CODE.exec(mail.text ?? '')?.[1];
    if (!code) throw new Error(`No 6-digit code in the mail "${mail.subject}" to ${email}`);
    return code;
  }

  async function clear(): Promise<void> {
    await fetch(`${base}/email/all`, { method: 'DELETE' });
  }

  return { mailsTo, latestMailTo, latestCodeFor, clear };
}
