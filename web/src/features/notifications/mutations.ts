import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { showErrorToast } from '../../lib/toast';
import { notificationKeys } from './queries';
import { planEmailsStateSchema } from '../../../../supabase/functions/_shared/contract/notifications';

/** POST turns the plan's e-mails off, DELETE on again; both answer the new state, which replaces the cached one. */
function useSetPlanEmails(token: string, method: 'POST' | 'DELETE', fallback: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const res = await apiRequest(method, apiPaths.unsubscribe(token));
      return planEmailsStateSchema.parse(await res.json());
    },
    onSuccess: (state) => queryClient.setQueryData(notificationKeys.planEmails(token), state),
    onError: (error) => showErrorToast(error, fallback),
  });
}

/** The link's "Unsubscribe": no more e-mails about its plan. */
export function useUnsubscribe(token: string) {
  return useSetPlanEmails(token, 'POST', 'Failed to unsubscribe');
}

/** "Turn e-mails back on" after unsubscribing. */
export function useResubscribe(token: string) {
  return useSetPlanEmails(token, 'DELETE', 'Failed to turn e-mails back on');
}
