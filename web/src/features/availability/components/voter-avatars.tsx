import { useEffect } from 'react';
import { Avatar, Skeleton, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { nameInitials } from '../../../lib/initials';
import { splitOverflow } from '../../../lib/overflow';
import { showErrorToast } from '../../../lib/toast';
import { votersQueryOptions } from '../queries';

/** Spec §9: voter avatars show 4 in the date list, then '+N'. */
const DATE_LIST_MAX_VOTERS = 4;

export const votesLabel = (count: number) => `${count} ${count === 1 ? 'vote' : 'votes'}`;

/**
 * Who voted for a slot, first voters first. Voters are fetched only when the
 * count is above 0 (spec §7). The tooltip says '1 vote' / 'n votes' (spec §9);
 * the group is focusable so keyboard and touch users get it too.
 */
export function VoterAvatars({
  planId,
  timeSlotId,
  voteCount,
  max = DATE_LIST_MAX_VOTERS,
}: {
  planId: string;
  timeSlotId: string;
  voteCount: number;
  max?: number;
}) {
  const query = useQuery({ ...votersQueryOptions(planId, timeSlotId), enabled: voteCount > 0 });
  const { isError, error } = query;

  useEffect(() => {
    if (isError) showErrorToast(error, 'Failed to fetch voters');
  }, [isError, error]);

  if (voteCount <= 0 || isError) return null;
  if (!query.data) return <Skeleton circle h={28} w={28} aria-hidden="true" />;

  const { visible, hiddenCount } = splitOverflow(query.data, max);
  const names = query.data.map((voter) => voter.name).join(', ');
  return (
    <Tooltip label={votesLabel(voteCount)} withArrow events={{ hover: true, focus: true, touch: true }}>
      <Avatar.Group spacing={4} tabIndex={0} role="group" aria-label={`${votesLabel(voteCount)}: ${names}`} style={{ borderRadius: 999 }}>
        {visible.map((voter) => (
          <Avatar key={voter.id} size={28} radius="xl" variant="filled" color={voter.isGuest ? 'gray.7' : 'violet'} aria-hidden="true">
            {nameInitials(voter.name)}
          </Avatar>
        ))}
        {hiddenCount > 0 && (
          <Avatar size={28} radius="xl" variant="filled" color="gray.2" aria-hidden="true">
            +{hiddenCount}
          </Avatar>
        )}
      </Avatar.Group>
    </Tooltip>
  );
}
