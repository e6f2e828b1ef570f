import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiGet } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { dateKeys } from '../../lib/query-keys';
import { voterSchema } from '../../../../supabase/functions/_shared/contract/common';

// The dates endpoints' reads (spec §7): the plan's time slots, the caller's own
// votes and a slot's voters, all under `dateKeys.all(planId)` inside the plan's
// prefix, so refreshing or forgetting the plan covers them too.
export { dateKeys };

export const timeSlotSchema = z.object({
  id: z.string(),
  date: z.string(),
  period: z.nullish(z.string()),
  voteCount: z.number(),
});
export type TimeSlot = z.infer<typeof timeSlotSchema>;

export { voterSchema, type Voter } from '../../../../supabase/functions/_shared/contract/common';

export function timeSlotsQueryOptions(planId: string) {
  return queryOptions({
    queryKey: dateKeys.timeSlots(planId),
    queryFn: apiGet(apiPaths.timeSlots(planId), (body) => z.array(timeSlotSchema).parse(body)),
  });
}

/** GET /api/plans/{id}/my-votes: the slot ids the visitor voted on (a member by token, a guest by ?guestId=). */
export function myVotesQueryOptions(planId: string, guestId: string | undefined) {
  return queryOptions({
    queryKey: dateKeys.myVotes(planId, guestId),
    queryFn: apiGet(apiPaths.myVotes(planId, guestId), (body) => z.array(z.string()).parse(body)),
  });
}

/** GET /api/timeslots/{id}/voters, first voters first. */
export function votersQueryOptions(planId: string, timeSlotId: string) {
  return queryOptions({
    queryKey: dateKeys.voters(planId, timeSlotId),
    queryFn: apiGet(apiPaths.timeSlot(timeSlotId, 'voters'), (body) => z.array(voterSchema).parse(body)),
  });
}
