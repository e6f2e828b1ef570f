// Whether the current visitor voted on any date of a plan, or said none of
// them work: the green dot on the guest dashboard's Availability tab (spec §2,
// docs/decisions/0109-if-need-be-on-the-screens.md).
import { useQuery } from '@tanstack/react-query';
import { useGuestVotes } from '../../lib/guest-storage';
import { usePlanVisitor } from '../guests';
import { myVotesQueryOptions, timeSlotsQueryOptions } from './queries';

/**
 * True when the visitor voted on at least one slot of the plan (either
 * answer) or said none of its dates work: GET my-votes
 * for a member (token) or a guest (?guestId=). For a guest, until the server
 * answers (or if it cannot), the locally mirrored votes on this plan's slots count.
 */
export function useHasVotedOnDates(planId: string): boolean {
  const visitor = usePlanVisitor(planId);
  const local = useGuestVotes();
  const myVotes = useQuery({ ...myVotesQueryOptions(planId, visitor?.guestId), enabled: Boolean(planId && visitor) });
  const isGuest = visitor?.kind === 'guest';
  const slots = useQuery({ ...timeSlotsQueryOptions(planId), enabled: Boolean(planId) && isGuest && !myVotes.data });
  if (!visitor) return false;
  if (myVotes.data) return myVotes.data.answers.length > 0 || myVotes.data.noDates;
  if (!isGuest || !slots.data) return false;
  const ids = new Set(local.timeSlotIds);
  return slots.data.some((slot) => ids.has(slot.id));
}
