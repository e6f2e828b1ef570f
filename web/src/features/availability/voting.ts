// Voting on dates (spec §2 Availability, §4 toggling, §5, §8): a whole-day vote
// through POST vote-date, a vote on an existing slot (a period or a time)
// through POST timeslots/{id}/vote. Both toggle. A guest's votes are mirrored
// in localStorage (spec §3 'Guest votes'); the caches are updated from the
// answer and then refreshed.
import { useMutation, useMutationState, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { getGuestVotes, toggleGuestTimeSlotVote } from '../../lib/guest-storage';
import { showErrorMessage } from '../../lib/toast';
import { guestBody, usePlanVisitor, type PlanVisitor } from '../guests';
import { requirePlanId, showPlanActionError } from '../plans';
import { planKeys } from '../plans';
import type { Plan } from '../plans';
import { type TimeSlot, timeSlotVoteResultSchema, voteDateResultSchema } from '../../../../supabase/functions/_shared/contract/dates';
import { dateKeys } from './queries';
import { JOIN_TO_VOTE } from '../../../../supabase/functions/_shared/contract/common';



/** Keeps the local mirror equal to the server's answer (a toggle could drift). */
function mirrorGuestVote(visitor: PlanVisitor, timeSlotId: string, voted: boolean): void {
  if (visitor.kind !== 'guest') return;
  if (getGuestVotes().timeSlotIds.includes(timeSlotId) !== voted) toggleGuestTimeSlotVote(timeSlotId);
}

type VoteTarget = { kind: 'date'; date: string } | { kind: 'slot'; slotId: string; date: string };

/** The key of a pending vote: one tap at a time per day or slot. */
const targetKey = (target: VoteTarget) => (target.kind === 'date' ? `date:${target.date}` : `slot:${target.slotId}`);

interface VoteVariables {
  target: VoteTarget;
  who: PlanVisitor;
}

/** What a vote shown at once changed, to put back if the server refuses it. */
interface ShownVote {
  slots: TimeSlot[] | undefined;
  mineKey: ReturnType<typeof dateKeys.myVotes>;
  mine: string[];
}

/** The slot a tap is about when it exists already: the slot tapped, or the day's whole-day slot. */
function knownSlotId(queryClient: QueryClient, planId: string, target: VoteTarget): string | undefined {
  if (target.kind === 'slot') return target.slotId;
  return queryClient.getQueryData<TimeSlot[]>(dateKeys.timeSlots(planId))?.find((slot) => slot.date === target.date && !slot.period)?.id;
}

/**
 * Shows a vote at once on a slot that exists: the visitor's own votes gain or
 * lose it, and its count moves by one. Undefined (nothing shown early) for a
 * day nobody voted on yet, whose slot the server creates, or while the
 * visitor's own votes are not loaded (the direction is unknown).
 */
async function showVoteAtOnce(queryClient: QueryClient, planId: string, { target, who }: VoteVariables): Promise<ShownVote | undefined> {
  const slotId = knownSlotId(queryClient, planId, target);
  const mineKey = dateKeys.myVotes(planId, who.guestId);
  if (!slotId || !queryClient.getQueryData<string[]>(mineKey)) return undefined;
  // A refetch already under way must not bring the old state back over it.
  await Promise.all([
    queryClient.cancelQueries({ queryKey: dateKeys.timeSlots(planId) }),
    queryClient.cancelQueries({ queryKey: mineKey }),
  ]);
  const slots = queryClient.getQueryData<TimeSlot[]>(dateKeys.timeSlots(planId));
  const mine = queryClient.getQueryData<string[]>(mineKey) ?? [];
  const voted = !mine.includes(slotId);
  queryClient.setQueryData<string[]>(mineKey, voted ? [...mine, slotId] : mine.filter((id) => id !== slotId));
  queryClient.setQueryData<TimeSlot[]>(
    dateKeys.timeSlots(planId),
    slots?.map((slot) => (slot.id === slotId ? { ...slot, voteCount: Math.max(0, slot.voteCount + (voted ? 1 : -1)) } : slot)),
  );
  return { slots, mineKey, mine };
}

export function useDateVoting(plan: Pick<Plan, 'id' | 'slug'>) {
  const visitor = usePlanVisitor(plan.id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutationKey = planKeys.mutation(plan.id, 'vote-date');

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
    const { voted } = timeSlotVoteResultSchema.parse(await res.json());
    return { voted, timeSlotId: target.slotId };
  }

  /** The toggle, then the caches from its answer. */
  async function toggle({ target, who }: VoteVariables): Promise<void> {
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
  // the plan's live updates wait until every vote and its refetches are done,
  // and the pending taps are read back from it.
  const { mutateAsync } = useMutation({
    mutationKey,
    mutationFn: toggle,
    onMutate: (variables) => showVoteAtOnce(queryClient, plan.id, variables),
    onError: (_error, _variables, shown) => {
      if (!shown) return;
      queryClient.setQueryData(dateKeys.timeSlots(plan.id), shown.slots);
      queryClient.setQueryData(shown.mineKey, shown.mine);
    },
  });
  const pending = useMutationState({
    filters: { mutationKey, status: 'pending' },
    select: (mutation) => targetKey((mutation.state.variables as VoteVariables).target),
  });

  /**
   * One toggle, shown at once where the slot exists and put back if it fails.
   * Resolves true when it went through; false after a failure (already shown
   * as an 'Error' toast), when there is nobody to vote as, or when the same
   * day or slot is still on its way.
   */
  async function vote(target: VoteTarget): Promise<boolean> {
    if (visitor === undefined) return false; // the session is still loading
    if (visitor === null) {
      // Spec §5: no guest session and no user → the join page.
      showErrorMessage('Error', JOIN_TO_VOTE);
      navigate(paths.join.getHref(plan.slug));
      return false;
    }
    if (pending.includes(targetKey(target))) return false;
    try {
      await mutateAsync({ target, who: visitor });
      return true;
    } catch (error) {
      showPlanActionError(error, target.kind === 'date' ? 'Failed to vote on date' : 'Failed to vote on time slot');
      return false;
    }
  }

  return { visitor, vote, isPending: (target: VoteTarget) => pending.includes(targetKey(target)) };
}
