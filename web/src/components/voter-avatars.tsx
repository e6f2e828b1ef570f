import { useEffect } from 'react';
import { Avatar, Box, Skeleton, Tooltip } from '@mantine/core';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { nameInitials } from '../lib/initials';
import { showErrorToast } from '../lib/toast';
import { DEFAULT_MAX_VOTER_AVATARS, voterSummary } from '../lib/voters';
import type { Voter } from '../../../supabase/functions/_shared/contract/common';

interface VoterAvatarsProps<K extends QueryKey> {
  /** Who voted: an idea's or a time slot's voters (the feature's query options). */
  voters: UseQueryOptions<Voter[], Error, Voter[], K>;
  /** Everyone in the list: a time slot's yes and if-need-be voters together. */
  voteCount: number;
  /** Spec §9: 3 by default, 4 in the date list. */
  max?: number;
}

/**
 * Who voted for an idea or a time slot: up to `max` initials, then '+N'; the
 * tooltip says '1 vote' / 'n votes' ('2 yes, 1 if need be' on a date someone
 * said "if need be" to, those outlined) and screen readers hear the names. Voters
 * are fetched only when there are votes (spec §7), and again when the count
 * changes. One copy for ideas and dates alike (docs/web-app.md "Code layout").
 */
export function VoterAvatars<K extends QueryKey>({ voters: options, voteCount, max = DEFAULT_MAX_VOTER_AVATARS }: VoterAvatarsProps<K>) {
  const query = useQuery({ ...options, enabled: voteCount > 0 });
  const { data: voters, error, refetch } = query;

  useEffect(() => {
    if (error) showErrorToast(error, 'Failed to fetch voters');
  }, [error]);

  // The count moved since the voters were read (someone else voted): read
  // them again. Runs when `stale` turns true, never in a loop.
  const stale = voteCount > 0 && voters !== undefined && voters.length !== voteCount;
  useEffect(() => {
    if (stale) void refetch();
  }, [stale, refetch]);

  if (voteCount <= 0 || error) return null;
  if (!voters) return <Skeleton circle h={28} aria-hidden="true" />;
  if (voters.length === 0) return null;

  const { visible, overflowLabel, tooltip, accessibleLabel } = voterSummary(voters, max);
  return (
    <Tooltip label={tooltip} events={{ hover: true, focus: true, touch: true }} withArrow>
      <Box component="span" tabIndex={0} role="img" aria-label={accessibleLabel} style={{ borderRadius: 999, display: 'inline-flex' }}>
        <Avatar.Group spacing={4}>
          {visible.map((voter) =>
            voter.answer === 'ifneedbe' ? (
              // "If need be" (a date's second answer): outlined and dashed, not by colour alone; the tooltip says it in words.
              <Avatar
                key={voter.id}
                size={28}
                radius="xl"
                variant="outline"
                color={voter.isGuest ? 'gray.7' : 'violet.7'}
                data-answer="ifneedbe"
                style={{ borderStyle: 'dashed', background: 'var(--mantine-color-body)' }}
              >
                {nameInitials(voter.name)}
              </Avatar>
            ) : (
              <Avatar key={voter.id} size={28} radius="xl" variant="filled" color={voter.isGuest ? 'gray.7' : 'violet'}>
                {nameInitials(voter.name)}
              </Avatar>
            ),
          )}
          {overflowLabel && (
            <Avatar size={28} radius="xl" color="gray.7" variant="light">
              {overflowLabel}
            </Avatar>
          )}
        </Avatar.Group>
      </Box>
    </Tooltip>
  );
}
