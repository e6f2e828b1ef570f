// Ideas, date slots and votes arranged below the API, for the tests that
// only need them in place (the guest, join and transfer API tests): rows
// inserted as the owner, and votes cast with the SQL rules the vote endpoints
// call (app.vote_on_idea / app.vote_on_time_slot) under the claims the API
// would send.
import { createHash } from 'node:crypto';
import type { Sql } from 'postgres';
import { guestSecretOf } from './api.ts';
import { type Claims, runAs } from './db.ts';

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

/** Ids in a fixed order, to compare sets of votes. */
export const sorted = (ids: string[]) => [...ids].sort();
