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

/**
 * A date's answers in words: spec §9's '1 vote' / 'n votes' while nobody said
 * "if need be", else '2 yes, 1 if need be' (docs/decisions/0109-if-need-be-on-the-screens.md).
 */
export function answersLabel(yes: number, ifNeedBe = 0): string {
  return ifNeedBe > 0 ? `${yes} yes, ${ifNeedBe} if need be` : votesLabel(yes);
}

/** A voter as screen readers hear it: '(Guest)' after a guest, '(if need be)' after that answer. */
const spokenName = (voter: Voter) =>
  `${voter.name}${voter.isGuest ? ' (Guest)' : ''}${voter.answer === 'ifneedbe' ? ' (if need be)' : ''}`;

/** What the voter avatars show: up to `max`, the '+N' of the others, the tooltip and a spoken summary. */
export function voterSummary(voters: readonly Voter[], max = DEFAULT_MAX_VOTER_AVATARS) {
  const { visible, hiddenCount } = splitOverflow(voters, max);
  const ifNeedBe = voters.filter((voter) => voter.answer === 'ifneedbe').length;
  const tooltip = answersLabel(voters.length - ifNeedBe, ifNeedBe);
  return {
    visible,
    overflowLabel: hiddenCount > 0 ? `+${hiddenCount}` : null,
    tooltip,
    /** For screen readers: the names behind the avatars and the count. */
    accessibleLabel: `${tooltip}: ${voters.map(spokenName).join(', ')}`,
  };
}
