// The bare baseline of `npm run bench`: what EVERY API request must do at the
// least, with nothing else of Hangplan's: one transaction that sets the role
// and the claims and runs `select 1` (pipelined, as withRequest does), on a
// pool of 5 connections like the function's. Served by Deno.serve with
// postgres.js, against the same database, in the same run as the API, so the
// API's speed can be read as a ratio to it (absolute numbers on a shared
// machine are noise).
import postgres from 'postgres';

const prepare = Deno.env.get('BASELINE_PREPARE') === 'true';
const sql = postgres(Deno.env.get('DATABASE_URL')!, { prepare, max: 5, onnotice: () => {} });
const claims = JSON.stringify({ role: 'anon', plan_id: crypto.randomUUID() });

Deno.serve({ port: Number(Deno.env.get('PORT')), onListen: () => {} }, async () => {
  const [, rows] = await sql.begin((tx) => [
    tx`select set_config('role', 'anon', true), set_config('request.jwt.claims', ${claims}, true)`,
    tx`select 1 as one`,
  ]);
  return Response.json(rows[0]);
});
