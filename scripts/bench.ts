// `npm run bench`: the API's speed as ratios to bare baselines measured in the
// same run on the same machine (scripts/bench/api.ts), and the web app's weight
// and Lighthouse scores on a phone (scripts/bench/web.ts), each half on a
// stack of its own (scripts/bench/stack.ts: PostgreSQL with fsync on, as the
// product runs). `--api` or `--web` runs one half; `--smoke` runs every row
// and page once, briefly, checking no budget (what `npm test` runs). Prints the
// tables and, after a full run, writes them into docs/performance.md.
import { STATEMENT_SETTINGS, benchApi } from './bench/api.ts';
import { API_ONLY, PARTIAL_API, PARTIAL_WEB, STATEMENTS, WEB_ONLY, log } from './bench/options.ts';
import { apiReport, webReport, writeSection } from './bench/report.ts';
import { withBenchStack } from './bench/stack.ts';
import { benchWeb } from './bench/web.ts';

function record(name: string, table: string, partial: boolean): void {
  console.log(`\n${table}\n`);
  if (partial) log(`a smoke, partial or instrumented run: the ${name} table in docs/performance.md left as it is`);
  else writeSection(name, table);
}

if (!WEB_ONLY) {
  const rows = await withBenchStack(
    {
      label: 'bench',
      dbSettings: STATEMENTS ? STATEMENT_SETTINGS : [],
      // For profiling the function: e.g. BENCH_API_V8_FLAGS=--prof (an isolate-*.log for `node --prof-process`).
      v8Flags: process.env.BENCH_API_V8_FLAGS?.split(',').filter(Boolean),
    },
    benchApi,
  );
  record('api-bench', apiReport(rows), PARTIAL_API);
}
if (!API_ONLY) {
  const scores = await withBenchStack({ label: 'bench-web' }, benchWeb);
  record('web-bench', webReport(scores), PARTIAL_WEB);
}
