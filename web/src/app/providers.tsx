import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { MantineProvider, useMantineColorScheme } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { LiveStatusSign } from '../components/live-status-sign';
import type { LiveHub } from '../lib/live/hub';
import { LiveHubProvider } from '../lib/live/live-context';
import { preloadable } from '../lib/preloadable';
import { whenIdle } from '../lib/when-idle';
import { applyThemeColor, colorSchemeManager } from './color-scheme';
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
 * The toasts' code (@mantine/notifications' component) is fetched once the
 * page is idle after its first render, and the toaster is rendered only when
 * a toast is raised: no page needs it to show, and on a phone mounting it
 * (its portal and transitions) was one more long task while the join page
 * was becoming usable. A toast raised before the code is there waits in the
 * notifications store (lib/toast) and shows when it arrives. Its CSS is in
 * the app's stylesheet (app/mantine-styles.ts), so loading it inserts none.
 */
export const Toaster = preloadable(() => import('./toaster').then((m) => m.Toaster));

function DeferredToaster() {
  const [raised, setRaised] = useState(false);
  const toastWaiting = useNotifications().notifications.length > 0;
  // Once mounted it stays: its exit transitions and the next toasts need it.
  if (toastWaiting && !raised) setRaised(true);
  useEffect(() => whenIdle(() => void Toaster.preload().catch(() => {})), []);
  return raised || toastWaiting ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/** The browser's bar follows the colour scheme chosen (Mantine sets the page's attribute itself). */
function ThemeColor() {
  const { colorScheme } = useMantineColorScheme();
  useEffect(() => applyThemeColor(colorScheme), [colorScheme]);
  return null;
}

export function AppProviders({ queryClient, children, env = 'default', liveHub }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      // The member's choice on this device, else the phone's (docs/web-app.md "Dark mode").
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      // The theme's CSS variables come from the stylesheet (theme-variables.css).
      withCssVariables={false}
      env={env}
    >
      <ThemeColor />
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
