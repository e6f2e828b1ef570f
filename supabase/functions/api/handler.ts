// The function's request handler. Locally the function is served under
// /functions/v1/api/... (like `supabase functions serve`); hosted Supabase
// hands it /api/.... Strip the prefix so one router serves both.
import type { ConnectionInfo } from '../_shared/client-ip.ts';
import { app } from './app.ts';

const FUNCTIONS_PREFIX = '/functions/v1';

export function stripFunctionsPrefix(pathname: string): string {
  if (pathname === FUNCTIONS_PREFIX) return '/';
  return pathname.startsWith(`${FUNCTIONS_PREFIX}/`) ? pathname.slice(FUNCTIONS_PREFIX.length) : pathname;
}

/** What Deno.serve passes as the handler's second argument (the part we read). */
export interface ServeInfo {
  remoteAddr?: { hostname?: string };
}

/**
 * The socket address reaches the routes as Hono's `env` (`c.env.remoteAddress`,
 * _shared/client-ip.ts): the client's address when nothing proxies the
 * function, else the proxy's (then the forwarding header names the client).
 */
export function handler(request: Request, info?: ServeInfo): Response | Promise<Response> {
  const env: ConnectionInfo = { remoteAddress: info?.remoteAddr?.hostname };
  const url = new URL(request.url);
  const pathname = stripFunctionsPrefix(url.pathname);
  if (pathname === url.pathname) return app.fetch(request, env);
  url.pathname = pathname;
  // A fresh init rather than `new Request(url, request)`: copying the request
  // would also subscribe to its abort signal, which nothing here uses.
  const init = { method: request.method, headers: request.headers, body: request.body, duplex: 'half' };
  return app.fetch(new Request(url, init as RequestInit), env);
}
