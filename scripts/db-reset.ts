// `npm run db:reset`: start the data afresh (stop `npm start` first).
// Embedded default: delete .data/postgres, then initialise and migrate anew.
// With DATABASE_URL/SUPABASE_DB_URL: drop Hangplan's schemas and migration
// history in that database, then apply the migrations again.
import { rmSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { ROOT, prepareDatabase, startEmbeddedPostgres } from './lib/db.ts';
import { assertPortsFree, commandLine, PortBusyError } from './lib/ports.ts';

const envFile = path.join(ROOT, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);
const external = process.env.SUPABASE_DB_URL || process.env.DATABASE_URL;

if (external) {
  const sql = postgres(external, { max: 1, onnotice: () => {} });
  await sql.unsafe(`
    drop schema if exists app cascade;
    drop schema if exists private cascade;
    delete from supabase_migrations.schema_migrations;`).catch(async (error) => {
    if (!/schema_migrations/.test(String(error))) throw error;
  });
  await sql.end();
  await prepareDatabase(external);
  console.log('Database reset and migrated.');
} else {
  const dataDir = path.resolve(process.env.HANGPLAN_DATA_DIR || path.join(ROOT, '.data'));
  const dir = path.join(dataDir, 'postgres');
  const port = Number(process.env.DB_PORT || 54322);
  // Never delete the data under a running server (`npm start` still up).
  const running = serverPid(dir);
  if (running) {
    console.error(`PostgreSQL (pid ${running}) still runs on ${dir}: stop \`npm start\` first.`);
    process.exit(1);
  }
  try {
    await assertPortsFree([{ port, role: 'PostgreSQL', setting: 'DB_PORT' }]);
  } catch (error) {
    if (!(error instanceof PortBusyError)) throw error;
    console.error(`Cannot reset the database: ${error.message}`);
    process.exit(1);
  }
  rmSync(dir, { recursive: true, force: true });
  const db = await startEmbeddedPostgres({ dir, port, persistent: true });
  try {
    await prepareDatabase(db.url);
  } finally {
    await db.stop();
  }
  console.log(`Local database reset and migrated (${dir.startsWith(ROOT + path.sep) ? path.relative(ROOT, dir) : dir}).`);
}

/** The pid in `dir`'s postmaster.pid if that process still runs. */
function serverPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!pid) return undefined;
    process.kill(pid, 0);
    // A stale file whose pid now belongs to something else does not count.
    return commandLine(pid)?.includes('postgres') === false ? undefined : pid;
  } catch {
    return undefined;
  }
}
