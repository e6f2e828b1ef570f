// Voting on dates (spec §2 Availability, §4 toggling, §5, §8): a whole-day vote
// through POST vote-date, a vote on an existing slot (a period or a time)
// through POST timeslots/{id}/vote. Both toggle. A guest's votes are mirrored
// in localStorage (spec §3 'Guest votes'); the caches are updated from the
// answer and then refreshed. Every vote goes through the device's outbox
// (lib/offline-actions/): made with no network, it stays shown, marked
// "Waiting for connection", and is sent when the network is back.
import { partialMatchKey, useMutation, useMutationState, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { apiPaths } from '../../lib/api-paths';
import { getGuestVotes, toggleGuestTimeSlotVote } from '../../lib/guest-storage';
import {
  actionIdentity,
  defineOfflineActionKind,
  useOfflineActionKind,
  usePendingActions,
  type ActionIdentity,
  type OfflineAction,
} from '../../lib/offline-actions';
import { showErrorMessage } from '../../lib/toast';
import { guestBody, usePlanVisitor, type PlanVisitor } from '../guests';
import { requirePlanId, showPlanActionError } from '../plans';
import { planKeys } from '../plans';
import type { Plan } from '../plans';
import { type TimeSlot, timeSlotVoteResultSchema, voteDateResultSchema } from '../../../../supabase/functions/_shared/contract/dates';
import { dateKeys } from './queries';
import { JOIN_TO_VOTE } from '../../../../supabase/functions/_shared/contract/common';

/** Keeps the local mirror equal to the server's answer (a toggle could drift). */
function mirrorGuestVote(as: ActionIdentity, timeSlotId: string, voted: boolean): void {
  if (as.kind !== 'guest') return;
  if (getGuestVotes().timeSlotIds.includes(timeSlotId) !== voted) toggleGuestTimeSlotVote(timeSlotId);
}

type VoteTarget = { kind: 'date'; date: string } | { kind: 'slot'; slotId: string; date: string };

/** The key of a pending vote: one tap at a time per day or slot. */
const targetKey = (target: VoteTarget) => (target.kind === 'date' ? `date:${target.date}` : `slot:${target.slotId}`);

interface VoteVariables {
  target: VoteTarget;
  who: PlanVisitor;
}

/**
 * What a date vote meant when tapped: the day or slot, the slot it is about
 * when it existed, and whether it was a vote (false: an unvote; null: unknown,
 * the visitor's own votes were not loaded).
 */
interface DateVoteData {
  target: VoteTarget;
  slotId: string | null;
  voted: boolean | null;
}

/** A pending date vote as the day and the list show it. */
export interface PendingDateVote {
  /** Kept on the device until the network is back. */
  waiting: boolean;
  voted: boolean | null;
}

/** The whole-day slot of a date among `slots`. */
const wholeDaySlot = (slots: TimeSlot[] | undefined, date: string) => slots?.find((slot) => slot.date === date && !slot.period)?.id;

/** The slot a tap is about: the slot tapped, else the day's whole-day slot (known at the tap, or created since by someone else). */
function slotOf(action: OfflineAction<DateVoteData>, slots: TimeSlot[] | undefined): string | undefined {
  return action.data.slotId ?? wholeDaySlot(slots, action.data.target.date);
}

const guestIdOf = (as: ActionIdentity) => (as.kind === 'guest' ? as.guestId : null);

/**
 * The plan's slots and the visitor's own votes with the vote shown (`voted`:
 * the toggle's direction) or taken back (`!voted`): the visitor's votes gain
 * or lose the slot, and the slot's count moves by one. Nothing for a day with
 * no slot yet (the day shows the vote itself, NextTwoWeeks).
 */
function dateVoteShown(key: QueryKey, data: unknown, action: OfflineAction<DateVoteData>, client: QueryClient, voted: boolean): unknown {
  const { planId } = action;
  if (partialMatchKey(key, dateKeys.timeSlots(planId)) && Array.isArray(data)) {
    const slots = data as TimeSlot[];
    const slotId = slotOf(action, slots);
    if (!slotId || !slots.some((slot) => slot.id === slotId)) return data;
    return slots.map((slot) => (slot.id === slotId ? { ...slot, voteCount: Math.max(0, slot.voteCount + (voted ? 1 : -1)) } : slot));
  }
  if (partialMatchKey(key, dateKeys.myVotes(planId, guestIdOf(action.as))) && Array.isArray(data)) {
    const mine = data as string[];
    const slotId = slotOf(action, client.getQueryData<TimeSlot[]>(dateKeys.timeSlots(planId)));
    if (!slotId || mine.includes(slotId) === voted) return data;
    return voted ? [...mine, slotId] : mine.filter((id) => id !== slotId);
  }
  return data;
}

/** Date votes in the outbox: shown on their slot until answered, then settled on the answer. */
const dateVotes = defineOfflineActionKind<DateVoteData>('vote-date', {
  show: (key, data, action, client) => (action.data.voted === null ? data : dateVoteShown(key, data, action, client, action.data.voted)),
  unshow: (key, data, action, client) => (action.data.voted === null ? data : dateVoteShown(key, data, action, client, !action.data.voted)),
  sent: async (queryClient, action, answer) => {
    const { planId, as } = action;
    const { voted, timeSlotId } =
      action.data.target.kind === 'date'
        ? voteDateResultSchema.parse(answer)
        : { ...timeSlotVoteResultSchema.parse(answer), timeSlotId: action.data.target.slotId };
    mirrorGuestVote(as, timeSlotId, voted);
    queryClient.setQueryData<string[]>(dateKeys.myVotes(planId, guestIdOf(as)), (ids) => {
      const rest = (ids ?? []).filter((id) => id !== timeSlotId);
      return voted ? [...rest, timeSlotId] : rest;
    });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: dateKeys.timeSlots(planId) }),
      queryClient.invalidateQueries({ queryKey: dateKeys.voters(planId, timeSlotId) }),
      // A signed-in visitor is joined on a first vote: the count and the list may change.
      queryClient.invalidateQueries({ queryKey: planKeys.participants(planId) }),
    ]);
  },
});

/**
 * The direction of a tap on a slot that exists: the opposite of the
 * visitor's own votes; a day nobody voted on yet is a vote; null while the
 * visitor's own votes are not loaded.
 */
function tapDirection(queryClient: QueryClient, planId: string, who: PlanVisitor, slotId: string | undefined): boolean | null {
  if (!slotId) return true;
  const mine = queryClient.getQueryData<string[]>(dateKeys.myVotes(planId, who.guestId));
  return mine ? !mine.includes(slotId) : null;
}

export function useDateVoting(plan: Pick<Plan, 'id' | 'slug'>) {
  const visitor = usePlanVisitor(plan.id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutationKey = planKeys.mutation(plan.id, dateVotes.name);
  useOfflineActionKind(dateVotes);

  function submit({ target, who }: VoteVariables) {
    const planId = requirePlanId(plan.id);
    const slotId = target.kind === 'slot' ? target.slotId : wholeDaySlot(queryClient.getQueryData<TimeSlot[]>(dateKeys.timeSlots(planId)), target.date);
    return dateVotes.submit({
      planId,
      target: targetKey(target),
      path: target.kind === 'date' ? apiPaths.planAction(planId, 'vote-date') : apiPaths.timeSlot(target.slotId, 'vote'),
      body: target.kind === 'date' ? { date: target.date, ...guestBody(who) } : guestBody(who),
      as: actionIdentity(who),
      data: { target, slotId: slotId ?? null, voted: tapDirection(queryClient, planId, who, slotId) },
      noun: 'vote',
      failure: target.kind === 'date' ? 'Failed to vote on date' : 'Failed to vote on time slot',
    });
  }

  // Through the mutation cache too (several may run at once, one per day or
  // slot): the plan's live updates wait while a tap is on its way.
  const { mutateAsync } = useMutation({
    mutationKey,
    // Tapped with no network, it still goes to the outbox (TanStack would hold it back).
    networkMode: 'always',
    mutationFn: submit,
  });
  const tapping = useMutationState({
    filters: { mutationKey, status: 'pending' },
    select: (mutation) => targetKey((mutation.state.variables as VoteVariables).target),
  });
  const inOutbox = usePendingActions(plan.id);
  const pending = new Map<string, PendingDateVote>();
  for (const key of tapping) pending.set(key, { waiting: false, voted: null });
  for (const action of inOutbox) {
    if (action.kind === dateVotes.name) pending.set(action.target, { waiting: action.waiting, voted: (action.data as DateVoteData).voted });
  }

  /**
   * One toggle, shown at once where the slot exists and put back if the
   * server refuses it. Resolves true when it went through or waits on this
   * device for the network; false after a refusal (already shown as an
   * 'Error' toast), when there is nobody to vote as, or when the same day or
   * slot is still on its way.
   */
  async function vote(target: VoteTarget): Promise<boolean> {
    if (visitor === undefined) return false; // the session is still loading
    if (visitor === null) {
      // Spec §5: no guest session and no user → the join page.
      showErrorMessage('Error', JOIN_TO_VOTE);
      // (A page that reads the plan by id without a visitor has no link to offer.)
      if (plan.slug) navigate(paths.join.getHref(plan.slug));
      return false;
    }
    if (pending.has(targetKey(target))) return false;
    try {
      const outcome = await mutateAsync({ target, who: visitor });
      return outcome === 'sent' || outcome === 'queued';
    } catch (error) {
      showPlanActionError(error, target.kind === 'date' ? 'Failed to vote on date' : 'Failed to vote on time slot');
      return false;
    }
  }

  return {
    visitor,
    vote,
    /** The day's or slot's vote on its way or waiting for the network, if any. */
    pendingVote: (target: VoteTarget) => pending.get(targetKey(target)),
    /** Some date vote of the visitor's is kept on the device until the network is back. */
    waiting: [...pending.values()].some((vote) => vote.waiting),
  };
}
