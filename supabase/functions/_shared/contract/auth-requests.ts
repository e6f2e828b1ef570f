// The auth endpoints' requests (spec §3, §7; docs/api-accounts.md "Auth").
import { z } from 'zod';
import { SIGN_IN_CODE_LENGTH } from './common.ts';
import { UNDO_LINK_INVALID } from './auth.ts';
import { body, email, optionalText, SECRET_TOKEN_PATTERN } from './fields.ts';

const NAME_MAX = 80;
const CODE_MESSAGE = `Code must be ${SIGN_IN_CODE_LENGTH} digits`;

/**
 * The device's sign-in key (32 random bytes, base64url: lib/sign-in-device.ts
 * makes it once per browser): a code belongs to the key that asked for it,
 * and a key that signed in has a send budget of its own
 * (docs/auth-and-guests.md "Sign-in codes"). Optional: without it a code is
 * shared by every request without one, as the spec's bare `{email}` implies.
 */
export const SIGN_IN_DEVICE_INVALID = 'This browser\'s sign-in key is not valid, please reload the page';
const signInDevice = () =>
  z.string({ error: SIGN_IN_DEVICE_INVALID }).regex(SECRET_TOKEN_PATTERN, SIGN_IN_DEVICE_INVALID).optional();

export const sendOtpBody = body({ email: email(), device: signInDevice() });

const code = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Code is required' : CODE_MESSAGE) })
    .trim()
    .regex(new RegExp(`^\\d{${SIGN_IN_CODE_LENGTH}}$`), CODE_MESSAGE);

export const verifyOtpBody = body({ email: email(), code: code(), device: signInDevice() });

/** POST /api/auth/confirm-email: the code mailed to the new address. */
export const confirmEmailBody = body({ code: code() });

/**
 * PATCH semantics: a field left out keeps its value; a blank or null name
 * clears it. A new e-mail is not set here: it is mailed a code and changes
 * only with POST /api/auth/confirm-email (docs/auth-and-guests.md "Members").
 */
export const updateProfileBody = body({
  firstName: optionalText('First name', { max: NAME_MAX, kind: 'name' }),
  lastName: optionalText('Last name', { max: NAME_MAX, kind: 'name' }),
  email: email().optional(),
});

/**
 * POST /api/auth/undo-email-change: the token of the link mailed to the old
 * address (43 base64url characters). Its shape is checked before anything is
 * hashed or looked up.
 */
export const undoEmailChangeBody = body({
  token: z
    .string({ error: (issue) => (issue.input === undefined ? 'Token is required' : UNDO_LINK_INVALID) })
    .regex(SECRET_TOKEN_PATTERN, UNDO_LINK_INVALID),
});
