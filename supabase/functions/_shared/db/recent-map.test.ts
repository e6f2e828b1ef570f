import { describe, expect, it } from 'vitest';
import { RecentMap } from './recent-map.ts';

describe('RecentMap', () => {
  it('holds at most max entries, letting the least recently used go first', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1); // a is now the most recent
    map.set('c', 3);
    expect(map.size).toBe(2);
    expect(map.get('b')).toBeUndefined();
    expect(map.get('a')).toBe(1);
    expect(map.get('c')).toBe(3);
  });

  it('replaces an entry in place, and forgets on delete and clear', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1);
    map.set('a', 2);
    expect(map.size).toBe(1);
    expect(map.get('a')).toBe(2);
    map.delete('a');
    expect(map.get('a')).toBeUndefined();
    map.set('b', 1);
    map.clear();
    expect(map.size).toBe(0);
  });
});

describe('RecentMap bounded by bytes', () => {
  it('lets the least recently used go until the sizes fit, and counts replaced and deleted entries right', () => {
    const map = new RecentMap<string, string>(100, 10);
    map.set('a', 'A', 4);
    map.set('b', 'B', 4);
    expect(map.get('a')).toBe('A'); // a is now the most recent
    map.set('c', 'C', 4); // 12 > 10: b goes
    expect(map.get('b')).toBeUndefined();
    expect(map.bytes).toBe(8);
    map.set('a', 'A2', 1);
    expect(map.bytes).toBe(5);
    map.delete('c');
    expect(map.bytes).toBe(1);
    map.set('huge', 'H', 50); // larger than the whole budget: nothing stays, not even itself
    expect(map.size).toBe(0);
    expect(map.bytes).toBe(0);
  });
});
