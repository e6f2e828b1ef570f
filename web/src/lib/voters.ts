// Who voted, in words (spec §9): the count and the voter avatars' summary, one
// copy for ideas and dates alike (components/voter-avatars.tsx shows it).
import { splitOverflow } from './overflow';
import type { Voter } from '../../../supabase/functions/_shared/contract/common';

/** Spec §9: voter avatars show 3 by default (4 in the date list), then '+N'. */
export const DEFAULT_MAX_VOTER_AVATARS = 3;

/** '1 vote' / 'n votes' (spec §9, the voter tooltip; also the vote buttons' and the days' labels). */
export function votesLabel(count: number): string {
  return `${count} ${count === 1 ? 'vote' : 'votes'}`;
}

/** What the voter avatars show: up to `max`, the '+N' of the others, the tooltip and a spoken summary. */
export function voterSummary(voters: readonly Voter[], max = DEFAULT_MAX_VOTER_AVATARS) {
  const { visible, hiddenCount } = splitOverflow(voters, max);
  const names = voters.map((voter) => (voter.isGuest ? `${voter.name} (Guest)` : voter.name));
  return {
    visible,
    overflowLabel: hiddenCount > 0 ? `+${hiddenCount}` : null,
    tooltip: votesLabel(voters.length),
    /** For screen readers: the names behind the avatars and the count. */
    accessibleLabel: `${votesLabel(voters.length)}: ${names.join(', ')}`,
  };
}
