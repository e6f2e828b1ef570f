import { Badge } from '@mantine/core';
import type { ParticipantRole } from '../../../../../supabase/functions/_shared/contract/plans';

const ROLE_LABELS: Record<ParticipantRole, string> = { host: 'Host', cohost: 'Co-host' };

/** "Host" or "Co-host" beside a name (docs/decisions/0098-cohosts.md); nothing for everyone else. */
export function RoleBadge({ role }: { role: ParticipantRole | null | undefined }) {
  if (!role) return null;
  return (
    <Badge variant="light" radius="sm" style={{ flexShrink: 0 }}>
      {ROLE_LABELS[role]}
    </Badge>
  );
}
