import { useQuery } from '@tanstack/react-query';
import { planRoleOf } from './plan-access';
import { planParticipantsQueryOptions } from './queries';
import type { ParticipantRole, Plan } from '../../../../supabase/functions/_shared/contract/plans';

export interface PlanRole {
  role: ParticipantRole | null;
  /** The host alone: delete the plan, reset its link, choose co-hosts (docs/decisions/0099-what-stays-the-hosts.md). */
  isHost: boolean;
  /** The host or a co-host: every other host control (docs/decisions/0098-cohosts.md). */
  runsPlan: boolean;
}

/**
 * The one answer the screens ask for "may this person use the host's
 * controls": the host by the plan's hostId at once; a co-host by the
 * participants list (asked only for a signed-in non-host, and shared with
 * the Who's coming list; live updates refresh it when roles change).
 */
export function usePlanRole(plan: Pick<Plan, 'id' | 'hostId'>, userId: string | undefined): PlanRole {
  const asks = userId !== undefined && plan.hostId !== userId;
  const { data: participants } = useQuery({ ...planParticipantsQueryOptions(plan.id), enabled: asks });
  const role = planRoleOf(plan, participants, userId);
  return { role, isHost: role === 'host', runsPlan: role !== null };
}
