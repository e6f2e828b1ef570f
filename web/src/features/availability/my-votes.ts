import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useGuestVotes } from '../../lib/guest-storage';
import type { PlanVisitor } from '../guests';
import { myVotesQueryOptions } from './queries';

const NONE: ReadonlySet<string> = new Set();

/**
 * The slot ids the visitor voted on: the server's my-votes (a member by token,
 * a guest by ?guestId=); a guest's local mirror stands in until it answers.
 */
export function useMyVotedSlotIds(planId: string, visitor: PlanVisitor | null | undefined): ReadonlySet<string> {
  const local = useGuestVotes();
  const query = useQuery({ ...myVotesQueryOptions(planId, visitor?.guestId), enabled: Boolean(visitor) });
  return useMemo(() => {
    if (!visitor) return NONE;
    if (query.data) return new Set(query.data);
    return visitor.kind === 'guest' ? new Set(local.timeSlotIds) : NONE;
  }, [visitor, query.data, local.timeSlotIds]);
}
