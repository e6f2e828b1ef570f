// Sessions: our own HS256 JWT (sub = app.users.id), verified on every request.
// Supabase Auth is not used: sign-in is our e-mail code flow.
import type { Context } from 'hono';
import { jwtVerify, SignJWT } from 'jose';
import { jwtSecret } from './env.ts';
import { HttpError, messages } from './errors.ts';

const ISSUER = 'hangplan';
const AUDIENCE = 'hangplan';
export const SESSION_SECONDS = 30 * 24 * 60 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const encoder = new TextEncoder();

export async function signSessionToken(
  userId: string,
  { secret = jwtSecret(), now = Date.now() }: { secret?: string; now?: number } = {},
): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + SESSION_SECONDS)
    .sign(encoder.encode(secret));
}

/** The user id of a valid token, or null (bad signature, expired, wrong issuer/audience, odd sub). */
export async function verifySessionToken(token: string, secret: string = jwtSecret()): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp'],
    });
    // sub becomes auth.uid() (a uuid cast) in the database: anything else must not get that far.
    return typeof payload.sub === 'string' && UUID.test(payload.sub) ? payload.sub : null;
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
  const userId = token ? await verifySessionToken(token) : null;
  if (!userId) throw new HttpError(401, messages.sessionExpired);
  return userId;
}

export async function requireUserId(c: Context): Promise<string> {
  const userId = await optionalUserId(c);
  if (!userId) throw new HttpError(401, messages.notSignedIn);
  return userId;
}
