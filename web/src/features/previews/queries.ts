import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { previewKeys } from '../../lib/query-keys';
import { linkPreviewSchema } from '../../../../supabase/functions/_shared/contract/previews';

/**
 * The card a chat shows for the plan's link (GET /api/plans/slug/{slug}/preview,
 * docs/api.md "Link previews"). Kept under the plan's id, so its live changes
 * read it again (an ETag of the plan version: mostly a 304).
 */
export function linkPreviewQueryOptions(planId: string, slug: string) {
  return queryOptions({
    queryKey: previewKeys.card(planId, slug),
    queryFn: apiGet(apiPaths.linkPreview(slug), (body) => linkPreviewSchema.parse(body)),
  });
}
