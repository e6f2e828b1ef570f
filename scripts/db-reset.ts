// `npm run db:reset`: start the data afresh (stop `npm start` first).
// Embedded default: delete .data/postgres, then initialise and migrate anew.
// With DATABASE_URL/SUPABASE_DB_URL: drop Hangplan's schemas and migration
// history in that database, then apply the migrations again.
import { rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { ROOT, prepareDatabase, startEmbeddedPostgres } from './lib/db.ts';

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
  const dir = path.join(ROOT, '.data/postgres');
  rmSync(dir, { recursive: true, force: true });
  const db = await startEmbeddedPostgres({ dir, port: Number(process.env.DB_PORT ?? 54322), persistent: true });
  try {
    await prepareDatabase(db.url);
  } finally {
    await db.stop();
  }
  console.log('Local database reset and migrated (.data/postgres).');
}
