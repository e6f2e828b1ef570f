// Many people toggling votes on ONE idea at the same time, over HTTP against
// the real server: the count always equals the vote rows, nobody has two
// votes, and nobody gets a 5xx (docs/api.md "Ideas, comments, votes").
//
// 50 voters: 25 signed-in users who are NOT participants yet (each is joined
// on its first vote, concurrently with the others) and 25 guests of the plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type ApiResult } from '../support/api.ts';
import { cleanUp, newGuest, newPlan, newUser, owner, type User } from '../support/api-world.ts';

const MEMBERS = 25;
const GUESTS = 25;

interface Voter {
  key: string;
  token?: string;
  guestId?: string;
}

type VoteResult = ApiResult<{ voted: boolean; voteCount: number }>;

let host: User;
let planId: string;
let ideaId: string;
let voters: Voter[];

beforeAll(async () => {
  host = await newUser('Hanna', 'Host');
  planId = await newPlan(host, 'Crowded vote');
  const idea = await api<{ id: string }>('POST', `/api/plans/${planId}/ideas`, { token: host.token, body: { text: 'Everyone votes' } });
  expect(idea.status, idea.text).toBe(201);
  ideaId = idea.json.id;
  const members = await Promise.all(Array.from({ length: MEMBERS }, (_, i) => newUser(`Member${i}`, null)));
  const guests = await Promise.all(Array.from({ length: GUESTS }, (_, i) => newGuest(planId, `Crowd guest ${i} ${planId.slice(0, 8)}`)));
  // Interleaved, so members and guests hit the server mixed.
  voters = [];
  for (let i = 0; i < Math.max(MEMBERS, GUESTS); i += 1) {
    if (members[i]) voters.push({ key: members[i].id, token: members[i].token });
    if (guests[i]) voters.push({ key: guests[i].id, guestId: guests[i].id });
  }
}, 60_000);
afterAll(cleanUp);

const toggle = (voter: Voter): Promise<VoteResult> =>
  api('POST', `/api/ideas/${ideaId}/vote`, { token: voter.token, body: voter.guestId ? { guestId: voter.guestId } : {} });

async function voteRows(): Promise<string[]> {
  const rows = await owner<{ voter: string }[]>`
    select coalesce(user_id, guest_id)::text as voter from app.idea_votes where idea_id = ${ideaId}`;
  return rows.map((row) => row.voter);
}

async function listedCount(): Promise<number> {
  const res = await api<{ id: string; voteCount: number }[]>('GET', `/api/plans/${planId}/ideas`);
  expect(res.status, res.text).toBe(200);
  return res.json.find((idea) => idea.id === ideaId)!.voteCount;
}

/** Rows, distinct voters and the listed count agree, and are `expected`. */
async function expectConsistent(expected: Set<string>) {
  const rows = await voteRows();
  expect(new Set(rows).size, 'no voter has two votes').toBe(rows.length);
  expect(new Set(rows)).toEqual(expected);
  expect(await listedCount()).toBe(rows.length);
}

function expectNoFailures(results: VoteResult[]) {
  const failures = results.filter((res) => res.status !== 200).map((res) => `${res.status}: ${res.text}`);
  expect(failures).toEqual([]);
}

describe('concurrent idea votes', () => {
  const current = new Set<string>();

  it(`${MEMBERS + GUESTS} different people vote at once: ${MEMBERS + GUESTS} votes`, async () => {
    const results = await Promise.all(voters.map(toggle));
    expectNoFailures(results);
    expect(results.every((res) => res.json.voted)).toBe(true);
    for (const res of results) {
      expect(res.json.voteCount).toBeGreaterThanOrEqual(1);
      expect(res.json.voteCount).toBeLessThanOrEqual(voters.length);
    }
    for (const voter of voters) current.add(voter.key);
    await expectConsistent(current);
    // Each member was joined exactly once on its first vote.
    const [{ members }] = await owner<{ members: number }[]>`
      select count(*)::int as members from app.participants where plan_id = ${planId} and user_id is not null`;
    expect(members).toBe(MEMBERS + 1);
  });

  it('20 of them withdraw at once while nobody else votes: 30 left', async () => {
    const leaving = voters.slice(0, 20);
    const results = await Promise.all(leaving.map(toggle));
    expectNoFailures(results);
    expect(results.every((res) => res.json.voted === false)).toBe(true);
    for (const voter of leaving) current.delete(voter.key);
    await expectConsistent(current);
    expect(current.size).toBe(voters.length - 20);
  });

  it('everyone toggles at once: those who had voted withdraw, the others vote', async () => {
    const results = await Promise.all(voters.map(toggle));
    expectNoFailures(results);
    voters.forEach((voter, i) => expect(results[i].json.voted, voter.key).toBe(!current.has(voter.key)));
    const next = new Set(voters.map((voter) => voter.key).filter((key) => !current.has(key)));
    current.clear();
    for (const key of next) current.add(key);
    await expectConsistent(current);
    expect(current.size).toBe(20);
  });

  it('double clicks: 10 people each send two toggles at the same time, which cancel out', async () => {
    const clickers = voters.slice(10, 20);
    const before = new Set(current);
    const results = await Promise.all(clickers.flatMap((voter) => [toggle(voter), toggle(voter)]));
    expectNoFailures(results);
    clickers.forEach((voter, i) => {
      // One of the pair added the vote and the other removed it (in some order).
      expect([results[2 * i].json.voted, results[2 * i + 1].json.voted].sort(), voter.key).toEqual([false, true]);
    });
    await expectConsistent(before);
  });
});
