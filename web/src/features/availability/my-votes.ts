import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useGuestVotes } from '../../lib/guest-storage';
import type { PlanVisitor } from '../guests';
import type { DateAnswer } from '../../../../supabase/functions/_shared/contract/dates';
import { myVotesQueryOptions } from './queries';

/** The visitor's own date answers: its answer on each slot it voted on, and "none of these dates work". */
export interface MyDateAnswers {
  answers: ReadonlyMap<string, DateAnswer>;
  noDates: boolean;
}

const NONE: MyDateAnswers = { answers: new Map(), noDates: false };

/**
 * The visitor's answers: the server's my-votes (a member by token, a guest by
 * ?guestId=); a guest's local mirror (slot ids only, read as yes) stands in
 * until it answers.
 */
export function useMyDateAnswers(planId: string, visitor: PlanVisitor | null | undefined): MyDateAnswers {
  const local = useGuestVotes();
  const query = useQuery({ ...myVotesQueryOptions(planId, visitor?.guestId), enabled: Boolean(visitor) });
  return useMemo(() => {
    if (!visitor) return NONE;
    if (query.data) {
      return { answers: new Map(query.data.answers.map((mine) => [mine.timeSlotId, mine.answer] as const)), noDates: query.data.noDates };
    }
    return visitor.kind === 'guest' ? { answers: new Map(local.timeSlotIds.map((id) => [id, 'yes'] as const)), noDates: false } : NONE;
  }, [visitor, query.data, local.timeSlotIds]);
}
