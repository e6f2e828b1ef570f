// `npm run bench:live`: how fast a change reaches the open phones, and what an
// open stream costs the function. Starts its own PostgreSQL (throwaway) and
// one API instance under Deno on free ports, opens 500 streams on one plan
// plus 50 on each of 10 more plans, casts 20 votes per second for a while
// spread over those plans, and measures, for every vote and every stream
// watching its plan, the time from sending the vote to the stream receiving
// the change. Prints a table and writes it into docs/performance.md between
// the live-bench markers. Not part of `npm test`: timings on a shared
// machine are for reading, never for asserting.
import { setMaxListeners } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { signSessionToken } from '../supabase/functions/_shared/auth.ts';
import postgres from 'postgres';
import { ROOT, prepareDatabase, startEmbeddedPostgres, tempDataDir } from './lib/db.ts';
import { readEventStream } from './lib/sse-reader.ts';
import { freePort, spawnService, startApi, TEST_RATE_LIMITS, waitForHttp } from './lib/services.ts';

const HOT_STREAMS = 500;
const OTHER_PLANS = 10;
const STREAMS_PER_OTHER = 50;
const VOTES_PER_SECOND = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const JWT_SECRET = randomUUID() + randomUUID();

const log = (line: string) => console.log(`[bench] ${line}`);

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

async function main() {
  log('starting PostgreSQL and the API (Deno) on free ports...');
  const db = await startEmbeddedPostgres({ dir: tempDataDir('bench-live'), port: await freePort(), persistent: false });
  const apiPort = await freePort();
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  const abort = new AbortController();
  setMaxListeners(10_000, abort.signal);
  try {
    await prepareDatabase(db.url);
    api = await startApi({
      port: apiPort,
      env: {
        DATABASE_URL: db.url,
        JWT_SECRET,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: '9',
        MAIL_FROM: 'Hangplan <bench@hangplan.local>',
        APP_ORIGIN: 'http://localhost:5173',
        EXPOSE_MEMORY_STATS: '1',
        // All of the bench's guests join from 127.0.0.1.
        RATE_LIMITS: TEST_RATE_LIMITS,
      },
      v8Flags: ['--expose-gc'],
    });
    const base = `http://127.0.0.1:${apiPort}/functions/v1/api`;
    const owner = postgres(db.url, { max: 2, onnotice: () => {} });

    log('creating the plans, guests and ideas through the API...');
    const [{ id: hostId }] = await owner<{ id: string }[]>`
      insert into app.users (email, first_name) values ('host@bench.local', 'Host') returning id`;
    // A real session (as verify-otp starts one), then the token naming it.
    const [{ id: sessionId }] = await owner<{ id: string }[]>`insert into app.sessions (user_id) values (${hostId}) returning id`;
    const hostToken = await signSessionToken(hostId, sessionId, { secret: JWT_SECRET });
    const post = async (p: string, body: unknown, auth?: string, guestSecret?: string) => {
      const res = await fetch(`${base}${p}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(auth ? { authorization: `Bearer ${auth}` } : {}),
          ...(guestSecret ? { 'x-guest-secret': guestSecret } : {}),
        },
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`POST ${p}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    interface BenchPlan {
      id: string;
      streams: number;
      ideaId: string;
      guests: { id: string; secret: string }[];
      version: number;
      sent: Map<number, number>;
    }
    const plans: BenchPlan[] = [];
    for (let i = 0; i <= OTHER_PLANS; i++) {
      const plan = await post('/plans', { title: `Bench ${i}` }, hostToken);
      const idea = await post(`/plans/${plan.id}/ideas`, { text: 'Bowling' }, hostToken);
      const guests = [];
      for (let g = 0; g < 20; g++) {
        const guest = await post('/guest-session', { name: `Guest ${g}`, planId: plan.id });
        guests.push({ id: guest.id as string, secret: guest.secret as string });
      }
      plans.push({ id: plan.id, streams: i === 0 ? HOT_STREAMS : STREAMS_PER_OTHER, ideaId: idea.id, guests, version: 0, sent: new Map() });
    }
    for (const plan of plans) {
      const [row] = await owner`select version from app.plan_versions where plan_id = ${plan.id}`;
      plan.version = Number(row.version);
    }

    const memoryBefore = await memoryOf(`${base}/health?memory=1`);
    const totalStreams = plans.reduce((n, p) => n + p.streams, 0);
    log(`opening ${totalStreams} streams (${HOT_STREAMS} on one plan, ${STREAMS_PER_OTHER} on each of ${OTHER_PLANS} more)...`);
    const delays: number[] = [];
    const byPlan = new Map(plans.map((p) => [p.id, p]));
    let opened = 0;
    const opening: Promise<void>[] = [];
    for (const plan of plans) {
      for (let s = 0; s < plan.streams; s++) {
        opening.push(
          openStream(
            `${base}/plans/${plan.id}/events`,
            (planId, version, at) => {
              const sentAt = byPlan.get(planId)?.sent.get(version);
              if (sentAt !== undefined) delays.push(at - sentAt);
            },
            abort.signal,
          ).then(() => void (opened += 1)),
        );
      }
    }
    await Promise.all(opening);
    await new Promise((r) => setTimeout(r, 1000));
    const memoryAfter = await memoryOf(`${base}/health?memory=1`);
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    log(`${opened} streams open; function RSS ${mb(memoryBefore.rss)} MB -> ${mb(memoryAfter.rss)} MB`);

    log(`voting: ${VOTES_PER_SECOND} per second for ${SECONDS} s (half on the busy plan)...`);
    const votes = VOTES_PER_SECOND * SECONDS;
    const queues = new Map(plans.map((p) => [p.id, Promise.resolve()]));
    const started = performance.now();
    for (let n = 0; n < votes; n++) {
      const due = started + (n * 1000) / VOTES_PER_SECOND;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      const plan = n % 2 === 0 ? plans[0] : plans[1 + ((n >> 1) % OTHER_PLANS)];
      const guest = plan.guests[n % plan.guests.length];
      // Votes on one plan go one after another, so the k-th makes version + k.
      queues.set(
        plan.id,
        queues.get(plan.id)!.then(async () => {
          plan.version += 1;
          plan.sent.set(plan.version, performance.now());
          await post(`/ideas/${plan.ideaId}/vote`, { guestId: guest.id }, undefined, guest.secret);
        }),
      );
    }
    await Promise.all(queues.values());
    await new Promise((r) => setTimeout(r, 2000));

    const expected = plans.reduce((n, p) => n + p.sent.size * p.streams, 0);
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
    const verdict = percentile(sorted, 99) <= 1000 && ours.heapKb < 50 && delays.length === expected;
    const table = [
      '| measure | value |',
      '|---|---|',
      ...rows.map(([k, v]) => `| ${k} | ${v} |`),
      '',
      `Goal: p99 ≤ 1 s, every change delivered, under 50 KB of the function's live memory per stream: **${verdict ? 'met' : 'NOT met'}**.`,
      `Run on ${new Date().toISOString().slice(0, 10)} (${SECONDS} s of votes; delay measured from sending the vote to each stream receiving its change, so it includes the vote itself).`,
    ].join('\n');
    console.log(`\n${table}\n`);
    writeSection(table);
    await owner.end();
    if (!verdict) process.exitCode = 1;
  } finally {
    abort.abort();
    await api?.stop();
    await db.stop();
  }
}

function writeSection(table: string): void {
  const file = path.join(ROOT, 'docs/performance.md');
  const begin = '<!-- live-bench:begin -->';
  const end = '<!-- live-bench:end -->';
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < 0) throw new Error('docs/performance.md lacks the live-bench markers');
  writeFileSync(file, `${text.slice(0, from + begin.length)}\n${table}\n${text.slice(to)}`);
  log('written to docs/performance.md');
}

await main();
