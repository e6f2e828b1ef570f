import { z } from 'zod/mini';

// Parsed once at load so a misconfigured build fails loudly instead of calling
// the wrong server. zod/mini: the same zod, a fraction of the bundle.
const optionalSetting = <T extends z.core.SomeType>(schema: T) => z.optional(z.union([z.literal(''), schema]));

const envSchema = z.object({
  // Empty: the API is served on the app's own origin under /api (spec §7).
  VITE_API_BASE_URL: z._default(z.union([z.literal(''), z.url({ protocol: /^https?$/ })]), ''),
  // Both set: live updates ride Supabase Realtime instead of the API's event
  // stream (docs/live-updates.md). Optional; empty means unset.
  VITE_SUPABASE_URL: optionalSetting(z.url({ protocol: /^https?$/ })),
  VITE_SUPABASE_ANON_KEY: optionalSetting(z.string()),
});

const parsed = envSchema.parse(import.meta.env);

export const env = {
  apiBaseUrl: parsed.VITE_API_BASE_URL.replace(/\/+$/, ''),
  supabase:
    parsed.VITE_SUPABASE_URL && parsed.VITE_SUPABASE_ANON_KEY
      ? { url: parsed.VITE_SUPABASE_URL.replace(/\/+$/, ''), anonKey: parsed.VITE_SUPABASE_ANON_KEY }
      : null,
} as const;
