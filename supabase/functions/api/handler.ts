// The function's request handler: the API app with the socket's address.
import type { ConnectionInfo } from '../_shared/http/client-ip.ts';
import { app } from './app.ts';

/** What Deno.serve passes as the handler's second argument (the part we read). */
interface ServeInfo {
  remoteAddr?: { hostname?: string };
}

/**
 * The socket address reaches the routes as Hono's `env` (`c.env.remoteAddress`,
 * _shared/http/client-ip.ts): the client's address when nothing proxies the
 * function, else the proxy's (then the forwarding header names the client).
 */
export function handler(request: Request, info?: ServeInfo): Response | Promise<Response> {
  const env: ConnectionInfo = { remoteAddress: info?.remoteAddr?.hostname };
  return app.fetch(request, env);
}
