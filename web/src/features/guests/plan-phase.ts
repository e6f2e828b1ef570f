/**
 * The join page's phase badge (spec §2: 'Planning phase' / 'Active'). While the
 * group still votes (status `planning`) the plan is in its planning phase; once
 * the host has locked a date (`time_range_locked`, the never-written
 * `date_locked`) or set the time (`completed`) it is on: 'Active'. A plan
 * the host called off says 'Cancelled' (docs/decisions/0100-cancelling-a-plan.md).
 */
export function planPhaseLabel(status: string): 'Planning phase' | 'Active' | 'Cancelled' {
  if (status === 'cancelled') return 'Cancelled';
  return status === 'planning' ? 'Planning phase' : 'Active';
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The "Is this you?" card's counts, or 'No votes yet'. */
export function guestVotesSummary(ideaVotes: number, availabilityVotes: number): string {
  if (ideaVotes === 0 && availabilityVotes === 0) return 'No votes yet';
  return `${plural(ideaVotes, 'idea vote', 'idea votes')}, ${plural(availabilityVotes, 'availability vote', 'availability votes')}`;
}
