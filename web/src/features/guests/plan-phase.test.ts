import { describe, expect, it } from 'vitest';
import { guestVotesSummary, planPhaseLabel } from './plan-phase';

describe('planPhaseLabel', () => {
  it.each([
    ['planning', 'Planning phase'],
    ['time_range_locked', 'Active'],
    ['date_locked', 'Active'],
    ['completed', 'Active'],
    ['cancelled', 'Cancelled'],
  ])('%s -> %s', (status, label) => expect(planPhaseLabel(status)).toBe(label));
});

describe('guestVotesSummary', () => {
  it('counts both kinds, singular for one', () => {
    expect(guestVotesSummary(0, 0)).toBe('No votes yet');
    expect(guestVotesSummary(1, 0)).toBe('1 idea vote, 0 availability votes');
    expect(guestVotesSummary(2, 1)).toBe('2 idea votes, 1 availability vote');
  });
});
