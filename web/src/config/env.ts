import { z } from 'zod/mini';

// Parsed once at load so a misconfigured build fails loudly instead of calling
// the wrong server. zod/mini: the same zod, a fraction of the bundle.
const envSchema = z.object({
  // Empty: the API is served on the app's own origin under /api (spec §7).
  VITE_API_BASE_URL: z._default(z.union([z.literal(''), z.url({ protocol: /^https?$/ })]), ''),
});

const parsed = envSchema.parse(import.meta.env);

export const env = {
  apiBaseUrl: parsed.VITE_API_BASE_URL.replace(/\/+$/, ''),
} as const;
