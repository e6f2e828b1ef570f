// The API half of `npm run bench`: every plan read, every vote and comment
// write and the home list under autocannon load, each row in slices
// alternating with the bare baselines (scripts/bench/baseline.deno.ts): the
// read baseline for every row, and for the writes also the least a durable
// one-row write costs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { ROOT } from '../lib/db.ts';
import { startNetlifyEdge } from '../lib/netlify-edge.ts';
import { buildWeb } from '../lib/stack.ts';
import { spawnService, freePort, waitForHttp, type Service } from '../lib/services.ts';
import { buildFixture, type Fixture } from './fixture.ts';
import { measure, run, type Load, type Sample, type Target } from './measure.ts';
import { CONNECTIONS, ONLY, SECONDS, SLICES, STATEMENTS, WARMUP_SECONDS, log } from './options.ts';
import { cpuCell } from './report.ts';
import type { BenchStack } from './stack.ts';

export interface Measured {
  name: string;
  kind: Load['kind'];
  row: Sample;
  /** The read baseline, measured in slices alternating with the row's. */
  read: Sample;
  /** The durable-write baseline, likewise (write rows only). */
  write?: Sample;
}

/** The PostgreSQL settings `BENCH_STATEMENTS=1` needs. */
export const STATEMENT_SETTINGS = ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track=all', 'track_functions=all'];

async function startBaseline(dbUrl: string): Promise<{ service: Service; url: string }> {
  const port = await freePort();
  const service = spawnService(
    'baseline',
    path.join(ROOT, 'node_modules/.bin/deno'),
    ['run', '--allow-net', '--allow-env', '--allow-read', '--config', path.join(ROOT, 'supabase/functions/api/deno.json'), path.join(ROOT, 'scripts/bench/baseline.deno.ts')],
    { env: { DATABASE_URL: dbUrl, PORT: String(port), DENO_NO_UPDATE_CHECK: '1' } },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`, 30_000, service);
  } catch (error) {
    await service.stop();
    throw error;
  }
  return { service, url: `http://127.0.0.1:${port}` };
}

function loads(f: Fixture, etag: string, feedEtag: string, pictureEtag: string): Load[] {
  const member = { authorization: `Bearer ${f.hostToken}` };
  let turn = 0;
  /** The next guest's body and secret header (each write is a different guest's, in turn). */
  const asGuest = (body: (n: number) => Record<string, unknown>) => () => {
    const n = turn++;
    const guest = f.guests[n % f.guests.length];
    return { body: { ...body(n), guestId: guest.id }, headers: { 'x-guest-secret': guest.secret } };
  };
  const ideaId = f.ideaIds[0];
  return [
    { name: 'GET /api/plans/{id}', kind: 'read', path: `/plans/${f.plan.id}` },
    { name: 'GET /api/plans/slug/{slug}', kind: 'read', path: `/plans/slug/${f.plan.slug}` },
    { name: 'GET /api/plans/{id}/participants', kind: 'read', path: `/plans/${f.plan.id}/participants` },
    { name: 'GET /api/plans/{id}/ideas (member)', kind: 'read', path: `/plans/${f.plan.id}/ideas`, headers: member },
    { name: 'GET /api/plans/{id}/ideas?guestId=', kind: 'read', path: `/plans/${f.plan.id}/ideas?guestId=${f.guests[0].id}` },
    { name: 'GET /api/plans/{id}/timeslots', kind: 'read', path: `/plans/${f.plan.id}/timeslots` },
    { name: 'GET /api/plans/{id}/my-votes (member)', kind: 'read', path: `/plans/${f.plan.id}/my-votes`, headers: member },
    { name: 'GET /api/ideas/{id}/voters', kind: 'read', path: `/ideas/${ideaId}/voters` },
    { name: 'GET /api/ideas/{id}/comments', kind: 'read', path: `/ideas/${ideaId}/comments` },
    { name: 'GET /api/timeslots/{id}/voters', kind: 'read', path: `/timeslots/${f.slotId}/voters` },
    { name: 'GET /api/plans (home list, 10 plans)', kind: 'read', path: '/plans', headers: member },
    // Who's coming: the headcount of 61 people (a member's view, with `mine`).
    { name: 'GET /api/plans/{id}/rsvps (member)', kind: 'read', path: `/plans/${f.plan.id}/rsvps`, headers: member },
    { name: 'GET ideas, 500 ideas (growth)', kind: 'extra', path: `/plans/${f.bigPlan.id}/ideas`, headers: member },
    { name: 'GET ideas again, unchanged (304)', kind: 'extra', path: `/plans/${f.plan.id}/ideas`, headers: { ...member, 'if-none-match': etag }, expect: 304 },
    // A calendar app's poll of a member's feed (docs/calendars.md "Calendar feed"),
    // unchanged: anon, one statement, two index lookups, no body.
    { name: 'GET calendar feed, unchanged (304)', kind: 'read', path: f.feedPath, headers: { 'if-none-match': feedEtag }, expect: 304 },
    // The same poll without If-None-Match (as some calendar services send
    // it): the whole text of 10 events, from the instance's copy once built.
    { name: 'GET calendar feed, whole (10 plans)', kind: 'read', path: f.feedPath },
    // A link pasted into a busy chat: crawlers fetch the plan's preview picture
    // (docs/decisions/0106-the-picture.md), served from the instance's copy
    // once drawn (one statement checks the version), and revalidated (304).
    { name: 'GET preview.png (cached picture)', kind: 'read', path: `/plans/slug/${f.plan.slug}/preview.png` },
    { name: 'GET preview.png, unchanged (304)', kind: 'read', path: `/plans/slug/${f.plan.slug}/preview.png`, headers: { 'if-none-match': pictureEtag }, expect: 304 },
    { name: 'POST /api/ideas/{id}/vote (guest toggle)', kind: 'write', method: 'POST', path: `/ideas/${ideaId}/vote`, body: asGuest(() => ({})) },
    { name: 'POST /api/plans/{id}/vote-date (guest)', kind: 'write', method: 'POST', path: `/plans/${f.plan.id}/vote-date`, body: asGuest((n) => ({ date: f.dates[n % f.dates.length] })) },
    // Each request is another member's, in turn (one person does not send 50 votes at once).
    {
      name: 'POST /api/timeslots/{id}/vote (member)',
      kind: 'write',
      method: 'POST',
      path: `/timeslots/${f.slotId}/vote`,
      body: () => ({ body: {}, headers: { authorization: `Bearer ${f.memberTokens[turn++ % f.memberTokens.length]}` } }),
    },
    // Each request is another guest's answer, going, maybe and can't go in turn.
    {
      name: 'PUT /api/plans/{id}/rsvp (guest)',
      kind: 'write',
      method: 'PUT',
      path: `/plans/${f.plan.id}/rsvp`,
      body: asGuest((n) => ({ answer: (['going', 'maybe', 'no'] as const)[n % 3] })),
    },
    // Spread over the plan's ideas: an idea holds at most 500 comments (a cap).
    {
      name: 'POST /api/ideas/{id}/comments (guest)',
      kind: 'write',
      method: 'POST',
      path: `/ideas/${ideaId}/comments`,
      body: () => ({ ...asGuest(() => ({ text: 'Sounds good' }))(), path: `/ideas/${f.ideaIds[turn % f.ideaIds.length]}/comments` }),
    },
  ];
}

export async function benchApi(stack: BenchStack): Promise<Measured[]> {
  const baseline = await startBaseline(stack.dbUrl);
  const stats = STATEMENTS ? postgres(stack.dbUrl, { max: 1, onnotice: () => {} }) : undefined;
  let linkPage: Awaited<ReturnType<typeof startLinkPage>> = null;
  try {
    if (stats) await stats`create extension if not exists pg_stat_statements`;
    const f = await buildFixture(stack);
    // As pgbench does before it measures: the fixture's tables vacuumed and
    // analysed and its writes checkpointed now, so that autovacuum and the
    // checkpointer do not do it during (and on the CPU of) some row.
    await stack.owner`vacuum analyze`;
    await stack.owner`checkpoint`;
    const etag = (await fetch(`${stack.api}/plans/${f.plan.id}/ideas`, { headers: { authorization: `Bearer ${f.hostToken}` } })).headers.get('etag') ?? '';
    const feedEtag = (await fetch(`${stack.api}${f.feedPath}`)).headers.get('etag') ?? '';
    const pictureEtag = (await fetch(`${stack.api}/plans/slug/${f.plan.slug}/preview.png`)).headers.get('etag') ?? '';

    const apiGroup = stack.apiService.pid();
    const baseGroup = baseline.service.pid();
    const readBase: Target = { base: baseline.url, load: { name: 'read baseline', kind: 'read', path: '/' }, group: baseGroup };
    const writeBase: Target = { base: baseline.url, load: { name: 'durable-write baseline', kind: 'write', path: '/write' }, group: baseGroup };
    log(`measuring: ${SECONDS} s per row at ${CONNECTIONS} connections, in ${SLICES} slices alternating with the baselines'`);
    if (WARMUP_SECONDS) for (const b of [readBase, writeBase]) await run(b.base, b.load, WARMUP_SECONDS);
    const rows: Measured[] = [];
    const targets: Target[] = loads(f, etag, feedEtag, pictureEtag).map((load) => ({ base: stack.api, load, group: apiGroup }));
    linkPage = await startLinkPage(stack, f);
    if (linkPage) targets.push(linkPage.target);
    for (const { base, load, group } of targets) {
      if (ONLY && !ONLY.test(load.name)) continue;
      if (stats) await stats`select pg_stat_statements_reset(), pg_stat_reset()`;
      const isWrite = load.kind === 'write';
      const { row, baselines } = await measure({ base, load, group }, isWrite ? [readBase, writeBase] : [readBase]);
      const measured: Measured = { name: load.name, kind: load.kind, row, read: baselines[0], write: baselines[1] };
      rows.push(measured);
      logRow(measured);
      if (stats) await printStatements(stats, measured);
    }
    return rows;
  } finally {
    await linkPage?.stop();
    await stats?.end();
    await baseline.service.stop();
  }
}

const LINK_PAGE = 'GET /l/{slug} (link page: its card in the head)';

/**
 * The link page a chat's crawler fetches (docs/web-app.md "The link page's head"):
 * the static host's edge function under Deno as the host runs it
 * (scripts/lib/netlify-edge.ts), in front of the production build, asking
 * this stack's API for the card. Its cost is both processes' CPU. Null when
 * BENCH_ONLY leaves the row out (no build then).
 */
async function startLinkPage(stack: BenchStack, f: Fixture): Promise<{ target: Target; stop: () => Promise<void> } | null> {
  if (ONLY && !ONLY.test(LINK_PAGE)) return null;
  const webDir = mkdtempSync(path.join(tmpdir(), 'hangplan-bench-link-'));
  try {
    log(process.env.HANGPLAN_WEB_BUILD ? `the web app's production build in ${process.env.HANGPLAN_WEB_BUILD}...` : 'building the web app (production) for the link page...');
    await buildWeb(webDir);
    const edge = await startNetlifyEdge(webDir, stack.api);
    return {
      target: { base: edge.url, load: { name: LINK_PAGE, kind: 'read', path: `/l/${f.plan.slug}` }, group: [edge.service.pid(), stack.apiService.pid()].filter((pid) => pid !== undefined) },
      stop: async () => {
        await edge.service.stop();
        rmSync(webDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(webDir, { recursive: true, force: true });
    throw error;
  }
}

function logRow(m: Measured): void {
  const errors = m.row.errors + m.read.errors + (m.write?.errors ?? 0);
  const vs = (b: Sample, what: string) => `${what} ${Math.round(b.rps)} req/s (${(m.row.rps / b.rps).toFixed(2)}x)`;
  log(
    `${m.name}: ${Math.round(m.row.rps)} req/s, p50 ${m.row.p50} ms, p99 ${m.row.p99} ms; ` +
      `${vs(m.read, 'read baseline')}${m.write ? `, ${vs(m.write, 'durable-write baseline')}` : ''}` +
      `${errors ? `, ${errors} errors` : ''}; CPU per request: ${cpuCell(m.row, m.write ?? m.read)}`,
  );
}

/** Where the database's time went during one row: the statements by total execution time, per request. */
async function printStatements(stats: postgres.Sql, row: Measured) {
  const requests = Math.max(1, Math.round(row.row.rps * SECONDS));
  const top = await stats<{ query: string; calls: string; ms: number; plan_ms: number }[]>`
    select regexp_replace(left(query, 110), '[[:space:]]+', ' ', 'g') as query, calls::text,
           total_exec_time as ms, total_plan_time as plan_ms
      from pg_stat_statements
     where query not like '%pg_stat_statements%'
     order by total_exec_time desc limit ${Number(process.env.BENCH_STATEMENTS_TOP ?? 10)}`;
  for (const s of top) {
    log(`   ${(s.ms / requests).toFixed(3)} ms/request (${s.calls} calls, plan ${(s.plan_ms / requests).toFixed(3)}): ${s.query}`);
  }
  // The functions' own time (without what they call), per request: where the
  // SQL rules, policies and triggers spend it. The statistics reach the view
  // a moment after the backends report them.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const functions = await stats<{ name: string; calls: string; self_ms: number }[]>`
    select schemaname || '.' || funcname as name, calls::text, self_time as self_ms
      from pg_stat_user_functions order by self_time desc limit 12`;
  for (const f of functions) {
    log(`   ${(f.self_ms / requests).toFixed(3)} ms/request self (${(Number(f.calls) / requests).toFixed(1)} calls/request): ${f.name}()`);
  }
}
