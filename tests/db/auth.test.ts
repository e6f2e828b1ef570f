// Accounts and how one gets in (auth: the auth and email_change files):
// app.users (own row only, e-mail normalisation, names, the display name kept
// on participants rows); the sign-in codes (private.issue_sign_in_code /
// private.verify_sign_in_code) and the verified e-mail change
// (private.request_email_change / private.confirm_email_change), called as the
// API calls them. Sessions and the end of an account have files of their own
// (sessions.test.ts, account.test.ts). Time is simulated by moving the stored timestamps back as
// the owner.
import { beforeEach, describe, expect, it } from 'vitest';
import { expectDenied, expectPgError, useFreshDatabase, usePlanWorld, type Claims } from '../support/db.ts';
import { createUser, sessionsOf, sha256Hex, signedIn, startSession } from '../support/plan-fixture.ts';

const db = useFreshDatabase();

const HASH = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);

describe('app.users', () => {
  const w = usePlanWorld(db);

  describe('reading users', () => {
    it('a signed-in user reads exactly its own row (GET /api/auth/me)', async () => {
      const rows = await db.as(
        w.actors.member,
        (sql) => sql`select id, email, first_name, last_name from app.users where id = auth.uid()`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: w.users.member, first_name: 'Mia', last_name: null });
      const all = await db.as(w.actors.member, (sql) => sql`select id from app.users`);
      expect(all.map((r) => r.id)).toEqual([w.users.member]);
    });
    it('the host of a plan does not read its members', async () => {
      const rows = await db.as(w.actors.host, (sql) => sql`select id from app.users where id = ${w.users.member}`);
      expect(rows).toHaveLength(0);
    });
    it('anon reads no user, with any claims', async () => {
      await expectDenied(db.as(w.actors.anon, (sql) => sql`select id from app.users`));
      await expectDenied(db.as(w.actors.guest, (sql) => sql`select id from app.users`));
    });
  });

  describe('updating users (PATCH /api/auth/profile)', () => {
    it('a user updates its own names; blanks become null, names are trimmed', async () => {
      const [row] = await db.as(
        w.actors.stranger,
        (sql) => sql`update app.users set first_name = '  Samuel ', last_name = ''
                     where id = (select auth.uid()) returning first_name, last_name, updated_at > created_at as touched`,
        { rollback: true },
      );
      expect(row).toEqual({ first_name: 'Samuel', last_name: null, touched: true });
    });
    it('the e-mail cannot be set directly: only a confirmed change moves it (private.confirm_email_change)', async () => {
      await expectDenied(
        db.as(w.actors.stranger, (sql) => sql`update app.users set email = 'samuel@example.test' where id = (select auth.uid())`),
      );
    });
    it("no one updates someone else's row", async () => {
      const r = await db.as(w.actors.member, (sql) => sql`update app.users set first_name = 'X' where id = ${w.users.host}`);
      expect(r.count).toBe(0);
    });
    it('id and created_at are not editable', async () => {
      await expectDenied(db.as(w.actors.member, (sql) => sql`update app.users set created_at = now() where id = (select auth.uid())`));
      await expectDenied(db.as(w.actors.member, (sql) => sql`update app.users set id = gen_random_uuid() where id = (select auth.uid())`));
    });
    it('an e-mail taken by another account is a unique violation (the e-mail change answers 409)', async () => {
      const [{ email }] = await db.owner`select email from app.users where id = ${w.users.host}`;
      await expectPgError(db.owner`update app.users set email = ${email} where id = ${w.users.member}`, '23505');
    });
    it('anon updates no user, with any claims', async () => {
      for (const actor of ['anon', 'anonWithLink', 'guest'] as const) {
        await expectDenied(db.as(w.actors[actor], (sql) => sql`update app.users set first_name = 'X'`));
      }
    });
    it('nobody inserts or deletes users through the API roles', async () => {
      await expectDenied(db.as(w.actors.stranger, (sql) => sql`insert into app.users (email) values ('new@example.test')`));
      await expectDenied(db.as(w.actors.stranger, (sql) => sql`delete from app.users where id = (select auth.uid())`));
    });
  });

  describe('e-mail and name constraints', () => {
    const insert = (email: string, first: string | null = null) =>
      db.owner`insert into app.users (email, first_name) values (${email}, ${first})`;
    it('the e-mail must be stored trimmed and lower-cased', async () => {
      await expectPgError(insert('Upper@Example.test'), '23514');
      await expectPgError(insert(' pad@example.test'), '23514');
    });
    it('the e-mail has an @ that is neither first nor last, no spaces, 3-254 characters', async () => {
      for (const bad of ['plain', '@x.y', 'x@', 'a b@c.d', `${'a'.repeat(250)}@b.cd`]) {
        await expectPgError(insert(bad), '23514');
      }
      await insert('ok@x');
    });
    it('names are at most 80 characters', async () => {
      await expectPgError(insert('long@example.test', 'n'.repeat(81)), '23514');
    });
  });

  describe('display name on participants rows', () => {
    const names = async () =>
      (await db.owner`select name from app.participants where user_id = ${w.users.member}`).map((r) => r.name);

    it("follows profile edits: 'first last', else first, else the e-mail's local part", async () => {
      await db.as(w.actors.member, (sql) => sql`update app.users set last_name = 'Miller' where id = (select auth.uid())`);
      expect(await names()).toEqual(['Mia Miller']);
      await db.as(w.actors.member, (sql) => sql`update app.users set first_name = null, last_name = null where id = (select auth.uid())`);
      // (The e-mail moves only through a confirmed change, a definer: the owner stands in for it.)
      await db.owner`update app.users set email = 'mia.m@example.test' where id = ${w.users.member}`;
      expect(await names()).toEqual(['mia.m']);
      await db.as(w.actors.member, (sql) => sql`update app.users set first_name = 'Mia' where id = (select auth.uid())`);
      expect(await names()).toEqual(['Mia']);
    });
    it('a long e-mail local part still makes a valid participant name', async () => {
      const local = 'l'.repeat(240);
      const [{ id }] = await db.owner`insert into app.users (email) values (${local + '@ex.io'}) returning id`;
      const [row] = await db.as(
        { role: 'authenticated', sub: id, plan_id: w.planA },
        (sql) => sql`insert into app.participants (plan_id, user_id, name) values (${w.planA}, ${id}, '-') returning name`,
        { rollback: true },
      );
      expect(row.name).toBe(local);
    });
    it('a last name alone does not make a display name', async () => {
      const [r] = await db.owner`select private.display_name(null, 'Only', 'x.y@z.t') as n`;
      expect(r.n).toBe('x.y');
    });
  });
});

const anon = { role: 'anon' } as const;
let n = 0;
const email = () => `person${++n}@example.test`;

/** Device keys' hashes, as the API sends them ('' = a request without a key). */
const PHONE = 'c'.repeat(64);
const LAPTOP = 'd'.repeat(64);
const stranger = () => sha256Hex(crypto.randomUUID());

/** The address's budget for codes it did not ask for, as the API builds it (_shared/db/limits.ts 'otp-address'). */
const addressKey = (e: string) => `test-otp-address:${e}`;
const addressLimit = (e: string, max = 5) => JSON.stringify({ key: addressKey(e), max, window: 3600, message: 'Too many codes requested' });
const networkLimit = (key: string, max: number) => JSON.stringify([{ key, max, window: 3600, message: 'Too many codes were requested from your network' }]);

const issueRow = (e: string, hash = HASH, device = '', network = '[]', address = addressLimit(e)) =>
  db.as(anon, async (sql) =>
    (await sql`select outcome, retry_after from private.issue_sign_in_code(${e}, ${device}, ${hash}, ${address}::text::jsonb, ${network}::text::jsonb)`)[0] as {
      outcome: string;
      retry_after: number | null;
    });
const issue = async (e: string, hash = HASH, device = '', network = '[]') => (await issueRow(e, hash, device, network)).outcome;
const verify = (e: string, hash = HASH, device = '') =>
  db.as(anon, async (sql) => (await sql`select private.verify_sign_in_code(${e}, ${device}, ${hash}) as r`)[0].r as string | null);
/** Pretend the last send (and the address's budget's window) happened `seconds` ago. */
const age = async (e: string, seconds: number) => {
  await db.owner`update app.sign_in_codes set last_sent_at = last_sent_at - make_interval(secs => ${seconds}),
           hour_started_at = hour_started_at - make_interval(secs => ${seconds}) where email = ${e}`;
  await db.owner`update app.rate_limit_counters set window_ends_at = window_ends_at - make_interval(secs => ${seconds}) where key = ${addressKey(e)}`;
};
const hits = async (key: string) => ((await db.owner`select hits from app.rate_limit_counters where key = ${key}`)[0]?.hits ?? 0) as number;

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

  it('rejects an e-mail that is not normalised, or a device hash that is not one, with HP400', async () => {
    await expectPgError(issue(' Person@Example.test'), 'HP400', 'Enter a valid e-mail address');
    await expectPgError(issue('no-at-sign'), 'HP400');
    await expectPgError(issue(email(), HASH, 'not-a-hash'), 'HP400', 'Invalid device hash');
    await expectPgError(verify(email(), HASH, 'E'.repeat(64)), 'HP400', 'Invalid device hash');
  });

  it('answers how long to wait: 30 s while pending, the rest of the hour when 5 were sent', async () => {
    const e = email();
    await issue(e);
    const soon = await issueRow(e);
    expect(soon.outcome).toBe('too_soon');
    expect(soon.retry_after).toBeGreaterThanOrEqual(29);
    expect(soon.retry_after).toBeLessThanOrEqual(30);
    for (let i = 1; i < 5; i++) {
      await age(e, 31);
      expect(await issue(e)).toBe('ok');
    }
    await age(e, 31);
    const many = await issueRow(e);
    expect(many.outcome).toBe('too_many');
    expect(many.retry_after).toBeGreaterThan(3600 - 5 * 31 - 5);
    expect(many.retry_after).toBeLessThanOrEqual(3600 - 5 * 31);
  });
});

describe('a code belongs to the device that asked for it (decision 0076)', () => {
  it("another device's guesses never reach it, and its right code works after theirs", async () => {
    const e = email();
    expect(await issue(e, HASH, PHONE)).toBe('ok');
    expect(await verify(e, HASH, LAPTOP)).toBeNull();
    expect(await verify(e, HASH, '')).toBeNull();
    // A stranger asks for a code of their own and spends its five tries.
    const theirs = stranger();
    expect(await issue(e, OTHER, theirs)).toBe('ok');
    for (let i = 0; i < 6; i++) expect(await verify(e, HASH, theirs)).toBeNull();
    const [mine] = await db.owner`select code_hash, failed_attempts from app.sign_in_codes where email = ${e} and device_hash = ${PHONE}`;
    expect(mine).toEqual({ code_hash: HASH, failed_attempts: 0 });
    expect(await verify(e, HASH, PHONE)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("another device's send neither waits on this one's 30 s nor replaces its code", async () => {
    const e = email();
    expect(await issue(e, HASH, PHONE)).toBe('ok');
    expect(await issue(e, OTHER, LAPTOP)).toBe('ok');
    expect(await issue(e, OTHER, PHONE)).toBe('too_soon');
    expect(await verify(e, HASH, PHONE)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await verify(e, OTHER, LAPTOP)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("the address's budget for unknown devices is one for them all; the account's own device has its own", async () => {
    const e = email();
    // The owner signed in from the phone once: it is the account's own.
    await issue(e, HASH, PHONE);
    const owner = await verify(e, HASH, PHONE);
    expect(await hits(addressKey(e))).toBe(1);
    // Strangers, each from a fresh device, spend the rest of the budget...
    for (let i = 0; i < 4; i++) expect(await issue(e, HASH, stranger())).toBe('ok');
    const refused = await issueRow(e, HASH, stranger());
    expect(refused.outcome).toBe('too_many');
    expect(refused.retry_after).toBeGreaterThan(3590);
    expect(await issue(e, HASH, '')).toBe('too_many');
    expect(await hits(addressKey(e))).toBe(5);
    // ...and the owner's phone still gets its code, counted on no one's budget.
    await age(e, 0);
    expect(await issue(e, OTHER, PHONE)).toBe('ok');
    expect(await hits(addressKey(e))).toBe(5);
    expect(await verify(e, OTHER, PHONE)).toBe(owner);
  });

  it('a device is the account\'s own for 180 days after its last sign-in, at most 20 of them', async () => {
    const e = email();
    await issue(e, HASH, PHONE);
    const owner = await verify(e, HASH, PHONE);
    await db.owner`update app.sign_in_devices set last_signed_in_at = now() - interval '181 days' where user_id = ${owner}`;
    for (let i = 0; i < 5; i++) await issue(e, HASH, stranger());
    expect(await issue(e, OTHER, PHONE)).toBe('too_many');
    // Twenty-one devices sign in; the oldest is forgotten.
    const e2 = email();
    const devices = Array.from({ length: 21 }, () => stranger());
    for (const device of devices) {
      await issue(e2, HASH, device, '[]');
      await verify(e2, HASH, device);
      await db.owner`delete from app.rate_limit_counters where key = ${addressKey(e2)}`;
      await db.owner`update app.sign_in_devices set last_signed_in_at = last_signed_in_at - interval '1 minute'`;
    }
    const kept = await db.owner`select device_hash from app.sign_in_devices d join app.users u on u.id = d.user_id where u.email = ${e2}`;
    expect(kept.map((r) => r.device_hash).sort()).toEqual(devices.slice(1).sort());
  });

  it('only a code that is sent counts: refusals hit neither the address nor the network', async () => {
    const e = email();
    const network = `test-otp-ip:${crypto.randomUUID()}`;
    expect(await issue(e, HASH, PHONE, networkLimit(network, 2))).toBe('ok');
    for (let i = 0; i < 3; i++) expect(await issue(e, HASH, PHONE, networkLimit(network, 2))).toBe('too_soon');
    expect(await hits(network)).toBe(1);
    expect(await hits(addressKey(e))).toBe(1);
    expect(await issue(e, HASH, LAPTOP, networkLimit(network, 2))).toBe('ok');
    expect(await hits(network)).toBe(2);
    // The network is full: HP429, and nothing of the request stays (no code, no hit on the address).
    await expectPgError(issue(e, HASH, stranger(), networkLimit(network, 2)), 'HP429', 'Too many codes were requested from your network');
    expect(await hits(addressKey(e))).toBe(2);
    const [{ count }] = await db.owner`select count(*)::int from app.sign_in_codes where email = ${e}`;
    expect(count).toBe(2);
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

describe('app.sign_in_devices', () => {
  it('a user reads and forgets only its own devices; nobody adds or changes one', async () => {
    const mine = email();
    await issue(mine, HASH, PHONE);
    const me = await verify(mine, HASH, PHONE);
    const theirs = email();
    await issue(theirs, HASH, LAPTOP);
    const them = await verify(theirs, HASH, LAPTOP);
    const claims = signedIn(me!, await startSession(db.owner, me!));
    expect(await db.as(claims, (sql) => sql`select device_hash from app.sign_in_devices`)).toEqual([{ device_hash: PHONE }]);
    await db.as(claims, (sql) => sql`delete from app.sign_in_devices where user_id = ${them}`);
    expect(await db.owner`select device_hash from app.sign_in_devices where user_id = ${them}`).toEqual([{ device_hash: LAPTOP }]);
    await expectDenied(db.as(claims, (sql) => sql`insert into app.sign_in_devices (user_id, device_hash) values (${me}, ${OTHER})`));
    await expectDenied(db.as(claims, (sql) => sql`update app.sign_in_devices set last_signed_in_at = now()`));
    await expectDenied(db.as(anon, (sql) => sql`select * from app.sign_in_devices`));
    await db.as(claims, (sql) => sql`delete from app.sign_in_devices`);
    expect(await db.owner`select device_hash from app.sign_in_devices where user_id = ${me}`).toEqual([]);
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

describe('verified e-mail change', () => {
  const w = usePlanWorld(db, { each: true });
  let user: string;
  let session: string;
  let me: Claims;
  beforeEach(async () => {
    user = await createUser(db.owner, 'Eve', null, `eve-${crypto.randomUUID()}@example.test`);
    session = await startSession(db.owner, user);
    me = signedIn(user, session);
  });

  const request = (claims: Claims, email: string, hash = HASH) =>
    db.as(claims, async (sql) => (await sql`select outcome from private.request_email_change(${email}, ${hash}, ${addressLimit(email)}::text::jsonb, '[]')`)[0].outcome as string);
  /** The hash of the undo token each confirm stores (a fresh one per call, as the API makes). */
  let undoHash = '';
  const confirm = (claims: Claims, hash = HASH) => {
    undoHash = sha256Hex(crypto.randomUUID());
    return db.as(claims, async (sql) => (await sql`select outcome from private.confirm_email_change(${hash}, '[]', ${undoHash})`)[0].outcome as string);
  };
  const undo = (tokenHash: string, claims: Claims = { role: 'anon' }) =>
    db.as(claims, async (sql) => (await sql`select outcome, email from private.undo_email_change(${tokenHash})`)[0] as { outcome: string; email: string | null });
  const emailOf = async (id: string) => (await db.owner`select email from app.users where id = ${id}`)[0].email as string;

  it('stores only the hash and the target, 10 minutes, and moves nothing yet', async () => {
    const target = `new-${crypto.randomUUID()}@example.test`;
    const before = await emailOf(user);
    expect(await request(me, target)).toBe('ok');
    const [row] = await db.owner`
      select new_email, code_hash, failed_attempts, extract(epoch from expires_at - now())::int as ttl
        from app.email_changes where user_id = ${user}`;
    expect(row).toMatchObject({ new_email: target, code_hash: HASH, failed_attempts: 0 });
    expect(row.ttl).toBeGreaterThanOrEqual(598);
    expect(await emailOf(user)).toBe(before);
  });

  it('answers the same for a free and a taken address (no enumeration); "same" for its own', async () => {
    const [{ email: taken }] = await db.owner`select email from app.users where id = ${w.users.host}`;
    expect(await request(me, `free-${crypto.randomUUID()}@example.test`)).toBe('ok');
    await db.owner`update app.email_changes set last_sent_at = now() - interval '1 minute' where user_id = ${user}`;
    expect(await request(me, taken)).toBe('ok');
    expect(await request(me, await emailOf(user))).toBe('same');
  });

  it('the send limits of sign-in codes: 30 s while a code is pending, 5 per hour', async () => {
    const target = () => `limit-${crypto.randomUUID()}@example.test`;
    expect(await request(me, target())).toBe('ok');
    expect(await request(me, target())).toBe('too_soon');
    for (let i = 2; i <= 5; i++) {
      await db.owner`update app.email_changes set last_sent_at = now() - interval '31 seconds' where user_id = ${user}`;
      expect(await request(me, target())).toBe('ok');
    }
    await db.owner`update app.email_changes set last_sent_at = now() - interval '31 seconds' where user_id = ${user}`;
    expect(await request(me, target())).toBe('too_many');
    await db.owner`update app.email_changes set last_sent_at = now() - interval '61 minutes', hour_started_at = now() - interval '61 minutes' where user_id = ${user}`;
    expect(await request(me, target())).toBe('ok');
  });

  it("a code names its new address on that address's budget: other accounts cannot mail it more, its owner's device still signs in", async () => {
    const victim = `victim-${crypto.randomUUID()}@example.test`;
    await issue(victim, HASH, PHONE);
    await verify(victim, HASH, PHONE);
    await age(victim, 31);
    for (let i = 0; i < 4; i++) {
      const other = await createUser(db.owner, 'K', null, `k-${crypto.randomUUID()}@example.test`);
      expect(await request(signedIn(other, await startSession(db.owner, other)), victim)).toBe('ok');
    }
    const [busy] = await db.as(me, (sql) => sql`
      select outcome, retry_after from private.request_email_change(${victim}, ${HASH}, ${addressLimit(victim)}::text::jsonb, '[]')`);
    expect(busy.outcome).toBe('address_busy');
    expect(busy.retry_after).toBeGreaterThan(3500);
    // Refused: nothing stored for the account, and no code for the address from a stranger's device.
    expect((await db.owner`select new_email from app.email_changes where user_id = ${user}`)[0]?.new_email ?? null).toBeNull();
    expect(await issue(victim, HASH, stranger())).toBe('too_many');
    expect(await issue(victim, OTHER, PHONE)).toBe('ok');
  });

  it('a wrong code counts; the 5th kills it, after which even the right one fails', async () => {
    const target = `tries-${crypto.randomUUID()}@example.test`;
    await request(me, target);
    for (let i = 1; i <= 4; i++) expect(await confirm(me, OTHER)).toBe('invalid');
    expect((await db.owner`select failed_attempts from app.email_changes where user_id = ${user}`)[0].failed_attempts).toBe(4);
    expect(await confirm(me, OTHER)).toBe('invalid');
    expect(await confirm(me)).toBe('invalid');
    expect(await emailOf(user)).not.toBe(target);
  });

  it('an expired code fails', async () => {
    await request(me, `late-${crypto.randomUUID()}@example.test`);
    await db.owner`update app.email_changes set expires_at = now() - interval '1 second' where user_id = ${user}`;
    expect(await confirm(me)).toBe('invalid');
  });

  it('the right code moves the account and ends every OTHER session of the user; single use', async () => {
    const laptop = await startSession(db.owner, user);
    const phone = await startSession(db.owner, user);
    const hostSession = await startSession(db.owner, w.users.host);
    const target = `moved-${crypto.randomUUID()}@example.test`;
    await request(me, target);
    expect(await confirm(me)).toBe('changed');
    expect(await emailOf(user)).toBe(target);
    const left = await sessionsOf(db.owner, user);
    expect(left).toEqual([session]);
    expect(left).not.toContain(laptop);
    expect(left).not.toContain(phone);
    expect(await sessionsOf(db.owner, w.users.host)).toContain(hostSession);
    expect(await confirm(me)).toBe('invalid');
  });

  it('"taken" only after the right code, when another account has the address; nothing moves', async () => {
    const [{ email: taken }] = await db.owner`select email from app.users where id = ${w.users.host}`;
    const other = await startSession(db.owner, user);
    await request(me, taken);
    expect(await confirm(me, OTHER)).toBe('invalid');
    expect(await confirm(me)).toBe('taken');
    expect(await emailOf(user)).not.toBe(taken);
    expect(await sessionsOf(db.owner, user)).toContain(other);
  });

  it('the code is the account’s: another user cannot confirm it', async () => {
    const target = `mine-${crypto.randomUUID()}@example.test`;
    await request(me, target);
    const mallory = signedIn(w.users.stranger, await startSession(db.owner, w.users.stranger));
    expect(await confirm(mallory)).toBe('invalid');
    expect(await emailOf(w.users.stranger)).not.toBe(target);
  });

  it('a change leaves an undo for the old address: it puts the address back, ends every session, once', async () => {
    const before = await emailOf(user);
    const laptop = await startSession(db.owner, user);
    await request(me, `thief-${crypto.randomUUID()}@example.test`);
    expect(await confirm(me)).toBe('changed');
    const [stored] = await db.owner`
      select old_email, extract(day from expires_at - now())::int as days from app.email_change_undos where token_hash = ${undoHash}`;
    expect(stored).toEqual({ old_email: before, days: 6 });
    // The thief starts another change; the undo takes that away too.
    await request(me, `again-${crypto.randomUUID()}@example.test`);
    await db.owner`insert into app.sign_in_devices (user_id, device_hash) values (${user}, ${LAPTOP})`;
    expect(await undo(undoHash)).toEqual({ outcome: 'undone', email: before });
    expect(await emailOf(user)).toBe(before);
    expect(await sessionsOf(db.owner, user)).toEqual([]);
    expect(await db.owner`select 1 from app.sign_in_devices where user_id = ${user}`).toHaveLength(0);
    expect(await sessionsOf(db.owner, user)).not.toContain(laptop);
    expect(await db.owner`select 1 from app.email_changes where user_id = ${user}`).toHaveLength(0);
    expect(await undo(undoHash)).toEqual({ outcome: 'invalid', email: null });
  });

  it('two changes in a row: the later undo cannot outlive the first; the first undoes everything', async () => {
    const original = await emailOf(user);
    await request(me, `b-${crypto.randomUUID()}@example.test`);
    expect(await confirm(me)).toBe('changed');
    const first = undoHash;
    const b = await emailOf(user);
    await db.owner`update app.email_change_undos set created_at = now() - interval '1 minute' where token_hash = ${first}`;
    await request(me, `c-${crypto.randomUUID()}@example.test`);
    expect(await confirm(me)).toBe('changed');
    const second = undoHash;
    // The holder of b's mailbox undoes to b; the owner's first link still works after it.
    expect(await undo(second)).toEqual({ outcome: 'undone', email: b });
    expect(await undo(first)).toEqual({ outcome: 'undone', email: original });
    expect(await emailOf(user)).toBe(original);
    expect(await db.owner`select 1 from app.email_change_undos where user_id = ${user}`).toHaveLength(0);
  });

  it('an expired, unknown or taken undo changes nothing', async () => {
    const before = await emailOf(user);
    await request(me, `x-${crypto.randomUUID()}@example.test`);
    expect(await confirm(me)).toBe('changed');
    const moved = await emailOf(user);
    expect(await undo(sha256Hex('not a token'))).toEqual({ outcome: 'invalid', email: null });
    // Someone else took the old address meanwhile: 'taken', the account stays where it is.
    await db.owner`update app.users set email = ${`parked-${crypto.randomUUID()}@example.test`} where id = ${user}`;
    await db.owner`update app.users set email = ${moved} where id = ${user}`;
    const squatter = await createUser(db.owner, 'Sq', null, before);
    expect(await undo(undoHash)).toEqual({ outcome: 'taken', email: null });
    expect(await emailOf(user)).toBe(moved);
    await db.owner`delete from app.users where id = ${squatter}`;
    await db.owner`update app.email_change_undos set expires_at = now() - interval '1 second' where token_hash = ${undoHash}`;
    const expired = undoHash;
    expect(await undo(expired)).toEqual({ outcome: 'invalid', email: null });
    expect(await emailOf(user)).toBe(moved);
    // Expired undos are purged where undos are added (and used): none piles up.
    await db.owner`insert into app.email_change_undos (token_hash, user_id, old_email, new_email, expires_at)
                   values (${sha256Hex('stale')}, ${user}, ${before}, ${moved}, now() - interval '1 day')`;
    await request(me, `y-${crypto.randomUUID()}@example.test`);
    expect(await confirm(me)).toBe('changed');
    expect(await db.owner`select 1 from app.email_change_undos where token_hash in ${db.owner([expired, sha256Hex('stale')])}`).toHaveLength(0);
    // Undos cannot be read or written directly.
    await expectDenied(db.as(me, (sql) => sql`select * from app.email_change_undos`));
  });

  it('only for signed-in callers; pending changes are unreadable', async () => {
    await expectDenied(request(w.actors.anon, 'x@example.test'));
    await expectDenied(confirm(w.actors.guest));
    await expectDenied(db.as(me, (sql) => sql`select * from app.email_changes`));
    await expectPgError(request(me, 'Not An Email'), 'HP400', 'Email must be a valid e-mail address');
  });
});
