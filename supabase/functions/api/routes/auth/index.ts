// /api/auth: e-mail code sign-in, sessions (sign-out, sign-out everywhere),
// the current user, the profile with its verified e-mail change, and deleting
// the account (docs/api-accounts.md). A guest who signs in hands its votes
// over in ../guests (POST /api/auth/transfer-guest-votes).
import { type Context, Hono } from 'hono';
import { requireUserId, signSessionToken } from '../../../_shared/auth/tokens.ts';
import { confirmEmailBody, sendOtpBody, undoEmailChangeBody, updateProfileBody, verifyOtpBody } from '../../../_shared/contract/auth-requests.ts';
import { type ProfileUpdate, UNDO_LINK_INVALID, type UndoEmailChangeResult, type User } from '../../../_shared/contract/auth.ts';
import { requestNetwork, siteKey } from '../../../_shared/http/client-ip.ts';
import { newSecretToken, requestRow, sha256Hex, withRequest } from '../../../_shared/db/client.ts';
import { HttpError, messages, tooManyRequests } from '../../../_shared/http/errors.ts';
import { type LimitHit, limitEntry, limitsJson } from '../../../_shared/db/limits.ts';
import { sendEmailChangeCode, sendEmailChangedNotice, sendSignInCode } from '../../../_shared/delivery/mail.ts';
import { appOrigin } from '../../../_shared/delivery/notify.ts';
import { generateSignInCode, hashEmailChangeCode, hashSignInCode } from '../../../_shared/auth/otp.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { findUser } from './users.ts';

const TOO_SOON = 'Please wait 30 seconds before asking for another code';
const TOO_MANY = 'Too many codes requested';
const ADDRESS_BUSY = 'Too many codes were sent to that address';
const INVALID_CODE = 'Invalid or expired code';
const EMAIL_TAKEN = 'That e-mail address is already used by another account';

/** The page behind the undo link; the token rides in the fragment, which no server or Referer sees. */
const undoEmailChangeUrl = (token: string) => `${appOrigin()}/account/undo-email-change#token=${token}`;

/** The request's sources: its network, and its site when it has one (an IPv6 /56). */
function sources(c: Context): { network: string; site: string | null } {
  const network = requestNetwork(c);
  return { network, site: siteKey(network) };
}

/**
 * What a code that is mailed counts (send-otp, an e-mail change), as the
 * sign-in SQL's two arguments: the address's budget for codes it did not ask
 * for (keyed by the address's SHA-256, so no counter names an address), and
 * the request's network and site. The SQL counts them only for a code it
 * sends (private.count_code_send; docs/security-and-limits.md "Sign-in codes").
 */
async function mailLimits(c: Context, address: string): Promise<{ address: string; network: string }> {
  const { network, site } = sources(c);
  const hits: LimitHit[] = [{ limit: 'otp-ip', key: network }];
  if (site) hits.push({ limit: 'otp-site', key: site });
  return {
    address: JSON.stringify(limitEntry({ limit: 'otp-address', key: await sha256Hex(address) })),
    network: limitsJson(hits),
  };
}

/** What a wrong code counts (verify-otp, confirm-email): its sources, and for an e-mail change the account. */
function guessLimits(c: Context, account?: string): string {
  const { network, site } = sources(c);
  const hits: LimitHit[] = [{ limit: 'otp-guess-ip', key: network }];
  if (site) hits.push({ limit: 'otp-guess-site', key: site });
  if (account) hits.push({ limit: 'otp-guess-account', key: account });
  return limitsJson(hits);
}

/** The hash the database keeps of the device's sign-in key; '' for a request without one. */
const deviceHash = async (device: string | undefined) => (device ? await sha256Hex(device) : '');

/** A refusal of the sign-in SQL (too_soon, too_many, address_busy) as its 429. */
function refusedSend(outcome: string, retryAfter: number | null): HttpError {
  const wait = retryAfter ?? 3600;
  if (outcome === 'too_soon') return new HttpError(429, TOO_SOON, wait);
  if (outcome === 'address_busy') return tooManyRequests(ADDRESS_BUSY, wait);
  return tooManyRequests(TOO_MANY, wait);
}

export const authRoutes = new Hono()
  // Same answer whether or not an account exists: no account enumeration.
  .post('/auth/send-otp', async (c) => {
    const { email, device } = await parseBody(c, sendOtpBody);
    const code = generateSignInCode();
    const [codeHash, limits, device_] = await Promise.all([hashSignInCode(email, code), mailLimits(c, email), deviceHash(device)]);
    // One transaction: the per-address and per-device checks first (a refusal
    // counts nothing), then the address's budget and the request's network
    // and site, counted only for a code that is sent (private.issue_sign_in_code).
    const { outcome, retryAfter } = await withRequest({}, async (tx) => {
      const [row] = await tx<{ outcome: string; retryAfter: number | null }[]>`
        select outcome, retry_after as "retryAfter"
          from private.issue_sign_in_code(${email}, ${device_}, ${codeHash}, ${limits.address}::text::jsonb, ${limits.network}::text::jsonb)`;
      // Sent before COMMIT on purpose: if SMTP fails, the 502 rolls back the new
      // code and every count, so the user can retry at once and no code that
      // nobody received stays valid (the device's previous one stays as it was).
      if (row.outcome === 'ok') await sendSignInCode(email, code);
      return row;
    });
    if (outcome !== 'ok') throw refusedSend(outcome, retryAfter);
    return c.body(null, 204);
  })

  .post('/auth/verify-otp', async (c) => {
    const { email, code, device } = await parseBody(c, verifyOtpBody);
    const [codeHash, device_] = await Promise.all([hashSignInCode(email, code), deviceHash(device)]);
    // A wrong code must COMMIT (it counts a try, the code dies at 5), so the
    // 400 is thrown after the transaction, not inside it. A right one starts
    // a session (app.sessions), which the token names. Only the code this
    // device asked for is compared. Wrong codes count per network and site;
    // while one is full the code is not even compared (429).
    const guesses = guessLimits(c);
    const session = await withRequest({}, async (tx) => {
      const [row] = await tx<{ userId: string | null; sessionId: string | null }[]>`
        select user_id as "userId", session_id as "sessionId"
          from private.sign_in_with_code(${email}, ${device_}, ${codeHash}, ${guesses}::text::jsonb)`;
      return row;
    });
    if (!session?.userId || !session.sessionId) throw new HttpError(400, INVALID_CODE);
    return c.json({ token: await signSessionToken(session.userId, session.sessionId) });
  })

  // Ends this device's session on the server: its token is refused from now
  // on (401), wherever a copy of it is.
  .post('/auth/sign-out', async (c) => {
    const userId = await requireUserId(c);
    await withRequest({ userId }, (tx) => tx`delete from app.sessions where id = private.claimed_session_id()`);
    return c.body(null, 204);
  })

  // "Sign out everywhere": every session of the user ends, this one too, and
  // with them every device's notifications for the account (a lost phone);
  // no device keeps a sign-in budget of its own (app.sign_in_devices), and
  // the calendar feed's URL stops too (private.sign_out_everywhere).
  .post('/auth/sign-out-everywhere', async (c) => {
    const userId = await requireUserId(c);
    await requestRow({ userId }, (tx) => tx`select private.sign_out_everywhere()`);
    return c.body(null, 204);
  })

  // Deleting the account (docs/decisions/0081-deleting-an-account.md): the
  // person leaves every plan (hosting handed over, or the plan deleted when
  // no one else in it has an account), what they wrote stays signed "Deleted
  // account", and everything else of theirs goes (private.delete_account).
  // This token and every other of the account are 401 from now on.
  .delete('/auth/account', async (c) => {
    const userId = await requireUserId(c);
    await requestRow({ userId }, (tx) => tx`select private.delete_account()`);
    return c.body(null, 204);
  })

  .get('/auth/me', async (c) => {
    const userId = await requireUserId(c);
    const user = await withRequest({ userId }, (tx) => findUser(tx, userId));
    // A valid token for an account that no longer exists is a dead session.
    if (!user) throw new HttpError(401, messages.sessionExpired);
    return c.json(user);
  })

  // Names change at once. A new e-mail does not: a code goes to the new
  // address (limits as for sign-in codes, per account) and the change waits
  // for POST /confirm-email. The answer is the same whether or not another
  // account has that address (no enumeration): the user as stored, plus
  // `pendingEmail`, the address the code went to (null when none was sent:
  // no e-mail in the body, or the account's own address).
  .patch('/auth/profile', async (c) => {
    const userId = await requireUserId(c);
    const { firstName, lastName, email } = await parseBody(c, updateProfileBody);
    const changes: Record<string, string | null> = {};
    if (firstName !== undefined) changes.first_name = firstName;
    if (lastName !== undefined) changes.last_name = lastName;
    const code = email === undefined ? null : generateSignInCode();
    const [codeHash, limits] = await Promise.all([
      code === null ? null : hashEmailChangeCode(userId, code),
      email === undefined ? null : mailLimits(c, email),
    ]);
    const answer = await withRequest({ userId }, async (tx): Promise<ProfileUpdate | undefined> => {
      const user =
        Object.keys(changes).length === 0
          ? await findUser(tx, userId)
          : (
              await tx<User[]>`
                update app.users set ${tx(changes)} where id = ${userId}::uuid
                returning id, email, first_name as "firstName", last_name as "lastName"`
            )[0];
      if (!user) return undefined;
      if (email === undefined || code === null || limits === null) return { ...user, pendingEmail: null };
      // The account's limits first, then the new address's budget and the
      // request's network and site, counted only for a code that is sent,
      // like a sign-in code's (private.request_email_change).
      const [{ outcome, retryAfter }] = await tx<{ outcome: string; retryAfter: number | null }[]>`
        select outcome, retry_after as "retryAfter"
          from private.request_email_change(${email}, ${codeHash}, ${limits.address}::text::jsonb, ${limits.network}::text::jsonb)`;
      if (outcome === 'same') return { ...user, pendingEmail: null };
      // A refusal rolls the names back too: the request changes nothing.
      if (outcome !== 'ok') throw refusedSend(outcome, retryAfter);
      // Before COMMIT, as for sign-in codes: an SMTP failure (502) rolls the
      // new code and its count back (and the name changes with them).
      await sendEmailChangeCode(email, code);
      return { ...user, pendingEmail: email };
    });
    // A valid token for an account that no longer exists is a dead session.
    if (!answer) throw new HttpError(401, messages.sessionExpired);
    return c.json(answer);
  })

  // Completes a pending e-mail change with the code mailed to the new address.
  // A wrong code counts a try (COMMITTED, so the 400 is thrown after the
  // transaction) and the 5th kills it; a right one moves the account, or is
  // 409 when another account has the address (only now, to whoever reads
  // that mailbox), and ends every other session of the user.
  .post('/auth/confirm-email', async (c) => {
    const userId = await requireUserId(c);
    const { code } = await parseBody(c, confirmEmailBody);
    const codeHash = await hashEmailChangeCode(userId, code);
    // Wrong codes count like sign-in codes, and per account.
    const guesses = guessLimits(c, `u:${userId}`);
    const undoToken = newSecretToken();
    const undoHash = await sha256Hex(undoToken);
    const { outcome, user } = await withRequest({ userId }, async (tx) => {
      const [{ outcome, oldEmail }] = await tx<{ outcome: string; oldEmail: string | null }[]>`
        select outcome, old_email as "oldEmail"
          from private.confirm_email_change(${codeHash}, ${guesses}::text::jsonb, ${undoHash})`;
      if (outcome !== 'changed' || !oldEmail) return { outcome, user: undefined };
      const user = await findUser(tx, userId);
      // Before COMMIT, as for codes: the old address is told, with the link
      // that undoes the change, or the change rolls back (502).
      if (user) await sendEmailChangedNotice(oldEmail, user.email, undoEmailChangeUrl(undoToken));
      return { outcome, user };
    });
    if (outcome === 'invalid') throw new HttpError(400, INVALID_CODE);
    if (outcome === 'taken') throw new HttpError(409, EMAIL_TAKEN);
    if (outcome !== 'changed' || !user) throw new Error(`confirm_email_change answered ${outcome}`);
    return c.json(user);
  })

  // The link mailed to the old address after a change (its token is in the
  // URL's fragment, which the page posts here): the old address comes back,
  // every session of the account ends, the link is used up.
  .post('/auth/undo-email-change', async (c) => {
    const { token } = await parseBody(c, undoEmailChangeBody);
    const tokenHash = await sha256Hex(token);
    const [row] = await withRequest({}, (tx) => tx<{ outcome: string; email: string | null }[]>`
      select outcome, email from private.undo_email_change(${tokenHash})`);
    if (row.outcome === 'taken') throw new HttpError(409, EMAIL_TAKEN);
    if (row.outcome !== 'undone' || !row.email) throw new HttpError(400, UNDO_LINK_INVALID);
    const answer: UndoEmailChangeResult = { email: row.email };
    return c.json(answer);
  });
