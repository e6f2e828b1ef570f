// No README command rots: every `npm`/`npx` command README.md names (in its
// shell blocks and its `code`) is run by a step of `npm test`
// (scripts/test-steps.ts, each step's `readme`), or NOT_RUN says why it
// cannot be run here. A command added to the README without either fails.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './lib/root.ts';
import { NOT_RUN, STEPS } from './test-steps.ts';

/** The command a line runs, as a key: `npm run <script>`, `npm <command>`, `npx <package> [<subcommand>]`; its settings, arguments and comments left out. */
function commandKey(words: string[]): string | undefined {
  const [tool, first, second] = words;
  if (tool === 'npm') return first === 'run' ? (second ? `npm run ${second}` : undefined) : first ? `npm ${first}` : undefined;
  if (tool === 'npx') return first === 'supabase' ? 'npx supabase' : [tool, first, second && !second.startsWith('-') ? second : undefined].filter(Boolean).join(' ');
  return undefined;
}

/** Every command of a shell line: `a && b`, `A=1 B=2 cmd ...`, a trailing comment. */
function commandsOfLine(line: string): string[] {
  return line
    .replace(/\s#.*$/, '')
    .split(/&&|\|\||;/)
    .flatMap((part) => {
      const words = part.trim().split(/\s+/).filter(Boolean);
      while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) words.shift();
      const key = commandKey(words);
      return key ? [key] : [];
    });
}

export function readmeCommands(markdown: string): string[] {
  const found = new Set<string>();
  /** The language of the fenced block the line is in (null: prose). */
  let fence: string | null = null;
  let continued = '';
  for (const raw of markdown.split('\n')) {
    const marker = /^\s*```(\w*)/.exec(raw);
    if (marker) {
      fence = fence === null ? marker[1]! : null;
      continued = '';
      continue;
    }
    if (fence === null) {
      for (const [, code] of raw.matchAll(/`([^`]+)`/g)) for (const key of commandsOfLine(code!)) found.add(key);
    } else if (['sh', 'bash', 'shell'].includes(fence)) {
      // A line ending in a backslash goes on on the next one.
      const line = continued + raw.trim();
      if (line.endsWith('\\')) {
        continued = line.slice(0, -1) + ' ';
        continue;
      }
      continued = '';
      for (const key of commandsOfLine(line)) found.add(key);
    }
  }
  return [...found].sort();
}

describe("README.md's commands", () => {
  const commands = readmeCommands(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  const run = new Set(STEPS.flatMap((step) => step.readme ?? []));

  it('are found (the README names its quick start, tests, benches, screenshots and build)', () => {
    expect(commands).toEqual(expect.arrayContaining(['npm start', 'npm test', 'npm run build', 'npm run screenshots', 'npm run bench', 'npx supabase']));
  });

  it('each is run by a step of npm test, or says why not', () => {
    expect(commands.filter((command) => !run.has(command) && !(command in NOT_RUN))).toEqual([]);
  });

  it('and every command a step claims to run is still in the README', () => {
    expect([...run, ...Object.keys(NOT_RUN)].filter((command) => !commands.includes(command))).toEqual([]);
  });

  it('the parser reads settings, chains, continued lines and comments', () => {
    const sample = [
      'Run `npm run db:reset` or `npm run dev`.',
      '```sh',
      'npm install && npm start',
      'DATABASE_URL=postgresql://x \\',
      'API_PORT=1 npm start        # comment npm run nope',
      'npx supabase secrets set A="$(openssl rand -base64 48)" \\',
      '  B=2',
      'npx web-push generate-vapid-keys          # prints',
      '```',
      '```sql',
      'select 1; -- npm run not-shell',
      '```',
      '```',
      'a diagram (`npm run not-a-command`)',
      '```',
    ].join('\n');
    expect(readmeCommands(sample)).toEqual(['npm install', 'npm run db:reset', 'npm run dev', 'npm start', 'npx supabase', 'npx web-push generate-vapid-keys']);
  });
});
