// The public entry of features/plans: what other features may use (eslint.config.js).
// Everything else in the folder is the feature's own.
export { LoadingPlan } from './components/loading-plan';
export { ParticipantsList } from './components/participants-list';
export { PlanLoadState, isPlanGone } from './components/plan-load-state';
export { PlanStatusCard } from './components/plan-status-card';
export { requirePlanId, showPlanActionError, useLockDate, useUnlockPlan } from './host-mutations';
export { isPlanCancelled, isPlanHost } from './plan-access';
export { usePlanRole } from './use-plan-role';
export {
  planBySlugQueryOptions,
  planDetailQueryOptions,
  planKeys,
  planListQueryOptions,
  planParticipantsQueryOptions,
  refreshPlanMembership,
} from './queries';
export type { LinkedPlan } from './queries';
export type { Plan } from '../../../../supabase/functions/_shared/contract/plans';
