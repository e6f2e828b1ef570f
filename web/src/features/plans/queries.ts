import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { planKeys } from '../../lib/query-keys';
import {
  participantListSchema,
  type Plan,
  planSchema,
  planSummaryListSchema,
  removalListSchema,
} from '../../../../supabase/functions/_shared/contract/plans';

// Keys live in lib/query-keys (the live updates reach them too): everything
// about one plan sits under `planKeys.plan(id)`.
export { planKeys };

/** The signed-in user's plans, in the server's order (spec §4). */
export function planListQueryOptions() {
  return queryOptions({
    queryKey: planKeys.list(),
    queryFn: apiGet(apiPaths.plans(), (body) => planSummaryListSchema.parse(body)),
  });
}

export function planDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: planKeys.detail(id),
    queryFn: apiGet(apiPaths.plan(id), (body) => planSchema.parse(body)),
  });
}

export function planParticipantsQueryOptions(id: string) {
  return queryOptions({
    queryKey: planKeys.participants(id),
    queryFn: apiGet(apiPaths.participants(id), (body) => participantListSchema.parse(body)),
  });
}

/** The host's list of who was removed from the plan, newest first (docs/decisions/0083-removal-holds.md). */
export function planRemovalsQueryOptions(id: string) {
  return queryOptions({
    queryKey: planKeys.removals(id),
    queryFn: apiGet(apiPaths.removals(id), (body) => removalListSchema.parse(body)),
  });
}

/**
 * A plan read by its public link: its slug is that link's. (Read by id, a
 * plan whose invitations are closed shows its slug only to the host:
 * docs/api.md "Plans".)
 */
export type LinkedPlan = Plan & { slug: string };

/** The plan a public link names (GET /api/plans/slug/{slug}); 404 → error "404: Plan not found". */
export function planBySlugQueryOptions(slug: string) {
  return queryOptions({
    queryKey: planKeys.bySlug(slug),
    queryFn: apiGet(apiPaths.planBySlug(slug), (body): LinkedPlan => ({ ...planSchema.parse(body), slug })),
  });
}

/**
 * Someone joined or was removed: every query of the plan (its count,
 * participants, the visitor's flags on ideas and dates), its read by slug,
 * and the home list.
 */
export function refreshPlanMembership(queryClient: QueryClient, plan: Pick<Plan, 'id' | 'slug'>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: planKeys.list() }),
    queryClient.invalidateQueries({ queryKey: planKeys.plan(plan.id) }),
    plan.slug ? queryClient.invalidateQueries({ queryKey: planKeys.bySlug(plan.slug) }) : undefined,
  ]);
}
