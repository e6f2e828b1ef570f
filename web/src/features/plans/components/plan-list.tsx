import { Stack } from '@mantine/core';
import type { PlanSummary } from '../../../../../supabase/functions/_shared/contract/plans';
import { PlanCard } from './plan-card';

/** The plans in the server's order (spec §4): no sorting here. */
export function PlanList({ plans }: { plans: PlanSummary[] }) {
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {plans.map((plan) => (
        <li key={plan.id}>
          <PlanCard plan={plan} />
        </li>
      ))}
    </Stack>
  );
}
