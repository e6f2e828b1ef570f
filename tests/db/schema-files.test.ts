// The schema's one place (docs/decisions/0063-schema-in-domain-files.md): each
// table, function, policy, trigger and index is defined once, in its domain's
// file under supabase/migrations; no statement there replaces, drops or
// alters what another defines; every SQL function is used; and the domain
// files alone build exactly the database the whole migration history builds.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bootstrapSupabaseCompat } from '../../scripts/lib/db.ts';
import { ROOT } from '../../scripts/lib/root.ts';
import { freshDatabase, type TestDatabase } from '../support/db.ts';
import { schemaSnapshot, snapshotDiff } from '../support/schema-snapshot.ts';

const MIGRATIONS = path.join(ROOT, 'supabase/migrations');
const QUALIFIED = String.raw`([a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*)`;
/** A domain file's most lines: past it, split the domain on a seam it marks (docs/decisions/0093). */
const MAX_LINES = 700;

interface SqlFile {
  name: string;
  text: string;
}

function migrationFiles(): SqlFile[] {
  return readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(MIGRATIONS, name), 'utf8') }));
}

/** A domain file opens with its banner: "-- ====\n-- Domain: ...". Later deltas do not. */
function isDomainFile(file: SqlFile): boolean {
  return /^-- =+\n-- Domain: /.test(file.text);
}

/** The SQL without its line comments (no definition hides in prose). */
function code(text: string): string {
  return text.replace(/--[^\n]*/g, '');
}

/** Every object a file defines, as `kind name` (a name once per definition). */
export function definitions(text: string): string[] {
  const sql = code(text);
  const found: string[] = [];
  const each = (pattern: string, name: (m: RegExpExecArray) => string) => {
    for (const m of sql.matchAll(new RegExp(pattern, 'gi'))) found.push(name(m));
  };
  each(String.raw`\bcreate\s+(?:or\s+replace\s+)?function\s+${QUALIFIED}\s*\(`, (m) => `function ${m[1]}`);
  each(String.raw`\bcreate\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?${QUALIFIED}`, (m) => `table ${m[1]}`);
  each(String.raw`\bcreate\s+(?:or\s+replace\s+)?view\s+${QUALIFIED}`, (m) => `table ${m[1]}`);
  each(String.raw`\bcreate\s+policy\s+(\w+)\s+on\s+${QUALIFIED}`, (m) => `policy ${m[2]}.${m[1]}`);
  each(
    String.raw`\bcreate\s+(?:constraint\s+)?trigger\s+(\w+)\s[\s\S]*?\bon\s+${QUALIFIED}`,
    (m) => `trigger ${m[2]}.${m[1]}`,
  );
  each(String.raw`\bcreate\s+(?:unique\s+)?index\s+(\w+)\s+on\s+${QUALIFIED}`, (m) => {
    const schema = m[2].split('.')[0];
    return `index ${schema}.${m[1]}`;
  });
  return found;
}

/** Statements that change an object some other statement defined. */
export function redefinitions(text: string): string[] {
  const sql = code(text);
  const patterns = [
    /\bcreate\s+or\s+replace\s+(?:function|view|trigger)\s+[^\s(]+/gi,
    /\bdrop\s+(?:function|table|view|policy|trigger|index)\s+[^;]+/gi,
    /\balter\s+(?:function|policy|trigger|index|view)\s+[^;]+/gi,
    /\balter\s+table\s+[^;]*?\b(?:add\s+column|drop|alter\s+column|rename)\b[^;]*/gi,
  ];
  return patterns.flatMap((p) => [...sql.matchAll(p)].map((m) => m[0].replace(/\s+/g, ' ')));
}

/** The API's own source (tests excluded), without comments. */
function apiSource(): string {
  const dir = path.join(ROOT, 'supabase/functions');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  return files
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

async function catalogObjects(sql: Sql): Promise<string[]> {
  const rows = await sql<{ object: string }[]>`
    with ns as (select oid, nspname from pg_namespace where nspname in ('app', 'private'))
    select 'function ' || n.nspname || '.' || p.proname as object
      from pg_proc p join ns n on n.oid = p.pronamespace
    union all
    select 'table ' || n.nspname || '.' || c.relname
      from pg_class c join ns n on n.oid = c.relnamespace where c.relkind in ('r', 'v', 'p')
    union all
    select 'policy ' || schemaname || '.' || tablename || '.' || policyname
      from pg_policies where schemaname in ('app', 'private')
    union all
    select 'trigger ' || n.nspname || '.' || c.relname || '.' || t.tgname
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join ns n on n.oid = c.relnamespace
     where not t.tgisinternal
    union all
    -- Indexes a constraint creates (primary keys, uniques) are the constraint's.
    select 'index ' || n.nspname || '.' || i.relname
      from pg_index x join pg_class i on i.oid = x.indexrelid join ns n on n.oid = i.relnamespace
     where not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid)`;
  return rows.map((r) => r.object).sort();
}

/** A database with Supabase's basics and exactly these files applied. */
async function databaseFrom(files: SqlFile[]): Promise<{ sql: Sql; drop: () => Promise<void> }> {
  const adminUrl = inject('adminUrl');
  const name = `schema_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await bootstrapSupabaseCompat(url.toString());
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  for (const file of files) await sql.unsafe(file.text);
  return {
    sql,
    drop: async () => {
      await sql.end();
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

const files = migrationFiles();
const domainFiles = files.filter(isDomainFile);

let migrated: TestDatabase;
beforeAll(async () => {
  migrated = await freshDatabase();
});
afterAll(() => migrated?.close());

describe('the schema in one place: supabase/migrations, one file per domain', () => {
  it('has its domain files first, any later change after them', () => {
    const firstDelta = files.findIndex((f) => !isDomainFile(f));
    const domainsAfterADelta = firstDelta < 0 ? [] : files.slice(firstDelta).filter(isDomainFile).map((f) => f.name);
    expect(domainsAfterADelta).toEqual([]);
    expect(domainFiles.length).toBeGreaterThanOrEqual(10);
  });

  it(`names each domain file <timestamp>_<word>.sql and keeps it within ${MAX_LINES} lines (docs/decisions/0093)`, () => {
    const misnamed = domainFiles.map((f) => f.name).filter((name) => !/^\d{14}_[a-z]+(?:_[a-z]+)*\.sql$/.test(name));
    expect(misnamed).toEqual([]);
    const tooLong = domainFiles
      .map((f) => ({ name: f.name, lines: f.text.replace(/\n$/, '').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ name, lines }) => `${name} has ${lines} lines (at most ${MAX_LINES})`);
    expect(tooLong).toEqual([]);
  });

  it('defines every table, function, policy, trigger and index exactly once, in a domain file', async () => {
    const defined = domainFiles.flatMap((f) => definitions(f.text));
    const twice = defined.filter((d, i) => defined.indexOf(d) !== i);
    expect(twice, 'defined more than once').toEqual([]);
    expect([...defined].sort()).toEqual(await catalogObjects(migrated.owner));
  });

  it('has no statement in a domain file that replaces, drops or alters what another defines', () => {
    const found = domainFiles.flatMap((f) => redefinitions(f.text).map((r) => `${f.name}: ${r}`));
    expect(found).toEqual([]);
  });

  it('has no SQL function that nothing calls', async () => {
    const rows = await migrated.owner<{ name: string; used: boolean }[]>`
      with fns as (
        select p.oid, n.nspname || '.' || p.proname as name
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname in ('app', 'private')
      ),
      sources as (
        select p.oid as owner, p.prosrc as text from pg_proc p
         join pg_namespace n on n.oid = p.pronamespace where n.nspname in ('app', 'private')
        union all
        select null, coalesce(qual, '') || ' ' || coalesce(with_check, '') from pg_policies
        union all
        select null, pg_get_constraintdef(k.oid) from pg_constraint k
        union all
        select null, pg_get_expr(d.adbin, d.adrelid) from pg_attrdef d
      )
      select f.name,
             exists (select 1 from pg_trigger t where t.tgfoid = f.oid)
             or exists (select 1 from sources s
                         where s.owner is distinct from f.oid
                           and s.text ~* ('\\m' || replace(f.name, '.', '\\.') || '\\M')) as used
        from fns f`;
    const api = apiSource();
    const unused = rows
      .filter((r) => !r.used && !new RegExp(`\\b${r.name.replace('.', '\\.')}\\b`).test(api))
      .map((r) => r.name);
    expect(unused).toEqual([]);
  });

  it('builds from the domain files alone exactly the database the migrations build', async () => {
    const alone = await databaseFrom(domainFiles);
    try {
      expect(snapshotDiff(await schemaSnapshot(migrated.owner), await schemaSnapshot(alone.sql))).toEqual([]);
    } finally {
      await alone.drop();
    }
  });

  it('sees a later migration that the domain files do not state (the comparison can fail)', async () => {
    const delta: SqlFile = {
      name: '20990101000000_delta.sql',
      text: `create or replace function private.try_uuid(p_value text) returns uuid language sql immutable
             set search_path = '' as $$ select null::uuid $$;`,
    };
    const withDelta = await databaseFrom([...domainFiles, delta]);
    try {
      const diff = snapshotDiff(await schemaSnapshot(migrated.owner), await schemaSnapshot(withDelta.sql));
      expect(diff.some((line) => line.startsWith('+ function private.try_uuid('))).toBe(true);
      expect(redefinitions(delta.text)).toEqual(['create or replace function private.try_uuid']);
    } finally {
      await withDelta.drop();
    }
  });
});
