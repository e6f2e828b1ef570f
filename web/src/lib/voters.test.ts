import { describe, expect, it } from 'vitest';
import { answersLabel, voterSummary, votesLabel } from './voters';

describe('votesLabel', () => {
  it("says '1 vote' / 'n votes'", () => {
    expect(votesLabel(0)).toBe('0 votes');
    expect(votesLabel(1)).toBe('1 vote');
    expect(votesLabel(2)).toBe('2 votes');
  });
});

describe('answersLabel', () => {
  it("keeps spec §9's count while nobody said if need be, else names both answers", () => {
    expect(answersLabel(2)).toBe('2 votes');
    expect(answersLabel(1, 0)).toBe('1 vote');
    expect(answersLabel(2, 1)).toBe('2 yes, 1 if need be');
    expect(answersLabel(0, 3)).toBe('0 yes, 3 if need be');
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

  it("counts a date's answers apart and names who said if need be", () => {
    const dated = [
      { id: 'v1', name: 'Ada', isGuest: false, answer: 'yes' as const },
      { id: 'v2', name: 'Hal', isGuest: true, answer: 'ifneedbe' as const },
      { id: 'v3', name: 'Ben', isGuest: false, answer: 'yes' as const },
    ];
    expect(voterSummary(dated)).toMatchObject({
      tooltip: '2 yes, 1 if need be',
      accessibleLabel: '2 yes, 1 if need be: Ada, Hal (Guest) (if need be), Ben',
    });
  });
});
