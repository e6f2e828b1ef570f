import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, lowPriorityEntry, withCompileHint } from './prerender-shells';

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

describe("the built entry's compile hint", () => {
  it('starts the file with V8\'s magic comment, on a line of its own', () => {
    expect(COMPILE_HINT).toBe('//# allFunctionsCalledOnLoad\n');
    expect(withCompileHint('const a=1;\nexport{a};').code).toBe('//# allFunctionsCalledOnLoad\nconst a=1;\nexport{a};');
  });

  it('moves the source map down the one line it adds, leaving the rest of the map as it was', () => {
    const map = JSON.stringify({ version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA,SAAS;AACT' });
    const { map: moved } = withCompileHint('x', map);
    expect(JSON.parse(moved!)).toEqual({ version: 3, sources: ['a.ts'], names: [], mappings: ';AAAA,SAAS;AACT' });
  });
});
