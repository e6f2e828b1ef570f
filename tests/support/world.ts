// A small world of people and plans, made through the API of a given server
// (users and their sessions as the owner, like verify-otp makes them), for
// tests that look at many routes and callers at once: the hostile-input
// suite and the authorization matrix.
//
//   plan A: host Hana, member Mia, co-host Cora, guest Gus (with this
//           device's secret), an idea by Hana with a comment, and a date
//           slot with Gus's vote
//   plan B: host Otto, guest Olga (with a secret)
//   Sam: signed in, in neither plan
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { signSessionToken } from '../../supabase/functions/_shared/auth/tokens.ts';
import { api, type ApiOptions, type ApiResult } from './api.ts';

export interface WorldUser {
  id: string;
  token: string;
  sessionId: string;
}

export interface WorldGuest {
  id: string;
  name: string;
  secret: string;
}

export interface World {
  baseUrl?: string;
  host: WorldUser;
  member: WorldUser;
  /** A member of plan A whom the host made a co-host (docs/decisions/0098-cohosts.md). */
  cohost: WorldUser;
  stranger: WorldUser;
  otherHost: WorldUser;
  planA: { id: string; slug: string };
  planB: { id: string; slug: string };
  guest: WorldGuest;
  /** A second device that continued as Gus by name ("Yes, that's me"): its own secret. */
  restoredGuestSecret: string;
  otherGuest: WorldGuest;
  ideaA: string;
  ideaB: string;
  /** Mia's comment on ideaA. */
  commentA: string;
  /** Gus's row in plan A's participants (what the host removes). */
  guestParticipantId: string;
  /** Mia's, Cora's and Hana's rows in plan A's participants (whom the host makes a co-host, or not; whom a co-host may not remove). */
  memberParticipantId: string;
  cohostParticipantId: string;
  hostParticipantId: string;
  slotA: string;
  date: string;
  /** Calls this world's server. */
  call: <T = unknown>(method: string, path: string, opts?: ApiOptions) => Promise<ApiResult<T>>;
}

async function mustBe<T>(res: Promise<ApiResult<T>>, status: number, what: string): Promise<T> {
  const answer = await res;
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${answer.text}`);
  return answer.json;
}

/** A user with a live session (as verify-otp starts one) and its token. */
export async function worldUser(owner: Sql, jwtSecret: string, first: string): Promise<WorldUser> {
  const email = `${first.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.users (email, first_name) values (${email}, ${first}) returning id`;
  const [{ id: sessionId }] = await owner<{ id: string }[]>`insert into app.sessions (user_id) values (${id}) returning id`;
  return { id, sessionId, token: await signSessionToken(id, sessionId, { secret: jwtSecret }) };
}

export async function buildWorld(owner: Sql, jwtSecret: string, baseUrl?: string): Promise<World> {
  const call = <T = unknown>(method: string, path: string, opts: ApiOptions = {}) => api<T>(method, path, { ...opts, baseUrl });
  const [host, member, stranger, otherHost, cohost] = await Promise.all(
    ['Hana', 'Mia', 'Sam', 'Otto', 'Cora'].map((name) => worldUser(owner, jwtSecret, name)),
  );
  const planA = await mustBe(call<{ id: string; slug: string }>('POST', '/api/plans', { body: { title: 'Plan A' }, token: host.token }), 201, 'plan A');
  const planB = await mustBe(call<{ id: string; slug: string }>('POST', '/api/plans', { body: { title: 'Plan B' }, token: otherHost.token }), 201, 'plan B');
  await mustBe(call('POST', `/api/plans/${planA.id}/join`, { body: {}, token: member.token }), 200, 'member joins');
  // Cora joins after Mia (who stays next in line to host) and is a co-host from the start.
  const [{ id: cohostParticipantId }] = await owner<{ id: string }[]>`
    insert into app.participants (plan_id, user_id, name, is_cohost) values (${planA.id}, ${cohost.id}, '-', true) returning id`;
  const [{ id: memberParticipantId }] = await owner<{ id: string }[]>`
    select id from app.participants where plan_id = ${planA.id} and user_id = ${member.id}`;
  const [{ id: hostParticipantId }] = await owner<{ id: string }[]>`
    select id from app.participants where plan_id = ${planA.id} and user_id = ${host.id}`;
  const guest = await mustBe(call<WorldGuest>('POST', '/api/guest-session', { body: { name: 'Gus', planId: planA.id } }), 201, 'guest');
  const restored = await mustBe(call<WorldGuest>('POST', '/api/guest-session/restore', { body: { name: 'Gus', planId: planA.id } }), 200, 'guest restored');
  const otherGuest = await mustBe(call<WorldGuest>('POST', '/api/guest-session', { body: { name: 'Olga', planId: planB.id } }), 201, 'other guest');
  const ideaA = (await mustBe(call<{ id: string }>('POST', `/api/plans/${planA.id}/ideas`, { body: { text: 'Bowling' }, token: host.token }), 201, 'idea A')).id;
  const ideaB = (await mustBe(call<{ id: string }>('POST', `/api/plans/${planB.id}/ideas`, { body: { text: 'Karaoke' }, token: otherHost.token }), 201, 'idea B')).id;
  const commentA = (await mustBe(call<{ id: string }>('POST', `/api/ideas/${ideaA}/comments`, { body: { text: 'Love it' }, token: member.token }), 201, 'comment')).id;
  const [{ id: guestParticipantId }] = await owner<{ id: string }[]>`select id from app.participants where guest_id = ${guest.id}`;
  const [{ d: date }] = await owner<{ d: string }[]>`select (current_date + 3)::text as d`;
  const vote = await mustBe(
    call<{ timeSlotId: string }>('POST', `/api/plans/${planA.id}/vote-date`, {
      body: { date, guestId: guest.id },
      headers: { 'x-guest-secret': guest.secret },
    }),
    200,
    'date vote',
  );
  return { baseUrl, host, member, cohost, cohostParticipantId, memberParticipantId, hostParticipantId, stranger, otherHost, planA, planB, guest, restoredGuestSecret: restored.secret, otherGuest, ideaA, ideaB, commentA, guestParticipantId, slotA: vote.timeSlotId, date, call };
}

/**
 * Every row of every table in schemas `app` and `private` (the stored
 * Idempotency-Key answers), as one text per table (the owner reads past RLS),
 * for "the database is unchanged afterwards". Rate-limit counters are left
 * out: counting a refused request's try is their purpose.
 */
export async function snapshotTables(owner: Sql): Promise<Record<string, string>> {
  const tables = await owner<{ name: string }[]>`
    select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('app', 'private') and c.relkind = 'r' and c.relname <> 'rate_limit_counters' order by 1`;
  const snapshot: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await owner.unsafe(
      `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as hash from ${name} t`,
    );
    snapshot[name] = `${row.n} rows, ${row.hash}`;
  }
  return snapshot;
}

/** A refusal reads as one sentence: text/plain, a word first (a field name may be camelCase), no line break, no stack, not the 500 message. */
export function isOneSentence(res: ApiResult): boolean {
  return (
    res.headers.get('content-type') === 'text/plain; charset=utf-8' &&
    /^[A-Za-z0-9"'“]/.test(res.text) &&
    !/[\r\n]/.test(res.text) &&
    res.text.length <= 200 &&
    !/\b(at \w+ \(|Error:|TypeError|undefined|null\b|\[object)/.test(res.text) &&
    res.text !== 'Something went wrong on our side'
  );
}
