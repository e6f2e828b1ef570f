import { useEffect, useRef, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter, useLocation } from 'react-router-dom';
import { screenChanged } from '../lib/app-update';
import { startOfflineActionsIfAny } from '../lib/offline-actions/start';
import { createQueryClient } from '../lib/query-client';
import { AppRoutes } from './app-routes';
import { AppProviders } from './providers';

/** Each change of screen (not the first one) is the moment a waiting build may take over (lib/app-update.ts). */
function ScreenChanges() {
  const { pathname } = useLocation();
  const first = useRef(pathname);
  useEffect(() => {
    if (pathname !== first.current) screenChanged();
  }, [pathname]);
  return null;
}

/** The whole app; `queryClient` when its cache was filled before the first render (main.tsx). */
export function App({ queryClient: given }: { queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  // Votes and comments an earlier visit could not send go now (lib/offline-actions/).
  useEffect(() => startOfflineActionsIfAny(queryClient), [queryClient]);
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <ScreenChanges />
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
