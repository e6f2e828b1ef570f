// The benches' tables and verdicts, and docs/performance.md's sections that
// hold them. A full run checks the budgets; a smoke run (`--smoke`) only
// fails on errors. Either way a failure sets the exit code.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { ROOT } from '../lib/db.ts';
import type { Measured } from './api.ts';
import type { Sample } from './measure.ts';
import { CONNECTIONS, LIGHTHOUSE_RUNS, SECONDS, SLICES, SMOKE, log } from './options.ts';
import type { PageScore } from './web.ts';

/** CPU per request of one sample: its database's + its server's, e.g. "0.84 + 0.35 ms". */
const cpuOf = (s: Sample) => (s.cpu ? `${s.cpu.db.toFixed(2)} + ${s.cpu.server.toFixed(2)} ms` : 'n/a');

/** CPU per request, database + server, with the baseline's in brackets. */
export function cpuCell(row: Sample, base: Sample): string {
  return `${cpuOf(row)} (${cpuOf(base)})`;
}

/**
 * The owner's budgets: a read at least 0.5x the read baseline; a write at
 * least 0.4x the durable-write baseline, since the live feed keeps exact,
 * commit-ordered plan versions (every write also bumps its plan's version).
 */
const BUDGETS = { read: 0.5, write: 0.4 } as const;

/**
 * The API table. A read is compared with the read baseline, a write with the
 * durable-write baseline (the read baseline's ratio shown beside it). The
 * tail budget is "p99 ≤ 2x the baseline's p99" compared at equal throughput:
 * with a fixed number of connections (closed loop) a request's latency is
 * mostly its wait in the queue, so by Little's law a row served at 0.3x of the
 * baseline's rate has ~3.3x its latency however short its tail is, and the raw
 * p99 would only restate the req/s. Scaling the p99 by the ratio keeps what the
 * budget is for: a tail that grows out of proportion (lock convoys, stalls,
 * retries) still fails it.
 */
export function apiReport(rows: Measured[]): string {
  const failed: string[] = [];
  const lines = [
    "| request | req/s | p50 | p99 | read baseline meanwhile: req/s, p99 | durable-write baseline meanwhile: req/s, p99 | vs read baseline | vs durable write | CPU per request: database + Deno | the same for its baseline | p99 at its baseline's rate | budget |",
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const growth = rows.find((r) => r.name.includes('500 ideas'));
  const ideas = rows.find((r) => r.name.includes('ideas (member)'));
  for (const r of rows) {
    const base = r.write ?? r.read;
    const ratio = r.row.rps / base.rps;
    const scaledP99 = Math.round(r.row.p99 * Math.min(1, ratio));
    const errors = r.row.errors + r.read.errors + (r.write?.errors ?? 0);
    if (errors) failed.push(`${r.name} (${errors} errors)`);
    let verdict = '';
    if (r.kind !== 'extra') {
      const budget = BUDGETS[r.kind];
      const tail = 2 * base.p99;
      const ok = ratio >= budget && scaledP99 <= tail;
      verdict = `≥ ${budget}x, ≤ ${tail} ms: ${ok ? 'met' : '**not met**'}`;
      if (!ok && !SMOKE) failed.push(r.name);
    } else if (r === growth && ideas) {
      const ok = r.row.rps * 2 >= ideas.row.rps;
      verdict = `within 2x of 120 ideas (${(ideas.row.rps / r.row.rps).toFixed(2)}x slower): ${ok ? 'met' : '**not met**'}`;
      if (!ok && !SMOKE) failed.push(r.name);
    }
    const pair = (s: Sample | undefined) => (s ? `${Math.round(s.rps)}, ${s.p99} ms` : '');
    lines.push(
      `| ${r.name}${errors ? ` (${errors} errors)` : ''} | ${Math.round(r.row.rps)} | ${r.row.p50} ms | ${r.row.p99} ms | ${pair(r.read)} | ${pair(r.write)} | ` +
        `${(r.row.rps / r.read.rps).toFixed(2)}x | ${r.write ? `${ratio.toFixed(2)}x` : ''} | ${cpuOf(r.row)} | ${cpuOf(base)} (${r.write ? 'durable write' : 'read'}) | ${scaledP99} ms | ${verdict} |`,
    );
  }
  const range = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
  const writes = rows.flatMap((r) => (r.write ? [r.write.rps] : []));
  lines.push(
    '',
    failed.length === 0 ? (SMOKE ? 'Smoke run: no errors (budgets not checked).' : 'Every API budget met.') : `Not met: ${failed.join('; ')}.`,
    ...writeSummary(rows),
    `The read baseline served ${range(rows.map((r) => r.read.rps))} req/s during this run${writes.length ? `, the durable-write baseline ${range(writes)} req/s` : ''}.`,
    `Run on ${new Date().toISOString().slice(0, 10)}, ${SECONDS} s per row in ${SLICES} slices alternating with the baselines', ${CONNECTIONS} connections, PostgreSQL with fsync on, on this machine (${cpus().length} cores).`,
  );
  if (failed.length) process.exitCode = 1;
  return lines.join('\n');
}

/**
 * The writes in one sentence: their ratio to the durable write and the CPU
 * each costs beside it (database + Deno), the numbers a change that adds CPU
 * to a write quotes in its commit (docs/performance.md "Budgets").
 */
function writeSummary(rows: Measured[]): string[] {
  const writes = rows.filter((r) => r.write && r.row.cpu && r.write.cpu);
  if (writes.length === 0) return [];
  const span = (xs: number[], digits: number) => {
    const [low, high] = [Math.min(...xs).toFixed(digits), Math.max(...xs).toFixed(digits)];
    return low === high ? low : `${low}–${high}`;
  };
  const of = (pick: (r: Measured) => number, digits = 2) => span(writes.map(pick), digits);
  return [
    `Writes: ${of((r) => r.row.rps / r.write!.rps)}x of the durable write, at ${of((r) => r.row.cpu!.db)} ms of database and ` +
      `${of((r) => r.row.cpu!.server)} ms of Deno CPU per write (the durable write: ${of((r) => r.write!.cpu!.db)} + ${of((r) => r.write!.cpu!.server)} ms).`,
  ];
}

/** The web table. A smoke run fails only when Lighthouse itself failed (it throws before this). */
export function webReport(scores: PageScore[]): string {
  const failed: string[] = [];
  const lines = [
    `| page | performance (median of ${LIGHTHOUSE_RUNS} runs; range) | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | JS before first render (compressed) |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of scores) {
    const ok = s.performance >= 95 && s.accessibility === 100 && s.bestPractices >= 95 && s.seo >= 95 && s.jsBeforeRender <= 150 * 1024 && s.cls === 0;
    if (!ok && !SMOKE) failed.push(s.page);
    lines.push(
      `| ${s.page} | ${s.performance} (${s.performanceRange[0]}–${s.performanceRange[1]}) | ${s.accessibility} | ${s.bestPractices} | ${s.seo} | ${(s.fcp / 1000).toFixed(1)} s | ${(s.lcp / 1000).toFixed(1)} s | ${Math.round(s.tbt)} ms | ${s.cls.toFixed(3)} | ${(s.jsBeforeRender / 1024).toFixed(0)} KB |`,
    );
  }
  lines.push(
    '',
    'Budgets: performance ≥ 95, accessibility 100, best practices and SEO ≥ 95, CLS 0, ≤ 150 KB of compressed JavaScript before first render.',
    SMOKE ? 'Smoke run: budgets not checked.' : failed.length === 0 ? 'Every web budget met.' : `Budgets not met: ${failed.join('; ')}.`,
  );
  if (failed.length) process.exitCode = 1;
  return lines.join('\n');
}

/** Replace the table between `<!-- name:begin -->` and `<!-- name:end -->` in docs/performance.md. */
export function writeSection(name: string, table: string): void {
  const file = path.join(ROOT, 'docs/performance.md');
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < 0) throw new Error(`docs/performance.md lacks the ${name} markers`);
  writeFileSync(file, `${text.slice(0, from + begin.length)}\n${table}\n${text.slice(to)}`);
  log(`the ${name} table written to docs/performance.md`);
}
