import type { Participant, ParticipantRole, Plan } from '../../../../supabase/functions/_shared/contract/plans';

// Spec §6 and docs/api.md "Plans": the host is the user whose id is the
// plan's hostId; invite controls are for the host, or everyone when the plan
// has open invitations. A co-host (docs/api-after-the-date.md "Co-hosts",
// docs/decisions/0098-cohosts.md) is a member the participants list marks
// 'cohost': the host's controls are theirs too, but for what stays the
// host's (deleting the plan, its link, choosing co-hosts; 0099).

export function isPlanHost(plan: Pick<Plan, 'hostId'>, userId: string | undefined): boolean {
  return userId !== undefined && plan.hostId === userId;
}

/** The signed-in user's role in the plan: 'host', 'cohost' (by the participants list), or null. */
export function planRoleOf(
  plan: Pick<Plan, 'hostId'>,
  participants: readonly Pick<Participant, 'userId' | 'role'>[] | undefined,
  userId: string | undefined,
): ParticipantRole | null {
  if (isPlanHost(plan, userId)) return 'host';
  if (userId === undefined) return null;
  return participants?.some((p) => p.userId === userId && p.role === 'cohost') ? 'cohost' : null;
}

export function canInvite(plan: Pick<Plan, 'hostId' | 'isOpenInvite'>, userId: string | undefined): boolean {
  return plan.isOpenInvite || isPlanHost(plan, userId);
}

/** A cancelled plan (docs/decisions/0100-cancelling-a-plan.md): nothing to vote, suggest or answer until the host reopens it. */
export function isPlanCancelled(plan: Pick<Plan, 'status'>): boolean {
  return plan.status === 'cancelled';
}
