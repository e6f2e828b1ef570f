// The function's request handler. Locally the function is served under
// /functions/v1/api/... (like `supabase functions serve`); hosted Supabase
// hands it /api/.... Strip the prefix so one router serves both.
import { app } from './app.ts';

const FUNCTIONS_PREFIX = '/functions/v1';

export function stripFunctionsPrefix(pathname: string): string {
  if (pathname === FUNCTIONS_PREFIX) return '/';
  return pathname.startsWith(`${FUNCTIONS_PREFIX}/`) ? pathname.slice(FUNCTIONS_PREFIX.length) : pathname;
}

export function handler(request: Request): Response | Promise<Response> {
  const url = new URL(request.url);
  const pathname = stripFunctionsPrefix(url.pathname);
  if (pathname === url.pathname) return app.fetch(request);
  url.pathname = pathname;
  // A fresh init rather than `new Request(url, request)`: copying the request
  // would also subscribe to its abort signal, which nothing here uses.
  const init = { method: request.method, headers: request.headers, body: request.body, duplex: 'half' };
  return app.fetch(new Request(url, init as RequestInit));
}
