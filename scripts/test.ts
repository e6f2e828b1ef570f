// `npm test`: everything, in the order that fails fastest (the steps and
// why each is where it is: scripts/test-steps.ts).
// browser present? -> typecheck -> lint -> vitest (web, unit, db incl. Supabase
// advisors, api) -> vitest (stack) -> the README's commands in a short smoke
// mode -> every bench once in its smoke mode -> e2e.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { postgres15Binaries, ROOT } from './lib/db.ts';
import { REPORTS, STEPS } from './test-steps.ts';

mkdirSync(REPORTS, { recursive: true });

const only = process.argv.slice(2);
const steps = STEPS.filter((s) => only.length === 0 || only.some((o) => s.name.startsWith(o)));

// The database tests apply the schema on PostgreSQL 15 as well
// (tests/db/postgres-15.test.ts): say so now if it is missing.
if (steps.some((s) => s.name.startsWith('vitest: web, unit, db'))) {
  const pg15 = postgres15Binaries().postgres;
  if (!isExecutableFile(pg15)) {
    console.error(
      `The database tests apply the schema on PostgreSQL 15 too, which is not at ${pg15}: install it with \`apt-get install -y postgresql-15\` (Debian/Ubuntu), or set PG15_BIN_DIR to its bin folder.`,
    );
    process.exit(1);
  }
}

// The end-to-end tests and Lighthouse need a browser: say so now, not after
// minutes of other steps. The same path playwright.config.ts launches.
if (steps.some((s) => s.needsBrowser)) {
  const browser = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!isExecutableFile(browser)) {
    console.error(
      process.env.CHROMIUM_PATH
        ? `The end-to-end tests and the web bench need Chromium, but CHROMIUM_PATH (${browser}) is not an executable file: point it at a Chromium or Chrome binary.`
        : `The end-to-end tests and the web bench need Chromium at ${browser}: install it with \`apt-get install -y chromium\` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
    );
    process.exit(1);
  }
}

/** The web app's build this run made (`npm run build`), for the steps that serve it. */
let built: string | undefined;
let passed = 0;
let failed = 0;
const results: string[] = [];
const failures: string[] = [];
for (const step of steps) {
  console.log(`\n=== ${step.name}`);
  if (step.report) rmSync(step.report.file, { force: true });
  const started = Date.now();
  const env = { ...process.env, ...(step.servesBuild && built ? { HANGPLAN_WEB_BUILD: built } : {}) };
  const result = spawnSync(step.command, step.args, { cwd: ROOT, stdio: 'inherit', env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  if (ok && step.builds) built = path.join(ROOT, 'web/dist');
  if (step.report) {
    const counts = readCounts(step.report.file, step.report.kind);
    passed += counts.passed;
    failed += counts.failed;
  }
  results.push(`${ok ? 'ok  ' : 'FAIL'} ${step.name} (${seconds} s)`);
  if (step.report) failures.push(...readFailures(step.report.file, step.report.kind));
  if (!ok) {
    failed += step.report ? 0 : 1;
    console.error(`\n${step.name} failed (exit ${result.status ?? result.signal}).`);
    break;
  }
}

console.log('\n=== Summary');
for (const line of results) console.log(line);
if (results.length < steps.length) console.log(`(${steps.length - results.length} step(s) not run)`);
const allOk = results.length === steps.length && results.every((r) => r.startsWith('ok'));
// What failed and why, at the end where a log's tail shows it (a CI run keeps
// only the last lines; the test's own report is far above).
for (const failure of failures) console.log(failure);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(allOk && failed === 0 ? 0 : 1);

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function readCounts(file: string, kind: 'vitest' | 'playwright'): { passed: number; failed: number } {
  if (!existsSync(file)) return { passed: 0, failed: 0 };
  const json = JSON.parse(readFileSync(file, 'utf8'));
  if (kind === 'vitest') return { passed: json.numPassedTests ?? 0, failed: json.numFailedTests ?? 0 };
  return { passed: json.stats?.expected ?? 0, failed: (json.stats?.unexpected ?? 0) + (json.stats?.flaky ?? 0) };
}

interface PlaywrightSuite {
  title: string;
  specs?: { title: string; file: string; line: number; tests: { projectName: string; status: string; results: { status: string; error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
}

/** Each failed test of a report: where it is, and the first lines of its error. */
function readFailures(file: string, kind: 'vitest' | 'playwright'): string[] {
  if (!existsSync(file)) return [];
  const json = JSON.parse(readFileSync(file, 'utf8'));
  // The colour codes of a test runner's messages (ESC [ ... m).
  const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
  const firstLines = (message = '') => message.replace(ANSI_COLOUR, '').split('\n').filter((l) => l.trim()).slice(0, 8).map((l) => `    ${l}`).join('\n');
  const out: string[] = [];
  if (kind === 'vitest') {
    for (const suite of json.testResults ?? []) {
      for (const test of suite.assertionResults ?? []) {
        if (test.status === 'failed') out.push(`FAILED ${path.relative(ROOT, suite.name)} > ${test.fullName}\n${firstLines(test.failureMessages?.[0])}`);
      }
    }
    return out;
  }
  const visit = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const last = test.results.at(-1);
        // An expected failure (test.fail) is 'expected': only unexpected and flaky outcomes count.
        if (last && test.status !== 'expected' && test.status !== 'skipped') {
          out.push(`FAILED [${test.projectName}] ${spec.file}:${spec.line} ${spec.title}\n${firstLines(last.error?.message)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of json.suites ?? []) visit(suite as PlaywrightSuite);
  return out;
}
