import { describe, expect, it } from 'vitest';
import { splitOverflow, summarizeNames } from './overflow';

const names = ['Ada', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'];

describe('splitOverflow', () => {
  it('keeps the first max items and counts the rest', () => {
    expect(splitOverflow(names, 6)).toEqual({ visible: names.slice(0, 6), hiddenCount: 2 });
  });

  it('has nothing hidden at or under the limit', () => {
    expect(splitOverflow(names.slice(0, 6), 6)).toEqual({ visible: names.slice(0, 6), hiddenCount: 0 });
    expect(splitOverflow([], 6)).toEqual({ visible: [], hiddenCount: 0 });
  });

  it('treats a negative or fractional limit sanely', () => {
    expect(splitOverflow(names, -1)).toEqual({ visible: [], hiddenCount: 8 });
    expect(splitOverflow(names, 2.7).visible).toEqual(['Ada', 'Ben']);
  });
});

describe('summarizeNames', () => {
  it("shows up to 6 names then '+N'", () => {
    expect(summarizeNames(names, 6)).toBe('Ada, Ben, Cy, Dee, Eve, Fay +2');
  });

  it("has no '+N' when everyone fits", () => {
    expect(summarizeNames(['Ada', 'Ben'], 6)).toBe('Ada, Ben');
    expect(summarizeNames([], 6)).toBe('');
  });
});
