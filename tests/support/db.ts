// Database helpers for integration tests: a fresh database per test file
// (cloned from the migrated template) and a way to run SQL exactly as the API
// does, under `anon`/`authenticated` with given claims.
import { randomUUID } from 'node:crypto';
import postgres, { type Sql, type TransactionSql } from 'postgres';
import { inject } from 'vitest';
import '../setup/context.ts';

export type Claims = {
  role: 'anon' | 'authenticated';
  sub?: string;
  guest_id?: string;
  plan_id?: string;
  plan_slug?: string;
};

export interface TestDatabase {
  /** Connected as the owner (bypasses RLS): for arranging and inspecting data. */
  owner: Sql;
  url: string;
  /** Run `fn` in a transaction under the role and claims, then roll back if `rollback`. */
  as: <T>(claims: Claims, fn: (sql: TransactionSql) => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
}

export async function freshDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('adminUrl');
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${inject('templateDb')}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const owner = postgres(url, { max: 4, onnotice: () => {} });
  return {
    owner,
    url,
    as: (claims, fn) =>
      owner.begin(async (tx) => {
        await tx`select set_config('role', ${claims.role}, true),
                        set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
        return fn(tx);
      }) as Promise<never>,
    close: async () => {
      await owner.end();
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
