// The web half of `npm run bench`: the production build served the way a
// static host serves it, and Lighthouse (mobile) on the landing and join pages.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../lib/services.ts';
import { buildWeb } from '../lib/stack.ts';
import { serveStatic } from '../lib/static-server.ts';
import { apiCaller } from './fixture.ts';
import { LIGHTHOUSE_PROFILE, LIGHTHOUSE_RUNS, ONLY, log } from './options.ts';
import type { BenchStack } from './stack.ts';

export interface PageScore {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  jsBeforeRender: number;
  /** The lowest and highest performance score of the runs. */
  performanceRange: [number, number];
}

export async function benchWeb(stack: BenchStack): Promise<PageScore[]> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'hangplan-bench-web-'));
  let web: Awaited<ReturnType<typeof serveStatic>> | undefined;
  try {
    log(process.env.HANGPLAN_WEB_BUILD ? `the web app's production build in ${process.env.HANGPLAN_WEB_BUILD}...` : 'building the web app (production)...');
    await buildWeb(outDir);
    web = await serveStatic(outDir, await freePort(), stack.api.replace(/\/api$/, ''));

    // Through the static host's /api rewrite, as the page itself calls it.
    const token = await stack.signIn('web@bench.local', 'Hana');
    const plan = await apiCaller(`${web.url}/api`)<{ slug: string }>('POST', '/plans', { title: 'Friday bowling' }, { token });

    const scores: PageScore[] = [];
    for (const [page, url] of [
      ['landing (/)', `${web.url}/`],
      ['join page (/l/{slug})', `${web.url}/l/${plan.slug}`],
    ] as const) {
      if (ONLY && !ONLY.test(page)) continue;
      log(`Lighthouse (mobile) on the ${page}...`);
      scores.push(await lighthouseScores(page, url));
    }
    return scores;
  } finally {
    await web?.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Lighthouse BENCH_LIGHTHOUSE_RUNS times (5, as Lighthouse advises for its
 * run-to-run variance) on one page; the page's scores are those of the median
 * run (Lighthouse's own computeMedianRun: nearest to the median FCP and time to
 * interactive), next to the range of the performance scores.
 */
async function lighthouseScores(page: string, url: string): Promise<PageScore> {
  const { computeMedianRun } = (await import('lighthouse/core/lib/median-run.js')) as unknown as {
    computeMedianRun: (runs: LighthouseResult[]) => LighthouseResult;
  };
  const reportDir = process.env.BENCH_LIGHTHOUSE_DIR;
  if (reportDir) mkdirSync(reportDir, { recursive: true });
  const runs: LighthouseResult[] = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
    const { lhr, trace } = await lighthouseRunWithRetries(page, url);
    runs.push(lhr);
    if (reportDir) {
      writeFileSync(path.join(reportDir, `${reportName(page)}-run-${i + 1}.json`), JSON.stringify(lhr));
      // The run's trace: open it in Chrome DevTools' Performance panel to see each task.
      writeFileSync(path.join(reportDir, `${reportName(page)}-run-${i + 1}.trace.json`), JSON.stringify(trace));
    }
    const score = pageScore(page, lhr);
    log(
      `${page}, run ${i + 1} of ${LIGHTHOUSE_RUNS}: performance ${score.performance}, TBT ${Math.round(score.tbt)} ms, LCP ${Math.round(score.lcp)} ms (this machine's benchmark index ${Math.round(lhr.environment.benchmarkIndex)})`,
    );
  }
  const median = computeMedianRun(runs);
  // BENCH_LIGHTHOUSE_DIR: keep the full reports there, each run's and the median's (to see what a score is made of).
  if (reportDir) {
    writeFileSync(path.join(reportDir, `${reportName(page)}.json`), JSON.stringify(median, null, 1));
  }
  const performances = runs.map((lhr) => categoryScore(lhr, 'performance'));
  return { ...pageScore(page, median), performanceRange: [Math.min(...performances), Math.max(...performances)] };
}

type LighthouseResult = import('lighthouse').Result;

const reportName = (page: string) => page.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');

/** One Lighthouse run; once more when a run fails to record its trace (NO_NAVSTART and the like), up to 3 tries. */
async function lighthouseRunWithRetries(page: string, url: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseRun(url);
    } catch (error) {
      if (attempt === 3) throw error;
      log(`${page}: ${(error as Error).message}; running Lighthouse again`);
    }
  }
}

interface LighthouseRun {
  lhr: LighthouseResult;
  /** The page load's trace, as Lighthouse recorded it. */
  trace: unknown;
}

async function lighthouseRun(url: string): Promise<LighthouseRun> {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      formFactor: 'mobile',
      ...(LIGHTHOUSE_PROFILE ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' } : {}),
    });
    const lhr = result!.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}`);
    return { lhr, trace: result!.artifacts.Trace };
  } finally {
    await chrome.kill();
  }
}

const categoryScore = (lhr: LighthouseResult, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);

function pageScore(page: string, lhr: LighthouseResult): Omit<PageScore, 'performanceRange'> {
  const metric = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
  const metrics = (lhr.audits.metrics?.details as { items?: Array<Record<string, number>> } | undefined)?.items?.[0] ?? {};
  const fcpAt = metrics.observedFirstContentfulPaint ?? Infinity;
  const requests = ((lhr.audits['network-requests']?.details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? []);
  // JavaScript asked for before the page first painted (what it had to load to render).
  const jsBeforeRender = requests
    .filter((r) => r.resourceType === 'Script' && Number(r.networkRequestTime ?? r.startTime ?? Infinity) < fcpAt)
    .reduce((sum, r) => sum + Number(r.transferSize ?? 0), 0);
  return {
    page,
    performance: categoryScore(lhr, 'performance'),
    accessibility: categoryScore(lhr, 'accessibility'),
    bestPractices: categoryScore(lhr, 'best-practices'),
    seo: categoryScore(lhr, 'seo'),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    jsBeforeRender,
  };
}
