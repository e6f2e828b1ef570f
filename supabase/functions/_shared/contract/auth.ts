// The auth endpoints' answers (spec §3, §7; docs/api-accounts.md "Auth").
import { z } from 'zod/mini';

export { SIGN_IN_CODE_LENGTH } from './common.ts';

/** The fields of GET /api/auth/me's user (the profile's answer adds to them). */
const userShape = () => ({
  id: z.string(),
  email: z.string(),
  firstName: z.nullish(z.string()),
  lastName: z.nullish(z.string()),
});
export const userSchema = z.lazy(() => z.object(userShape()));
export type User = z.infer<typeof userSchema>;

/**
 * PATCH /api/auth/profile answers the user as stored (the e-mail unchanged
 * until confirmed) and the address a code was just sent to, else null.
 */
export const profileUpdateSchema = z.lazy(() => z.object({ ...userShape(), pendingEmail: z.nullish(z.string()) }));
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** POST /api/auth/verify-otp (and the other answers that sign in): the session's token. */
export const tokenSchema = z.lazy(() => z.object({ token: z.string().check(z.minLength(1)) }));
export type Token = z.infer<typeof tokenSchema>;

/** The undo link's token is malformed, unknown, used or expired (400). */
export const UNDO_LINK_INVALID = 'This link has expired or was already used';

/** POST /api/auth/undo-email-change: the address the account uses again. */
export const undoEmailChangeResultSchema = z.lazy(() => z.object({ email: z.string() }));
export type UndoEmailChangeResult = z.infer<typeof undoEmailChangeResultSchema>;
