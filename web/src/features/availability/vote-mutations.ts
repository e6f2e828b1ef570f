// Voting on dates (spec §2 Availability, §4 toggling, §5, §8): a whole-day vote
// through POST vote-date, a vote on an existing slot (a period or a time)
// through POST timeslots/{id}/vote. Both toggle, with an answer: yes (a tap,
// spec §7) or "if need be"; the same answer again removes the vote, the other
// one replaces it (docs/decisions/0109-if-need-be-on-the-screens.md). A guest's votes are mirrored
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
import {
  type DateAnswer,
  type MyDateAnswers,
  type TimeSlot,
  timeSlotVoteResultSchema,
  voteDateResultSchema,
} from '../../../../supabase/functions/_shared/contract/dates';
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
  answer: DateAnswer;
}

/**
 * What a date vote meant when tapped: the day or slot, the slot it is about
 * when it existed, the answer tapped, the visitor's answer before (`before`,
 * null: none) and whether a vote exists after it (false: an unvote; null:
 * unknown, the visitor's own votes were not loaded). An action stored by a
 * build before answers has neither `answer` nor `before`: it was a yes, and
 * `voted` says the rest.
 */
interface DateVoteData {
  target: VoteTarget;
  slotId: string | null;
  voted: boolean | null;
  answer?: DateAnswer;
  before?: DateAnswer | null;
  /** The visitor had said none of the dates work: a vote clears that (the API does, the screen follows). */
  clearsNoDates?: boolean;
}

/** A pending date vote as the day and the list show it. */
export interface PendingDateVote {
  /** Kept on the device until the network is back. */
  waiting: boolean;
  voted: boolean | null;
  /** The visitor's answer once it is through (null: none; undefined: unknown). */
  answer?: DateAnswer | null;
}

/** The toggle table (docs/api.md "Time slots and the lock flow"): the same answer again removes it, another replaces it. */
const answerAfter = (before: DateAnswer | null, tapped: DateAnswer) => (before === tapped ? null : tapped);

/** The answer before a tap and after it, or null when unknown. */
function change(data: DateVoteData): { before: DateAnswer | null; after: DateAnswer | null } | null {
  if (data.voted === null) return null;
  const answer = data.answer ?? 'yes';
  const before = data.before !== undefined ? data.before : data.voted ? null : answer;
  return { before, after: answerAfter(before, answer) };
}

/** The whole-day slot of a date among `slots`. */
const wholeDaySlot = (slots: TimeSlot[] | undefined, date: string) => slots?.find((slot) => slot.date === date && !slot.period)?.id;

/** The slot a tap is about: the slot tapped, else the day's whole-day slot (known at the tap, or created since by someone else). */
function slotOf(action: OfflineAction<DateVoteData>, slots: TimeSlot[] | undefined): string | undefined {
  return action.data.slotId ?? wholeDaySlot(slots, action.data.target.date);
}

const guestIdOf = (as: ActionIdentity) => (as.kind === 'guest' ? as.guestId : null);

/** A slot's counts with one person's answer moved from `from` to `to`. */
function moveCounts(slot: TimeSlot, from: DateAnswer | null, to: DateAnswer | null): TimeSlot {
  const delta = (answer: DateAnswer) => (to === answer ? 1 : 0) - (from === answer ? 1 : 0);
  return {
    ...slot,
    voteCount: Math.max(0, slot.voteCount + delta('yes')),
    ifNeedBeCount: Math.max(0, (slot.ifNeedBeCount ?? 0) + delta('ifneedbe')),
  };
}

/** The visitor's answers with the slot's set to `answer` (null: none), and "none work" as given. */
function withAnswer(mine: MyDateAnswers, slotId: string, answer: DateAnswer | null, noDates: boolean): MyDateAnswers {
  const rest = mine.answers.filter((entry) => entry.timeSlotId !== slotId);
  return { answers: answer ? [...rest, { timeSlotId: slotId, answer }] : rest, noDates };
}

const isMyAnswers = (data: unknown): data is MyDateAnswers =>
  typeof data === 'object' && data !== null && Array.isArray((data as MyDateAnswers).answers);

/**
 * The plan's slots and the visitor's own votes with the vote shown (`forward`)
 * or taken back: the visitor's answer on the slot moves from before to after
 * (or back), and the slot's counts with it. Nothing for a day with no slot yet
 * (the day shows the vote itself, NextTwoWeeks).
 */
function dateVoteShown(key: QueryKey, data: unknown, action: OfflineAction<DateVoteData>, client: QueryClient, forward: boolean): unknown {
  const moved = change(action.data);
  if (!moved) return data;
  const [from, to] = forward ? [moved.before, moved.after] : [moved.after, moved.before];
  const { planId } = action;
  if (partialMatchKey(key, dateKeys.timeSlots(planId)) && Array.isArray(data)) {
    const slots = data as TimeSlot[];
    const slotId = slotOf(action, slots);
    if (!slotId || !slots.some((slot) => slot.id === slotId)) return data;
    return slots.map((slot) => (slot.id === slotId ? moveCounts(slot, from, to) : slot));
  }
  if (partialMatchKey(key, dateKeys.myVotes(planId, guestIdOf(action.as))) && isMyAnswers(data)) {
    const slotId = slotOf(action, client.getQueryData<TimeSlot[]>(dateKeys.timeSlots(planId)));
    const noDates = to !== null ? false : !forward && action.data.clearsNoDates ? true : data.noDates;
    if (!slotId) return noDates === data.noDates ? data : { ...data, noDates };
    return withAnswer(data, slotId, to, noDates);
  }
  return data;
}

/** Date votes in the outbox: shown on their slot until answered, then settled on the answer. */
const dateVotes = defineOfflineActionKind<DateVoteData>('vote-date', {
  show: (key, data, action, client) => dateVoteShown(key, data, action, client, true),
  unshow: (key, data, action, client) => dateVoteShown(key, data, action, client, false),
  sent: async (queryClient, action, answer) => {
    const { planId, as } = action;
    const result =
      action.data.target.kind === 'date'
        ? voteDateResultSchema.parse(answer)
        : { ...timeSlotVoteResultSchema.parse(answer), timeSlotId: action.data.target.slotId };
    const { voted, timeSlotId } = result;
    mirrorGuestVote(as, timeSlotId, voted);
    const now: DateAnswer | null = voted ? (result.answer ?? action.data.answer ?? 'yes') : null;
    queryClient.setQueryData<MyDateAnswers>(dateKeys.myVotes(planId, guestIdOf(as)), (mine) =>
      withAnswer(mine ?? { answers: [], noDates: false }, timeSlotId, now, voted ? false : (mine?.noDates ?? false)),
    );
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: dateKeys.timeSlots(planId) }),
      queryClient.invalidateQueries({ queryKey: dateKeys.voters(planId, timeSlotId) }),
      // A signed-in visitor is joined on a first vote: the count and the list may change.
      queryClient.invalidateQueries({ queryKey: planKeys.participants(planId) }),
    ]);
  },
});

/**
 * The visitor's answer on a slot before a tap, from its own answers (`mine`):
 * none on a day nobody voted on yet; undefined while they are not loaded.
 */
function answerBefore(mine: MyDateAnswers | undefined, slotId: string | undefined): DateAnswer | null | undefined {
  if (!slotId) return null;
  return mine ? (mine.answers.find((entry) => entry.timeSlotId === slotId)?.answer ?? null) : undefined;
}

export function useDateVoting(plan: Pick<Plan, 'id' | 'slug'>) {
  const visitor = usePlanVisitor(plan.id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutationKey = planKeys.mutation(plan.id, dateVotes.name);
  useOfflineActionKind(dateVotes);

  function submit({ target, who, answer }: VoteVariables) {
    const planId = requirePlanId(plan.id);
    const slotId = target.kind === 'slot' ? target.slotId : wholeDaySlot(queryClient.getQueryData<TimeSlot[]>(dateKeys.timeSlots(planId)), target.date);
    const mine = queryClient.getQueryData<MyDateAnswers>(dateKeys.myVotes(planId, who.guestId));
    const before = answerBefore(mine, slotId);
    // A yes is sent as ever (no `answer`: spec §7's body); "if need be" says so.
    const said = answer === 'yes' ? {} : { answer };
    return dateVotes.submit({
      planId,
      target: targetKey(target),
      path: target.kind === 'date' ? apiPaths.planAction(planId, 'vote-date') : apiPaths.timeSlot(target.slotId, 'vote'),
      body: target.kind === 'date' ? { date: target.date, ...guestBody(who), ...said } : { ...guestBody(who), ...said },
      as: actionIdentity(who),
      data: {
        target,
        slotId: slotId ?? null,
        answer,
        ...(before === undefined ? { voted: null } : { voted: answerAfter(before, answer) !== null, before }),
        clearsNoDates: mine?.noDates ?? false,
      },
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
    if (action.kind !== dateVotes.name) continue;
    const data = action.data as DateVoteData;
    pending.set(action.target, { waiting: action.waiting, voted: data.voted, answer: change(data)?.after });
  }

  /**
   * One toggle, shown at once where the slot exists and put back if the
   * server refuses it. Resolves true when it went through or waits on this
   * device for the network; false after a refusal (already shown as an
   * 'Error' toast), when there is nobody to vote as, or when the same day or
   * slot is still on its way.
   */
  async function vote(target: VoteTarget, answer: DateAnswer = 'yes'): Promise<boolean> {
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
      const outcome = await mutateAsync({ target, who: visitor, answer });
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
