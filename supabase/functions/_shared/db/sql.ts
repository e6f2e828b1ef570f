// Pieces of SQL that the routes build with the request's `tx` and embed in
// their statements (one statement per request, the JSON built in the
// database): a table alias, checked before it is spliced in, and a timestamp
// as every answer prints it.
import type { Tx } from './client.ts';

/** A piece of SQL built with the request's `tx`, to embed in another query. */
export type Fragment = ReturnType<Tx['unsafe']>;

const ALIAS = /^[a-z_][a-z0-9_]*$/;

/** The table alias as an identifier: tx(name) quotes it; the check keeps callers to plain aliases. */
export function identifier(tx: Tx, alias: string) {
  if (!ALIAS.test(alias)) throw new Error(`Not a table alias: ${alias}`);
  return tx(alias);
}

/**
 * A timestamptz column as ISO 8601 in UTC with milliseconds, exactly what
 * `Date.prototype.toISOString()` prints ('2026-11-21T08:00:00.000Z'), whatever
 * the session's time zone.
 */
export function isoTime(tx: Tx, alias: string, column = 'created_at'): Fragment {
  return tx`to_char(${identifier(tx, alias)}.${tx(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
