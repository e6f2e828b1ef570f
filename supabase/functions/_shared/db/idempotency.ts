// The Idempotency-Key of a request (docs/offline.md "Idempotency keys"; decision
// 0068): checked at the edge, and turned into what the database keeps with
// it, the request's fingerprint (its method, path and body). A route that
// honours keys passes `idempotencyKey: await idempotencyKeyOf(c)` to
// requestRow (_shared/db/client.ts), which claims the key, runs the route's
// statement or replays the stored answer, in the request's one round trip.
import type { Context } from 'hono';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_INVALID, isIdempotencyKey } from '../contract/idempotency.ts';
import { sha256Hex } from './client.ts';
import { HttpError } from '../http/errors.ts';

/** A request's key, with the fingerprint of what it asks (a repeat must ask the same). */
export interface IdempotencyKey {
  key: string;
  /** Lower-case hex SHA-256 of the method, the path and the body (canonical JSON). */
  fingerprint: string;
}

/**
 * JSON text with every object's keys sorted, so that a body sent again with
 * its keys in another order or other spacing is the same request.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The body as the fingerprint sees it: canonical JSON, an empty body as `{}`. */
export function canonicalBody(raw: string): string {
  if (!raw.trim()) return '{}';
  try {
    return canonicalJson(JSON.parse(raw));
  } catch {
    // Routes parse the body before they ask for the key; kept as sent anyway.
    return raw;
  }
}

/** The fingerprint of a request: what a repeat with the same key must ask again. */
export function requestFingerprint(method: string, path: string, rawBody: string): Promise<string> {
  return sha256Hex(`${method.toUpperCase()} ${path}\n${canonicalBody(rawBody)}`);
}

/**
 * The request's Idempotency-Key, or null when it sent none. A header that is
 * not a key (empty, too short or long, other characters) is 400 with one
 * sentence, before the database is reached.
 */
export async function idempotencyKeyOf(c: Context): Promise<IdempotencyKey | null> {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER);
  if (key === undefined) return null;
  if (!isIdempotencyKey(key)) throw new HttpError(400, IDEMPOTENCY_KEY_INVALID);
  return { key, fingerprint: await requestFingerprint(c.req.method, c.req.path, await c.req.text()) };
}
