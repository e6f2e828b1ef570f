import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '../../lib/api';
import { participantListSchema, planSchema, planSummaryListSchema } from './schema';

// Keys are API paths: the default query function GETs the key joined by '/'.
// Everything about one plan sits under `detail(id)`, so removing that key
// forgets the plan and its sub-resources together.
export const planKeys = {
  all: ['/api/plans'] as const,
  lists: () => [...planKeys.all] as const,
  // Encoded: the key becomes the request path, so an id from the URL can never
  // point the GET elsewhere ('../auth/me').
  detail: (id: string) => [...planKeys.all, encodeURIComponent(id)] as const,
  participants: (id: string) => [...planKeys.detail(id), 'participants'] as const,
  bySlug: (slug: string) => [...planKeys.all, 'slug', encodeURIComponent(slug)] as const,
};

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

/** The signed-in user's plans, in the server's order (spec §4). */
export function planListQueryOptions() {
  return queryOptions({
    queryKey: planKeys.lists(),
    queryFn: async (context) => planSummaryListSchema.parse(await fetchJson(context)),
  });
}

export function planDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: planKeys.detail(id),
    queryFn: async (context) => planSchema.parse(await fetchJson(context)),
  });
}

export function planParticipantsQueryOptions(id: string) {
  return queryOptions({
    queryKey: planKeys.participants(id),
    queryFn: async (context) => participantListSchema.parse(await fetchJson(context)),
  });
}

/** The plan a public link names (GET /api/plans/slug/{slug}); 404 → error "404: Plan not found". */
export function planBySlugQueryOptions(slug: string) {
  return queryOptions({
    queryKey: planKeys.bySlug(slug),
    queryFn: async (context) => planSchema.parse(await fetchJson(context)),
  });
}
