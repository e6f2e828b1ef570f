// A small world for policy and rule tests, arranged as the owner (no RLS):
//
//   plan A (host Hanna, member Mia, guest Gus) with one idea (by Hanna), a
//   comment and votes (Mia, Gus) on it, and a slot with Gus's vote;
//   plan B (host Otto, guest Olga) with the same kind of content;
//   Sam, a signed-in stranger to both.
//
// `actors` are the claims the API would send for each kind of caller.
import { createHash } from 'node:crypto';
import type { Sql } from 'postgres';
import type { Claims } from './db.ts';

export interface PlanWorld {
  users: { host: string; member: string; stranger: string; otherHost: string };
  planA: string;
  slugA: string;
  planB: string;
  slugB: string;
  guest: string;
  otherGuest: string;
  ideaA: string;
  ideaB: string;
  commentA: string;
  commentB: string;
  slotA: string;
  slotB: string;
  actors: Record<ActorName, Claims>;
}

export type ActorName =
  | 'anon'
  | 'anonWithLink'
  | 'anonWithSlug'
  | 'guest'
  | 'otherGuest'
  | 'otherGuestWithLink'
  | 'member'
  | 'host'
  | 'stranger'
  | 'strangerWithLink';

/** Who reads plan A (its link, or a part in it) and who does not. */
export const readersOfA: ActorName[] = ['anonWithLink', 'guest', 'otherGuestWithLink', 'member', 'host', 'strangerWithLink'];
export const blindToA: ActorName[] = ['anon', 'anonWithSlug', 'otherGuest', 'stranger'];

let counter = 0;

/** Insert a user as the owner; returns its id. */
export async function createUser(sql: Sql, first: string | null, last: string | null, email?: string): Promise<string> {
  counter += 1;
  const address = email ?? `${(first ?? 'user').toLowerCase()}${counter}@example.test`;
  const [row] = await sql<{ id: string }[]>`
    insert into app.users (email, first_name, last_name) values (${address}, ${first}, ${last}) returning id`;
  return row.id;
}

/** A plan with its host as first participant; returns ids. */
export async function createPlan(sql: Sql, hostId: string, title = 'Friday hangout') {
  const [plan] = await sql<{ id: string; slug: string }[]>`
    insert into app.plans (title, host_id) values (${title}, ${hostId}) returning id, slug`;
  await sql`insert into app.participants (plan_id, user_id, name) values (${plan.id}, ${hostId}, '-')`;
  return plan;
}

/**
 * A member joined now, or at `joinedAt`. "Now" is the database's, as for the
 * host's row: this machine's clock in whole milliseconds could put a member
 * who joined a moment later before the host in the join order.
 */
export async function addMember(sql: Sql, planId: string, userId: string, joinedAt?: Date) {
  await sql`insert into app.participants (plan_id, user_id, name, joined_at)
            values (${planId}, ${userId}, '-', coalesce(${joinedAt ?? null}::timestamptz, now()))`;
}

/** The secret of a test guest's device (the API draws 32 random bytes; tests need to know it). */
export const testGuestSecret = (guestId: string) => `test-device-secret-of-${guestId}`;

/** What the API puts in the claims for a secret: its lower-case hex SHA-256. */
export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** The claims of a guest's own device: its id with the hash of its secret. */
export const asGuest = (guestId: string, extra: Partial<Claims> = {}): Claims => ({
  role: 'anon',
  guest_id: guestId,
  guest_secret_hash: sha256Hex(testGuestSecret(guestId)),
  ...extra,
});

/** Give a guest's device a credential (as POST /api/guest-session does). */
export async function addGuestCredential(sql: Sql, guestId: string, secret = testGuestSecret(guestId)) {
  await sql`insert into app.guest_credentials (guest_id, secret_hash, kind) values (${guestId}, ${sha256Hex(secret)}, 'joined')`;
}

/** A guest joined to the plan, with a credential for testGuestSecret(id). */
export async function addGuest(sql: Sql, planId: string, name: string): Promise<string> {
  const [g] = await sql<{ id: string }[]>`insert into app.guests (plan_id, name) values (${planId}, ${name}) returning id`;
  await sql`insert into app.participants (plan_id, guest_id, name) values (${planId}, ${g.id}, '-')`;
  await addGuestCredential(sql, g.id);
  return g.id;
}

export async function addIdea(sql: Sql, planId: string, text: string, author: { userId?: string; guestId?: string }) {
  const [i] = await sql<{ id: string }[]>`
    insert into app.ideas (plan_id, text, author_name, user_id, guest_id)
    values (${planId}, ${text}, 'x', ${author.userId ?? null}, ${author.guestId ?? null}) returning id`;
  return i.id;
}

export async function addSlot(sql: Sql, planId: string, daysAhead: number, period: string | null) {
  const [s] = await sql<{ id: string }[]>`
    insert into app.time_slots (plan_id, date, period)
    values (${planId}, current_date + ${daysAhead}::int, ${period}) returning id`;
  return s.id;
}

/** A session of the user (as verify-otp starts one); returns its id. */
export async function startSession(sql: Sql, userId: string): Promise<string> {
  const [{ id }] = await sql<{ id: string }[]>`insert into app.sessions (user_id) values (${userId}) returning id`;
  return id;
}

/** The claims of a signed-in request that carries its session. */
export const signedIn = (userId: string, sessionId: string): Claims => ({ role: 'authenticated', sub: userId, session_id: sessionId });

/** The ids of the user's sessions, sorted. */
export async function sessionsOf(sql: Sql, userId: string): Promise<string[]> {
  return (await sql<{ id: string }[]>`select id from app.sessions where user_id = ${userId} order by id`).map((r) => r.id);
}

/** The names on the plan's participants rows, sorted. */
export async function participantNames(sql: Sql, planId: string): Promise<string[]> {
  return (await sql<{ name: string }[]>`select name from app.participants where plan_id = ${planId} order by name`).map((r) => r.name);
}

/** The date `offset` days from the database's today, as 'YYYY-MM-DD'. */
export async function dayFromToday(sql: Sql, offset: number): Promise<string> {
  return (await sql<{ d: string }[]>`select (current_date + ${offset}::int)::text as d`)[0].d;
}

export async function seedPlan(sql: Sql): Promise<PlanWorld> {
  const host = await createUser(sql, 'Hanna', 'Host');
  const member = await createUser(sql, 'Mia', null);
  const stranger = await createUser(sql, 'Sam', 'Stranger');
  const otherHost = await createUser(sql, 'Otto', 'Other');

  const a = await createPlan(sql, host, 'Plan A');
  await addMember(sql, a.id, member);
  const guest = await addGuest(sql, a.id, 'Gus');
  const b = await createPlan(sql, otherHost, 'Plan B');
  const otherGuest = await addGuest(sql, b.id, 'Olga');

  const ideaA = await addIdea(sql, a.id, 'Bowling', { userId: host });
  const ideaB = await addIdea(sql, b.id, 'Karaoke', { guestId: otherGuest });
  const [cA] = await sql<{ id: string }[]>`
    insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
    values (${ideaA}, ${a.id}, 'Love it', 'x', ${member}) returning id`;
  const [cB] = await sql<{ id: string }[]>`
    insert into app.idea_comments (idea_id, plan_id, text, author_name, guest_id)
    values (${ideaB}, ${b.id}, 'Yes!', 'x', ${otherGuest}) returning id`;
  await sql`insert into app.idea_votes (idea_id, plan_id, user_id) values (${ideaA}, ${a.id}, ${member})`;
  await sql`insert into app.idea_votes (idea_id, plan_id, guest_id) values (${ideaA}, ${a.id}, ${guest})`;
  await sql`insert into app.idea_votes (idea_id, plan_id, guest_id) values (${ideaB}, ${b.id}, ${otherGuest})`;
  const slotA = await addSlot(sql, a.id, 3, 'Evening');
  const slotB = await addSlot(sql, b.id, 4, null);
  await sql`insert into app.time_slot_votes (time_slot_id, plan_id, guest_id) values (${slotA}, ${a.id}, ${guest})`;
  await sql`insert into app.time_slot_votes (time_slot_id, plan_id, guest_id) values (${slotB}, ${b.id}, ${otherGuest})`;

  return {
    users: { host, member, stranger, otherHost },
    planA: a.id,
    slugA: a.slug,
    planB: b.id,
    slugB: b.slug,
    guest,
    otherGuest,
    ideaA,
    ideaB,
    commentA: cA.id,
    commentB: cB.id,
    slotA,
    slotB,
    actors: {
      anon: { role: 'anon' },
      anonWithLink: { role: 'anon', plan_id: a.id },
      anonWithSlug: { role: 'anon', plan_slug: a.slug },
      guest: asGuest(guest, { plan_id: a.id }),
      otherGuest: asGuest(otherGuest),
      otherGuestWithLink: asGuest(otherGuest, { plan_id: a.id }),
      member: { role: 'authenticated', sub: member },
      host: { role: 'authenticated', sub: host },
      stranger: { role: 'authenticated', sub: stranger },
      strangerWithLink: { role: 'authenticated', sub: stranger, plan_id: a.id },
    },
  };
}
