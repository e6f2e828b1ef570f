import { describe, expect, it } from 'vitest';
import { voterSummary, votesLabel } from './voters';

describe('votesLabel', () => {
  it("says '1 vote' / 'n votes'", () => {
    expect(votesLabel(0)).toBe('0 votes');
    expect(votesLabel(1)).toBe('1 vote');
    expect(votesLabel(2)).toBe('2 votes');
  });
});

describe('voterSummary', () => {
  const voters = ['Ada Lovelace', 'Ben', 'Cy Young', 'Dee', 'Eve'].map((name, index) => ({ id: `v${index}`, name, isGuest: name === 'Dee' }));

  it("shows 3 by default, then '+N', with the count as tooltip", () => {
    const summary = voterSummary(voters);
    expect(summary.visible.map((v) => v.name)).toEqual(['Ada Lovelace', 'Ben', 'Cy Young']);
    expect(summary.overflowLabel).toBe('+2');
    expect(summary.tooltip).toBe('5 votes');
    expect(summary.accessibleLabel).toBe('5 votes: Ada Lovelace, Ben, Cy Young, Dee (Guest), Eve');
  });

  it('has no overflow up to the limit, and takes another limit', () => {
    expect(voterSummary(voters.slice(0, 1))).toMatchObject({ overflowLabel: null, tooltip: '1 vote' });
    expect(voterSummary(voters.slice(0, 3)).overflowLabel).toBeNull();
    expect(voterSummary(voters, 4)).toMatchObject({ overflowLabel: '+1' });
  });
});
