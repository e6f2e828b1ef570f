// `npm run bench:live`: how fast a change reaches the open phones, and what an
// open stream costs the function. On a bench stack (scripts/bench/stack.ts)
// it opens 500 streams on one plan plus 50 on each of 10 more plans, casts 20
// votes per second for a while spread over those plans, and measures, for
// every vote and every stream watching its plan, the time from sending the
// vote to the stream receiving the change. Prints a table and writes it into
// docs/performance.md between the live-bench markers. `--smoke` (what
// `npm test` runs): a few streams and a second of votes, no goal checked, but
// every change must still reach every stream.
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import { ROOT } from '../lib/db.ts';
import { readEventStream } from '../lib/sse-reader.ts';
import { freePort, spawnService, waitForHttp } from '../lib/services.ts';
import { apiCaller, planWith, type Guest } from './fixture.ts';
import { SMOKE, log } from './options.ts';
import { writeSection } from './report.ts';
import { withBenchStack, type BenchStack } from './stack.ts';

const HOT_STREAMS = SMOKE ? 20 : 500;
const OTHER_PLANS = SMOKE ? 2 : 10;
const STREAMS_PER_OTHER = SMOKE ? 5 : 50;
const GUESTS_PER_PLAN = SMOKE ? 5 : 20;
const VOTES_PER_SECOND = 20;
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_SECONDS ?? 15);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A minimal SSE reader: calls onChange(planId, version, receivedAt) for every change event. */
async function openStream(url: string, onChange: (planId: string, version: number, at: number) => void, signal: AbortSignal) {
  const res = await fetch(url, { signal, headers: { accept: 'text/event-stream' } });
  if (res.status !== 200) throw new Error(`stream answered ${res.status}`);
  const ready = new Promise<void>((resolve) => {
    readEventStream(res.body as unknown as AsyncIterable<Uint8Array>, (block) => {
      if (block.event === 'ready') resolve();
      if (block.event === 'change' && block.data) {
        const data = JSON.parse(block.data);
        onChange(data.planId, data.version, performance.now());
      }
    }).catch(() => {
      /* aborted */
    });
  });
  await ready;
}

interface StreamMemory {
  /** Growth of the process's resident memory, per stream. */
  rssKb: number;
  /** Growth of the live JavaScript heap after a full collection, per stream. */
  heapKb: number;
}

type MemoryUsage = { rss: number; heapUsed: number; external: number };

function perStream(before: MemoryUsage, after: MemoryUsage, count: number): StreamMemory {
  return {
    rssKb: (after.rss - before.rss) / 1024 / count,
    heapKb: (after.heapUsed + after.external - before.heapUsed - before.external) / 1024 / count,
  };
}

async function memoryOf(url: string): Promise<MemoryUsage> {
  const res = await fetch(url);
  const json = await res.json();
  return json.memory ?? json;
}

/** The same measure on the bare Deno.serve SSE server (scripts/bench/bare-sse.deno.ts). */
async function bareStreamMemory(count: number): Promise<StreamMemory> {
  const port = await freePort();
  const bare = spawnService('bare', path.join(ROOT, 'node_modules/.bin/deno'), ['run', '--allow-net', '--allow-env', '--v8-flags=--expose-gc', path.join(ROOT, 'scripts/bench/bare-sse.deno.ts')], {
    env: { PORT: String(port), DENO_NO_UPDATE_CHECK: '1' },
  });
  const abort = new AbortController();
  setMaxListeners(10_000, abort.signal);
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`, 30_000, bare);
    await new Promise((r) => setTimeout(r, 500));
    const before = await memoryOf(`http://127.0.0.1:${port}/memory`);
    await Promise.all(Array.from({ length: count }, () => openStream(`http://127.0.0.1:${port}/`, () => {}, abort.signal)));
    await new Promise((r) => setTimeout(r, 1000));
    return perStream(before, await memoryOf(`http://127.0.0.1:${port}/memory`), count);
  } finally {
    abort.abort();
    await bare.stop();
  }
}

interface LivePlan {
  id: string;
  streams: number;
  ideaId: string;
  guests: Guest[];
  version: number;
  /** When the vote that made each version was sent. */
  sent: Map<number, number>;
}

async function livePlans(stack: BenchStack): Promise<LivePlan[]> {
  log('creating the plans, guests and ideas through the API...');
  const hostToken = await stack.signIn('host@bench.local', 'Host');
  const plans: LivePlan[] = [];
  for (let i = 0; i <= OTHER_PLANS; i++) {
    const built = await planWith(stack, hostToken, { title: `Bench ${i}`, guests: GUESTS_PER_PLAN, ideas: 1 });
    const [row] = await stack.owner<{ version: string }[]>`select version from app.plan_versions where plan_id = ${built.plan.id}`;
    plans.push({
      id: built.plan.id,
      streams: i === 0 ? HOT_STREAMS : STREAMS_PER_OTHER,
      ideaId: built.ideaIds[0],
      guests: built.guests,
      version: Number(row.version),
      sent: new Map(),
    });
  }
  return plans;
}

/** Votes at VOTES_PER_SECOND for SECONDS, half on the busy plan; each plan's one after another, so the k-th makes version + k. */
async function castVotes(stack: BenchStack, plans: LivePlan[]): Promise<number> {
  const call = apiCaller(stack.api);
  const votes = VOTES_PER_SECOND * SECONDS;
  const queues = new Map(plans.map((p) => [p.id, Promise.resolve()]));
  const started = performance.now();
  for (let n = 0; n < votes; n++) {
    const due = started + (n * 1000) / VOTES_PER_SECOND;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    const plan = n % 2 === 0 ? plans[0] : plans[1 + ((n >> 1) % OTHER_PLANS)];
    const guest = plan.guests[n % plan.guests.length];
    queues.set(
      plan.id,
      queues.get(plan.id)!.then(async () => {
        plan.version += 1;
        plan.sent.set(plan.version, performance.now());
        await call('POST', `/ideas/${plan.ideaId}/vote`, { guestId: guest.id }, { guestSecret: guest.secret });
      }),
    );
  }
  await Promise.all(queues.values());
  return votes;
}

async function benchLive(stack: BenchStack): Promise<string> {
  const abort = new AbortController();
  setMaxListeners(10_000, abort.signal);
  try {
    const plans = await livePlans(stack);
    const memory = `${stack.api}/health?memory=1`;
    const memoryBefore = await memoryOf(memory);
    const totalStreams = plans.reduce((n, p) => n + p.streams, 0);
    log(`opening ${totalStreams} streams (${HOT_STREAMS} on one plan, ${STREAMS_PER_OTHER} on each of ${OTHER_PLANS} more)...`);
    const delays: number[] = [];
    const byPlan = new Map(plans.map((p) => [p.id, p]));
    const onChange = (planId: string, version: number, at: number) => {
      const sentAt = byPlan.get(planId)?.sent.get(version);
      if (sentAt !== undefined) delays.push(at - sentAt);
    };
    await Promise.all(plans.flatMap((plan) => Array.from({ length: plan.streams }, () => openStream(`${stack.api}/plans/${plan.id}/events`, onChange, abort.signal))));
    await new Promise((r) => setTimeout(r, 1000));
    const memoryAfter = await memoryOf(memory);
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    log(`${totalStreams} streams open; function RSS ${mb(memoryBefore.rss)} MB -> ${mb(memoryAfter.rss)} MB`);

    log(`voting: ${VOTES_PER_SECOND} per second for ${SECONDS} s (half on the busy plan)...`);
    const votes = await castVotes(stack, plans);
    const expected = plans.reduce((n, p) => n + p.sent.size * p.streams, 0);
    // Every change reaches every stream within a second or two; a smoke run on a busy machine waits longer.
    for (let waited = 0; delays.length < expected && waited < (SMOKE ? 10_000 : 2000); waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
    }

    const sorted = [...delays].sort((a, b) => a - b);
    const ours = perStream(memoryBefore, memoryAfter, totalStreams);
    log(`measuring the bare baseline: ${totalStreams} streams on a plain Deno.serve...`);
    const bare = await bareStreamMemory(totalStreams);
    const rows = [
      ['open streams', String(totalStreams)],
      ['votes', `${votes} (${VOTES_PER_SECOND}/s)`],
      ['deliveries', `${delays.length} of ${expected}`],
      ['delay p50', `${percentile(sorted, 50).toFixed(0)} ms`],
      ['delay p99', `${percentile(sorted, 99).toFixed(0)} ms`],
      ['delay max', `${sorted.at(-1)?.toFixed(0)} ms`],
      ['live JS memory per open stream, after a full GC (the function)', `${ours.heapKb.toFixed(1)} KB`],
      ['the same for a bare Deno.serve SSE stream (same run)', `${bare.heapKb.toFixed(1)} KB`],
      ['process RSS growth per open stream (the function)', `${ours.rssKb.toFixed(1)} KB`],
      ['process RSS growth per open stream (bare Deno.serve)', `${bare.rssKb.toFixed(1)} KB`],
    ];
    const delivered = delays.length === expected;
    const verdict = delivered && percentile(sorted, 99) <= 1000 && ours.heapKb < 50;
    if (SMOKE ? !delivered : !verdict) process.exitCode = 1;
    return [
      '| measure | value |',
      '|---|---|',
      ...rows.map(([k, v]) => `| ${k} | ${v} |`),
      '',
      SMOKE
        ? `Smoke run: ${delivered ? 'every change delivered' : '**changes missing**'} (no goal checked).`
        : `Goal: p99 ≤ 1 s, every change delivered, under 50 KB of the function's live memory per stream: **${verdict ? 'met' : 'NOT met'}**.`,
      `Run on ${new Date().toISOString().slice(0, 10)} (${SECONDS} s of votes; delay measured from sending the vote to each stream receiving its change, so it includes the vote itself).`,
    ].join('\n');
  } finally {
    abort.abort();
  }
}

const table = await withBenchStack(
  // The function reports its memory only when asked to, and collects garbage on request for it.
  { label: 'bench-live', apiEnv: { EXPOSE_MEMORY_STATS: '1' }, v8Flags: ['--expose-gc'] },
  benchLive,
);
console.log(`\n${table}\n`);
if (SMOKE) log('a smoke run: docs/performance.md left as it is');
else writeSection('live-bench', table);
