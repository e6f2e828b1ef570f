// Voting on dates (spec §2 Availability, §4 toggling, §5, §8): a whole-day vote
// through POST vote-date, a vote on an existing slot (a period or a time)
// through POST timeslots/{id}/vote. Both toggle. A guest's votes are mirrored
// in localStorage (spec §3 'Guest votes'); the caches are updated from the
// answer and then refreshed.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod/mini';
import { paths } from '../../config/paths';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { getGuestVotes, toggleGuestTimeSlotVote } from '../../lib/guest-storage';
import { showErrorMessage } from '../../lib/toast';
import { guestBody, usePlanVisitor, type PlanVisitor } from '../guests/visitor';
import { requirePlanId, showPlanActionError } from '../plans/host-mutations';
import { planKeys } from '../plans/queries';
import type { Plan } from '../plans/schema';
import { dateKeys } from './queries';
import { JOIN_TO_VOTE } from '../../../../supabase/functions/_shared/contract/common';


const voteDateResultSchema = z.object({ voted: z.boolean(), timeSlotId: z.string(), voteCount: z.number() });
const slotVoteResultSchema = z.object({ voted: z.boolean(), voteCount: z.number() });

/** Keeps the local mirror equal to the server's answer (a toggle could drift). */
function mirrorGuestVote(visitor: PlanVisitor, timeSlotId: string, voted: boolean): void {
  if (visitor.kind !== 'guest') return;
  if (getGuestVotes().timeSlotIds.includes(timeSlotId) !== voted) toggleGuestTimeSlotVote(timeSlotId);
}

export type VoteTarget = { kind: 'date'; date: string } | { kind: 'slot'; slotId: string; date: string };

/** The key of a pending vote: one tap at a time per day or slot. */
export const targetKey = (target: VoteTarget) => (target.kind === 'date' ? `date:${target.date}` : `slot:${target.slotId}`);

export function useDateVoting(plan: Pick<Plan, 'id' | 'slug'>) {
  const visitor = usePlanVisitor(plan.id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState<ReadonlySet<string>>(() => new Set());

  const mark = (key: string, on: boolean) =>
    setPending((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  async function send(target: VoteTarget, who: PlanVisitor): Promise<{ voted: boolean; timeSlotId: string }> {
    if (target.kind === 'date') {
      const planId = requirePlanId(plan.id);
      const res = await apiRequest('POST', apiPaths.planAction(planId, 'vote-date'), {
        date: target.date,
        ...guestBody(who),
      });
      return voteDateResultSchema.parse(await res.json());
    }
    const res = await apiRequest('POST', apiPaths.timeSlot(target.slotId, 'vote'), guestBody(who));
    const { voted } = slotVoteResultSchema.parse(await res.json());
    return { voted, timeSlotId: target.slotId };
  }

  /** The toggle, then the caches from its answer. */
  async function toggle({ target, who }: { target: VoteTarget; who: PlanVisitor }): Promise<void> {
    const { voted, timeSlotId } = await send(target, who);
    mirrorGuestVote(who, timeSlotId, voted);
    queryClient.setQueryData<string[]>(dateKeys.myVotes(plan.id, who.guestId), (ids) => {
      const rest = (ids ?? []).filter((id) => id !== timeSlotId);
      return voted ? [...rest, timeSlotId] : rest;
    });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: dateKeys.timeSlots(plan.id) }),
      queryClient.invalidateQueries({ queryKey: dateKeys.voters(plan.id, timeSlotId) }),
      // A signed-in visitor is joined on a first vote: the count and the list may change.
      queryClient.invalidateQueries({ queryKey: planKeys.participants(plan.id) }),
    ]);
  }

  // Through the mutation cache (several may run at once, one per day or slot):
  // the plan's live updates wait until every vote and its refetches are done.
  const { mutateAsync } = useMutation({ mutationKey: planKeys.mutation(plan.id, 'vote-date'), mutationFn: toggle });

  /**
   * One toggle. Resolves true when it went through; false after a failure
   * (already shown as an 'Error' toast) or when there is nobody to vote as.
   */
  async function vote(target: VoteTarget): Promise<boolean> {
    if (visitor === undefined) return false; // the session is still loading
    if (visitor === null) {
      // Spec §5: no guest session and no user → the join page.
      showErrorMessage('Error', JOIN_TO_VOTE);
      navigate(paths.join.getHref(plan.slug));
      return false;
    }
    const key = targetKey(target);
    mark(key, true);
    try {
      await mutateAsync({ target, who: visitor });
      return true;
    } catch (error) {
      showPlanActionError(error, target.kind === 'date' ? 'Failed to vote on date' : 'Failed to vote on time slot');
      return false;
    } finally {
      mark(key, false);
    }
  }

  return { visitor, vote, pending, isPending: (target: VoteTarget) => pending.has(targetKey(target)) };
}
