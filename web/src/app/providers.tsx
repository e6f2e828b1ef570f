import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { LiveStatusSign } from '../components/live-status-sign';
import type { LiveHub } from '../lib/live/hub';
import { LiveHubProvider } from '../lib/live/live-context';
import { preloadable } from '../lib/preloadable';
import { cssVariablesResolver, theme } from './theme';

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off transitions and portals (Mantine's advice for jsdom). */
  env?: 'default' | 'test';
  /** Where live updates come from: the tab's own hub (created by the first live screen) unless a test brings one. */
  liveHub?: LiveHub;
}

/**
 * The toasts' code and CSS (@mantine/notifications) load after the first
 * render: no page needs them to show. A toast raised before they are there
 * waits in the notifications store (lib/toast) and shows when they arrive.
 */
export const Toaster = preloadable(() => import('./toaster').then((m) => m.Toaster));

function DeferredToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setMounted(true));
    return () => clearTimeout(timer);
  }, []);
  return mounted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export function AppProviders({ queryClient, children, env = 'default', liveHub }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      forceColorScheme="light"
      // The theme's CSS variables come from the stylesheet (theme-variables.css).
      withCssVariables={false}
      env={env}
    >
      <DeferredToaster />
      <QueryClientProvider client={queryClient}>
        <LiveHubProvider hub={liveHub ?? null}>
          {children}
          <LiveStatusSign />
        </LiveHubProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
