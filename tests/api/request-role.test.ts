// Requests must run as anon/authenticated with the documented claims, never as
// the owner (who bypasses RLS). Observed from inside the database: probe
// triggers record the active role and claims while the API writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiDatabaseAsOwner, signIn } from '../support/api.ts';

const owner = apiDatabaseAsOwner();
const PREFIX = `probe-${Date.now()}-`;

beforeAll(async () => {
  // Only rows of this file's addresses are recorded, so other test files sharing
  // the server are unaffected.
  await owner.unsafe(`
    create table public.api_role_probe (
      email text, role_setting text, current_user_name text, claims text
    );
    grant insert on public.api_role_probe to anon, authenticated;
    create function public.api_role_probe_record() returns trigger language plpgsql as $$
    begin
      insert into public.api_role_probe
      values (new.email, current_setting('role'), current_user,
              current_setting('request.jwt.claims', true) || '|' || coalesce(current_setting('request.jwt.claim.sub', true), ''));
      return new;
    end $$;
    create trigger api_role_probe after insert or update on app.sign_in_codes
      for each row when (new.email like '${PREFIX}%') execute function public.api_role_probe_record();
    create trigger api_role_probe after update on app.users
      for each row when (new.email like '${PREFIX}%') execute function public.api_role_probe_record();
  `);
});

afterAll(async () => {
  await owner.unsafe(`
    drop trigger if exists api_role_probe on app.sign_in_codes;
    drop trigger if exists api_role_probe on app.users;
    drop function if exists public.api_role_probe_record();
    drop table if exists public.api_role_probe;
  `);
  await owner.end();
});

describe('the role a request runs as', () => {
  it('is anon without a token and authenticated with sub = the user with one', async () => {
    const { email, token } = await signIn(`${PREFIX}a@example.com`);
    const userId = (await api('GET', '/api/auth/me', { token })).json.id;
    expect((await api('PATCH', '/api/auth/profile', { token, body: { firstName: 'Probe' } })).status).toBe(200);

    const rows = await owner`select * from public.api_role_probe where email = ${email}`;
    // send-otp insert + verify-otp update ran inside the security-definer functions,
    // called while the request's role setting was anon.
    const signInRows = rows.filter((r) => r.current_user_name !== 'authenticated');
    expect(signInRows.length).toBeGreaterThanOrEqual(2);
    for (const row of signInRows) {
      expect(row.role_setting).toBe('anon');
      const [claims, sub] = row.claims.split('|');
      expect(JSON.parse(claims)).toEqual({ role: 'anon' });
      expect(sub).toBe('');
    }
    // The profile update ran directly as authenticated, under RLS, with both
    // request.jwt.claims and request.jwt.claim.sub (which Supabase's auth.uid() reads first).
    const profileRow = rows.find((r) => r.current_user_name === 'authenticated');
    expect(profileRow?.role_setting).toBe('authenticated');
    const [claims, sub] = profileRow!.claims.split('|');
    const sessionId = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;
    expect(JSON.parse(claims)).toEqual({ role: 'authenticated', sub: userId, session_id: sessionId });
    expect(sub).toBe(userId);
  });
});
