// A small HTTP client for the API tests: the function served by Deno at
// inject('apiUrl') (= http://127.0.0.1:PORT/functions/v1), so paths are '/api/...'.
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { expect, inject } from 'vitest';
import '../setup/context.ts';
import { mailbox } from './mail.ts';

export interface ApiResult<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body when the response is JSON, else undefined. */
  json: T;
}

export interface ApiOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent verbatim (for malformed or oversized bodies). */
  rawBody?: string;
  token?: string;
  /**
   * The X-Guest-Secret header: by default the secret this test process holds
   * for the guest the request names (see rememberGuestSecret); a string to
   * send that one instead, null to send none.
   */
  guestSecret?: string | null;
  headers?: Record<string, string>;
  /** Another server than the shared one (same /functions/v1 shape). */
  baseUrl?: string;
}

// The test process plays the guests' devices: it keeps the secret of every
// guest it created or restored through the API (as the web app keeps its
// guest session's), and sends it with the requests that name that guest.
const guestSecrets = new Map<string, string>();

export function rememberGuestSecret(guestId: string, secret: string): void {
  guestSecrets.set(guestId.toLowerCase(), secret);
}

/** The secret this test process holds for a guest, if any. */
export function guestSecretOf(guestId: string): string | undefined {
  return guestSecrets.get(guestId.toLowerCase());
}

/** The guest a request names: `guestId` in the JSON body or the query, or /api/guest-session/{id}. */
function namedGuest(path: string, body: unknown): string | undefined {
  const fromBody = (body as { guestId?: unknown } | null | undefined)?.guestId;
  if (typeof fromBody === 'string') return fromBody;
  const url = new URL(path, 'http://x');
  return url.searchParams.get('guestId') ?? /^\/api\/guest-session\/([^/]+)$/.exec(url.pathname)?.[1] ?? undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function api<T = any>(method: string, path: string, opts: ApiOptions = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const guest = namedGuest(path, opts.body);
  const guestSecret = opts.guestSecret === undefined ? guest && guestSecretOf(guest) : opts.guestSecret;
  if (guestSecret) headers['x-guest-secret'] = guestSecret;
  const res = await fetch(`${opts.baseUrl ?? inject('apiUrl')}${path}`, { method, headers, body });
  const text = await res.text();
  const isJson = res.headers.get('content-type')?.includes('application/json');
  return { status: res.status, headers: res.headers, text, json: (isJson && text ? JSON.parse(text) : undefined) as T };
}

/** A text/plain error answer with this status and sentence (or a sentence matching the pattern). */
export function expectText(res: ApiResult, status: number, text: string | RegExp) {
  expect({ status: res.status, text: res.text }).toEqual({ status, text: typeof text === 'string' ? text : expect.stringMatching(text) });
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
}

/** An ISO 8601 UTC timestamp as Date#toISOString prints it. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A fresh address per test: the server and its database are shared by all test files. */
export function uniqueEmail(prefix = 't'): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.com`;
}

export function testMailbox() {
  return mailbox(inject('mailUrl'));
}

/**
 * Sign up or in through the real flow (code read from maildev); the session
 * token. Waits for the mail THIS call caused: on a second sign-in the mail
 * of the first is already there, and its code is no longer valid.
 */
export async function signIn(email = uniqueEmail()): Promise<{ email: string; token: string }> {
  const mail = testMailbox();
  const before = (await mail.mailsTo(email)).length;
  const sent = await api('POST', '/api/auth/send-otp', { body: { email } });
  if (sent.status !== 204) throw new Error(`send-otp answered ${sent.status}: ${sent.text}`);
  const code = await mail.latestCodeFor(email, { count: before + 1 });
  const verified = await api<{ token: string }>('POST', '/api/auth/verify-otp', { body: { email, code } });
  if (verified.status !== 200) throw new Error(`verify-otp answered ${verified.status}: ${verified.text}`);
  return { email: email.trim().toLowerCase(), token: verified.json.token };
}

/** The database the shared server uses, as its owner (bypasses RLS): to arrange and inspect. */
export function apiDatabaseAsOwner() {
  return postgres(inject('apiDbUrl'), { max: 2, onnotice: () => {} });
}

/** Every key of the plan JSON (docs/api.md "Plans" plus the locked idea text and slot). */
export const PLAN_KEYS = [
  'description',
  'eventTime',
  'hostId',
  'id',
  'isOpenInvite',
  'location',
  'lockedIdeaId',
  'lockedIdeaText',
  'lockedTimeSlot',
  'lockedTimeSlotDate',
  'lockedTimeSlotId',
  'participantCount',
  'slug',
  'status',
  'title',
  'deadline',
  'autoLock',
  'remindedAt',
  'calendarSequence',
  'timeZone',
  'capacity',
  'maxPlusOnes',
  'answers',
  'cancelMessage',
  'cancelledAt',
  'previewDetails',
].sort();

/**
 * Another instance of the function on the same database as the shared one,
 * with some settings changed (see .env.example): e.g. a dead SMTP port, or the
 * live feed behind a "transaction pooler".
 */
export async function startSecondApi(
  overrides: Partial<import('../../scripts/lib/services.ts').ApiEnv> = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  const { API_TEST_RATE_LIMITS, TEST_LIVE_STREAMS_PER_NETWORK, freePort, startApi } = await import('../../scripts/lib/services.ts');
  const port = await freePort();
  const service = await startApi({
    port,
    env: {
      DATABASE_URL: inject('apiDbUrl'),
      JWT_SECRET: inject('jwtSecret'),
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(await freePort()), // nobody listens there unless overridden
      MAIL_FROM: 'Hangplan <hello@hangplan.test>',
      APP_ORIGIN: 'http://localhost:5173',
      RATE_LIMITS: API_TEST_RATE_LIMITS,
      LIVE_STREAMS_PER_NETWORK: TEST_LIVE_STREAMS_PER_NETWORK,
      ...inject('notificationEnv'),
      ...overrides,
    },
  });
  return { url: `http://127.0.0.1:${port}/functions/v1`, stop: service.stop };
}

/** A second instance whose SMTP port has nobody listening: for what must happen when e-mail cannot be sent. */
export const startApiWithDeadSmtp = () => startSecondApi();

/**
 * One run of the scheduled work (POST /api/scheduler/run with the secret), as
 * `npm start`'s timer and pg_cron do it; its report.
 */
export async function runScheduler(
  baseUrl?: string,
): Promise<{ deadlines: number; eventReminders: number; notices: number; digests: number; expiredKeys: number; endedCredentials: number; sent: number; retrying: number; dropped: number }> {
  const res = await api('POST', '/api/scheduler/run', {
    headers: { authorization: `Bearer ${inject('notificationEnv').SCHEDULER_SECRET}` },
    baseUrl,
  });
  if (res.status !== 200) throw new Error(`scheduler run answered ${res.status}: ${res.text}`);
  return res.json;
}
