// Guest secrets over HTTP: every guest write, leave, the transfer and reading
// one's own guest session need the secret of the guest's device (header
// X-Guest-Secret). Without it: 401, with a wrong one (or another guest's):
// 403, each one readable sentence, never a 500, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_SECRET_MISSING, GUEST_SECRET_WRONG } from '../../supabase/functions/_shared/contract/guest-secret.ts';
import { api, apiDatabaseAsOwner, runScheduler } from '../support/api.ts';
import { newAccount, newGuest, newPlan, type User } from '../support/api-world.ts';
import { newIdea, newSlot } from '../support/votes.ts';

const owner = apiDatabaseAsOwner();
let host: User;
let planId: string;
let ideaId: string;
let slotId: string;
let guest: { id: string; name: string; secret: string };
let stranger: { id: string; name: string; secret: string };

beforeAll(async () => {
  host = await newAccount(owner, 'Hanna', 'Host');
  planId = await newPlan(host, 'Secrets');
  ideaId = await newIdea(owner, planId, host.id, 'Bowling');
  slotId = await newSlot(owner, planId, 2, 'Evening');
  guest = await newGuest(planId);
  // Another plan's guest: its (valid) secret is not Gus's.
  stranger = await newGuest(await newPlan(host, 'Elsewhere'));
});
afterAll(async () => {
  await owner`delete from app.plans where host_id = ${host.id}`;
  await owner`delete from app.users where id = ${host.id}`;
  await owner.end();
});

/** Everything that could change when a guest writes in the plan. */
async function snapshot() {
  const [row] = await owner`
    select (select count(*)::int from app.ideas where plan_id = ${planId}) as ideas,
           (select count(*)::int from app.idea_comments where plan_id = ${planId}) as comments,
           (select count(*)::int from app.idea_votes where plan_id = ${planId}) as idea_votes,
           (select count(*)::int from app.time_slots where plan_id = ${planId}) as slots,
           (select count(*)::int from app.time_slot_votes where plan_id = ${planId}) as slot_votes,
           (select count(*)::int from app.participants where plan_id = ${planId}) as participants,
           (select count(*)::int from app.guests where plan_id = ${planId}) as guests`;
  return row;
}

const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);

type Call = [label: string, method: string, path: () => string, body: () => unknown, token?: () => string];
const calls: Call[] = [
  ['suggest an idea', 'POST', () => `/api/plans/${planId}/ideas`, () => ({ text: 'Sneaky', guestId: guest.id })],
  ['comment', 'POST', () => `/api/ideas/${ideaId}/comments`, () => ({ text: 'Sneaky', guestId: guest.id })],
  ['vote on an idea', 'POST', () => `/api/ideas/${ideaId}/vote`, () => ({ guestId: guest.id })],
  ['vote on a date', 'POST', () => `/api/plans/${planId}/vote-date`, () => ({ date: inThreeDays, guestId: guest.id })],
  ['vote on a slot', 'POST', () => `/api/timeslots/${slotId}/vote`, () => ({ guestId: guest.id })],
  ['join', 'POST', () => `/api/plans/${planId}/join`, () => ({ name: guest.name, guestId: guest.id })],
  ['leave (query)', 'DELETE', () => `/api/plans/${planId}/leave?guestId=${guest.id}`, () => undefined],
  ['leave (body)', 'DELETE', () => `/api/plans/${planId}/leave`, () => ({ guestId: guest.id })],
  ['read its guest session', 'GET', () => `/api/guest-session/${guest.id}`, () => undefined],
  ['transfer to an account', 'POST', () => '/api/auth/transfer-guest-votes', () => ({ guestId: guest.id }), () => host.token],
];

describe('a guest id without its secret opens nothing', () => {
  const refusals: [string, () => string | null, number, string][] = [
    ['no secret', () => null, 401, GUEST_SECRET_MISSING],
    ['a wrong secret', () => 'x'.repeat(43), 403, GUEST_SECRET_WRONG],
    ['an empty secret', () => '', 401, GUEST_SECRET_MISSING],
    ["another guest's secret", () => stranger.secret, 403, GUEST_SECRET_WRONG],
    ['a hostile secret', () => "' or '1'='1", 403, GUEST_SECRET_WRONG],
    // Not the shape of any secret the API hands out: refused before it is hashed.
    ['a secret of 8 KB', () => 'x'.repeat(8000), 403, GUEST_SECRET_WRONG],
    ['a secret one character too long', () => 'x'.repeat(44), 403, GUEST_SECRET_WRONG],
  ];
  for (const [label, method, path, body, token] of calls) {
    for (const [secretLabel, secret, status, sentence] of refusals) {
      it(`${label} with ${secretLabel}: ${status}, one sentence, nothing written`, async () => {
        const before = await snapshot();
        const res = await api(method, path(), { body: body(), token: token?.(), guestSecret: secret() });
        expect(res.status, res.text).toBe(status);
        expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(res.text).toBe(sentence);
        expect(await snapshot()).toEqual(before);
      });
    }
  }

  it('with its secret each of them works (the control), the transfer last', async () => {
    for (const [label, method, path, body, token] of calls) {
      if (label.startsWith('leave')) continue;
      const res = await api(method, path(), { body: body(), token: token?.() });
      expect(res.status, `${label}: ${res.text}`).toBeLessThan(300);
    }
  });
});

describe('reads stay open with ?guestId= and no secret (they show what the voters lists show)', () => {
  it('ideas with hasUserVoted and my-votes', async () => {
    const other = await newGuest(planId);
    await api('POST', `/api/ideas/${ideaId}/vote`, { body: { guestId: other.id } });
    const ideas = await api('GET', `/api/plans/${planId}/ideas?guestId=${other.id}`, { guestSecret: null });
    expect(ideas.status).toBe(200);
    expect(ideas.json.find((i: { id: string }) => i.id === ideaId).hasUserVoted).toBe(true);
    const mine = await api('GET', `/api/plans/${planId}/my-votes?guestId=${other.id}`, { guestSecret: null });
    expect(mine.status).toBe(200);
    // A wrong secret sent along with a read changes nothing either.
    expect((await api('GET', `/api/plans/${planId}/my-votes?guestId=${other.id}`, { guestSecret: 'wrong' })).status).toBe(200);
  });

  it('participants and voters keep showing guest ids, as display ids', async () => {
    const participants = await api('GET', `/api/plans/${planId}/participants`);
    expect(participants.json.some((p: { guestId?: string }) => p.guestId)).toBe(true);
  });
});

// docs/decisions/0082-nothing-kept-too-long.md: a device unused for 180 days
// is refused like a revoked one; the scheduler deletes it; the guest stays,
// and "Yes, that's me" gives the device a new secret.
describe('a device unused for 180 days', () => {
  it('is refused like a revoked one, deleted by the scheduler, and the name still restores', async () => {
    const idle = await newGuest(planId);
    await owner`update app.guest_credentials set last_used_at = now() - interval '181 days' where guest_id = ${idle.id}`;
    const before = await snapshot();
    const res = await api('POST', `/api/ideas/${ideaId}/vote`, { body: { guestId: idle.id } });
    expect({ status: res.status, text: res.text }).toEqual({ status: 403, text: GUEST_SECRET_WRONG });
    expect(await snapshot()).toEqual(before);
    expect((await runScheduler()).endedCredentials).toBeGreaterThanOrEqual(1);
    expect(await owner`select * from app.guest_credentials where guest_id = ${idle.id}`).toEqual([]);
    const restored = await api<{ id: string; secret: string }>('POST', '/api/guest-session/restore', { body: { planId, name: idle.name } });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json.id).toBe(idle.id);
    expect((await api('POST', `/api/ideas/${ideaId}/vote`, { body: { guestId: idle.id }, guestSecret: restored.json.secret })).status).toBe(200);
  });
});
