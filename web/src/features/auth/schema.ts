import { z } from 'zod/mini';

// The sign-in form's own check (the API's answers are the contract's:
// supabase/functions/_shared/contract/auth.ts). Built on first use (z.lazy):
// the entry carries this module (docs/performance.md).
const emailSchema = z.lazy(() => z.email());

type EmailCheck = { ok: true; email: string } | { ok: false; error: string };

/** Trims, then checks. Spec §5: an empty e-mail is never sent. */
export function checkEmail(raw: string): EmailCheck {
  const email = raw.trim();
  if (!email) return { ok: false, error: 'Enter your email address' };
  const parsed = emailSchema.safeParse(email);
  return parsed.success ? { ok: true, email } : { ok: false, error: 'Enter a valid email address' };
}
