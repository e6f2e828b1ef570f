// Idempotency keys (docs/offline.md "Idempotency keys"; decision 0068): the
// header the web app sends with a vote or a comment it may have to send again
// (queued while offline, retried after a lost answer), the header a replayed
// answer carries, the key's shape and lifetime, and the two refusals. No
// imports: the web app and its service worker use this file too. The
// database keeps the same shape, lifetime and 422 sentence
// (private.claim_idempotency_key, 20261126090019_idempotency.sql).

/** Request header naming one action of one caller: a random UUID from the web app. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Response header of an answer that was stored by an earlier request with the same key (value `true`). */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** A key: 8 to 100 letters, digits, hyphens or underscores (a UUID is 36). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

/** How long a stored answer is kept: a repeat after this runs afresh. */
export const IDEMPOTENCY_KEY_LIFETIME_DAYS = 7;

/** 400: the header is present but not a key. */
export const IDEMPOTENCY_KEY_INVALID = 'Idempotency-Key must be 8 to 100 letters, digits, hyphens or underscores';

/** 422: the caller already used this key for another request (another method, path or body). */
export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for a different request, send a new key';

/** True for a header value the API accepts as a key. */
export function isIdempotencyKey(value: string): boolean {
  return IDEMPOTENCY_KEY_PATTERN.test(value);
}
