import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { forgetCalendarImports } from '../../lib/calendar-imports';
import { forgetSavedPlanReads } from '../../lib/offline-reads';
import { showErrorToast, showSuccessToast } from '../../lib/toast';
import { planKeys } from './queries';
import { type LeavePlanResult, leavePlanResultSchema, type Plan, planSchema } from '../../../../supabase/functions/_shared/contract/plans';
import type { CreatePlanInput } from '../../../../supabase/functions/_shared/contract/plans-requests';

// The list only: the open plan's detail (its own key) would answer 404 right
// after a leave or delete.
const invalidatePlanList = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: planKeys.list() });

export function useCreatePlan({ onCreated }: { onCreated: (plan: Plan) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreatePlanInput) => {
      const res = await apiRequest('POST', apiPaths.plans(), input);
      return planSchema.parse(await res.json());
    },
    onSuccess: (plan) => {
      // The share page opens next: it shows the plan at once instead of loading it again.
      queryClient.setQueryData(planKeys.detail(plan.id), plan);
      void invalidatePlanList(queryClient);
      showSuccessToast('Plan created!', 'Your plan is ready to share');
      onCreated(plan);
    },
    onError: (error) => showErrorToast(error, 'Failed to create plan'),
  });
}

/**
 * After the plan is gone for this user: `onGone` runs first (it navigates away),
 * then the cache forgets the plan, so the screen being left never refetches it,
 * and the device forgets the calendar imported for it and what the service
 * worker saved of it.
 */
function forgetPlan(queryClient: QueryClient, planId: string, onGone: () => void) {
  onGone();
  queryClient.removeQueries({ queryKey: planKeys.plan(planId) });
  forgetCalendarImports(planId);
  void forgetSavedPlanReads(planId);
  void invalidatePlanList(queryClient);
}

export function useLeavePlan(planId: string, { onLeft }: { onLeft: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'leave'),
    mutationFn: async (): Promise<LeavePlanResult> => {
      const res = await apiRequest('DELETE', apiPaths.planAction(planId, 'leave'));
      return leavePlanResultSchema.parse(await res.json());
    },
    onSuccess: ({ planDeleted }) => {
      forgetPlan(queryClient, planId, onLeft);
      showSuccessToast(
        'You left the plan',
        planDeleted ? 'You were the last participant, so the plan was deleted' : "You've been removed from the participant list",
      );
    },
    onError: (error) => showErrorToast(error, 'Failed to leave plan'),
  });
}

export function useDeletePlan(planId: string, { onDeleted }: { onDeleted: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: planKeys.mutation(planId, 'delete'),
    mutationFn: async () => {
      await apiRequest('DELETE', apiPaths.plan(planId));
    },
    onSuccess: () => {
      forgetPlan(queryClient, planId, onDeleted);
      showSuccessToast('Plan deleted', 'The plan and everything in it are gone');
    },
    onError: (error) => showErrorToast(error, 'Failed to delete plan'),
  });
}
