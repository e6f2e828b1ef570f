// Security headers on every answer of the API (docs/security-and-limits.md
// "Headers"), set in ONE middleware that wraps everything else: CORS preflights,
// 413s, 404s, errors, 304s and event streams included.
//
// The API answers JSON, one-sentence text/plain errors and text/event-stream;
// nothing of it is a page, so its policy is the strictest there is: a browser
// that opens an answer directly may load nothing from it, frame it nowhere,
// sniff nothing and send no referrer on from it.
import type { MiddlewareHandler } from 'hono';

export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  // No other site may embed an answer (<img>, <script>); CORS reads are unaffected.
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Answers are personal (the user, their profile, interests and votes, tokens)
 * or per plan, so no browser or proxy may store them: `no-store` unless the
 * route chose its own Cache-Control (plan reads send `no-store` with their
 * ETag themselves; the app keeps its own copy and revalidates it).
 */
const DEFAULT_CACHE_CONTROL = 'no-store';

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const headers = c.res.headers;
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) {
    // The one exception (docs/headers.md): the link-preview picture sets
    // `cross-origin` itself, so chat apps and the share page can show it.
    if (name === 'cross-origin-resource-policy' && headers.get(name) === 'cross-origin' && c.res.headers.get('content-type') === 'image/png') continue;
    headers.set(name, value);
  }
  if (!headers.has('cache-control')) headers.set('cache-control', DEFAULT_CACHE_CONTROL);
};
