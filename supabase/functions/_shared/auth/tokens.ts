// Sessions: our own HS256 JWT (sub = app.users.id, sid = app.sessions.id),
// verified here on every request; that the session is still live (not signed
// out, not ended by "Sign out everywhere" or an e-mail change) is checked by
// the database in the claims statement of withRequest (private.check_request).
// Supabase Auth is not used: sign-in is our e-mail code flow.
import type { Context } from 'hono';
import { jwtVerify, SignJWT } from 'jose';
import { jwtSecret } from '../config/env.ts';
import { HttpError, messages } from '../http/errors.ts';
import { RecentMap } from '../db/recent-map.ts';
import { scopeOf, type VerifiedSession } from '../db/request-scope.ts';

const ISSUER = 'hangplan';
const AUDIENCE = 'hangplan';
export const SESSION_SECONDS = 30 * 24 * 60 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const encoder = new TextEncoder();

let keyCache: { secret: string; key: Promise<CryptoKey> } | undefined;

/**
 * The HMAC key of the secret, imported once per secret and instance (jose
 * would import raw key bytes again on every call: a measurable share of each
 * signed-in request).
 */
function hmacKey(secret: string): Promise<CryptoKey> {
  if (keyCache?.secret !== secret) {
    const key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keyCache = { secret, key };
  }
  return keyCache.key;
}

export type { VerifiedSession };

/** A token for the session `sessionId` of `userId` (a row of app.sessions, made by private.sign_in_with_code). */
export async function signSessionToken(
  userId: string,
  sessionId: string,
  { secret = jwtSecret(), now = Date.now() }: { secret?: string; now?: number } = {},
): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return await new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + SESSION_SECONDS)
    .sign(await hmacKey(secret));
}

/**
 * The user and session of a valid token, or null (bad signature, expired,
 * wrong issuer/audience, odd sub, and tokens from before sessions existed,
 * which carry no sid).
 */
export async function verifySessionToken(token: string, secret: string = jwtSecret()): Promise<VerifiedSession | null> {
  if (verifiedWith !== secret) {
    verified.clear();
    verifiedWith = secret;
  }
  const remembered = verified.get(token);
  if (remembered && remembered.expiresAt > Date.now()) return remembered.session;
  const checked = await verifySignature(token, secret);
  if (!checked) return null;
  verified.set(token, checked);
  return checked.session;
}

// Tokens this instance has verified, with their expiry: a signed-in phone sends
// the same token with every request, and checking its signature again costs
// more than the rest of a plan read (~80 µs). Only the signature work is
// saved: expiry is checked on every use, and whether the session is still
// live is the database's check on every request. Keyed by the whole token
// (signature included), for one secret at a time, so nothing unverified can
// hit it. Bounded: the least recently used go first.
const verified = new RecentMap<string, { session: VerifiedSession; expiresAt: number }>(5000);
let verifiedWith: string | undefined;

async function verifySignature(token: string, secret: string): Promise<{ session: VerifiedSession; expiresAt: number } | null> {
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'sid', 'exp'],
    });
    // sub and sid are cast to uuid in the database: anything else must not get that far.
    const { sub, sid } = payload;
    if (typeof sub !== 'string' || !UUID.test(sub) || typeof sid !== 'string' || !UUID.test(sid)) return null;
    return { session: { userId: sub.toLowerCase(), sessionId: sid.toLowerCase() }, expiresAt: payload.exp! * 1000 };
  } catch {
    return null;
  }
}

/**
 * The signed-in user, or null when no Authorization header was sent. A header
 * that is not a valid Bearer token is a 401, never silently anonymous: the
 * client then drops its stale token instead of acting as someone else.
 */
export async function optionalUserId(c: Context): Promise<string | null> {
  const header = c.req.header('authorization');
  if (header === undefined) return null;
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  const session = token ? await verifySessionToken(token) : null;
  if (!session) throw new HttpError(401, messages.sessionExpired);
  // withRequest() finds the session here and has the database check it is live.
  scopeOf(c).session = session;
  return session.userId;
}

export async function requireUserId(c: Context): Promise<string> {
  const userId = await optionalUserId(c);
  if (!userId) throw new HttpError(401, messages.notSignedIn);
  return userId;
}

/**
 * Who acts in a write a member or a guest may make: a valid token wins (its
 * user, no guest); else the guest the request names (its secret is the
 * database's check); else 401 with `denied`.
 */
export function actingAs(userId: string | null, guestId: string | null, denied: string): { userId: string | null; guestId: string | null } {
  if (userId) return { userId, guestId: null };
  if (guestId) return { userId: null, guestId };
  throw new HttpError(401, denied);
}
