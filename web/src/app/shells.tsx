// The static shells of web/index.html (built by web/prerender-shells.ts):
// the markup React renders first on the pages people arrive on from outside,
// rendered to HTML at build time so the browser paints it before any
// JavaScript has loaded. public/shell.js picks the one for the address;
// React's first render replaces it with the same thing, live.
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { Splash } from '../components/splash';
import { PublicLayout } from '../features/guests/components/public-layout';
import { LandingScreen } from '../features/landing/components/landing-screen';
import { LoadingPlan } from '../features/plans/components/loading-plan';
import { AppProviders } from './providers';

export type ShellName = 'landing' | 'join' | 'splash';

function render(route: string, screen: ReactNode): string {
  return renderToString(
    <AppProviders queryClient={new QueryClient()}>
      <MemoryRouter initialEntries={[route]}>{screen}</MemoryRouter>
    </AppProviders>,
  );
}

export function renderShells(): Record<ShellName, string> {
  return {
    // `/` signed out (no stored token): the landing page.
    landing: render('/', <LandingScreen />),
    // `/l/{slug}` signed out: the join page while its plan loads.
    join: render('/l/shell', (
      <PublicLayout>
        <LoadingPlan />
      </PublicLayout>
    )),
    // Any page with a stored token: the splash while the session loads (spec §2).
    splash: render('/', <Splash />),
  };
}
