import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { getQueryFn } from '../../lib/api';
import { planKeys } from '../plans/queries';

// The dates endpoints' reads (spec §7): the plan's time slots, the caller's own
// votes and a slot's voters. Keys sit under planKeys.detail(id), so refreshing
// or forgetting the plan covers them too.
export const timeSlotSchema = z.object({
  id: z.string(),
  date: z.string(),
  period: z.nullish(z.string()),
  voteCount: z.number(),
});
export type TimeSlot = z.infer<typeof timeSlotSchema>;

export const voterSchema = z.object({ id: z.string(), name: z.string(), isGuest: z.boolean() });
export type Voter = z.infer<typeof voterSchema>;

// Keys are API paths (the default query function GETs the key joined by '/').
export const availabilityKeys = {
  timeSlots: (planId: string) => [...planKeys.detail(planId), 'timeslots'] as const,
  /** A member's votes go by the token; a guest's by ?guestId=. */
  myVotes: (planId: string, guestId: string | undefined) =>
    [...planKeys.detail(planId), guestId ? `my-votes?guestId=${encodeURIComponent(guestId)}` : 'my-votes'] as const,
  allVoters: ['/api/timeslots'] as const,
  voters: (timeSlotId: string) => ['/api/timeslots', encodeURIComponent(timeSlotId), 'voters'] as const,
};

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

export function timeSlotsQueryOptions(planId: string) {
  return queryOptions({
    queryKey: availabilityKeys.timeSlots(planId),
    queryFn: async (context) => z.array(timeSlotSchema).parse(await fetchJson(context)),
  });
}

/** GET /api/plans/{id}/my-votes: the slot ids the visitor voted on. */
export function myVotesQueryOptions(planId: string, guestId: string | undefined) {
  return queryOptions({
    queryKey: availabilityKeys.myVotes(planId, guestId),
    queryFn: async (context) => z.array(z.string()).parse(await fetchJson(context)),
  });
}

/** GET /api/timeslots/{id}/voters, first voters first. */
export function votersQueryOptions(timeSlotId: string) {
  return queryOptions({
    queryKey: availabilityKeys.voters(timeSlotId),
    queryFn: async (context) => z.array(voterSchema).parse(await fetchJson(context)),
  });
}
