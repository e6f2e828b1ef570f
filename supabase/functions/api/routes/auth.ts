// /api/auth: e-mail code sign-in, the current user, and the profile.
import { Hono } from 'hono';
import { requireUserId, signSessionToken } from '../../_shared/auth.ts';
import { type AuthUser, sendOtpBody, updateProfileBody, verifyOtpBody } from '../../_shared/contract/auth.ts';
import { type TransferResult, transferGuestVotesBody } from '../../_shared/contract/guests.ts';
import { requestNetwork } from '../../_shared/client-ip.ts';
import { type Tx, withRequest } from '../../_shared/db.ts';
import { HttpError, isUniqueViolation, messages } from '../../_shared/errors.ts';
import { enforceLimits } from '../../_shared/limits.ts';
import { sendSignInCode } from '../../_shared/mail.ts';
import { generateSignInCode, hashSignInCode } from '../../_shared/otp.ts';
import { parseBody } from '../../_shared/validation.ts';

const TOO_SOON = 'Please wait 30 seconds before asking for another code';
const TOO_MANY = 'Too many codes requested, please try again in an hour';
const INVALID_CODE = 'Invalid or expired code';
const EMAIL_TAKEN = 'That e-mail address is already used by another account';

async function findUser(tx: Tx, userId: string): Promise<AuthUser | undefined> {
  const [user] = await tx<AuthUser[]>`
    select id, email, first_name as "firstName", last_name as "lastName"
    from app.users where id = ${userId}::uuid`;
  return user;
}

export const authRoutes = new Hono()
  // Same answer whether or not an account exists: no account enumeration.
  .post('/send-otp', async (c) => {
    const { email } = await parseBody(c, sendOtpBody);
    // Per client network and for everyone together (_shared/limits.ts), in a
    // short transaction of their own: the code's transaction below lasts an
    // SMTP conversation, and must not hold the global counter that long.
    // They count requests, not e-mails: a refused or failed send counts too.
    await withRequest({}, (tx) =>
      enforceLimits(tx, [
        { limit: 'otp-ip', key: requestNetwork(c) },
        { limit: 'otp-global', key: 'all' },
      ]),
    );
    const code = generateSignInCode();
    const codeHash = await hashSignInCode(email, code);
    const outcome = await withRequest({}, async (tx) => {
      const [{ outcome }] = await tx<{ outcome: string }[]>`
        select private.issue_sign_in_code(${email}, ${codeHash}) as outcome`;
      // Sent before COMMIT on purpose: if SMTP fails, the 502 rolls back the new
      // code and the rate-limit counters, so the user can retry at once and no
      // code that nobody received stays valid (the previous one stays as it was).
      if (outcome === 'ok') await sendSignInCode(email, code);
      return outcome;
    });
    // The per-address limits (private.issue_sign_in_code) say which, not how
    // long is left: Retry-After is the longest it can be.
    if (outcome === 'too_soon') throw new HttpError(429, TOO_SOON, 30);
    if (outcome === 'too_many') throw new HttpError(429, TOO_MANY, 3600);
    if (outcome !== 'ok') throw new Error(`issue_sign_in_code answered ${outcome}`);
    return c.body(null, 204);
  })

  .post('/verify-otp', async (c) => {
    const { email, code } = await parseBody(c, verifyOtpBody);
    const codeHash = await hashSignInCode(email, code);
    // A wrong code must COMMIT (it counts a try, the code dies at 5), so the
    // 400 is thrown after the transaction, not inside it.
    const userId = await withRequest({}, async (tx) => {
      const [{ userId }] = await tx<{ userId: string | null }[]>`
        select private.verify_sign_in_code(${email}, ${codeHash}) as "userId"`;
      return userId;
    });
    if (!userId) throw new HttpError(400, INVALID_CODE);
    return c.json({ token: await signSessionToken(userId) });
  })

  .get('/me', async (c) => {
    const userId = await requireUserId(c);
    const user = await withRequest({ userId }, (tx) => findUser(tx, userId));
    // A valid token for an account that no longer exists is a dead session.
    if (!user) throw new HttpError(401, messages.sessionExpired);
    return c.json(user);
  })

  .patch('/profile', async (c) => {
    const userId = await requireUserId(c);
    const { firstName, lastName, email } = await parseBody(c, updateProfileBody);
    const changes: Record<string, string | null> = {};
    if (firstName !== undefined) changes.first_name = firstName;
    if (lastName !== undefined) changes.last_name = lastName;
    if (email !== undefined) changes.email = email;
    const user = await withRequest({ userId }, async (tx) => {
      if (Object.keys(changes).length === 0) return findUser(tx, userId);
      try {
        const [updated] = await tx<AuthUser[]>`
          update app.users set ${tx(changes)} where id = ${userId}::uuid
          returning id, email, first_name as "firstName", last_name as "lastName"`;
        return updated;
      } catch (error) {
        if (isUniqueViolation(error)) throw new HttpError(409, EMAIL_TAKEN);
        throw error;
      }
    });
    if (!user) throw new HttpError(401, messages.sessionExpired);
    return c.json(user);
  })

  // After signing in on a device that holds a guest session: the guest's votes
  // (minus those the account already has), ideas and comments become the
  // account's, the account replaces the guest in the plan, and the guest is
  // deleted (app.transfer_guest_votes). Holding the guest id is the proof, as
  // for any guest request. A second call answers 404: the guest is gone.
  .post('/transfer-guest-votes', async (c) => {
    const userId = await requireUserId(c);
    const { guestId } = await parseBody(c, transferGuestVotesBody);
    const counts = await withRequest({ userId }, async (tx) => {
      // A valid token whose account no longer exists is a dead session (as /me answers).
      if (!(await findUser(tx, userId))) throw new HttpError(401, messages.sessionExpired);
      const [row] = await tx<TransferResult[]>`
        select transferred_idea_votes as "transferredIdeaVotes", transferred_time_votes as "transferredTimeVotes"
          from app.transfer_guest_votes(${guestId}::uuid)`;
      return row;
    });
    return c.json(counts);
  });
