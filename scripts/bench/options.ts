// The switches of `npm run bench` and `npm run bench:live` (docs/performance.md
// "Running the benches"). `--smoke` is what `npm test` runs: every row and page
// once, briefly, no budgets, failing only on errors, so a broken bench fails
// CI instead of being found weeks later.
export const SMOKE = process.argv.includes('--smoke');
export const WEB_ONLY = process.argv.includes('--web');
export const API_ONLY = process.argv.includes('--api');

/** Seconds of load per API row (split into slices alternating with the baselines'). */
export const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_SECONDS ?? 5);
export const SLICES = SMOKE ? 1 : 3;
export const WARMUP_SECONDS = SMOKE ? 0 : 1;
export const CONNECTIONS = 50;

/** Only the API rows and pages whose name matches (a regular expression); the tables are then not written. */
export const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;
/** Print where the database's time went for each row (pg_stat_statements), for finding the next thing to speed up. */
export const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
/** Lighthouse runs per page: 5, as Lighthouse advises for its run-to-run variance. */
export const LIGHTHOUSE_RUNS = SMOKE ? 1 : Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5));
/** Record V8's CPU profile in each Lighthouse trace (kept with BENCH_LIGHTHOUSE_DIR). It slows the page, so the run is not recorded. */
export const LIGHTHOUSE_PROFILE = process.env.BENCH_LIGHTHOUSE_PROFILE === '1';

/** A run whose tables must not replace the recorded ones in docs/performance.md. */
export const PARTIAL_API = SMOKE || Boolean(ONLY) || STATEMENTS;
export const PARTIAL_WEB = SMOKE || Boolean(ONLY) || Boolean(process.env.BENCH_LIGHTHOUSE_RUNS) || LIGHTHOUSE_PROFILE;

export const log = (line: string) => console.log(`[bench] ${line}`);
