import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '../../lib/api';
import { ApiError } from '../../lib/api-error';
import { planSummaryListSchema, type PlanSummary } from './schema';

// Keys are API paths: the default query function GETs the key joined by '/'.
// Invalidating `all` refreshes the list and every plan below it.
export const planKeys = {
  all: ['/api/plans'] as const,
  lists: () => [...planKeys.all] as const,
  detail: (id: string) => [...planKeys.all, id] as const,
};

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

export function planListQueryOptions() {
  return queryOptions({
    queryKey: planKeys.lists(),
    queryFn: async (context): Promise<PlanSummary[]> => {
      try {
        return planSummaryListSchema.parse(await fetchJson(context));
      } catch (error) {
        // TEMPORARY until the plans API ships: the route does not exist yet and
        // answers 404, which means "no plans" for now. A list route that exists
        // never answers 404, so this is safe to leave until then.
        if (error instanceof ApiError && error.status === 404) return [];
        throw error;
      }
    },
  });
}
