// The host's lock flow and location (spec §2 Plan detail, §7; docs/api.md
// "Time slots and the lock flow"): lock a date, set the event time, unlock,
// set the location. Each answers the plan JSON, which goes straight into the
// cache; the plan, its slots and the plans list are then refreshed.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { deviceTimeZone } from '../../lib/local-date';
import { dateKeys } from '../../lib/query-keys';
import { showErrorMessage, showErrorToast, showSuccessToast } from '../../lib/toast';
import { reminderSentText } from './deadline';
import { planKeys, refreshPlanMembership } from './queries';
import { type Participant, participantSchema, type Plan, planSchema, type Removal } from '../../../../supabase/functions/_shared/contract/plans';
import { PLAN_NOT_FOUND } from '../../../../supabase/functions/_shared/contract/common';
import { remindResultSchema } from '../../../../supabase/functions/_shared/contract/notifications';

/** Spec §5: lock, time and vote-date actions need a plan id, else 'Plan not found'. */
export class MissingPlanIdError extends Error {
  constructor() {
    super(PLAN_NOT_FOUND);
    this.name = 'MissingPlanIdError';
  }
}

export function requirePlanId(planId: string | undefined): string {
  if (!planId) throw new MissingPlanIdError();
  return planId;
}

/** The 'Error' toast of spec §8: 'Plan not found' without an id, else the server's sentence or the fallback. */
export function showPlanActionError(error: unknown, fallback: string): void {
  if (error instanceof MissingPlanIdError) showErrorMessage('Error', error.message);
  else showErrorToast(error, fallback);
}

/** After a host action: the answered plan, then everything that shows it. */
function refreshAfterHostAction(queryClient: QueryClient, plan: Plan): void {
  queryClient.setQueryData(planKeys.detail(plan.id), plan);
  // (The host is always shown the link.)
  if (plan.slug) queryClient.setQueryData(planKeys.bySlug(plan.slug), plan);
  // Slots (a set time creates one), the guest views by slug and the home card.
  void queryClient.invalidateQueries({ queryKey: dateKeys.timeSlots(plan.id) });
  void queryClient.invalidateQueries({ queryKey: planKeys.list() });
}

async function postPlanAction(planId: string | undefined, action: string, body: unknown): Promise<Plan> {
  const id = requirePlanId(planId);
  const res = await apiRequest('POST', apiPaths.planAction(id, action), body);
  return planSchema.parse(await res.json());
}

function useHostAction<TInput>(
  planId: string | undefined,
  action: string,
  toBody: (input: TInput) => unknown,
  fallback: string,
  onDone?: (plan: Plan, input: TInput) => void,
  /** The form shows the refusal itself (the mutation's `error`): no toast. */
  { inlineErrors = false }: { inlineErrors?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    // Under the plan's prefix: its live updates wait until the answer is in.
    mutationKey: planId ? planKeys.mutation(planId, action) : undefined,
    mutationFn: (input: TInput) => postPlanAction(planId, action, toBody(input)),
    onSuccess: (plan, input) => {
      refreshAfterHostAction(queryClient, plan);
      onDone?.(plan, input);
    },
    onError: (error) => {
      if (!inlineErrors) showPlanActionError(error, fallback);
    },
  });
}

/** POST lock-date {date}: status time_range_locked. */
export function useLockDate(planId: string | undefined) {
  return useHostAction(planId, 'lock-date', (date: string) => ({ date }), 'Failed to lock date');
}

/**
 * POST set-event-time {time: 'HH:mm', timeZone}: the host's wall clock in this
 * device's zone; status completed, members e-mailed.
 */
export function useSetEventTime(planId: string | undefined, onDone?: (plan: Plan) => void) {
  return useHostAction(
    planId,
    'set-event-time',
    (time: string) => ({ time, timeZone: deviceTimeZone() }),
    'Failed to set event time',
    onDone,
  );
}

/** POST unlock: back to planning (a cancelled plan reopens); votes, the picked idea and the location stay. */
export function useUnlockPlan(planId: string | undefined) {
  return useHostAction<void>(planId, 'unlock', () => ({}), 'Failed to unlock the plan', () =>
    showSuccessToast('Plan unlocked', 'Everyone can vote on dates again'),
  );
}

/**
 * POST cancel {message?} (docs/decisions/0100-cancelling-a-plan.md): status
 * cancelled; everyone with notifications on is told, with the message.
 */
export function useCancelPlan(planId: string | undefined, onDone?: (plan: Plan) => void) {
  return useHostAction(planId, 'cancel', (message: string) => ({ message: message.trim() || null }), 'Failed to cancel the plan', (plan) => {
    showSuccessToast('Plan cancelled', 'Everyone will be told');
    onDone?.(plan);
  });
}

/**
 * POST rotate-link ("Reset link", docs/api.md "Plans"): the plan gets a new
 * link and the old one stops working; everyone already in keeps their access.
 */
export function useResetPlanLink(planId: string | undefined, onDone?: (plan: Plan) => void) {
  return useHostAction<void>(planId, 'rotate-link', () => ({}), 'Failed to reset the link', (plan) => {
    showSuccessToast('Link reset', 'The old link no longer works');
    onDone?.(plan);
  });
}

/** POST location {location}; '' clears it. */
export function useSetLocation(planId: string | undefined, onDone?: (plan: Plan) => void) {
  return useHostAction(planId, 'location', (location: string) => ({ location }), 'Failed to save location', onDone);
}

/** "Decide by": an instant with its zone, or null to remove it (and its auto-lock). */
export interface DeadlineInput {
  deadline: string | null;
  autoLock?: boolean;
}

export const SAVE_DEADLINE_FAILED = 'Failed to save the deadline';

/**
 * POST deadline {deadline, autoLock?} (docs/api.md "Notifications"). A refusal
 * ("The deadline must be in the future") is shown by the form, under its field.
 */
export function useSetDeadline(planId: string | undefined, onDone?: (plan: Plan, input: DeadlineInput) => void) {
  return useHostAction(planId, 'deadline', (input: DeadlineInput) => input, SAVE_DEADLINE_FAILED, onDone, { inlineErrors: true });
}

/**
 * The host's Remind them: POST remind → {reminded}. Those who have not voted
 * on any idea or date get a push and, members, an e-mail. The plan is read
 * again for its `remindedAt` (one reminder per 12 hours); a refusal (429 with
 * the server's sentence) is toasted, and the plan read again too, since
 * another device of the host may have reminded them.
 */
/** `asked`: what the reminded people are asked, for the toast (the votes, or whether they are coming). */
export function useRemindUnanswered(planId: string, asked: string) {
  const queryClient = useQueryClient();
  const refreshPlan = () => queryClient.invalidateQueries({ queryKey: planKeys.detail(planId) });
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'remind'),
    mutationFn: async () => {
      const res = await apiRequest('POST', apiPaths.planAction(planId, 'remind'));
      return remindResultSchema.parse(await res.json());
    },
    onSuccess: async ({ reminded }) => {
      if (reminded > 0) {
        // At once, until the plan's own answer says when.
        queryClient.setQueryData<Plan>(planKeys.detail(planId), (plan) => plan && { ...plan, remindedAt: new Date().toISOString() });
        showSuccessToast(reminderSentText(reminded), asked);
      } else {
        showSuccessToast('No one could be reached', 'The people waiting have no notifications or e-mails turned on for this plan.');
      }
      await refreshPlan();
    },
    onError: (error) => {
      showErrorToast(error, 'Failed to send the reminder');
      void refreshPlan();
    },
  });
}

/**
 * The host removes someone, with their ideas, comments and votes: DELETE
 * /api/plans/{id}/participants/{participantId}. They cannot join again until
 * the host allows them back (useAllowBack). Everything about the plan is
 * refreshed (what they wrote and voted is gone from every list).
 */
export function useRemoveParticipant(plan: Pick<Plan, 'id' | 'slug'>, { onRemoved }: { onRemoved?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(plan.id, 'remove-participant'),
    mutationFn: async (participant: { id: string; name: string }) => {
      await apiRequest('DELETE', apiPaths.participant(plan.id, participant.id));
      return participant;
    },
    onSuccess: async (participant) => {
      onRemoved?.();
      queryClient.setQueryData<Array<{ id: string }>>(planKeys.participants(plan.id), (current) =>
        current?.filter((p) => p.id !== participant.id),
      );
      showSuccessToast('Removed from the plan', `${participant.name} is no longer in this plan`);
      await refreshPlanMembership(queryClient, plan);
    },
    onError: (error) => showErrorToast(error, 'Failed to remove this person'),
  });
}

/**
 * "Allow back": DELETE /api/plans/{id}/removals/{removalId} ends a removal
 * (docs/decisions/0083-removal-holds.md). The member may join again; the
 * guest's name may be taken again. The list is read again.
 */
export function useAllowBack(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'allow-back'),
    mutationFn: async (removal: Pick<Removal, 'id' | 'name'>) => {
      await apiRequest('DELETE', apiPaths.removal(planId, removal.id));
      return removal;
    },
    onSuccess: (removal) => {
      queryClient.setQueryData<Removal[]>(planKeys.removals(planId), (current) => current?.filter((r) => r.id !== removal.id));
      showSuccessToast('Allowed back', `${removal.name} can join this plan again`);
      void queryClient.invalidateQueries({ queryKey: planKeys.removals(planId) });
    },
    onError: (error) => {
      showErrorToast(error, 'Failed to allow this person back');
      void queryClient.invalidateQueries({ queryKey: planKeys.removals(planId) });
    },
  });
}

/**
 * The host makes a member a co-host, or ends it (docs/api-after-the-date.md "Co-hosts",
 * docs/decisions/0098-cohosts.md): POST /api/plans/{id}/cohosts or DELETE
 * /api/plans/{id}/cohosts/{participantId}. The answered participant goes into
 * the list at once.
 */
export function useSetCohost(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'set-cohost'),
    mutationFn: async ({ participant, cohost }: { participant: Pick<Participant, 'id' | 'name'>; cohost: boolean }) => {
      const res = cohost
        ? await apiRequest('POST', apiPaths.cohosts(planId), { participantId: participant.id })
        : await apiRequest('DELETE', apiPaths.cohost(planId, participant.id));
      return participantSchema.parse(await res.json());
    },
    onSuccess: (updated) => {
      queryClient.setQueryData<Participant[]>(planKeys.participants(planId), (current) =>
        current?.map((p) => (p.id === updated.id ? { ...p, role: updated.role } : p)),
      );
      if (updated.role === 'cohost') showSuccessToast('Co-host added', `${updated.name} can now run the plan with you`);
      else showSuccessToast('Co-host removed', `${updated.name} is no longer a co-host`);
    },
    onError: (error) => showErrorToast(error, 'Failed to change co-hosts'),
  });
}
