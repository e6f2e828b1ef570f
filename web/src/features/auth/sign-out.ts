import type { QueryClient } from '@tanstack/react-query';
import { removeAuthToken } from '../../lib/auth-token';
import { reloadAt } from '../../lib/browser-location';

/** Spec §2: local only. No server call; the token simply stops being sent. */
export function signOut(queryClient: QueryClient): void {
  removeAuthToken();
  queryClient.clear();
  reloadAt('/');
}
