// The answer public/shell.js asked for before the app's code had loaded (the
// join page's plan, signed out): the app's own first request for that URL
// takes it over instead of asking again (docs/web-app.md "First paint").
import { GUEST_SECRET_HEADER } from '../../../supabase/functions/_shared/contract/guest-secret';

interface EarlyAnswer {
  url: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    hangplanEarlyAnswer?: EarlyAnswer;
  }
}

/** Headers shell.js's request did not send: a request with any of them must be its own. */
const OWN_REQUEST_HEADERS = ['Authorization', 'If-None-Match', GUEST_SECRET_HEADER];

/**
 * The early answer for a GET of `url` with `headers`. Only the app's first
 * request for that URL may take it (later ones, a refetch, ask the server),
 * and only when it asks as shell.js did: not when it sends a token, a guest
 * secret or a cached version (the visitor signed in meanwhile), which the
 * answer could not stand for. Undefined otherwise.
 */
export function takeEarlyAnswer(url: string, headers: Headers): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : window.hangplanEarlyAnswer;
  if (!early || early.url !== url) return undefined;
  delete window.hangplanEarlyAnswer;
  if (OWN_REQUEST_HEADERS.some((name) => headers.has(name))) return undefined;
  return early.response;
}
