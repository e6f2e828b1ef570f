// Arranging data for the dates, lock and notification API tests. The server,
// its database and maildev are shared by all test files, so every user, plan
// and guest here is fresh. Users are made as the owner with a token signed by
// the server's secret (the e-mail sign-in is covered by tests/api/auth-*);
// plans and guests go through the API (POST /api/plans, /api/guest-session).
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { expect } from 'vitest';
import { api, type ApiResult } from './api.ts';
import type { Plan } from '../../supabase/functions/_shared/contract/plans.ts';
import { newGuest, tokenFor, uniqueName } from './votes.ts';

export interface User {
  id: string;
  email: string;
  token: string;
}

export type { TimeSlot as SlotJson } from '../../supabase/functions/_shared/contract/dates.ts';
export type PlanJson = Plan;

/** Creates users and plans; `cleanUp()` deletes them (plans first: host_id is ON DELETE RESTRICT). */
export function datesWorld(owner: Sql) {
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

/** The database's calendar date `offset` days from today, 'YYYY-MM-DD' (the rules use the server's date). */
export async function day(owner: Sql, offset: number): Promise<string> {
  const [{ d }] = await owner<{ d: string }[]>`select (current_date + ${offset}::int)::text as d`;
  return d;
}

/** '2026-03-14' → '20260314'. */
export const compact = (date: string) => date.replaceAll('-', '');

/** A text/plain error answer with this status and sentence. */
export function expectText(res: ApiResult, status: number, text: string | RegExp) {
  expect({ status: res.status, text: res.text }).toEqual({ status, text: typeof text === 'string' ? text : expect.stringMatching(text) });
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
}
