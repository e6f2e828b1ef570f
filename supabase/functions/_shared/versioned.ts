// Cheap refetches (docs/decisions.md "Live updates"): a plan read answers with
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
import type { Tx } from './db.ts';

type Fragment = ReturnType<Tx['unsafe']>;

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

/** The select list of a versioned read: `version` and, only when stale, `body`. */
export function versionedColumns(tx: Tx, known: string | null, body: Fragment, versionColumn = tx`pv.version`): Fragment {
  return tx`${versionColumn}::text as version,
            case when ${versionColumn} is distinct from ${known}::bigint then (${body}) end as body`;
}

export interface VersionedRow<T> {
  version: string;
  body: T | null;
}

/**
 * 304 when the client's copy is current, else the JSON; both carry the ETag.
 * no-store: the app keeps its own copy (TanStack Query) and revalidates it
 * with If-None-Match; no browser or proxy cache keeps plan data on disk.
 */
export function versionedJson<T>(c: Context, row: VersionedRow<T>, viewer: string | null = null, map?: (body: T) => unknown) {
  const etag = planEtag(row.version, viewer);
  c.header('ETag', etag);
  c.header('Cache-Control', 'no-store');
  if (row.body === null) return c.body(null, 304);
  return c.json(map ? map(row.body) : row.body);
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
