// Arranging data for the idea, interest and vote-concurrency API tests. The
// server and its database are shared by all test files, so everything here is
// fresh. Users are made as the owner with a token signed by the server's
// secret (the e-mail sign-in is covered by tests/api/auth-*.test.ts); plans
// and guests go through the API (POST /api/plans, POST /api/guest-session),
// so their rows are exactly what the product makes.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { api, apiDatabaseAsOwner, rememberGuestSecret, type ApiResult } from './api.ts';
import { tokenFor } from './votes.ts';

export { tokenFor };

export const owner = apiDatabaseAsOwner();

export interface User {
  id: string;
  token: string;
  email: string;
}

export interface Guest {
  id: string;
  name: string;
}

const createdUsers: string[] = [];


export function uniqueName(prefix = 'Guest'): string {
  return `${prefix} ${randomUUID().slice(0, 8)}`;
}

/** A signed-in user (not yet in any plan). */
export async function newUser(firstName: string | null = 'Pat', lastName: string | null = null): Promise<User> {
  const email = `ideas-${randomUUID().slice(0, 12)}@example.com`;
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.users (email, first_name, last_name) values (${email}, ${firstName}, ${lastName}) returning id`;
  createdUsers.push(id);
  return { id, email, token: await tokenFor(id) };
}

/** A plan through POST /api/plans: `host` is its host and first participant. */
export async function newPlan(host: User, title = 'Friday hangout'): Promise<string> {
  const res = await api<{ id: string }>('POST', '/api/plans', { body: { title }, token: host.token });
  if (res.status !== 201) throw new Error(`POST /api/plans answered ${res.status}: ${res.text}`);
  return res.json.id;
}

/** Join `user` to the plan as the owner would see it (a participants row). */
export async function addMember(planId: string, user: User): Promise<void> {
  await owner`insert into app.participants (plan_id, user_id, name) values (${planId}, ${user.id}, '-')`;
}

/** A guest of the plan through POST /api/guest-session; this process keeps its secret (tests/support/api.ts). */
export async function newGuest(planId: string, name = uniqueName()): Promise<Guest> {
  const res = await api<Guest & { secret: string }>('POST', '/api/guest-session', { body: { name, planId } });
  if (res.status !== 201) throw new Error(`POST /api/guest-session answered ${res.status}: ${res.text}`);
  rememberGuestSecret(res.json.id, res.json.secret);
  return { id: res.json.id, name: res.json.name };
}

/** Everything the tests made: plans first (host_id is ON DELETE RESTRICT), then the users. */
export async function cleanUp(): Promise<void> {
  if (createdUsers.length > 0) {
    await owner`delete from app.plans where host_id in ${owner(createdUsers)}`;
    await owner`delete from app.users where id in ${owner(createdUsers)}`;
  }
  await owner.end();
}

export function expectText(res: ApiResult, status: number, text: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(res.text).toBe(text);
}

/** An ISO 8601 UTC timestamp as Date#toISOString prints it. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
