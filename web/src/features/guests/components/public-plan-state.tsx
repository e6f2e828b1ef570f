import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { paths } from '../../../config/paths';
import { LoadingPlan } from '../../plans';
import { PlanLoadState } from '../../plans';
import type { Plan } from '../../plans';

/**
 * The plan a public link names: loading, not found (404), a retry on other
 * failures, or the plan. Spec §2 Join: unlike the signed-in pages, 'Go Home'
 * on a missing plan leads to / (the landing page, or home when signed in).
 */
export function PublicPlanState<P extends Plan>({ query, children }: { query: UseQueryResult<P>; children: (plan: P) => ReactNode }) {
  return (
    <PlanLoadState query={query} loading={<LoadingPlan />} homeHref={paths.landing.getHref()}>
      {children}
    </PlanLoadState>
  );
}
