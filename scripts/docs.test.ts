// The docs keep their own rules (docs/README.md, "Keeping the map true"): no
// page over 400 lines, every relative link and #anchor resolves, every section
// a code comment cites exists, and the map lists every page. Nothing else
// checks them, and without this they rotted once (web-app.md and api.md grew
// past 400 lines before they were split).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = path.join(ROOT, 'docs');
const MAX_LINES = 400;

/** Where code comments may cite the docs, and in which files. */
const SOURCE_DIRS = ['web', 'supabase', 'scripts', 'e2e', 'tests'];
const SOURCE_FILE = /\.(ts|tsx|js|mjs|sql|html)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.temp', '.branches', 'test-results', 'playwright-report']);

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const read = (file: string) => readFileSync(file, 'utf8');

function walk(dir: string, keep: (file: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : walk(full, keep);
    return entry.isFile() && keep(full) ? [full] : [];
  });
}

const mdIn = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(dir, name));

/** docs/*.md: the pages of the map. */
const topPages = mdIn(DOCS);
/** The pages the line rule is about: docs/*.md and docs/decisions/*.md. */
const pages = [...topPages, ...mdIn(path.join(DOCS, 'decisions'))];
/** Every markdown file whose links must resolve: docs/**\/*.md and the root README.md. */
const markdownFiles = [...walk(DOCS, (file) => file.endsWith('.md')), path.join(ROOT, 'README.md')];

/** The lines of a markdown file outside fenced code blocks (blanked inside them, so line numbers hold). */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return '';
    }
    return fence === null ? line : '';
  });
}

/** A heading's text as GitHub renders it: links to their text, no code ticks or emphasis marks. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/\s+#+\s*$/, '')
    .trim();
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (not hyphens or underscores), each space a hyphen. */
function slug(text: string): string {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

interface Heading {
  level: number;
  text: string;
}

const headingCache = new Map<string, Heading[]>();
function headings(file: string): Heading[] {
  let found = headingCache.get(file);
  if (!found) {
    found = proseLines(read(file)).flatMap((line) => {
      const match = /^(#{1,6})\s+(.+)$/.exec(line);
      return match ? [{ level: match[1].length, text: headingText(match[2]) }] : [];
    });
    headingCache.set(file, found);
  }
  return found;
}

/** The anchors GitHub gives a file's headings, a repeated one suffixed -1, -2, ... */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const { text } of headings(file)) {
    const base = slug(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Every inline link and image of a markdown file outside code (fenced blocks and `code spans`). */
function links(file: string): Link[] {
  return proseLines(read(file)).flatMap((line, index) => {
    const prose = line.replace(/`+[^`]*`+/g, 'code');
    return [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({
      file,
      line: index + 1,
      target: m[1],
    }));
  });
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

describe('the docs (docs/README.md "Keeping the map true")', () => {
  it(`no page is over ${MAX_LINES} lines: split it by topic before that`, () => {
    expect(pages.length).toBeGreaterThan(10);
    const tooLong = pages
      .map((file) => ({ file: rel(file), lines: read(file).replace(/\n$/, '').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file} has ${lines} lines (at most ${MAX_LINES})`);
    expect(tooLong).toEqual([]);
  });

  it('every relative link points to a file that exists, and every #anchor to a heading of it', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdownFiles) {
      for (const link of links(file)) {
        if (isExternal(link.target)) continue;
        checked += 1;
        const where = `${rel(link.file)}:${link.line}: (${link.target})`;
        const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
        const target = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
        if (!existsSync(target)) {
          broken.push(`${where}: no such file ${rel(target)}`);
          continue;
        }
        if (anchor === undefined || anchor === '' || !target.endsWith('.md') || statSync(target).isDirectory()) continue;
        if (!anchors(target).has(decodeURIComponent(anchor))) {
          broken.push(`${where}: ${rel(target)} has no heading #${anchor}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });

  it('every docs/<page>.md "<Section>" a source file cites is a page with that heading', () => {
    const self = fileURLToPath(import.meta.url);
    const sources = SOURCE_DIRS.flatMap((dir) => walk(path.join(ROOT, dir), (file) => SOURCE_FILE.test(file) && file !== self));
    const rootSources = readdirSync(ROOT)
      .filter((name) => SOURCE_FILE.test(name))
      .map((name) => path.join(ROOT, name));
    const broken: string[] = [];
    let checked = 0;
    for (const file of [...sources, ...rootSources]) {
      const text = read(file);
      if (!text.includes('docs/')) continue;
      // A citation may wrap: each line is joined to the one before, without the comment marker (//, *, --) it starts with.
      const lines = text.split('\n').map((line, index) => (index === 0 ? line : line.replace(/^\s*(?:\/\/+|--+|\*(?!\/))?/, '')));
      const starts: number[] = [];
      let offset = 0;
      for (const line of lines) {
        starts.push(offset);
        offset += line.length + 1;
      }
      const joined = lines.join(' ');
      const lineOf = (at: number) => {
        let index = 0;
        while (index + 1 < starts.length && starts[index + 1] <= at) index += 1;
        return index + 1;
      };
      // docs/page.md "Section", optionally followed by , "Another" or and "Another".
      const citation = /docs\/([\w./-]+?\.md)[ \t]+("[^"\n]+"(?:[ \t]*(?:,|and)[ \t]*"[^"\n]+")*)/g;
      for (const match of joined.matchAll(citation)) {
        const page = path.join(DOCS, match[1]);
        const where = `${rel(file)}:${lineOf(match.index)}: docs/${match[1]}`;
        if (!existsSync(page)) {
          broken.push(`${where}: no such page`);
          continue;
        }
        for (const [, quoted] of match[2].matchAll(/"([^"]+)"/g)) {
          checked += 1;
          const section = quoted.replace(/\s+/g, ' ').trim();
          const found = headings(page).some(
            ({ level, text }) => level > 1 && (text === section || (text.startsWith(section) && /^[\s:,(]/.test(text.slice(section.length)))),
          );
          if (!found) broken.push(`${where} "${section}": no heading of that page starts with it`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it('code and pages cite docs and decision records, never an issue number (the tracker does not travel with the repository)', () => {
    const self = fileURLToPath(import.meta.url);
    const files = [
      ...SOURCE_DIRS.flatMap((dir) => walk(path.join(ROOT, dir), (file) => SOURCE_FILE.test(file) && file !== self)),
      ...topPages,
      path.join(ROOT, 'README.md'),
    ];
    const cited: string[] = [];
    for (const file of files) {
      read(file)
        .split('\n')
        .forEach((line, index) => {
          // "issue 24", "issues 12 and 13", "issue #7"; another project's tracker ("rallly#2407") is a source, not ours.
          if (/\bissues? #?\d+/i.test(line)) cited.push(`${rel(file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(files.length).toBeGreaterThan(100);
    expect(cited).toEqual([]);
  });

  it("docs/README.md's table lists every page of docs/", () => {
    const map = read(path.join(DOCS, 'README.md'));
    const listed = new Set([...map.matchAll(/^\|\s*\[[^\]]*\]\(([^)#]+)\)/gm)].map((m) => m[1]));
    const missing = topPages
      .map((file) => path.basename(file))
      .filter((name) => name !== 'README.md' && !listed.has(name))
      .map((name) => `docs/${name} is not in the table of docs/README.md`);
    expect(missing).toEqual([]);
  });

  describe('docs/features.md, the feature map', () => {
    const MIGRATIONS = path.join(ROOT, 'supabase/migrations');
    const ROUTES = path.join(ROOT, 'supabase/functions/api/routes');
    const CONTRACT = path.join(ROOT, 'supabase/functions/_shared/contract');
    const FEATURES = path.join(ROOT, 'web/src/features');
    const map = read(path.join(DOCS, 'features.md'));
    const domains = proseLines(map).filter((line) => /^\|\s*[a-z]/.test(line) && line.split('|').length === 11);
    const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    /** Every path the map names, resolved: a bare name by its column (migration, route folder, contract file), else from the root. */
    const named: string[] = [];
    for (const row of domains) {
      const [, , migration, routes, contract, ...rest] = row.split('|').map((cell) => cell.trim());
      named.push(...ticked(migration).map((name) => (name.includes('/') ? name : `supabase/migrations/${name}`)));
      named.push(...ticked(routes).map((name) => (name.startsWith('supabase/') ? name : `supabase/functions/api/routes/${name}`)));
      named.push(...ticked(contract).map((name) => (name.includes('/') ? name : `supabase/functions/_shared/contract/${name}`)));
      named.push(...rest.flatMap(ticked));
    }
    const shared = proseLines(map).filter((line) => /^\|\s*[a-z]/.test(line) && line.split('|').length === 5);
    for (const row of shared) {
      const [, , where, tests] = row.split('|').map((cell) => cell.trim());
      named.push(...ticked(where).map((name) => (name.includes('/') ? name : `supabase/functions/_shared/contract/${name}`)), ...ticked(tests));
    }
    const norm = (p: string) => p.replace(/\/$/, '');
    const listed = new Set(named.map(norm));

    it('has a row per domain, and every path it names exists', () => {
      expect(domains.length).toBeGreaterThan(10);
      expect(named.filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
    });

    it('names every migration file, route folder, web feature folder and contract file', () => {
      const expected = [
        ...readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).map((f) => `supabase/migrations/${f}`),
        ...readdirSync(ROUTES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `supabase/functions/api/routes/${e.name}`),
        ...readdirSync(FEATURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `web/src/features/${e.name}`),
        ...readdirSync(CONTRACT)
          .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
          .map((f) => `supabase/functions/_shared/contract/${f}`),
      ];
      expect(expected.filter((p) => !listed.has(p))).toEqual([]);
    });

    it('names every test file of tests/db, tests/api and e2e', () => {
      const tests = [
        ...walk(path.join(ROOT, 'tests/db'), (f) => f.endsWith('.test.ts')),
        ...walk(path.join(ROOT, 'tests/api'), (f) => f.endsWith('.test.ts')),
        ...walk(path.join(ROOT, 'e2e'), (f) => f.endsWith('.spec.ts')),
      ].map(rel);
      expect(tests.filter((p) => !listed.has(p))).toEqual([]);
    });
  });
});
