import { z } from 'zod/mini';

const name = (label: string) => z.string().check(z.trim(), z.maxLength(80, { error: `${label} is too long` }));

export const profileFormSchema = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  // Spec §5: required, of e-mail type.
  email: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Enter your email address' }),
      z.regex(z.regexes.email, { error: 'Enter a valid email address' }),
    ),
});
export type ProfileInput = z.infer<typeof profileFormSchema>;
