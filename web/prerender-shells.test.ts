import { describe, expect, it } from 'vitest';
import { lowPriorityEntry } from './prerender-shells';

describe("the built index.html's entry script", () => {
  it('asks for the entry at low priority, behind what the first paint needs', () => {
    const html = '<head><script type="module" crossorigin src="/assets/index-abc.js"></script><link rel="stylesheet" crossorigin href="/assets/index.css"></head>';
    expect(lowPriorityEntry(html)).toBe(
      '<head><script fetchpriority="low" type="module" crossorigin src="/assets/index-abc.js"></script><link rel="stylesheet" crossorigin href="/assets/index.css"></head>',
    );
  });

  it('fails the build when it cannot tell which script is the entry', () => {
    expect(() => lowPriorityEntry('<head></head>')).toThrow('expected one entry script, found 0');
    const two = '<script type="module" crossorigin src="/a.js"></script><script type="module" crossorigin src="/b.js"></script>';
    expect(() => lowPriorityEntry(two)).toThrow('found 2');
  });
});
