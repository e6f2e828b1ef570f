import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { LiveStatusSign } from '../components/live-status-sign';
import type { LiveHub } from '../lib/live/hub';
import { LiveHubProvider } from '../lib/live/live-context';
import { cssVariablesResolver, theme } from './theme';

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off transitions and portals (Mantine's advice for jsdom). */
  env?: 'default' | 'test';
  /** Where live updates come from: the tab's own hub (created by the first live screen) unless a test brings one. */
  liveHub?: LiveHub;
}

export function AppProviders({ queryClient, children, env = 'default', liveHub }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      forceColorScheme="light"
      env={env}
    >
      {/* Spec §9: one toast at a time, shown for 2500 ms. */}
      <Notifications limit={1} autoClose={2500} position="top-center" />
      <QueryClientProvider client={queryClient}>
        <LiveHubProvider hub={liveHub ?? null}>
          {children}
          <LiveStatusSign />
        </LiveHubProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
