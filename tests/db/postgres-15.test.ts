// The schema on PostgreSQL 15, the oldest major hosted Supabase runs (the
// owner's decision; docs/data-model.md "Where each thing is defined"): the same migrations,
// pushed by the same Supabase CLI, apply there, and build the same objects as
// on the embedded PostgreSQL the other tests use. Debian's `postgresql-15`
// package provides the server (.ci/run installs it; PG15_BIN_DIR points at
// another copy).
import { existsSync } from 'node:fs';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgres15Binaries, prepareDatabase, startEmbeddedPostgres, tempDataDir, type EmbeddedDb } from '../../scripts/lib/db.ts';
import { freePort } from '../../scripts/lib/services.ts';
import { useFreshDatabase } from '../support/db.ts';
import { schemaSnapshot, snapshotDiff } from '../support/schema-snapshot.ts';

const db = useFreshDatabase();
const bins = postgres15Binaries();

/**
 * What differs between majors by design, not by schema: a table owner's
 * privileges include MAINTAIN ('m') from PostgreSQL 17 on, and 18 lists NOT
 * NULL as constraints of their own (15 keeps them on the column; the
 * snapshot's "not null" says it for both).
 */
const asOn15 = (lines: string[]) =>
  lines.filter((line) => !/^constraint \S+: NOT NULL /.test(line)).map((line) => line.replaceAll('=arwdDxtm/', '=arwdDxt/'));

describe('PostgreSQL 15', () => {
  let server: EmbeddedDb | undefined;
  let sql: postgres.Sql | undefined;

  beforeAll(async () => {
    if (!existsSync(bins.postgres)) {
      throw new Error(`PostgreSQL 15 is not at ${bins.postgres}: install it with \`apt-get install -y postgresql-15\`, or set PG15_BIN_DIR`);
    }
    server = await startEmbeddedPostgres({ dir: tempDataDir('pg15'), port: await freePort(), persistent: false, binaries: bins });
    const admin = postgres(server.url, { max: 1, onnotice: () => {} });
    await admin.unsafe('create database hangplan');
    await admin.end();
    const url = server.url.replace(/\/postgres$/, '/hangplan');
    await prepareDatabase(url);
    sql = postgres(url, { max: 1, onnotice: () => {} });
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await server?.stop();
  });

  it('is the server these tests started', async () => {
    const [{ version }] = await sql!`select current_setting('server_version_num')::int / 10000 as version`;
    expect(version).toBe(15);
  });

  it('the migrations build there what they build on the embedded server', async () => {
    const here = asOn15(await schemaSnapshot(db.owner));
    const there = asOn15(await schemaSnapshot(sql!));
    expect(snapshotDiff(here, there)).toEqual([]);
  });
});
