// The steps of `npm test` (scripts/test.ts runs them), in the order that fails
// fastest, and the README commands each one runs (scripts/readme-commands.test.ts
// holds every command the README names to a step here, or to a reason in
// NOT_RUN). Where the time goes: docs/testing.md "Where the time goes".
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib/root.ts';

const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);
export const REPORTS = path.join(ROOT, 'test-results');

export interface Step {
  name: string;
  command: string;
  args: string[];
  /** Writes the web app's production build into web/dist (`npm run build`). */
  builds?: boolean;
  /**
   * Serves the web app: given the build of this run's `builds` step, if it ran
   * (HANGPLAN_WEB_BUILD, scripts/lib/stack.ts buildWeb), instead of building
   * its own. The app is built once per run, not once per stack.
   */
  servesBuild?: boolean;
  /** JSON report to read test counts from. */
  report?: { file: string; kind: 'vitest' | 'playwright' };
  needsBrowser?: boolean;
  /** The README commands this step runs, as the README writes them (e.g. `npm run build`). */
  readme?: string[];
}

const vitest = (name: string, projects: string[], report: string, maxWorkers?: number): Step => ({
  name,
  command: bin('vitest'),
  args: [
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    ...(maxWorkers ? [`--maxWorkers=${maxWorkers}`] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${path.join(REPORTS, report)}`,
  ],
  report: { file: path.join(REPORTS, report), kind: 'vitest' },
});

export const STEPS: Step[] = [
  { name: 'typecheck (web, scripts, tests)', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
  {
    name: 'typecheck (Edge Function, Deno)',
    command: bin('deno'),
    args: ['check', '--quiet', '--config', 'supabase/functions/api/deno.json', 'supabase/functions'],
  },
  // The static host's edge function (web/hosting/netlify/) and the handler it
  // runs, on Deno's types and with the npm imports resolved as Netlify does.
  { name: 'typecheck (Netlify edge function, Deno)', command: bin('deno'), args: ['check', '--quiet', 'scripts/lib/netlify-edge.deno.ts'] },
  { name: 'lint', command: bin('eslint'), args: ['.', '--max-warnings=0'] },
  // One test file per core: vitest's default leaves one core to itself
  // (cores - 1), which on this 2-core machine ran every file in turn while
  // the other core idled; the web project's files are mostly CPU (jsdom).
  vitest('vitest: web, unit, db (+ advisors), api', ['web', 'unit', 'db', 'api'], 'vitest.json', availableParallelism()),
  // On its own: it starts and kills whole stacks, which would only steal the
  // CPU from the timing-sensitive tests above if it ran beside them.
  { ...vitest('vitest: stack (npm start ended every way)', ['stack'], 'vitest-stack.json'), readme: ['npm start'] },
  // Every command the README names that no test runs, run the way it names
  // it, briefly: a command that rots fails here, not in a reader's terminal.
  { name: 'README: npm run build', command: 'npm', args: ['run', '--silent', 'build'], builds: true, readme: ['npm run build'] },
  {
    name: 'README: npm run db:reset, npm run dev',
    command: process.execPath,
    args: ['--import', 'tsx', 'scripts/smoke/dev.ts'],
    readme: ['npm run db:reset', 'npm run dev'],
  },
  {
    name: 'README: npx web-push generate-vapid-keys',
    command: 'npx',
    args: ['--no-install', 'web-push', 'generate-vapid-keys'],
    readme: ['npx web-push generate-vapid-keys'],
  },
  {
    name: 'README: npm run screenshots (smoke)',
    command: 'npm',
    args: ['run', '--silent', 'screenshots', '--', '--smoke'],
    servesBuild: true,
    needsBrowser: true,
    readme: ['npm run screenshots'],
  },
  // Every bench the README and docs/performance.md name, run the way they
  // name it, briefly and with no budget: a change that breaks a bench fails
  // here, not weeks later. A row that errors fails the step; timings do not.
  {
    name: 'bench smoke: npm run bench (API and web)',
    command: 'npm',
    args: ['run', '--silent', 'bench', '--', '--smoke'],
    servesBuild: true,
    needsBrowser: true,
    readme: ['npm run bench'],
  },
  { name: 'bench smoke: npm run bench:live', command: 'npm', args: ['run', '--silent', 'bench:live', '--', '--smoke'], readme: ['npm run bench:live'] },
  { name: 'bench smoke: sql-ab', command: process.execPath, args: ['--import', 'tsx', 'scripts/bench/sql-ab.ts', '--smoke'] },
  {
    name: 'e2e: Playwright in Chromium',
    command: bin('playwright'),
    args: ['test'],
    servesBuild: true,
    report: { file: path.join(REPORTS, 'playwright.json'), kind: 'playwright' },
    needsBrowser: true,
  },
];

/** README commands `npm test` does not run, and why. */
export const NOT_RUN: Record<string, string> = {
  'npm install': '`.ci/run` installs with `npm ci` before `npm test`, from the same lock file',
  'npm test': 'this is `npm test`',
  'npx supabase': "Supabase's CLI against Docker (`supabase start`) or a hosted project: neither is on this machine",
};
