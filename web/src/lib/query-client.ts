import { QueryClient } from '@tanstack/react-query';

// Spec §7: never retry, never refetch on focus, never poll, never stale: the
// fetch itself changes data only when a write invalidates it. Every query names
// its own `queryFn` (apiGet in ./api), so there is no default fetch.
// Screens that show a plan are kept fresh by the plan's change feed instead
// (lib/live): a change another participant makes invalidates exactly the
// queries it touched, and those refetch (mostly a 304) within a second.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
