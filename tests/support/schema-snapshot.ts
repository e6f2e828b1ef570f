// What a database's schema is, as sorted text lines: every object of the
// project's schemas (app, private) with its full definition, owner-independent.
// Two databases with the same lines behave the same for the API and its tests.
import type { Sql } from 'postgres';

const SCHEMAS = ['app', 'private'];

/** One line per fact: `kind name: definition`. Sorted, so two snapshots diff line by line. */
export async function schemaSnapshot(sql: Sql): Promise<string[]> {
  const rows = await sql<{ line: string }[]>`
    with ns as (select oid, nspname from pg_namespace where nspname = any(${SCHEMAS}))
    select 'schema ' || n.nspname || ': acl=' || coalesce(s.nspacl::text, '') || ' comment=' ||
           coalesce(obj_description(n.oid, 'pg_namespace'), '') as line
      from ns n join pg_namespace s on s.oid = n.oid
    union all
    select 'default acl ' || coalesce(n.nspname, '*') || ' ' || d.defaclobjtype::text || ': ' || d.defaclacl::text
      from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace
     where n.nspname is null or n.nspname = any(${SCHEMAS})
    union all
    select 'relation ' || n.nspname || '.' || c.relname || ': kind=' || c.relkind::text ||
           ' rls=' || c.relrowsecurity || ' force=' || c.relforcerowsecurity ||
           ' acl=' || coalesce(c.relacl::text, '') || ' comment=' || coalesce(obj_description(c.oid, 'pg_class'), '') ||
           case when c.relkind = 'v' then ' view=' || pg_get_viewdef(c.oid) else '' end
      from pg_class c join ns n on n.oid = c.relnamespace
     where c.relkind in ('r', 'v', 'm', 'p', 'S')
    union all
    select 'column ' || n.nspname || '.' || c.relname || '.' || a.attname || ': ' ||
           format_type(a.atttypid, a.atttypmod) || case when a.attnotnull then ' not null' else '' end ||
           coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') ||
           case when a.attidentity <> '' then ' identity ' || a.attidentity::text else '' end ||
           case when a.attgenerated <> '' then ' generated ' || a.attgenerated::text else '' end ||
           ' acl=' || coalesce(a.attacl::text, '') || ' comment=' || coalesce(col_description(c.oid, a.attnum), '')
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join ns n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'v', 'm', 'p')
    union all
    select 'constraint ' || n.nspname || '.' || c.relname || '.' || k.conname || ': ' || pg_get_constraintdef(k.oid)
      from pg_constraint k join pg_class c on c.oid = k.conrelid join ns n on n.oid = c.relnamespace
    union all
    select 'index ' || n.nspname || '.' || i.relname || ': ' || pg_get_indexdef(i.oid)
      from pg_index x join pg_class i on i.oid = x.indexrelid join ns n on n.oid = i.relnamespace
    union all
    select 'policy ' || p.schemaname || '.' || p.tablename || '.' || p.policyname || ': ' || p.permissive ||
           ' ' || p.cmd || ' to ' || p.roles::text || ' using ' || coalesce(p.qual, '-') ||
           ' check ' || coalesce(p.with_check, '-')
      from pg_policies p where p.schemaname = any(${SCHEMAS})
    union all
    select 'trigger ' || n.nspname || '.' || c.relname || '.' || t.tgname || ': ' || pg_get_triggerdef(t.oid) ||
           ' enabled=' || t.tgenabled::text
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join ns n on n.oid = c.relnamespace
     where not t.tgisinternal
    union all
    select 'function ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || '): ' ||
           'acl=' || coalesce(p.proacl::text, '') || ' comment=' || coalesce(obj_description(p.oid, 'pg_proc'), '') ||
           E'\n' || pg_get_functiondef(p.oid)
      from pg_proc p join ns n on n.oid = p.pronamespace
    union all
    select 'type ' || n.nspname || '.' || t.typname || ': ' || t.typtype::text ||
           coalesce(' ' || (select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid), '')
      from pg_type t join ns n on n.oid = t.typnamespace
     where t.typtype in ('e', 'd') 
  `;
  return rows.map((r) => r.line).sort();
}

/** Lines only in `a` (prefixed '-') and only in `b` (prefixed '+'). */
export function snapshotDiff(a: string[], b: string[]): string[] {
  const inB = new Set(b);
  const inA = new Set(a);
  return [...a.filter((l) => !inB.has(l)).map((l) => `- ${l}`), ...b.filter((l) => !inA.has(l)).map((l) => `+ ${l}`)];
}
