import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '../../lib/api';
import { planKeys } from '../plans/queries';
import { activitySuggestionsSchema, ideaCommentListSchema, ideaListSchema, voterListSchema } from './schema';

// A plan's ideas and suggestions sit under the plan's detail key (removing the
// plan forgets them too); an idea's comments and voters under '/api/ideas'.
// Ids are encoded: keys (or the paths built from them) become request paths.
export const ideaKeys = {
  /** Every ideas list of a plan (any `guestId` view): the prefix to invalidate. */
  lists: (planId: string) => [...planKeys.detail(planId), 'ideas'] as const,
  /** hasUserVoted is about the token's user, or about `guestId` without a token. */
  list: (planId: string, guestId: string | null) => [...ideaKeys.lists(planId), { guestId }] as const,
  suggestions: (planId: string) => [...planKeys.detail(planId), 'activity-suggestions'] as const,
  idea: (ideaId: string) => ['/api/ideas', encodeURIComponent(ideaId)] as const,
  comments: (ideaId: string) => [...ideaKeys.idea(ideaId), 'comments'] as const,
  voters: (ideaId: string) => [...ideaKeys.idea(ideaId), 'voters'] as const,
};

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

/** Spec §7: comments are cached for 5 minutes. */
export const COMMENTS_STALE_TIME = 5 * 60 * 1000;

/** GET /api/plans/{id}/ideas (most votes first), with ?guestId= for a guest's own flags. */
export function ideaListQueryOptions(planId: string, guestId: string | null) {
  return queryOptions({
    queryKey: ideaKeys.list(planId, guestId),
    queryFn: async (context) => {
      const path = `${ideaKeys.lists(planId).join('/')}${guestId ? `?guestId=${encodeURIComponent(guestId)}` : ''}`;
      return ideaListSchema.parse(await fetchJson({ ...context, queryKey: [path] }));
    },
  });
}

export function ideaCommentsQueryOptions(ideaId: string) {
  return queryOptions({
    queryKey: ideaKeys.comments(ideaId),
    queryFn: async (context) => ideaCommentListSchema.parse(await fetchJson(context)),
    staleTime: COMMENTS_STALE_TIME,
  });
}

export function ideaVotersQueryOptions(ideaId: string) {
  return queryOptions({
    queryKey: ideaKeys.voters(ideaId),
    queryFn: async (context) => voterListSchema.parse(await fetchJson(context)),
  });
}

export function activitySuggestionsQueryOptions(planId: string) {
  return queryOptions({
    queryKey: ideaKeys.suggestions(planId),
    queryFn: async (context) => activitySuggestionsSchema.parse(await fetchJson(context)).suggestions,
    retry: false,
  });
}
