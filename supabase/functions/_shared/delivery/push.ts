// Web Push (docs/notifications.md "Web Push"): VAPID (RFC 8292) and payload
// encryption (aes128gcm, RFC 8291) by the `web-push` library's
// generateRequestDetails, sent with fetch. Only to push services the server
// knows: the browsers' own (https, on their hosts) and the origins listed in
// PUSH_SERVICE_ORIGINS (the tests' stand-in on http://127.0.0.1:<port>).
// Nothing else is ever fetched, redirects are not followed, and every
// address is checked again when a message is sent.
import webpush from 'web-push';
import { fromBase64url } from '../http/bytes.ts';
import { readEnv } from '../config/env.ts';

/** The hosts of the browsers' push services (Chrome/Edge/Opera/Samsung, Firefox, Edge on Windows, Safari). */
const KNOWN_PUSH_HOSTS: RegExp[] = [
  /^fcm\.googleapis\.com$/,
  /^android\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/,
  /^[a-z0-9-]+\.push\.services\.mozilla\.com$/,
  /^[a-z0-9-]+\.notify\.windows\.com$/,
  /^web\.push\.apple\.com$/,
  /^[a-z0-9-]+\.push\.apple\.com$/,
];

/** PUSH_SERVICE_ORIGINS, comma-separated origins (plain http allowed there). */
function extraOrigins(): string[] {
  return (readEnv('PUSH_SERVICE_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, '').toLowerCase())
    .filter(Boolean);
}

/** True when the server may send to this endpoint. Pure but for the environment. */
export function isAllowedPushEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (extraOrigins().includes(url.origin.toLowerCase())) return true;
  // The browsers' services: https on the default port, a known host.
  return url.protocol === 'https:' && url.port === '' && KNOWN_PUSH_HOSTS.some((host) => host.test(url.hostname));
}

// NIST P-256 (SEC 2): y^2 = x^3 - 3x + b over the prime field p.
const P256_P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const P256_B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

function bigIntOf(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/**
 * True when `p256dh` (base64url) is an uncompressed point on P-256, as the
 * browser's key must be (RFC 8291). Checked by the curve's equation: not every
 * runtime's Web Crypto refuses a point that is off the curve on import.
 */
export function isP256PublicKey(p256dh: string): boolean {
  let raw: Uint8Array;
  try {
    raw = fromBase64url(p256dh);
  } catch {
    return false;
  }
  if (raw.length !== 65 || raw[0] !== 4) return false;
  const x = bigIntOf(raw.subarray(1, 33));
  const y = bigIntOf(raw.subarray(33, 65));
  if (x >= P256_P || y >= P256_P) return false;
  const mod = (n: bigint) => ((n % P256_P) + P256_P) % P256_P;
  return mod(y * y) === mod(x * x * x - 3n * x + P256_B);
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (a mailto: or https: URL), or null when not set up. */
export function vapidKeys(): VapidKeys | null {
  const publicKey = readEnv('VAPID_PUBLIC_KEY');
  const privateKey = readEnv('VAPID_PRIVATE_KEY');
  if (!publicKey || !privateKey) return null;
  return { publicKey, privateKey, subject: readEnv('VAPID_SUBJECT') ?? 'mailto:hello@hangplan.app' };
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What became of a push: done, never again to this subscription, try later, or never (the message itself was refused). */
export type PushOutcome = { outcome: 'sent' | 'gone' | 'retry' | 'failed'; error?: string };

/** The message a service worker shows (web/src/sw.ts reads exactly this). */
export interface PushPayload {
  title: string;
  body: string;
  /** The page to open, on the app's origin: /l/{slug} for guests, /plan/{id} for members. */
  url: string;
  /** One notification per tag on a device: a retried delivery replaces, never doubles. */
  tag: string;
}

const SEND_TIMEOUT_MS = 10_000;

/**
 * Encrypt and send one message. Never throws: the outcome says what the
 * push service answered (2xx sent; 429, 5xx and network trouble retry; any
 * other 4xx gone: the subscription fails for good and is dropped, e.g. an
 * endpoint made up by hand, keys that do not decrypt, or one made for
 * another VAPID key; docs/decisions/0084-caps-per-participant.md). Failed
 * is only a message we could not build.
 */
export async function sendPush(
  target: PushTarget,
  payload: PushPayload,
  options: { ttlSeconds: number; urgency: 'normal' | 'high'; keys: VapidKeys },
): Promise<PushOutcome> {
  if (!isAllowedPushEndpoint(target.endpoint)) return { outcome: 'gone', error: 'endpoint not allowed' };
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: options.keys.subject, publicKey: options.keys.publicKey, privateKey: options.keys.privateKey },
        TTL: options.ttlSeconds,
        urgency: options.urgency,
      },
    );
  } catch (error) {
    return { outcome: 'failed', error: `encrypting: ${(error as Error).message}` };
  }
  try {
    const response = await fetch(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body as unknown as BodyInit,
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.ok) return { outcome: 'sent' };
    const error = `HTTP ${response.status}`;
    if (response.status === 429 || response.status >= 500) return { outcome: 'retry', error };
    if (response.status >= 400) return { outcome: 'gone', error };
    // A 1xx or 3xx (redirects are not followed): never taken, the message is dropped.
    return { outcome: 'failed', error };
  } catch (error) {
    return { outcome: 'retry', error: (error as Error).message.slice(0, 200) };
  }
}
