import type { Plan } from '../../../../supabase/functions/_shared/contract/plans';

// Spec §6 and docs/api.md "Plans": the host is the user whose id is the
// plan's hostId; invite controls are for the host, or everyone when the plan
// has open invitations.

export function isPlanHost(plan: Pick<Plan, 'hostId'>, userId: string | undefined): boolean {
  return userId !== undefined && plan.hostId === userId;
}

export function canInvite(plan: Pick<Plan, 'hostId' | 'isOpenInvite'>, userId: string | undefined): boolean {
  return plan.isOpenInvite || isPlanHost(plan, userId);
}

/** A cancelled plan (docs/decisions/0100-cancelling-a-plan.md): nothing to vote, suggest or answer until the host reopens it. */
export function isPlanCancelled(plan: Pick<Plan, 'status'>): boolean {
  return plan.status === 'cancelled';
}
