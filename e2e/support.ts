// Helpers for end-to-end tests: unique addresses and codes read from maildev.
import { expect } from '@playwright/test';
import { randomUUID } from 'node:crypto';

export const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

interface MaildevMail {
  to: Array<{ address: string }>;
  subject: string;
  text?: string;
  date: string;
}

/** The 6-digit code of the newest e-mail to `email` in the mail catcher. */
export async function latestCode(email: string, after = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${process.env.E2E_MAIL_URL}/email`);
        const mails = (await res.json()) as MaildevMail[];
        const mine = mails
          .filter((m) => m.to.some((t) => t.address.toLowerCase() === email.toLowerCase()))
          .filter((m) => new Date(m.date).getTime() >= after)
          .sort((a, b) => new Date(b.date).getTime() - new Date(a.date).getTime());
        code = mine[0]?.text?.match(/\b(\d{6})\b/)?.[1];
        return code;
      },
      { timeout: 15_000, message: `a sign-in code e-mailed to ${email}` },
    )
    .toBeTruthy();
  return code!;
}


/**
 * Sign in through the API (the UI path is covered by account.spec.ts) and
 * store the token where the app keeps it, before any page script runs.
 */
export async function signInViaApi(
  page: import('@playwright/test').Page,
  email: string,
  name?: { firstName: string; lastName: string },
): Promise<string> {
  const base = process.env.E2E_WEB_URL;
  const sentAfter = Date.now() - 1000;
  const sent = await fetch(`${base}/api/auth/send-otp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(sent.status).toBe(204);
  const code = await latestCode(email, sentAfter);
  const verified = await fetch(`${base}/api/auth/verify-otp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, code }),
  });
  expect(verified.status).toBe(200);
  const { token } = (await verified.json()) as { token: string };
  if (name) {
    const profile = await fetch(`${base}/api/auth/profile`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...name, email }),
    });
    expect(profile.status).toBe(200);
  }
  await page.addInitScript((t) => {
    if (!localStorage.getItem('authToken')) localStorage.setItem('authToken', t);
  }, token);
  return token;
}

/** 'YYYY-MM-DD' of the local day `days` from today (the browser runs on this machine's clock and zone). */
export function localDate(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** 'Saturday, March 14, 2026' (en-US, as the app shows dates). */
export function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(y!, m! - 1, d!).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
}

export interface CaughtMail {
  id: string;
  to: Array<{ address: string }>;
  subject: string;
  text?: string;
  date: string;
  attachments?: Array<{ fileName?: string; generatedFileName?: string; contentType: string }>;
}

/** The newest e-mail to `email` sent at or after `after` whose subject matches, polled from the mail catcher. */
export async function waitForMail(email: string, subject: RegExp, after = 0): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${process.env.E2E_MAIL_URL}/email`)).json()) as CaughtMail[];
        found = mails
          .filter((m) => m.to.some((t) => t.address.toLowerCase() === email.toLowerCase()))
          .filter((m) => new Date(m.date).getTime() >= after && subject.test(m.subject))
          .sort((a, b) => new Date(b.date).getTime() - new Date(a.date).getTime())[0];
        return found?.subject;
      },
      { timeout: 15_000, message: `an e-mail to ${email} with subject ${subject}` },
    )
    .toBeTruthy();
  return found!;
}

/** The text of one attachment of a caught e-mail. */
export async function mailAttachment(mail: CaughtMail, fileName: string): Promise<string> {
  const res = await fetch(`${process.env.E2E_MAIL_URL}/email/${mail.id}/attachment/${encodeURIComponent(fileName)}`);
  expect(res.status, `attachment ${fileName} of "${mail.subject}"`).toBe(200);
  return res.text();
}

/** The lines of an .ics file, folded lines joined. */
export const icsLines = (ics: string) => ics.replace(/\r\n[ \t]/g, '').split(/\r?\n/);

// The test plays the devices of the guests it creates through the API: it
// keeps each one's secret (POST /api/guest-session answers it) and sends it
// as X-Guest-Secret with the calls that name that guest, as the app does.
const guestSecrets = new Map<string, string>();

/** The headers of a call that names a guest (`guestId` in the body) this test created. */
export function guestHeaders(body: unknown): Record<string, string> {
  const guestId = (body as { guestId?: unknown } | null | undefined)?.guestId;
  const secret = typeof guestId === 'string' ? guestSecrets.get(guestId) : undefined;
  return secret ? { 'x-guest-secret': secret } : {};
}

/** Keep the secret of a guest session the API just answered. */
export function rememberGuest(answer: unknown): void {
  const guest = answer as { id?: unknown; secret?: unknown } | null;
  if (typeof guest?.id === 'string' && typeof guest.secret === 'string') guestSecrets.set(guest.id, guest.secret);
}

/** A JSON call to the API through the web origin (as the app makes it); fails the test unless 2xx. */
export async function apiCall<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${process.env.E2E_WEB_URL}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...guestHeaders(body) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, `${method} ${path} answered ${res.status}: ${await res.clone().text()}`).toBe(true);
  const answer = (res.status === 204 ? null : await res.json()) as T;
  rememberGuest(answer);
  return answer;
}

export const apiPost = <T = unknown>(path: string, body: unknown, token?: string) => apiCall<T>('POST', path, body, token);

// Pages hold a live connection open (the plan's event stream), so Playwright's
// 'networkidle' never comes. settle() waits for the page's other requests.
const inFlight = new WeakMap<import('@playwright/test').Page, Set<import('@playwright/test').Request>>();
const isLiveStream = (request: import('@playwright/test').Request) => /\/api\/plans\/(?:[^/]+\/)?events(?:\?|$)/.test(request.url());

/** Start counting the page's requests in flight (call right after creating the page). */
export function trackRequests(page: import('@playwright/test').Page): Set<import('@playwright/test').Request> {
  let pending = inFlight.get(page);
  if (pending) return pending;
  const set = new Set<import('@playwright/test').Request>();
  page.on('request', (request) => void (isLiveStream(request) || set.add(request)));
  page.on('requestfinished', (request) => void set.delete(request));
  page.on('requestfailed', (request) => void set.delete(request));
  inFlight.set(page, set);
  pending = set;
  return pending;
}

/** Like waitForLoadState('networkidle'), but live event streams do not count. */
export async function settle(page: import('@playwright/test').Page, quietMs = 500): Promise<void> {
  const pending = trackRequests(page);
  await page.waitForLoadState('load');
  const deadline = Date.now() + 15_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (pending.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`the page kept loading: ${[...pending].map((r) => r.url()).join(', ')}`);
}

/**
 * The app's service worker as DevTools sees it, through `page` (any page of
 * the browser context, even about:blank): for events only a browser's own
 * services fire, a push (ServiceWorker.deliverPushMessage) or a Background
 * Sync (ServiceWorker.dispatchSyncEvent).
 */
export async function serviceWorkerOf(page: import('@playwright/test').Page, origin: string) {
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return { cdp, origin, registrationId: await registrationId };
}

/**
 * One scheduler run, the request pg_cron's job makes (docs/notifications.md
 * "Scheduling"), asked now rather than waiting for the stack's timer.
 */
export async function runScheduler(): Promise<void> {
  const res = await fetch(`${process.env.E2E_WEB_URL}/api/scheduler/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.E2E_SCHEDULER_SECRET}` },
  });
  expect(res.ok, `the scheduler run answered ${res.status}`).toBe(true);
}
