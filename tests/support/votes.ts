// Arranging data for the guest, join and transfer API tests. The server and its
// database are shared by all test files, so everything here is fresh and
// uniquely named. Users and sessions are made directly (as the owner, token
// signed with the server's secret) rather than through the e-mail flow, which
// tests/api/auth-*.test.ts covers. Votes, which these tests only arrange, are
// cast directly with the SQL rules the vote endpoints call (app.vote_on_idea /
// app.vote_on_time_slot) under the claims the API would send.
import { createHash, randomUUID } from 'node:crypto';
import postgres, { type Sql } from 'postgres';
import { inject } from 'vitest';
import { api, guestSecretOf, rememberGuestSecret } from './api.ts';
import { runAs, type Claims } from './db.ts';
import { signSessionToken } from '../../supabase/functions/_shared/auth/tokens.ts';

export interface Member {
  id: string;
  email: string;
  token: string;
}

export function uniqueName(prefix = 'Guest'): string {
  return `${prefix} ${randomUUID().slice(0, 8)}`;
}

let sessions: Sql | undefined;

/**
 * A session token of the shared server: a new row in app.sessions (as
 * verify-otp starts one) and a token naming it, signed with the server's
 * secret. For a user that does not exist the token names a session that does
 * not exist either (the server answers it with 401).
 */
export async function tokenFor(userId: string): Promise<string> {
  // Idle connections close by themselves, so the test process can end.
  sessions ??= postgres(inject('apiDbUrl'), { max: 1, idle_timeout: 1, onnotice: () => {} });
  const [row] = await sessions<{ id: string }[]>`
    insert into app.sessions (user_id) select id from app.users where id = ${userId} returning id`;
  return signSessionToken(userId, row?.id ?? randomUUID(), { secret: inject('jwtSecret') });
}

/** A signed-in user with a session token. */
export async function newMember(owner: Sql, firstName: string | null = 'Mia', lastName: string | null = null): Promise<Member> {
  const email = `join-${randomUUID().slice(0, 12)}@example.com`;
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.users (email, first_name, last_name) values (${email}, ${firstName}, ${lastName}) returning id`;
  return { id, email, token: await tokenFor(id) };
}

/** A plan created through the API (POST /api/plans): `host` is its host and first participant. */
export async function newPlan(host: Member, title = 'Friday hangout'): Promise<string> {
  const res = await api<{ id: string }>('POST', '/api/plans', { body: { title }, token: host.token });
  if (res.status !== 201) throw new Error(`POST /api/plans answered ${res.status}: ${res.text}`);
  return res.json.id;
}

export async function newIdea(owner: Sql, planId: string, authorId: string, text = 'Bowling'): Promise<string> {
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.ideas (plan_id, text, author_name, user_id) values (${planId}, ${text}, '-', ${authorId}) returning id`;
  return id;
}

export async function newSlot(owner: Sql, planId: string, daysAhead: number, period: string | null = null): Promise<string> {
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.time_slots (plan_id, date, period)
    values (${planId}, current_date + ${daysAhead}::int, ${period}) returning id`;
  return id;
}

/**
 * A guest through the API: POST /api/guest-session. Its secret is kept for
 * the requests that name it (tests/support/api.ts) and returned too.
 */
export async function newGuest(planId: string, name = uniqueName()): Promise<{ id: string; name: string; secret: string }> {
  const res = await api<{ id: string; name: string; planId: string; secret: string }>('POST', '/api/guest-session', {
    body: { name, planId },
  });
  if (res.status !== 201) throw new Error(`guest-session answered ${res.status}: ${res.text}`);
  rememberGuestSecret(res.json.id, res.json.secret);
  return { id: res.json.id, name: res.json.name, secret: res.json.secret };
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** The claims the API sends for a guest of this process: its id with the hash of its secret. */
export const guestClaims = (guestId: string, planId: string): Claims => ({
  role: 'anon',
  guest_id: guestId,
  guest_secret_hash: sha256Hex(guestSecretOf(guestId) ?? ''),
  plan_id: planId,
});
export const memberClaims = (userId: string, planId: string): Claims => ({ role: 'authenticated', sub: userId, plan_id: planId });

/** Toggle a vote with the SQL rule the vote endpoint calls; true when the vote now exists. */
export async function toggleIdeaVote(owner: Sql, claims: Claims, ideaId: string): Promise<boolean> {
  return runAs(owner, claims, async (tx) => (await tx`select voted from app.vote_on_idea(${ideaId})`)[0].voted as boolean);
}

export async function toggleSlotVote(owner: Sql, claims: Claims, slotId: string): Promise<boolean> {
  return runAs(owner, claims, async (tx) => (await tx`select voted from app.vote_on_time_slot(${slotId})`)[0].voted as boolean);
}

/** The plan's participants as the owner sees them, ordered by name. */
export async function participantsOf(owner: Sql, planId: string) {
  return owner<{ id: string; name: string; userId: string | null; guestId: string | null }[]>`
    select id, name, user_id as "userId", guest_id as "guestId"
      from app.participants where plan_id = ${planId} order by name, id`;
}

export const sorted = (ids: string[]) => [...ids].sort();
