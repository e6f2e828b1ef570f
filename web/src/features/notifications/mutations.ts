import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { showErrorToast } from '../../lib/toast';
import { identityKey, turnOffPush, turnOnPush, type PushIdentity } from '../../lib/device-push';
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

/** "Turn on notifications" (asks the browser's permission) and "Turn off", for one identity on this device. */
export function useDevicePush(identity: PushIdentity) {
  const queryClient = useQueryClient();
  const key = notificationKeys.device(identityKey(identity));
  const turnOn = useMutation({
    mutationFn: () => turnOnPush(identity),
    onSuccess: (state) => queryClient.setQueryData(key, state),
    onError: (error) => showErrorToast(error, 'Could not turn on notifications in this browser'),
  });
  const turnOff = useMutation({
    mutationFn: () => turnOffPush(identity),
    onSuccess: (state) => queryClient.setQueryData(key, state),
    onError: (error) => showErrorToast(error, 'Could not turn off notifications'),
  });
  return { turnOn, turnOff };
}
