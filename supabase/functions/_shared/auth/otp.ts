// Sign-in codes: generated here, stored only as a keyed hash, compared (in
// constant time) by private.verify_sign_in_code in the database.
import { SIGN_IN_CODE_LENGTH } from '../contract/common.ts';
import { jwtSecret } from '../config/env.ts';

const CODE_SPACE = 10 ** SIGN_IN_CODE_LENGTH;
// Largest multiple of 10^6 below 2^32: values at or above it are redrawn, so
// `value % 10^6` is exactly uniform (no modulo bias towards low codes).
const UNBIASED_LIMIT = 2 ** 32 - (2 ** 32 % CODE_SPACE);

type FillRandom = (target: Uint32Array) => unknown;
const cryptoFill: FillRandom = (target) => crypto.getRandomValues(target);

/** Six uniformly random digits ("004213" is as likely as "999999"). */
export function generateSignInCode(fillRandom: FillRandom = cryptoFill): string {
  const draw = new Uint32Array(1);
  for (;;) {
    fillRandom(draw);
    if (draw[0] < UNBIASED_LIMIT) return String(draw[0] % CODE_SPACE).padStart(SIGN_IN_CODE_LENGTH, '0');
  }
}

const encoder = new TextEncoder();
// A label separates this key from the JWT signing key even though both come
// from JWT_SECRET: a code hash can never be mistaken for a token signature.
const KEY_LABEL = 'hangplan sign-in code hash v1';
const keyCache = new Map<string, Promise<CryptoKey>>();

function hmacKey(raw: BufferSource): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

function codeKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    key = hmacKey(encoder.encode(secret))
      .then((master) => crypto.subtle.sign('HMAC', master, encoder.encode(KEY_LABEL)))
      .then((derived) => hmacKey(derived));
    keyCache.set(secret, key);
  }
  return key;
}

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * HMAC-SHA-256 of `email:code` as lower-case hex. Keyed (not a plain hash) so a
 * leaked table cannot be brute-forced offline: there are only 10^6 codes.
 * `email` must already be normalised (trimmed, lower-cased).
 */
export async function hashSignInCode(email: string, code: string, secret: string = jwtSecret()): Promise<string> {
  const key = await codeKey(secret);
  return toHex(await crypto.subtle.sign('HMAC', key, encoder.encode(`${email}:${code}`)));
}

/**
 * The code of an e-mail change (PATCH /api/auth/profile with a new address),
 * bound to the account rather than the address: HMAC-SHA-256 of
 * `email-change:{userId}:{code}` with the same key. Never equal to a sign-in
 * code's hash (an e-mail address has an @, a user id none).
 */
export async function hashEmailChangeCode(userId: string, code: string, secret: string = jwtSecret()): Promise<string> {
  return await hashSignInCode(`email-change:${userId.toLowerCase()}`, code, secret);
}
