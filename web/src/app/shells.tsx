// The static shells of web/index.html (built by web/prerender-shells.ts):
// the markup React renders first on the pages people arrive on from outside,
// rendered to HTML at build time so the browser paints it before any
// JavaScript has loaded. public/shell.js picks the one for the address;
// React's first render replaces it with the same thing, live.
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PLAN_STATUSES, type PlanStatus } from '../../../supabase/functions/_shared/contract/common';
import { Splash } from '../components/splash';
import { paths } from '../config/paths';
import { authKeys } from '../features/auth';
import { JoinScreen } from '../features/guests/components/join-screen';
import { PublicLayout } from '../features/guests/components/public-layout';
import { planPhaseLabel } from '../features/guests/plan-phase';
import { LandingScreen } from '../features/landing/components/landing-screen';
import { LoadingPlan, planKeys, type Plan } from '../features/plans';
import { AppProviders } from './providers';

type ShellName = 'landing' | 'join' | 'splash';

export interface Shell {
  markup: string;
  /**
   * A shell of a plan's page: the plan statuses it is for. public/shell.js
   * shows it once the plan has come, with the plan's own texts in its slots.
   */
  planStatuses?: readonly PlanStatus[];
  /** The slug its links were rendered with, for shell.js to put the plan's in. */
  planSlug?: string;
}

/**
 * The texts of a plan shell that public/shell.js fills in: a text node that
 * is exactly `[[plan.{field}]]` is replaced by the plan's field of that name,
 * and its element removed when the plan has none (no description).
 */
export const planSlot = (field: 'title' | 'description') => `[[plan.${field}]]`;

/** The slug in a plan shell's links (the join page's 'Sign In Instead'), which shell.js replaces with the plan's. */
const SHELL_SLUG = 'shell-slug';

function render(route: string, screen: ReactNode, queryClient = new QueryClient()): string {
  return renderToString(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>{screen}</MemoryRouter>
    </AppProviders>,
  );
}

/** The join page as a signed-out visitor sees it once the plan (of `status`, with slots for its texts) is in. */
function renderJoinWithPlan(status: PlanStatus): string {
  const plan: Plan = {
    id: 'shell-plan',
    slug: SHELL_SLUG,
    title: planSlot('title'),
    description: planSlot('description'),
    isOpenInvite: true,
    status,
    hostId: 'shell-host',
    participantCount: 0,
  };
  const queryClient = new QueryClient();
  queryClient.setQueryData(planKeys.bySlug(SHELL_SLUG), plan);
  queryClient.setQueryData(authKeys.me(), null);
  return render(
    paths.join.getHref(SHELL_SLUG),
    <Routes>
      <Route path={paths.join.path} element={<JoinScreen />} />
    </Routes>,
    queryClient,
  );
}

/** One join page shell per phase badge ('Planning phase', 'Active'), with the statuses each is for. */
function joinWithPlanShells(): Record<string, Shell> {
  const shells: Record<string, Shell> = {};
  for (const status of PLAN_STATUSES) {
    const name = `join-${planPhaseLabel(status).toLowerCase().replace(/\W+/g, '-')}`;
    const statuses = [...(shells[name]?.planStatuses ?? []), status];
    shells[name] = { markup: shells[name]?.markup ?? renderJoinWithPlan(status), planStatuses: statuses, planSlug: SHELL_SLUG };
  }
  return shells;
}

export function renderShells(): Record<ShellName, Shell> & Record<string, Shell> {
  return {
    // `/` signed out (no stored token): the landing page.
    landing: { markup: render('/', <LandingScreen />) },
    // `/l/{slug}` signed out: the join page while its plan loads.
    join: {
      markup: render(
        paths.join.getHref(SHELL_SLUG),
        <PublicLayout>
          <LoadingPlan />
        </PublicLayout>,
      ),
    },
    // ...and once it has come (public/shell.js asks for it at once).
    ...joinWithPlanShells(),
    // Any page with a stored token: the splash while the session loads (spec §2).
    splash: { markup: render('/', <Splash />) },
  };
}
