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
