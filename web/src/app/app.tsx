import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from '../lib/query-client';
import { AppRoutes } from './app-routes';
import { AppProviders } from './providers';

/** The whole app; `queryClient` when its cache was filled before the first render (main.tsx). */
export function App({ queryClient: given }: { queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
