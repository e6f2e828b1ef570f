import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';

// Spec §7: never retry, never refetch on focus, never poll, never stale.
// Data changes only when a write invalidates it.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
