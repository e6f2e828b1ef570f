// "None of these dates work for me" (docs/api.md "Time slots and the lock
// flow", docs/decisions/0109-if-need-be-on-the-screens.md): a toggle through
// POST no-dates that goes through the device's outbox like a date vote
// (lib/offline-actions/): shown at once, kept with no network, sent with an
// Idempotency-Key. On, it removes the visitor's date votes; a date vote
// clears it (the API does both; this file and vote-mutations.ts show them).
import { partialMatchKey, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { apiPaths } from '../../lib/api-paths';
import { getGuestVotes, setGuestVotes } from '../../lib/guest-storage';
import { actionIdentity, defineOfflineActionKind, useOfflineActionKind, usePendingActions, type OfflineAction } from '../../lib/offline-actions';
import { guestBody, type PlanVisitor } from '../guests';
import { planKeys, requirePlanId, showPlanActionError } from '../plans';
import { type MyDateAnswers, noDatesResultSchema, type TimeSlot } from '../../../../supabase/functions/_shared/contract/dates';
import { dateKeys } from './queries';

const FAILURE = 'Failed to save your answer';

/**
 * What a tap meant: none of the dates work (true) or that is taken back
 * (false); null: unknown (the answers were not loaded). `cleared`: the
 * visitor's answers a tap turning it on removes, to put back on a refusal.
 */
interface NoDatesData {
  on: boolean | null;
  cleared?: MyDateAnswers['answers'];
}

const guestIdOf = (action: OfflineAction<NoDatesData>) => (action.as.kind === 'guest' ? action.as.guestId : null);

/**
 * The visitor's own answers with "none work" set to `on` (nothing when
 * unknown), and its cleared answers gone (`on`) or back (`!on`), on its
 * answers and on the slots' counts.
 */
function noDatesShown(key: QueryKey, data: unknown, action: OfflineAction<NoDatesData>, on: boolean | null): unknown {
  if (on === null || typeof data !== 'object' || data === null) return data;
  const cleared = action.data.on ? (action.data.cleared ?? []) : [];
  if (partialMatchKey(key, dateKeys.myVotes(action.planId, guestIdOf(action)))) {
    const mine = data as MyDateAnswers;
    const gone = new Set(cleared.map((entry) => entry.timeSlotId));
    const rest = mine.answers.filter((entry) => !gone.has(entry.timeSlotId));
    return { answers: on ? rest : [...rest, ...cleared], noDates: on };
  }
  if (partialMatchKey(key, dateKeys.timeSlots(action.planId)) && Array.isArray(data) && cleared.length > 0) {
    const by = on ? -1 : 1;
    return (data as TimeSlot[]).map((slot) => {
      const answer = cleared.find((entry) => entry.timeSlotId === slot.id)?.answer;
      if (answer === 'yes') return { ...slot, voteCount: Math.max(0, slot.voteCount + by) };
      if (answer === 'ifneedbe') return { ...slot, ifNeedBeCount: Math.max(0, (slot.ifNeedBeCount ?? 0) + by) };
      return slot;
    });
  }
  return data;
}

const noDatesKind = defineOfflineActionKind<NoDatesData>('toggle-no-dates', {
  show: (key, data, action) => noDatesShown(key, data, action, action.data.on),
  unshow: (key, data, action) => noDatesShown(key, data, action, action.data.on === null ? null : !action.data.on),
  sent: async (queryClient, action, answer) => {
    const { noDates } = noDatesResultSchema.parse(answer);
    // A guest's local mirror of its votes follows: on, the server removed them all.
    if (noDates && action.as.kind === 'guest') setGuestVotes({ ...getGuestVotes(), timeSlotIds: [] });
    const key = dateKeys.myVotes(action.planId, guestIdOf(action));
    queryClient.setQueryData<MyDateAnswers>(key, (mine) => (mine ? { answers: noDates ? [] : mine.answers, noDates } : mine));
    await Promise.all([
      // The votes it removed, and the host's list of who can't make any.
      queryClient.invalidateQueries({ queryKey: key }),
      queryClient.invalidateQueries({ queryKey: dateKeys.timeSlots(action.planId) }),
      queryClient.invalidateQueries({ queryKey: dateKeys.allVoters(action.planId) }),
      queryClient.invalidateQueries({ queryKey: planKeys.participants(action.planId) }),
    ]);
  },
});

const TARGET = 'no-dates';

/** The visitor's "none of these dates work" toggle: `toggle` flips it; `pending`/`waiting` while it is on its way or kept offline. */
export function useNoDates(planId: string, visitor: PlanVisitor | null | undefined) {
  const queryClient = useQueryClient();
  useOfflineActionKind(noDatesKind);
  const mutationKey = planKeys.mutation(planId, noDatesKind.name);
  const { mutateAsync, isPending } = useMutation({
    mutationKey,
    networkMode: 'always',
    mutationFn: (who: PlanVisitor) => {
      const id = requirePlanId(planId);
      const mine = queryClient.getQueryData<MyDateAnswers>(dateKeys.myVotes(id, who.guestId));
      return noDatesKind.submit({
        planId: id,
        target: TARGET,
        path: apiPaths.planAction(id, 'no-dates'),
        body: guestBody(who),
        as: actionIdentity(who),
        data: mine ? { on: !mine.noDates, cleared: mine.noDates ? [] : mine.answers } : { on: null },
        noun: 'answer',
        failure: FAILURE,
      });
    },
  });
  const inOutbox = usePendingActions(planId).filter((action) => action.kind === noDatesKind.name);

  async function toggle(): Promise<void> {
    if (!visitor || isPending || inOutbox.length > 0) return;
    try {
      await mutateAsync(visitor);
    } catch (error) {
      showPlanActionError(error, FAILURE);
    }
  }

  return { toggle, pending: isPending || inOutbox.length > 0, waiting: inOutbox.some((action) => action.waiting) };
}
