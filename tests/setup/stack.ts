// Shared by the db and api global setups: a throwaway embedded PostgreSQL with
// a bootstrapped + migrated template database.
import postgres from 'postgres';
import { prepareDatabase, startEmbeddedPostgres, tempDataDir, type EmbeddedDb } from '../../scripts/lib/db.ts';
import { freePort, prefixedLog } from '../../scripts/lib/services.ts';

export const TEMPLATE_DB = 'hangplan_template';

export const verboseLog = process.env.DEBUG_STACK ? prefixedLog('it', process.stderr) : () => {};

export function dbUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Start PostgreSQL and create the migrated template database. */
export async function startTemplateDatabase(): Promise<EmbeddedDb> {
  const db = await startEmbeddedPostgres({
    dir: tempDataDir('it'),
    port: await freePort(),
    persistent: false,
    onLog: verboseLog,
  });
  try {
    const admin = postgres(db.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${TEMPLATE_DB}`);
    await admin.end();
    await prepareDatabase(dbUrl(db.url, TEMPLATE_DB));
  } catch (error) {
    await db.stop();
    throw error;
  }
  return db;
}

/** Create database `name` as a copy of the migrated template. */
export async function cloneTemplate(adminUrl: string, name: string): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`);
  await admin.end();
  return dbUrl(adminUrl, name);
}
