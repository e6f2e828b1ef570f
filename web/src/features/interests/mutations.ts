import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { showErrorToast } from '../../lib/toast';
import { interestKeys } from './queries';
import { type UserInterest, userInterestSchema } from '../../../../supabase/functions/_shared/contract/interests';

type AddInterestInput = { freeFormText: string } | { catalogId: string; freeFormText: string };

/** POST /api/users/me/interests; the list is refetched after success. */
export function useAddInterest({ onAdded }: { onAdded?: (interest: UserInterest) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AddInterestInput) => {
      const res = await apiRequest('POST', apiPaths.myInterests(), input);
      return userInterestSchema.parse(await res.json());
    },
    onSuccess: async (interest) => {
      onAdded?.(interest);
      await queryClient.invalidateQueries({ queryKey: interestKeys.mine() });
    },
    onError: (error) => showErrorToast(error, 'Failed to add interest'),
  });
}

/** DELETE /api/users/me/interests/{id}; the list is refetched after success. */
export function useRemoveInterest({ onRemoved }: { onRemoved?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (interestId: string) => {
      await apiRequest('DELETE', apiPaths.myInterest(interestId));
    },
    onSuccess: async () => {
      onRemoved?.();
      await queryClient.invalidateQueries({ queryKey: interestKeys.mine() });
    },
    onError: (error) => showErrorToast(error, 'Failed to remove interest'),
  });
}
