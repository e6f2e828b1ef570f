// The bare baselines of `npm run bench`: what every API request must do at
// the least, with nothing else of Hangplan's, served by Deno.serve with
// postgres.js on a pool of 5 connections like the function's, against the
// same database, in the same run as the API, so the API's speed can be read
// as a ratio to them (absolute numbers on a shared machine are noise).
//
// - `/`: a read. One transaction that sets the role and the claims and runs
//   `select 1` (pipelined, as withRequest does).
// - `/write`: the least a durable write costs. The same transaction with a
//   one-row insert instead of `select 1`, so its commit waits for the WAL to
//   reach the disk as every API write's does (the bench's database runs with
//   fsync on, as `npm start` and hosted Supabase do).
import postgres from 'postgres';

const prepare = Deno.env.get('BASELINE_PREPARE') === 'true';
const sql = postgres(Deno.env.get('DATABASE_URL')!, { prepare, max: 5, onnotice: () => {} });
const claims = JSON.stringify({ role: 'anon', plan_id: crypto.randomUUID() });

// A scratch table outside the app's schemas, written as `anon` like the API's writes
// (SELECT for the `returning`: a write answers with what it wrote).
await sql.unsafe(`
  create schema if not exists bench;
  create table if not exists bench.durable_writes (
    id uuid primary key default gen_random_uuid(),
    created_at timestamptz not null default now()
  );
  grant usage on schema bench to anon;
  grant insert, select on bench.durable_writes to anon;
`);

Deno.serve({ port: Number(Deno.env.get('PORT')), onListen: () => {} }, async (request) => {
  const write = new URL(request.url).pathname === '/write';
  const [, rows] = await sql.begin((tx) => [
    tx`select set_config('role', 'anon', true), set_config('request.jwt.claims', ${claims}, true)`,
    write ? tx`insert into bench.durable_writes default values returning id` : tx`select 1 as one`,
  ]);
  return Response.json(rows[0]);
});
