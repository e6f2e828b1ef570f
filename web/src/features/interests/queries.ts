import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '../../lib/api';
import { catalogSchema, userInterestListSchema } from './schema';

// Keys are API paths: the default query function GETs the key joined by '/'.
export const interestKeys = {
  catalog: () => ['/api/interests/catalog'] as const,
  mine: () => ['/api/users/me/interests'] as const,
};

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

export function interestCatalogQueryOptions() {
  return queryOptions({
    queryKey: interestKeys.catalog(),
    queryFn: async (context) => catalogSchema.parse(await fetchJson(context)),
  });
}

/** The signed-in user's interests, oldest first. */
export function myInterestsQueryOptions() {
  return queryOptions({
    queryKey: interestKeys.mine(),
    queryFn: async (context) => userInterestListSchema.parse(await fetchJson(context)),
  });
}
