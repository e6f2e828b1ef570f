// GET /api/plans/slug/{slug}/preview.png: the plan's link-preview picture
// (docs/api.md "Link previews", docs/decisions/0106-the-picture.md). Public
// like the slug and the same for everyone, so it is read as anon (no
// Authorization is looked at) and kept per slug and version by this instance.
// One round trip: the card's statement checks the version and builds the
// facts only when the copy here is not of the current version.
import type { Context } from 'hono';
import { PLAN_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { PICTURE_NOT_DRAWN } from '../../../_shared/contract/previews.ts';
import { requestRow } from '../../../_shared/db/client.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { planSlugParam } from '../../../_shared/http/params.ts';
import { type PreviewBody, previewOf, type PreviewRow, previewStatement } from './card.ts';
import { drawPicture } from './draw.ts';
import { PictureCache } from './picture-cache.ts';
import { GENERIC_PICTURE, type PictureText, pictureText } from './picture-text.ts';

/**
 * The drawing's revision, part of the ETag: a change of the drawing (layout,
 * fonts) makes every cached picture stale although no plan moved.
 */
export const PICTURE_REVISION = 1;

/**
 * Chat services and CDNs may keep a picture 5 minutes and serve it stale for
 * a day while they ask again (the og:image URL carries the version, so a plan
 * that moved is a new URL anyway; a plan whose host turned details off drops
 * out of shared caches within 5 minutes of their next request).
 */
export const PICTURE_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';

/** 64 pictures of about 40-60 KB (at most 16 MB of the instance's 256 MB, whatever their size). */
const HELD_PICTURES = 64;
const HELD_BYTES = 16 * 1024 * 1024;

let generic: Promise<Uint8Array> | undefined;

/** The generic picture is the same for every plan: drawn once per instance. */
function draw(text: PictureText): Promise<Uint8Array> {
  if (text !== GENERIC_PICTURE) return drawPicture(text);
  generic ??= drawPicture(text).catch((error) => {
    generic = undefined;
    throw error;
  });
  return generic;
}

export const pictures = new PictureCache<PictureText>(draw, HELD_PICTURES, HELD_BYTES);

/** "v12-p1": the plan's version and the drawing's revision. */
export function pictureEtag(version: string): string {
  return `"v${version}-p${PICTURE_REVISION}"`;
}

/** True when If-None-Match names this ETag (weak or strong) or is `*`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** The picture's answer: the PNG, or 304 when the client holds this version. */
function answer(c: Context, version: string, png: Uint8Array | (() => Promise<Uint8Array>)) {
  const etag = pictureEtag(version);
  c.header('ETag', etag);
  c.header('Cache-Control', PICTURE_CACHE_CONTROL);
  // Chat apps and the share page (maybe on another origin) show it in an <img>.
  c.header('Cross-Origin-Resource-Policy', 'cross-origin');
  if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304);
  return (typeof png === 'function' ? png() : Promise.resolve(png)).then((bytes) =>
    c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'image/png' }));
}

export async function previewPicture(c: Context): Promise<Response> {
  const slug = planSlugParam(c.req.param('slug'));
  // A copy confirmed a moment ago, of the version the URL names (picture-cache.ts).
  const fresh = pictures.fresh(slug, c.req.query('v'));
  if (fresh) return await answer(c, fresh.version, fresh.png);
  const held = pictures.held(slug);
  const row = await requestRow({ userId: null, planSlug: slug }, (tx) => previewStatement(tx, slug, held?.version ?? null));
  if (!row) throw new HttpError(404, PLAN_NOT_FOUND);
  if (row.body === null && held) {
    pictures.confirm(held);
    return await answer(c, row.version, held.png);
  }
  return await answer(c, row.version, () => drawn(slug, row));
}

/** The picture of the card the row holds: the copy of this version, the drawing under way, or a new one. */
async function drawn(slug: string, row: PreviewRow): Promise<Uint8Array> {
  const card = previewOf(JSON.parse(row.body!) as PreviewBody, row);
  try {
    return await pictures.picture(slug, row.version, pictureText(card));
  } catch (error) {
    console.error(`Drawing the preview picture of plan version ${row.version} failed:`, error);
    throw new HttpError(503, PICTURE_NOT_DRAWN, 5);
  }
}
