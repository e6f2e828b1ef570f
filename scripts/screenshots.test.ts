// docs/screenshots/ holds exactly the pictures `npm run screenshots` takes
// (scripts/screenshots/screens.ts), and its index is the one the script
// writes: a screen added, renamed or dropped in the script without a run
// fails here, as does a picture left behind by an old name.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './lib/root.ts';
import { SCREEN_NAMES, screenshotIndex } from './screenshots/screens.ts';

const FOLDER = path.join(ROOT, 'docs/screenshots');

describe('docs/screenshots', () => {
  it('holds one picture per screen of scripts/screenshots/screens.ts, and nothing else', () => {
    const files = readdirSync(FOLDER).filter((name) => name !== 'README.md').sort();
    expect(files).toEqual(SCREEN_NAMES.map((name) => `${name}.png`).sort());
  });

  it("has the index the script writes (README.md: every picture with what it shows)", () => {
    expect(readFileSync(path.join(FOLDER, 'README.md'), 'utf8')).toBe(screenshotIndex());
  });

  it('names each screen <nn>-<words>, numbered in the order of the story', () => {
    expect(SCREEN_NAMES.filter((name) => !/^\d{2}-[a-z]+(-[a-z]+)*$/.test(name))).toEqual([]);
    const numbers = SCREEN_NAMES.map((name) => Number(name.slice(0, 2)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });
});
