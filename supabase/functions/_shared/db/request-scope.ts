// What the API knows about the request being served, for withRequest() to
// find without every handler passing it along: the verified session of the
// token (recorded by optionalUserId/requireUserId in auth/tokens.ts) and the guest
// secret the device sent (header X-Guest-Secret).
//
// withRequest() takes both from here, so a handler that names a user or a
// guest cannot forget the session check or the secret: the claims statement
// always gets them (docs/auth-and-guests.md "Guests", "Members"). It also
// marks an answer replayed from an Idempotency-Key (markReplayed).
// The request is found through Hono's context storage (app.ts installs
// contextStorage(), an AsyncLocalStorage per request).
import type { Context } from 'hono';
import { tryGetContext } from 'hono/context-storage';
import { GUEST_SECRET_HEADER } from '../contract/guest-secret.ts';
import { IDEMPOTENT_REPLAYED_HEADER } from '../contract/idempotency.ts';

export interface VerifiedSession {
  userId: string;
  sessionId: string;
}

interface RequestScope {
  session?: VerifiedSession;
  /** The X-Guest-Secret header as sent; null when absent. */
  guestSecret: string | null;
}

const scopes = new WeakMap<Context, RequestScope>();

/** The scope of the request `c`. */
export function scopeOf(c: Context): RequestScope {
  let scope = scopes.get(c);
  if (!scope) {
    scope = { guestSecret: c.req.header(GUEST_SECRET_HEADER) ?? null };
    scopes.set(c, scope);
  }
  return scope;
}

/** The scope of the request being served, or undefined outside one (tests, background work). */
export function requestScope(): RequestScope | undefined {
  const c = tryGetContext();
  return c ? scopeOf(c) : undefined;
}

/**
 * The answer of the request being served is a replay of one stored under its
 * Idempotency-Key (_shared/db/client.ts requestRow): its response says so.
 */
export function markReplayed(): void {
  tryGetContext()?.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
}
