import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { dateKeys } from '../../lib/query-keys';
import { myDateAnswersSchema, timeSlotListSchema, voterListSchema } from '../../../../supabase/functions/_shared/contract/dates';

// The dates endpoints' reads (spec §7): the plan's time slots, the caller's own
// votes and a slot's voters, all under `dateKeys.all(planId)` inside the plan's
// prefix, so refreshing or forgetting the plan covers them too.
export { dateKeys };

export function timeSlotsQueryOptions(planId: string) {
  return queryOptions({
    queryKey: dateKeys.timeSlots(planId),
    queryFn: apiGet(apiPaths.timeSlots(planId), (body) => timeSlotListSchema.parse(body)),
  });
}

/**
 * GET /api/plans/{id}/my-votes?answers=true: the visitor's answer on each slot
 * it voted on, and whether it said none of the dates work (a member by token,
 * a guest by ?guestId=).
 */
export function myVotesQueryOptions(planId: string, guestId: string | undefined) {
  return queryOptions({
    queryKey: dateKeys.myVotes(planId, guestId),
    queryFn: apiGet(apiPaths.myVotes(planId, guestId), (body) => myDateAnswersSchema.parse(body)),
  });
}

/** GET /api/timeslots/{id}/voters, first voters first. */
export function slotVotersQueryOptions(planId: string, timeSlotId: string) {
  return queryOptions({
    queryKey: dateKeys.voters(planId, timeSlotId),
    queryFn: apiGet(apiPaths.timeSlot(timeSlotId, 'voters'), (body) => voterListSchema.parse(body)),
  });
}
