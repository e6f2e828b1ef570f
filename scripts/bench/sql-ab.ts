// A/B of SQL definitions, for deciding a change to the rules, policies or
// triggers before it becomes a migration (docs/performance.md). On an embedded database
// with the migrations applied and a small plan, it runs each request's SQL
// the way the API does (BEGIN; the claims statement: gate, role and claims,
// abuse limit; the statement; COMMIT) on ONE
// connection, serially, so the time per request is the database's own work,
// with no queueing and no other process in between. The definitions in use
// (A) and those of a candidate file (B) take turns, round after round on the
// same database, so the drift of a shared machine falls on both alike. Next
// to the time per request it prints the CPU time the database's backend spent
// per request (/proc/<pid>/schedstat): the waits of a busy machine are not in
// it, so it moves much less from round to round than the time does.
//
//   node --import tsx scripts/bench/sql-ab.ts candidate.sql [rounds=6] [iterations=400]
//   node --import tsx scripts/bench/sql-ab.ts --smoke   (what `npm test` runs:
//     one short round with no candidate, B the same as A, to keep it working)
//
// The candidate file holds `create or replace function ...` statements (and
// may drop or create triggers); A is what the migrations define, restored
// from pg_get_functiondef before each A round. Prints the median ms per
// request of each workload under A and B. A development tool: not part of
// `npm test` or `npm run bench`.
import { existsSync, readFileSync } from 'node:fs';
import postgres from 'postgres';
import type { Claims } from '../../tests/support/db.ts';
import { addGuest, addIdea, addMember, addSlot, asGuest, createPlan, createUser, startSession } from '../../tests/support/plan-fixture.ts';
import { prepareDatabase, startEmbeddedPostgres, tempDataDir } from '../lib/db.ts';
import { freePort } from '../lib/services.ts';

const SMOKE = process.argv.includes('--smoke');
const PROFILE = process.env.SQL_AB_PROFILE;
const [candidateFile, roundsArg, iterationsArg] = process.argv.slice(2).filter((arg) => arg !== '--smoke');
if (!candidateFile && !SMOKE && !PROFILE) {
  console.error('usage: sql-ab.ts candidate.sql [rounds] [iterations], or sql-ab.ts --smoke');
  process.exit(2);
}
const ROUNDS = SMOKE ? 1 : Number(roundsArg ?? 6);
const ITERATIONS = SMOKE ? 5 : Number(iterationsArg ?? 400);
const candidate = candidateFile ? readFileSync(candidateFile, 'utf8') : '';

// fsync off (unlike `npm run bench`): the disk's wait at each commit is the
// same under A and B, and would only dilute the difference in the time column.
const db = await startEmbeddedPostgres({
  dir: tempDataDir('sql-ab'),
  port: await freePort(),
  persistent: false,
  // Profiling: each statement's time too, nested ones (in functions and triggers) included.
  settings: PROFILE ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track=all'] : [],
});
try {
  await prepareDatabase(db.url);
  const owner = postgres(db.url, { max: 1, onnotice: () => {} });
  const conn = postgres(db.url, {
    max: 1,
    prepare: true,
    onnotice: () => {},
    // Profiling: each function's own time (pg_stat_user_functions), printed after the run.
    ...(PROFILE ? { connection: { track_functions: 'all' } } : {}),
  });

  // The functions the candidate redefines, as the migrations left them.
  const names = [...candidate.matchAll(/create\s+or\s+replace\s+function\s+([a-z_]+\.[a-z_]+)\s*\(/gi)].map((m) => m[1]);
  const original: string[] = [];
  for (const name of new Set(names)) {
    const rows = await owner<{ def: string }[]>`select pg_get_functiondef(p.oid) as def from pg_proc p where p.oid::regproc::text = ${name} or (p.pronamespace::regnamespace::text || '.' || p.proname) = ${name}`;
    original.push(...rows.map((r) => r.def));
  }
  const triggerNames = [...candidate.matchAll(/drop\s+trigger\s+(?:if\s+exists\s+)?([a-z_]+)\s+on\s+([a-z_.]+)/gi)];
  const triggerDefs: string[] = [];
  for (const [, trigger, table] of triggerNames) {
    const rows = await owner<{ def: string }[]>`select pg_get_triggerdef(t.oid) as def from pg_trigger t where t.tgname = ${trigger} and t.tgrelid = ${table}::regclass`;
    // Constraint triggers have no CREATE OR REPLACE: dropped, then created.
    triggerDefs.push(...rows.map((r) => `drop trigger if exists ${trigger} on ${table}; ${r.def}`));
  }
  const useA = async () => {
    for (const def of original) await owner.unsafe(def);
    for (const def of triggerDefs) await owner.unsafe(def);
  };
  const useB = async () => {
    if (candidate.trim()) await owner.unsafe(candidate);
  };

  // The fixture: a plan, its host, a member, 20 guests with credentials, 30
  // ideas, arranged as the database tests arrange theirs.
  const host = await createUser(owner, 'Hanna', 'Host');
  const member = await createUser(owner, 'Mia', null);
  const plan = await createPlan(owner, host, 'A/B');
  await addMember(owner, plan.id, member);
  const guests: string[] = [];
  for (let i = 0; i < 20; i++) guests.push(await addGuest(owner, plan.id, `Guest ${i}`));
  const ideas: string[] = [];
  for (let i = 0; i < 30; i++) ideas.push(await addIdea(owner, plan.id, `Idea ${i}`, { userId: host }));

  const guestClaims = (n: number) => asGuest(guests[n % guests.length], { plan_id: plan.id });
  const slots: string[] = [];
  for (let i = 1; i <= 5; i++) slots.push(await addSlot(owner, plan.id, i, null));
  // The host's vote keeps each slot alive while the member toggles theirs.
  for (const slot of slots) await owner`insert into app.time_slot_votes (time_slot_id, plan_id, user_id) values (${slot}, ${plan.id}, ${host})`;
  const memberClaims: Claims = { role: 'authenticated', sub: member, session_id: await startSession(owner, member), plan_id: plan.id };
  // A second plan whose date is locked, for the answers (docs/api-after-the-date.md "Who's coming").
  const setPlan = await createPlan(owner, host, 'A/B, set');
  const setGuests: string[] = [];
  for (let i = 0; i < 20; i++) setGuests.push(await addGuest(owner, setPlan.id, `Guest ${i}`));
  await owner`update app.plans set status = 'time_range_locked', locked_time_slot_date = current_date + 3 where id = ${setPlan.id}`;
  const answers = ['going', 'maybe', 'no'];

  // The backend serving `conn` (one connection): its CPU time so far, in ms.
  const [{ pid }] = await conn<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const schedstat = `/proc/${pid}/schedstat`;
  const backendCpuMs = () => (existsSync(schedstat) ? Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6 : NaN);

  type Workload = { name: string; run: (n: number) => Promise<unknown> };
  // The API's claims statement (_shared/db/client.ts): the gate, the role and the
  // claims, and the request's abuse limit (votes or comments per participant).
  const asRequest = (claims: Claims, statement: (tx: postgres.TransactionSql) => postgres.PendingQuery<postgres.Row[]>, limit?: 'vote' | 'comment') =>
    conn.begin((tx) => [
      tx`select private.check_request(${claims.sub ?? null}::uuid, ${claims.session_id ?? null}::uuid, ${claims.guest_id ?? null}::uuid, ${claims.guest_secret_hash ?? null}::text),
                set_config('role', ${claims.role}, true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true),
                set_config('request.jwt.claim.sub', ${claims.sub ?? ''}, true)
                ${limit ? tx`, private.enforce_rate_limits(${JSON.stringify([{ key: `${limit}:${claims.sub ?? claims.guest_id}`, max: 1e9, window: 60 }])}::text::jsonb)` : tx``}`,
      statement(tx),
    ]);
  const workloads: Workload[] = [
    {
      name: 'guest date vote',
      run: (n) => asRequest(guestClaims(n), (tx) => tx`select * from app.vote_on_date(${plan.id}::uuid, current_date + ${1 + (n % 5)}::int, null)`, 'vote'),
    },
    {
      name: 'guest idea vote',
      run: (n) => asRequest(guestClaims(n), (tx) => tx`select * from app.vote_on_idea(${ideas[n % ideas.length]}::uuid)`, 'vote'),
    },
    {
      name: 'member slot vote',
      run: (n) => asRequest(memberClaims, (tx) => tx`select * from app.vote_on_time_slot(${slots[n % slots.length]}::uuid)`, 'vote'),
    },
    {
      name: 'guest comment',
      run: (n) => asRequest(guestClaims(n), (tx) => tx`select c.id from app.add_idea_comment(${ideas[n % ideas.length]}::uuid, 'Sounds good') c`, 'comment'),
    },
    {
      name: 'guest answer',
      run: (n) =>
        asRequest(
          asGuest(setGuests[n % setGuests.length], { plan_id: setPlan.id }),
          (tx) => tx`select * from app.rsvp(${setPlan.id}::uuid, ${answers[Math.floor(n / setGuests.length) % 3]}, 0)`,
          'vote',
        ),
    },
    {
      name: 'member ideas read',
      run: () => asRequest(memberClaims, (tx) => tx`select i.id, (select count(*) from app.idea_votes v where v.idea_id = i.id) from app.ideas i where i.plan_id = ${plan.id}::uuid`),
    },
  ];

  // SQL_AB_PROFILE='guest answer': run that workload alone for 30 s on
  // definitions A and print the backend's pid first, for a profiler
  // (`perf record -g -p <pid>`; docs/performance.md "A/B of SQL changes").
  const profiled = workloads.find((w) => w.name === PROFILE);
  if (profiled) {
    console.log(`profiling "${profiled.name}" on backend pid ${pid} for 30 s`);
    await owner`create extension if not exists pg_stat_statements`;
    await owner`select pg_stat_statements_reset()`;
    const until = Date.now() + 30_000;
    let count = 0;
    while (Date.now() < until) await profiled.run(count++);
    console.log(`${count} requests, ${(30_000 / count).toFixed(3)} ms each`);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the statistics reach the view a moment later
    const functions = await owner<{ name: string; calls: string; self_ms: number; total_ms: number }[]>`
      select schemaname || '.' || funcname as name, calls::text, self_time as self_ms, total_time as total_ms
        from pg_stat_user_functions where calls > ${count} / 2 order by self_time desc`;
    for (const f of functions) {
      console.log(`${((f.self_ms / count) * 1000).toFixed(1)} µs self, ${((f.total_ms / count) * 1000).toFixed(1)} µs total per request (${(Number(f.calls) / count).toFixed(1)} calls): ${f.name}()`);
    }
    const statements = await owner<{ query: string; calls: string; ms: number }[]>`
      select regexp_replace(query, '[[:space:]]+', ' ', 'g') as query, calls::text, total_exec_time as ms from pg_stat_statements
       where calls > ${count} / 2 and query not like '%pg_stat%' order by total_exec_time desc limit 25`;
    for (const st of statements) {
      console.log(`${((st.ms / count) * 1000).toFixed(1)} µs per request (${(Number(st.calls) / count).toFixed(1)} calls): ${st.query.slice(0, 150)}`);
    }
  }

  type Samples = { A: number[]; B: number[] };
  const results = new Map<string, { time: Samples; cpu: Samples }>(
    workloads.map((w) => [w.name, { time: { A: [], B: [] }, cpu: { A: [], B: [] } }]),
  );
  let n = 0;
  for (let round = 0; round < (profiled ? 0 : ROUNDS); round++) {
    for (const variant of ['A', 'B'] as const) {
      await (variant === 'A' ? useA() : useB());
      for (const w of workloads) {
        for (let i = 0; i < 30; i++) await w.run(n++); // warm-up: plans cached
        const start = performance.now();
        const cpuStart = backendCpuMs();
        for (let i = 0; i < ITERATIONS; i++) await w.run(n++);
        const samples = results.get(w.name)!;
        samples.time[variant].push((performance.now() - start) / ITERATIONS);
        samples.cpu[variant].push((backendCpuMs() - cpuStart) / ITERATIONS);
      }
    }
    process.stdout.write(`round ${round + 1}/${ROUNDS}\r`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const change = ({ A, B }: Samples) => `${((median(B) / median(A) - 1) * 100).toFixed(1)}%`;
  if (!profiled) {
    console.log(
      `\n| workload | A (ms/request) | B (ms/request) | B vs A | A: database CPU (ms/request) | B: database CPU | B vs A |\n|---|---|---|---|---|---|---|`,
    );
    for (const [name, { time, cpu }] of results) {
      console.log(
        `| ${name} | ${median(time.A).toFixed(3)} | ${median(time.B).toFixed(3)} | ${change(time)} | ${median(cpu.A).toFixed(3)} | ${median(cpu.B).toFixed(3)} | ${change(cpu)} |`,
      );
    }
  }
  await conn.end();
  await owner.end();
} finally {
  await db.stop();
}
