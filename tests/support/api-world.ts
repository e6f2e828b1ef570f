// Users, plans, members and guests for the API tests, made the way the
// product makes them. The server and its database are shared by all test
// files, so everything here is fresh and uniquely named. Users and their
// sessions are made as the owner with a token signed by the server's secret
// (the e-mail sign-in is covered by tests/api/auth-*.test.ts); plans and
// guests go through the API (POST /api/plans, POST /api/guest-session), so
// their rows are exactly what the product makes.
//
// Two ways to hold them: this module's own `owner` connection with newUser,
// newPlan, addMember, newGuest and cleanUp() (which ends that connection); or
// apiWorld(owner) on the test file's own connection, whose plans come back
// as their JSON and whose cleanUp() leaves the connection open.
import { randomUUID } from 'node:crypto';
import postgres, { type Sql } from 'postgres';
import { inject } from 'vitest';
import type { Plan } from '../../supabase/functions/_shared/contract/plans.ts';
import { signSessionToken } from '../../supabase/functions/_shared/auth/tokens.ts';
import { api, apiDatabaseAsOwner, rememberGuestSecret } from './api.ts';

export type { TimeSlot as SlotJson } from '../../supabase/functions/_shared/contract/dates.ts';
export type PlanJson = Plan;

export const owner = apiDatabaseAsOwner();

export interface User {
  id: string;
  token: string;
  email: string;
}

export interface Guest {
  id: string;
  name: string;
  secret: string;
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

const createdUsers: string[] = [];

/** A signed-in user (not yet in any plan), deleted by cleanUp(). */
export async function newUser(firstName: string | null = 'Pat', lastName: string | null = null): Promise<User> {
  const email = `ideas-${randomUUID().slice(0, 12)}@example.com`;
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.users (email, first_name, last_name) values (${email}, ${firstName}, ${lastName}) returning id`;
  createdUsers.push(id);
  return { id, email, token: await tokenFor(id) };
}

/** A signed-in user (not yet in any plan), made with the test file's own connection and left in place. */
export async function newAccount(owner: Sql, firstName: string | null = 'Mia', lastName: string | null = null): Promise<User> {
  const email = `join-${randomUUID().slice(0, 12)}@example.com`;
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.users (email, first_name, last_name) values (${email}, ${firstName}, ${lastName}) returning id`;
  return { id, email, token: await tokenFor(id) };
}

/** A plan through POST /api/plans: `host` is its host and first participant. */
export async function newPlan(host: Pick<User, 'token'>, title = 'Friday hangout'): Promise<string> {
  const res = await api<{ id: string }>('POST', '/api/plans', { body: { title }, token: host.token });
  if (res.status !== 201) throw new Error(`POST /api/plans answered ${res.status}: ${res.text}`);
  return res.json.id;
}

/** Join `user` to the plan as the owner would see it (a participants row). */
export async function addMember(planId: string, user: User): Promise<void> {
  await owner`insert into app.participants (plan_id, user_id, name) values (${planId}, ${user.id}, '-')`;
}

/**
 * A guest of the plan through POST /api/guest-session. Its secret is kept for
 * the requests that name it (tests/support/api.ts) and returned too.
 */
export async function newGuest(planId: string, name = uniqueName()): Promise<Guest> {
  const res = await api<Guest & { planId: string }>('POST', '/api/guest-session', { body: { name, planId } });
  if (res.status !== 201) throw new Error(`POST /api/guest-session answered ${res.status}: ${res.text}`);
  rememberGuestSecret(res.json.id, res.json.secret);
  return { id: res.json.id, name: res.json.name, secret: res.json.secret };
}

/** Everything newUser made: plans first (host_id is ON DELETE RESTRICT), then the users; ends `owner`. */
export async function cleanUp(): Promise<void> {
  if (createdUsers.length > 0) {
    await owner`delete from app.plans where host_id in ${owner(createdUsers)}`;
    await owner`delete from app.users where id in ${owner(createdUsers)}`;
  }
  await owner.end();
}

/** The plan's participants as the owner sees them, ordered by name. */
export async function participantsOf(owner: Sql, planId: string) {
  return owner<{ id: string; name: string; userId: string | null; guestId: string | null }[]>`
    select id, name, user_id as "userId", guest_id as "guestId"
      from app.participants where plan_id = ${planId} order by name, id`;
}

/** Users, plans (as their JSON), members and guests on the test file's connection; `cleanUp()` deletes them (plans first). */
export function apiWorld(owner: Sql) {
  const users: string[] = [];

  async function newUser(firstName: string | null = 'Dana', lastName: string | null = null, prefix = 'dates'): Promise<User> {
    const email = `${prefix}-${randomUUID().slice(0, 12)}@example.com`;
    const [{ id }] = await owner<{ id: string }[]>`
      insert into app.users (email, first_name, last_name) values (${email}, ${firstName}, ${lastName}) returning id`;
    users.push(id);
    return { id, email, token: await tokenFor(id) };
  }

  async function newPlan(host: User, title = `Hangout ${randomUUID().slice(0, 8)}`): Promise<PlanJson> {
    const res = await api<PlanJson>('POST', '/api/plans', { body: { title }, token: host.token });
    if (res.status !== 201) throw new Error(`POST /api/plans answered ${res.status}: ${res.text}`);
    return res.json;
  }

  /** A member of the plan (joined through the API). */
  async function newMember(planId: string, firstName = 'Mia'): Promise<User> {
    const user = await newUser(firstName);
    const res = await api('POST', `/api/plans/${planId}/join`, { body: { name: firstName, userId: user.id }, token: user.token });
    if (res.status !== 200) throw new Error(`join answered ${res.status}: ${res.text}`);
    return user;
  }

  async function cleanUp() {
    if (users.length === 0) return;
    await owner`delete from app.plans where host_id in ${owner(users)}`;
    await owner`delete from app.users where id in ${owner(users)}`;
  }

  return { newUser, newPlan, newMember, newGuest: (planId: string, name = uniqueName()) => newGuest(planId, name), cleanUp };
}
