import { z } from 'zod/mini';

// Built on first use (z.lazy), not when the app's code is evaluated: the
// entry carries these modules, and building a zod schema is most of what
// parsing it once costs (docs/performance.md).

/** The fields of GET /api/auth/me's user (profile's answer adds to them). */
export const userShape = () => ({
  id: z.string(),
  email: z.string(),
  firstName: z.nullish(z.string()),
  lastName: z.nullish(z.string()),
});
export const userSchema = z.lazy(() => z.object(userShape()));
export type User = z.infer<typeof userSchema>;

export const authResponseSchema = z.lazy(() => z.object({ token: z.string().check(z.minLength(1)) }));

/** Spec §5 and §9: the code is exactly 6 digits. */
export { SIGN_IN_CODE_LENGTH as CODE_LENGTH } from '../../../../supabase/functions/_shared/contract/common';

const emailSchema = z.lazy(() => z.email());

export type EmailCheck = { ok: true; email: string } | { ok: false; error: string };

/** Trims, then checks. Spec §5: an empty e-mail is never sent. */
export function checkEmail(raw: string): EmailCheck {
  const email = raw.trim();
  if (!email) return { ok: false, error: 'Enter your email address' };
  const parsed = emailSchema.safeParse(email);
  return parsed.success ? { ok: true, email } : { ok: false, error: 'Enter a valid email address' };
}
