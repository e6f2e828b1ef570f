import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { showErrorToast, showSuccessToast } from '../../lib/toast';
import { authKeys } from '../auth/queries';
import type { ProfileInput } from './schema';

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    // An empty name is sent as '' and means "no name" (display falls back).
    mutationFn: async (input: ProfileInput) => {
      await apiRequest('PATCH', '/api/auth/profile', input);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: authKeys.me() });
      showSuccessToast('Profile updated', 'Your changes have been saved');
    },
    onError: (error) => showErrorToast(error, 'Failed to update profile'),
  });
}
