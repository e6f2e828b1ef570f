import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { interestKeys } from '../../lib/query-keys';
import { catalogSchema, userInterestListSchema } from '../../../../supabase/functions/_shared/contract/interests';

export { interestKeys };

export function interestCatalogQueryOptions() {
  return queryOptions({
    queryKey: interestKeys.catalog(),
    queryFn: apiGet(apiPaths.interestCatalog(), (body) => catalogSchema.parse(body)),
  });
}

/** The signed-in user's interests, oldest first. */
export function myInterestsQueryOptions() {
  return queryOptions({
    queryKey: interestKeys.mine(),
    queryFn: apiGet(apiPaths.myInterests(), (body) => userInterestListSchema.parse(body)),
  });
}
