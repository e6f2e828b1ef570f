// Who is asking in a DELETE that a guest may make too (leave a plan, delete
// an idea or a comment): a valid token wins; without one the guest names
// itself with `?guestId=` or a `{guestId}` body (both: they must agree) and
// proves it with its device's X-Guest-Secret, which the database checks.
import type { Context } from 'hono';
import { optionalUserId } from './tokens.ts';
import { guestDeleteBody, guestIdSchema } from '../contract/plans-requests.ts';
import { HttpError, messages } from '../http/errors.ts';
import { parseBody, validate } from '../http/validation.ts';

const GUEST_ID_MISMATCH = 'guestId in the URL and in the body must be the same';

/** The caller of a DELETE; 401 "Not signed in" without a token or a guest id. */
export async function deleteCaller(c: Context): Promise<{ userId: string | null; guestId: string | null }> {
  const userId = await optionalUserId(c);
  const fromQuery = c.req.query('guestId');
  const queryGuestId = fromQuery === undefined ? undefined : validate(guestIdSchema, fromQuery);
  const { guestId: bodyGuestId } = await parseBody(c, guestDeleteBody);
  if (queryGuestId && bodyGuestId && queryGuestId.toLowerCase() !== bodyGuestId.toLowerCase()) {
    throw new HttpError(400, GUEST_ID_MISMATCH);
  }
  const guestId = userId ? null : (queryGuestId ?? bodyGuestId ?? null)?.toLowerCase() ?? null;
  if (!userId && !guestId) throw new HttpError(401, messages.notSignedIn);
  return { userId, guestId };
}
