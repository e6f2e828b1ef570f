import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { ideaKeys } from '../../lib/query-keys';
import { activitySuggestionsSchema, ideaCommentListSchema, ideaListSchema, voterListSchema } from '../../../../supabase/functions/_shared/contract/ideas';

// A plan's ideas, suggestions and each idea's comments and voters sit under
// `ideaKeys.all(planId)`, inside the plan's prefix (forgetting the plan forgets them).
export { ideaKeys };

/** Spec §7: comments are cached for 5 minutes. */
const COMMENTS_STALE_TIME = 5 * 60 * 1000;

/** GET /api/plans/{id}/ideas (most votes first), with ?guestId= for a guest's own flags. */
export function ideaListQueryOptions(planId: string, guestId: string | null) {
  return queryOptions({
    queryKey: ideaKeys.list(planId, guestId),
    queryFn: apiGet(apiPaths.ideas(planId, guestId), (body) => ideaListSchema.parse(body)),
  });
}

export function ideaCommentsQueryOptions(planId: string, ideaId: string) {
  return queryOptions({
    queryKey: ideaKeys.comments(planId, ideaId),
    queryFn: apiGet(apiPaths.idea(ideaId, 'comments'), (body) => ideaCommentListSchema.parse(body)),
    staleTime: COMMENTS_STALE_TIME,
  });
}

export function ideaVotersQueryOptions(planId: string, ideaId: string) {
  return queryOptions({
    queryKey: ideaKeys.voters(planId, ideaId),
    queryFn: apiGet(apiPaths.idea(ideaId, 'voters'), (body) => voterListSchema.parse(body)),
  });
}

export function activitySuggestionsQueryOptions(planId: string) {
  return queryOptions({
    queryKey: ideaKeys.suggestions(planId),
    queryFn: apiGet(apiPaths.activitySuggestions(planId), (body) => activitySuggestionsSchema.parse(body).suggestions),
    retry: false,
  });
}

/** Every ideas list of the plan, and its suggestions (they exclude existing ideas). */
export function refreshIdeas(queryClient: QueryClient, planId: string) {
  void queryClient.invalidateQueries({ queryKey: ideaKeys.suggestions(planId) });
  return queryClient.invalidateQueries({ queryKey: ideaKeys.lists(planId) });
}

/** After a comment was added or deleted: the idea's thread, and the lists (their comment counts). */
export function refreshComments(queryClient: QueryClient, planId: string, ideaId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ideaKeys.comments(planId, ideaId) }),
    queryClient.invalidateQueries({ queryKey: ideaKeys.lists(planId) }),
  ]);
}
