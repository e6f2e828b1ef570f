// private.issue_sign_in_code / private.verify_sign_in_code, called as the API
// calls them: under role anon. Time is simulated by moving the stored
// timestamps back as the owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, freshDatabase, type TestDatabase } from '../support/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db?.close());

const anon = { role: 'anon' } as const;
const HASH = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
let n = 0;
const email = () => `person${++n}@example.test`;

const issue = (e: string, hash = HASH) =>
  db.as(anon, async (sql) => (await sql`select private.issue_sign_in_code(${e}, ${hash}) as r`)[0].r as string);
const verify = (e: string, hash = HASH) =>
  db.as(anon, async (sql) => (await sql`select private.verify_sign_in_code(${e}, ${hash}) as r`)[0].r as string | null);
/** Pretend the last send happened `seconds` ago. */
const age = (e: string, seconds: number) =>
  db.owner`update app.sign_in_codes set last_sent_at = last_sent_at - make_interval(secs => ${seconds}),
           hour_started_at = hour_started_at - make_interval(secs => ${seconds}) where email = ${e}`;

describe('issue_sign_in_code', () => {
  it('stores only the hash, expiring in 10 minutes with 0 failed attempts', async () => {
    const e = email();
    expect(await issue(e)).toBe('ok');
    const [row] = await db.owner`
      select code_hash, failed_attempts, extract(epoch from expires_at - now())::int as ttl from app.sign_in_codes where email = ${e}`;
    expect(row.code_hash).toBe(HASH);
    expect(row.failed_attempts).toBe(0);
    expect(row.ttl).toBeGreaterThanOrEqual(598);
    expect(row.ttl).toBeLessThanOrEqual(600);
  });

  it('answers too_soon within 30 s of the last send, ok after', async () => {
    const e = email();
    expect(await issue(e)).toBe('ok');
    expect(await issue(e, OTHER)).toBe('too_soon');
    await age(e, 29);
    expect(await issue(e, OTHER)).toBe('too_soon');
    await age(e, 2);
    expect(await issue(e, OTHER)).toBe('ok');
  });

  it('no 30 s pause once the pending code was used: sign out, sign in again at once', async () => {
    const e = email();
    expect(await issue(e)).toBe('ok');
    expect(await verify(e)).not.toBeNull();
    expect(await issue(e, OTHER)).toBe('ok');
    expect(await issue(e, HASH)).toBe('too_soon'); // OTHER is pending again
  });

  it('allows 5 sends per hour window, then too_many until the hour is over', async () => {
    const e = email();
    for (let i = 0; i < 5; i++) {
      expect(await issue(e)).toBe('ok');
      await age(e, 31);
    }
    expect(await issue(e)).toBe('too_many');
    // 5 * 31 s have passed; the window opened at the first send.
    await age(e, 3600 - 5 * 31 - 1);
    expect(await issue(e)).toBe('too_many');
    await age(e, 2);
    expect(await issue(e)).toBe('ok');
    const [row] = await db.owner`select sends_this_hour from app.sign_in_codes where email = ${e}`;
    expect(row.sends_this_hour).toBe(1);
  });

  it('a new send replaces the previous code and resets failed attempts', async () => {
    const e = email();
    await issue(e, HASH);
    expect(await verify(e, OTHER)).toBeNull();
    await age(e, 31);
    expect(await issue(e, OTHER)).toBe('ok');
    const [row] = await db.owner`select failed_attempts from app.sign_in_codes where email = ${e}`;
    expect(row.failed_attempts).toBe(0);
    expect(await verify(e, HASH)).toBeNull();
    expect(await verify(e, OTHER)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('two parallel sends: exactly one ok', async () => {
    const e = email();
    const results = await Promise.all([issue(e), issue(e, OTHER), issue(e)]);
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r === 'too_soon')).toHaveLength(2);
  });

  it('rejects an e-mail that is not normalised with HP400', async () => {
    await expectPgError(issue(' Person@Example.test'), 'HP400', 'Enter a valid e-mail address');
    await expectPgError(issue('no-at-sign'), 'HP400');
  });
});

describe('verify_sign_in_code', () => {
  it('creates the account on first sign-in, finds it afterwards; the code is single use', async () => {
    const e = email();
    await issue(e);
    const id = await verify(e);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [user] = await db.owner`select email, first_name from app.users where id = ${id}`;
    expect(user).toEqual({ email: e, first_name: null });
    expect(await verify(e)).toBeNull(); // used
    await age(e, 31);
    await issue(e);
    expect(await verify(e)).toBe(id); // same account
  });

  it('returns null for an expired code', async () => {
    const e = email();
    await issue(e);
    await db.owner`update app.sign_in_codes set expires_at = now() - interval '1 second' where email = ${e}`;
    expect(await verify(e)).toBeNull();
    const [{ count }] = await db.owner`select count(*)::int from app.users where email = ${e}`;
    expect(count).toBe(0);
  });

  it('returns null for an unknown e-mail', async () => {
    expect(await verify(email())).toBeNull();
  });

  it('the right code still works after 4 wrong tries', async () => {
    const e = email();
    await issue(e);
    for (let i = 0; i < 4; i++) expect(await verify(e, OTHER)).toBeNull();
    expect(await verify(e)).not.toBeNull();
  });

  it('after 5 wrong tries even the right code fails', async () => {
    const e = email();
    await issue(e);
    for (let i = 0; i < 5; i++) expect(await verify(e, OTHER)).toBeNull();
    const [row] = await db.owner`select failed_attempts, code_hash from app.sign_in_codes where email = ${e}`;
    expect(row).toEqual({ failed_attempts: 5, code_hash: null });
    expect(await verify(e)).toBeNull();
  });

  it('parallel wrong guesses are all counted (no more than 5 get a chance)', async () => {
    const e = email();
    await issue(e);
    await Promise.all(Array.from({ length: 8 }, () => verify(e, OTHER)));
    expect(await verify(e)).toBeNull();
  });

  it('two parallel first sign-ins with one code: one user id, one account', async () => {
    const e = email();
    await issue(e);
    const ids = await Promise.all([verify(e), verify(e)]);
    expect(ids.filter(Boolean)).toHaveLength(1);
    const [{ count }] = await db.owner`select count(*)::int from app.users where email = ${e}`;
    expect(count).toBe(1);
  });
});

describe('sign-in codes are reachable only through the functions', () => {
  for (const role of ['anon', 'authenticated'] as const) {
    it(`${role} cannot read or write app.sign_in_codes`, async () => {
      const claims = role === 'anon' ? anon : { role, sub: crypto.randomUUID() };
      await expectDenied(db.as(claims, (sql) => sql`select * from app.sign_in_codes`));
      await expectDenied(
        db.as(claims, (sql) => sql`insert into app.sign_in_codes (email, code_hash, expires_at) values ('x@y.z', 'h', now())`),
      );
    });
  }

  it('PUBLIC cannot execute the sign-in functions (only anon and authenticated)', async () => {
    const rows = await db.owner`
      select p.proname,
             has_function_privilege('anon', p.oid, 'execute') as anon,
             has_function_privilege('authenticated', p.oid, 'execute') as auth,
             coalesce(array_to_string(p.proacl, ','), '') ~ '(^|,)=X' as public_exec,
             p.prosecdef, p.proconfig
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'private' and p.proname in ('issue_sign_in_code', 'verify_sign_in_code')`;
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r).toMatchObject({ anon: true, auth: true, public_exec: false, prosecdef: true });
      expect(r.proconfig).toContain('search_path=""');
    }
  });
});
