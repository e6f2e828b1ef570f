// "None of these dates work for me" (docs/api.md "Time slots and the lock
// flow", docs/decisions/0109-if-need-be-on-the-screens.md): a toggle through
// POST no-dates that goes through the device's outbox like a date vote
// (lib/offline-actions/): shown at once, kept with no network, sent with an
// Idempotency-Key. A date vote clears it (the API does; vote-mutations.ts
// shows it).
import { partialMatchKey, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { apiPaths } from '../../lib/api-paths';
import { actionIdentity, defineOfflineActionKind, useOfflineActionKind, usePendingActions, type OfflineAction } from '../../lib/offline-actions';
import { guestBody, type PlanVisitor } from '../guests';
import { planKeys, requirePlanId, showPlanActionError } from '../plans';
import { type MyDateAnswers, noDatesResultSchema } from '../../../../supabase/functions/_shared/contract/dates';
import { dateKeys } from './queries';

const FAILURE = 'Failed to save your answer';

/** What a tap meant: none of the dates work (true) or that is taken back (false); null: unknown (the answers were not loaded). */
interface NoDatesData {
  on: boolean | null;
}

const guestIdOf = (action: OfflineAction<NoDatesData>) => (action.as.kind === 'guest' ? action.as.guestId : null);

/** The visitor's own answers with "none work" set to `on` (nothing when unknown). */
function noDatesShown(key: QueryKey, data: unknown, action: OfflineAction<NoDatesData>, on: boolean | null): unknown {
  if (on === null || !partialMatchKey(key, dateKeys.myVotes(action.planId, guestIdOf(action)))) return data;
  if (typeof data !== 'object' || data === null) return data;
  return { ...(data as MyDateAnswers), noDates: on };
}

const noDatesKind = defineOfflineActionKind<NoDatesData>('toggle-no-dates', {
  show: (key, data, action) => noDatesShown(key, data, action, action.data.on),
  unshow: (key, data, action) => noDatesShown(key, data, action, action.data.on === null ? null : !action.data.on),
  sent: async (queryClient, action, answer) => {
    const { noDates } = noDatesResultSchema.parse(answer);
    const key = dateKeys.myVotes(action.planId, guestIdOf(action));
    queryClient.setQueryData<MyDateAnswers>(key, (mine) => (mine ? { ...mine, noDates } : mine));
    await Promise.all([
      // What else the server changed, and the host's list of who can't make any.
      queryClient.invalidateQueries({ queryKey: key }),
      queryClient.invalidateQueries({ queryKey: dateKeys.timeSlots(action.planId) }),
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
        data: { on: mine ? !mine.noDates : null },
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
