// The link preview card of a plan, read by its slug (docs/api.md "Link
// previews"): one statement that checks the plan's version and, only when it
// moved, reads the card's facts (private.preview_facts, the previews
// migration). The facts become the card in one place, the contract's
// linkPreviewOf; the route, the picture and the page's head all take it from here.
import type { LinkPreview, PreviewFacts } from '../../../_shared/contract/previews.ts';
import { linkPreviewOf } from '../../../_shared/contract/previews.ts';
import { requestRow, type Tx } from '../../../_shared/db/client.ts';
import { versionedColumns, type VersionedRow } from '../../../_shared/db/versioned.ts';

/** The versioned row: `body` is `{"details": bool, "facts": {...} | null}` as JSON text, or null when `known` is current. */
export interface PreviewRow extends VersionedRow {
  slug: string;
}

/** The ONE statement of a card read by slug (the claims statement turned the slug into the plan_id claim). */
export function previewStatement(tx: Tx, slug: string, known: string | null) {
  return tx<PreviewRow[]>`
    select ${versionedColumns(tx, known, tx`jsonb_build_object(
             'details', p.preview_details,
             'facts', private.preview_facts(p.id))`)},
           p.slug
      from app.plans p join app.plan_versions pv on pv.plan_id = p.id
     where p.slug = ${slug}`;
}

/** What a built body holds: the host's setting and, with details on, the facts. */
export interface PreviewBody {
  details: boolean;
  facts: PreviewFacts | null;
}

/** The card from a body and its row (the version and the slug come with every row). */
export function previewOf(body: PreviewBody, row: Pick<PreviewRow, 'slug' | 'version'>): LinkPreview {
  return linkPreviewOf(row.slug, row.version, body.facts, body.details);
}

/** The card of the plan with this slug under the caller's claims; null: no such plan (or not readable). */
export async function readLinkPreview(slug: string, userId: string | null): Promise<LinkPreview | null> {
  const row = await requestRow({ userId, planSlug: slug }, (tx) => previewStatement(tx, slug, null));
  if (!row?.body) return null;
  return previewOf(JSON.parse(row.body) as PreviewBody, row);
}
