// Cheap refetches (docs/live-updates.md): a plan read answers with
// an ETag made of the plan's version (app.plan_versions), plus a tag of the
// viewer where the answer depends on who asks, and 304 to a matching
// If-None-Match. The version check and the body are ONE statement:
//
//   select pv.version::text as version,
//          case when pv.version is distinct from $known then (<body>) end as body
//     from app.plans p join app.plan_versions pv on pv.plan_id = p.id ...
//
// PostgreSQL evaluates a CASE branch only when it is taken, so an unchanged
// plan costs one indexed lookup and the body is never built.
import type { Context } from 'hono';
import type { Tx } from './client.ts';
import { RecentMap } from './recent-map.ts';
import type { Fragment } from './sql.ts';

/** FNV-1a, 32 bits: tells viewers apart in an ETag (not a secret, only a discriminator). */
function viewerTag(viewer: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < viewer.length; i++) {
    hash ^= viewer.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** Who asks, for reads whose answer depends on it (hasUserVoted, my-votes). */
export function viewerOf(userId: string | null | undefined, guestId: string | null | undefined): string | null {
  if (userId) return `u:${userId.toLowerCase()}`;
  if (guestId) return `g:${guestId.toLowerCase()}`;
  return null;
}

/** W/"v12", or W/"v12.1a2b3c4d" for a viewer-dependent answer. */
export function planEtag(version: string, viewer: string | null = null): string {
  return `W/"v${version}${viewer ? `.${viewerTag(viewer)}` : ''}"`;
}

const OUR_TAG = /^(?:W\/)?"v(\d{1,18})(?:\.([0-9a-f]{8}))?"$/;

/**
 * The version the client already holds for this viewer, from If-None-Match,
 * or null (no header, someone else's tag, or not one of ours).
 */
export function knownVersion(c: Context, viewer: string | null = null): string | null {
  const header = c.req.header('if-none-match');
  if (!header) return null;
  const wanted = viewer ? viewerTag(viewer) : undefined;
  for (const candidate of header.split(',')) {
    const match = OUR_TAG.exec(candidate.trim());
    if (match && match[2] === wanted) return match[1];
  }
  return null;
}

/**
 * The select list of a versioned read: `version` and, only when stale, `body`
 * as JSON text (handed on as it is: never parsed and serialized again).
 */
export function versionedColumns(tx: Tx, known: string | null, body: Fragment, versionColumn = tx`pv.version`): Fragment {
  return tx`${versionColumn}::text as version,
            case when ${versionColumn} is distinct from ${known}::bigint then (${body})::text end as body`;
}

export interface VersionedRow {
  version: string;
  /** JSON text; null when the version is the `known` one. */
  body: string | null;
}

// ---------------------------------------------------------------------------
// This instance's copies of plan reads
// ---------------------------------------------------------------------------
// What a plan read answers is the same for everyone who may read the plan
// (RLS shows them the same rows; the parts that depend on who asks are added
// per request), and it changes only with the plan's version. So an instance
// keeps the last body it built per read and plan, and the statement is asked
// to build the body only when the version has moved on since: otherwise it
// only checks, under the caller's claims, that the plan is visible and at
// that version (one indexed lookup). Bounded: the least recently used go first.

interface Copy {
  version: string;
  prepared: unknown;
}

// Bounded by count and by size (the JSON text's length, about its memory):
// 2,000 reads and 16 MB. A body over 256 KB (a plan of hundreds of ideas, an
// idea with 500 long comments) is not kept at all: it is rare, and keeping it
// would push out hundreds of small ones.
const COPY_BUDGET_CHARS = 16 * 1024 * 1024;
export const LARGEST_COPY_CHARS = 256 * 1024;
const copies = new RecentMap<string, Copy>(2000, COPY_BUDGET_CHARS);

/** Forget every copy (tests). */
export function forgetCopies(): void {
  copies.clear();
}

interface VersionedRead<R extends VersionedRow, P> {
  /** What the read is, e.g. `ideas:<plan id>` (shared by every reader of the plan). */
  key: string;
  /** Who asks, when the answer depends on it (it goes into the ETag). */
  viewer?: string | null;
  /** The ONE statement: builds the body only when the plan's version is not `known`. */
  query: (known: string | null) => Promise<R | undefined>;
  /** Turn a freshly built body into what is kept (e.g. sorted, split per idea). */
  prepare?: (text: string) => P;
  /** The answer's text from what is kept and this request's row (e.g. the viewer's own votes). */
  render?: (prepared: P, row: R) => string;
  /** Reads whose "version" is not a plan's (the home list's hash): their ETag and what the client holds. */
  etag?: (version: string) => string;
  client?: string | null;
}

/**
 * A plan read: `undefined` when the caller cannot read it (the route answers
 * 404), a 304 when the client's If-None-Match names the current version (for
 * this viewer), else the JSON. Both carry the ETag. no-store: the app keeps
 * its own copy (TanStack Query) and revalidates it with If-None-Match; no
 * browser or proxy cache keeps plan data on disk.
 */
export async function versionedRead<R extends VersionedRow, P = string>(
  c: Context,
  read: VersionedRead<R, P>,
): Promise<Response | undefined> {
  const viewer = read.viewer ?? null;
  const client = read.etag ? (read.client ?? null) : knownVersion(c, viewer);
  const copy = copies.get(read.key);
  const row = await read.query(copy?.version ?? client);
  if (!row) return undefined;
  c.header('ETag', read.etag ? read.etag(row.version) : planEtag(row.version, viewer));
  c.header('Cache-Control', 'no-store');
  let prepared: P;
  if (row.body !== null) {
    prepared = read.prepare ? read.prepare(row.body) : (row.body as unknown as P);
    if (row.body.length <= LARGEST_COPY_CHARS) copies.set(read.key, { version: row.version, prepared }, row.body.length);
    else copies.delete(read.key);
  } else if (copy && copy.version === row.version) {
    prepared = copy.prepared as P;
  } else {
    // Not built because the client's version is current (no copy here yet).
    return c.body(null, 304);
  }
  if (client === row.version) return c.body(null, 304);
  const text = read.render ? read.render(prepared, row) : (prepared as unknown as string);
  return c.body(text, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
}

/** The home list's ETag: a hash the statement computes over its plans' ids and versions. */
export function listEtag(hash: string): string {
  return `W/"l${hash}"`;
}

/** The list hash the client holds, from If-None-Match, or null. */
export function knownListHash(c: Context): string | null {
  const header = c.req.header('if-none-match');
  const match = header && /(?:^|,)\s*(?:W\/)?"l([0-9a-f]{32})"/.exec(header);
  return match ? match[1] : null;
}
