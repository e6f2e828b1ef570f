// Database helpers for integration tests: a fresh database per test file
// (cloned from the migrated template) and a way to run SQL exactly as the API
// does, under `anon`/`authenticated` with given claims.
import { randomUUID } from 'node:crypto';
import postgres, { type Sql, type TransactionSql } from 'postgres';
import { afterAll, beforeAll, beforeEach, expect, inject } from 'vitest';
import '../setup/context.ts';
import { addMember, createPlan, createUser, seedPlan, type PlanWorld } from './plan-fixture.ts';

export type Claims = {
  role: 'anon' | 'authenticated';
  sub?: string;
  session_id?: string;
  guest_id?: string;
  /** SHA-256 (hex) of the guest's device secret: without a matching credential guest_id counts for nothing. */
  guest_secret_hash?: string;
  plan_id?: string;
  plan_slug?: string;
};

export interface AsOptions {
  /** Roll the transaction back after `fn` (its result is still returned). */
  rollback?: boolean;
}

export interface TestDatabase {
  /** Connected as the owner (bypasses RLS): for arranging and inspecting data. */
  owner: Sql;
  url: string;
  /** Run `fn` in a transaction under the role and claims; commit, or roll back if `rollback`. */
  as: <T>(claims: Claims, fn: (sql: TransactionSql) => Promise<T>, opts?: AsOptions) => Promise<T>;
  /** A separate connection pool (e.g. for real concurrency tests); closed by close(). */
  pool: (max: number) => Sql;
  close: () => Promise<void>;
}

class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super('rollback');
  }
}

/** Begin a transaction on `sql`, switch to the role and claims like the API, run `fn`. */
export async function runAs<T>(
  sql: Sql,
  claims: Claims,
  fn: (tx: TransactionSql) => Promise<T>,
  opts: AsOptions = {},
): Promise<T> {
  try {
    return (await sql.begin(async (tx) => {
      await tx`select set_config('role', ${claims.role}, true),
                      set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
      const value = await fn(tx);
      if (opts.rollback) throw new Rollback(value);
      return value;
    })) as T;
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
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
  const pools: Sql[] = [];
  return {
    owner,
    url,
    as: (claims, fn, opts) => runAs(owner, claims, fn, opts),
    pool: (max) => {
      const p = postgres(url, { max, onnotice: () => {} });
      pools.push(p);
      return p;
    },
    close: async () => {
      await Promise.all(pools.map((p) => p.end()));
      await owner.end();
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * The calling file's own fresh database: made before its tests, dropped after
 * them. The object can be held at collection time; it reaches the database
 * once the hooks have run.
 */
export function useFreshDatabase(): TestDatabase {
  let real: TestDatabase | undefined;
  beforeAll(async () => {
    real = await freshDatabase();
  });
  afterAll(() => real?.close());
  const ready = () => {
    if (!real) throw new Error('the database exists only inside hooks and tests');
    return real;
  };
  return {
    get owner() {
      return ready().owner;
    },
    get url() {
      return ready().url;
    },
    as: (claims, fn, opts) => ready().as(claims, fn, opts),
    pool: (max) => ready().pool(max),
    close: () => ready().close(),
  };
}

/**
 * seedPlan's world for the tests of the calling scope (a file or a describe),
 * seeded once before them or, with `each`, anew before each test.
 */
export function usePlanWorld(db: TestDatabase, opts: { each?: boolean } = {}): PlanWorld {
  const world = {} as PlanWorld;
  (opts.each ? beforeEach : beforeAll)(async () => {
    Object.assign(world, await seedPlan(db.owner));
  });
  return world;
}

/**
 * Hanna (a host) and Mia (a member), made once for the calling scope, for
 * tests that need a plan of their own each: `newPlan()` makes one hosted by
 * Hanna with Mia in it, and answers the claims each of them sends on it.
 */
export function useHostAndMember(db: TestDatabase) {
  const users = { host: '', member: '' };
  beforeAll(async () => {
    users.host = await createUser(db.owner, 'Hanna', 'Host');
    users.member = await createUser(db.owner, 'Mia', null);
  });
  const newPlan = async () => {
    const plan = await createPlan(db.owner, users.host);
    await addMember(db.owner, plan.id, users.member);
    const claims = (sub: string): Claims => ({ role: 'authenticated', sub, plan_id: plan.id });
    return { planId: plan.id, host: claims(users.host), member: claims(users.member) };
  };
  return { users, newPlan };
}

/** The SQLSTATE and message of a failed promise (fails the test if it resolved). */
export async function pgError(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code?: string; message: string };
    return { code: e.code ?? 'no code', message: e.message };
  }
  expect.fail('expected a database error, but the statement succeeded');
}

/** Assert that `promise` fails with SQLSTATE `code` (and, if given, a message matching `message`). */
export async function expectPgError(promise: Promise<unknown>, code: string, message?: string | RegExp) {
  const e = await pgError(promise);
  expect(e.code, `SQLSTATE of "${e.message}"`).toBe(code);
  if (typeof message === 'string') expect(e.message).toBe(message);
  else if (message) expect(e.message).toMatch(message);
}

/** RLS refused a write (42501 "new row violates row-level security policy" or "permission denied"). */
export async function expectDenied(promise: Promise<unknown>) {
  const e = await pgError(promise);
  expect(e.code, `SQLSTATE of "${e.message}"`).toBe('42501');
}
