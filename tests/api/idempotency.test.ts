// Idempotency keys over HTTP (docs/offline.md "Idempotency keys"): a vote or a
// comment sent again with the same Idempotency-Key takes effect once and
// answers the same (the repeat says Idempotent-Replayed: true), also when both
// are sent at once; another key is another action; a key is the caller's own
// (member or guest); the same key for another request is 422; a refused
// request keeps nothing, so its repeat is judged afresh; a malformed key is
// 400 and changes nothing; an expired key runs afresh.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_INVALID,
  IDEMPOTENCY_KEY_LIFETIME_DAYS,
  IDEMPOTENCY_KEY_REUSED,
  IDEMPOTENT_REPLAYED_HEADER,
} from '../../supabase/functions/_shared/contract/idempotency.ts';
import { api, type ApiOptions, type ApiResult, expectText, guestSecretOf } from '../support/api.ts';
import { addMember, cleanUp, type Guest, newGuest, newPlan, newUser, owner, type User } from '../support/api-world.ts';
import { day } from '../support/dates.ts';

let host: User;
let member: User;
let guest: Guest;
let planId: string;
let ideaId: string;
let otherIdeaId: string;

beforeAll(async () => {
  host = await newUser('Ida', 'Host');
  member = await newUser('Kim', null);
  planId = await newPlan(host, 'Offline votes');
  await addMember(planId, member);
  guest = await newGuest(planId);
  const idea = await api<{ id: string }>('POST', `/api/plans/${planId}/ideas`, { token: host.token, body: { text: 'Bowling' } });
  expect(idea.status, idea.text).toBe(201);
  ideaId = idea.json.id;
  const other = await api<{ id: string }>('POST', `/api/plans/${planId}/ideas`, { token: host.token, body: { text: 'Karaoke' } });
  otherIdeaId = other.json.id;
}, 60_000);
afterAll(cleanUp);

const newKey = () => randomUUID();

/** The request `opts` sent with `key` as its Idempotency-Key. */
const withKey = (key: string, opts: ApiOptions): ApiOptions => ({ ...opts, headers: { ...opts.headers, [IDEMPOTENCY_KEY_HEADER]: key } });

const voteOnIdea = (key: string | null, who: ApiOptions, idea = ideaId) =>
  api<{ voted: boolean; voteCount: number }>('POST', `/api/ideas/${idea}/vote`, key === null ? who : withKey(key, who));

const asMember = (): ApiOptions => ({ token: member.token, body: {} });
const asGuest = (): ApiOptions => ({ body: { guestId: guest.id } });

const replayed = (res: ApiResult) => res.headers.get(IDEMPOTENT_REPLAYED_HEADER);

async function ideaVotes(idea = ideaId): Promise<string[]> {
  const rows = await owner<{ voter: string }[]>`
    select coalesce(user_id, guest_id)::text as voter from app.idea_votes where idea_id = ${idea}`;
  return rows.map((row) => row.voter).sort();
}

/** Status, content type and JSON body: what must be equal between an answer and its replay. */
const answerOf = (res: ApiResult) => ({ status: res.status, type: res.headers.get('content-type'), json: res.json as unknown });

describe('a vote sent twice with one key', () => {
  it('toggles once, and the repeat answers the same with Idempotent-Replayed: true', async () => {
    const key = newKey();
    const first = await voteOnIdea(key, asMember());
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ voted: true, voteCount: 1 });
    expect(replayed(first)).toBeNull();
    const again = await voteOnIdea(key, asMember());
    expect(answerOf(again)).toEqual(answerOf(first));
    expect(again.text).toBe(first.text);
    expect(replayed(again)).toBe('true');
    expect(await ideaVotes()).toEqual([member.id]);
    // A third time, still once.
    expect(answerOf(await voteOnIdea(key, asMember()))).toEqual(answerOf(first));
    expect(await ideaVotes()).toEqual([member.id]);
  });

  it('a different key is another tap: it toggles again', async () => {
    const res = await voteOnIdea(newKey(), asMember());
    expect(res.json).toEqual({ voted: false, voteCount: 0 });
    expect(replayed(res)).toBeNull();
    expect(await ideaVotes()).toEqual([]);
  });

  it('sent twice at the same time: one toggle, both answers equal, one of them replayed', async () => {
    for (let round = 0; round < 3; round += 1) {
      const before = await ideaVotes();
      const key = newKey();
      const [a, b] = await Promise.all([voteOnIdea(key, asGuest()), voteOnIdea(key, asGuest())]);
      expect(a.status, a.text).toBe(200);
      expect(answerOf(b)).toEqual(answerOf(a));
      expect([replayed(a), replayed(b)].sort()).toEqual(['true', null].sort());
      const after = await ideaVotes();
      expect(after, 'exactly one toggle').toEqual(before.includes(guest.id) ? before.filter((v) => v !== guest.id) : [...before, guest.id].sort());
    }
  });

  it('without a key every send is a toggle, as before', async () => {
    const before = await ideaVotes();
    const a = await voteOnIdea(null, asMember());
    const b = await voteOnIdea(null, asMember());
    expect([a.json.voted, b.json.voted].sort()).toEqual([false, true]);
    expect(replayed(a)).toBeNull();
    expect(replayed(b)).toBeNull();
    expect(await ideaVotes()).toEqual(before);
  });
});

describe('date and slot votes', () => {
  it('vote-date and a slot vote sent twice each take effect once', async () => {
    const date = await day(owner, 5);
    const key = newKey();
    const voteDate = () => api('POST', `/api/plans/${planId}/vote-date`, withKey(key, { token: member.token, body: { date, period: 'Evening' } }));
    const first = await voteDate();
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ voted: true, voteCount: 1 });
    const again = await voteDate();
    expect(answerOf(again)).toEqual(answerOf(first));
    expect(replayed(again)).toBe('true');
    const slotId = (first.json as { timeSlotId: string }).timeSlotId;
    const slotVotes = async () =>
      (await owner<{ voter: string }[]>`select coalesce(user_id, guest_id)::text as voter from app.time_slot_votes where time_slot_id = ${slotId}`)
        .map((r) => r.voter)
        .sort();
    expect(await slotVotes()).toEqual([member.id]);

    const slotKey = newKey();
    const voteSlot = () => api('POST', `/api/timeslots/${slotId}/vote`, withKey(slotKey, { body: { guestId: guest.id } }));
    const slotFirst = await voteSlot();
    expect(slotFirst.json).toEqual({ voted: true, voteCount: 2, ifNeedBeCount: 0, answer: 'yes' });
    const slotAgain = await voteSlot();
    expect(answerOf(slotAgain)).toEqual(answerOf(slotFirst));
    expect(replayed(slotAgain)).toBe('true');
    expect(await slotVotes()).toEqual([member.id, guest.id].sort());
  });
});

describe('a comment sent twice with one key', () => {
  it('exists once, and both answers are the same 201 JSON', async () => {
    const key = newKey();
    const text = `Count me in ${randomUUID().slice(0, 6)}`;
    const post = () => api('POST', `/api/ideas/${ideaId}/comments`, withKey(key, { body: { text, guestId: guest.id } }));
    const first = await post();
    expect(first.status, first.text).toBe(201);
    const again = await post();
    expect(again.status).toBe(201);
    expect(answerOf(again)).toEqual(answerOf(first));
    expect(replayed(again)).toBe('true');
    const rows = await owner<{ id: string }[]>`select id from app.idea_comments where idea_id = ${ideaId} and text = ${text}`;
    expect(rows.map((r) => r.id)).toEqual([(first.json as { id: string }).id]);
  });
});

describe('the same key for another request', () => {
  it('is 422 with one sentence, and changes nothing', async () => {
    const key = newKey();
    const text = `First words ${randomUUID().slice(0, 6)}`;
    const first = await api('POST', `/api/ideas/${ideaId}/comments`, withKey(key, { token: member.token, body: { text } }));
    expect(first.status, first.text).toBe(201);
    const votesBefore = [await ideaVotes(), await ideaVotes(otherIdeaId)];
    const [{ comments: commentsBefore }] = await owner<{ comments: number }[]>`select count(*)::int as comments from app.idea_comments where plan_id = ${planId}`;

    // Another body, another idea, another endpoint.
    expectText(await api('POST', `/api/ideas/${ideaId}/comments`, withKey(key, { token: member.token, body: { text: 'Other words' } })), 422, IDEMPOTENCY_KEY_REUSED);
    expectText(await api('POST', `/api/ideas/${otherIdeaId}/comments`, withKey(key, { token: member.token, body: { text } })), 422, IDEMPOTENCY_KEY_REUSED);
    expectText(await voteOnIdea(key, asMember()), 422, IDEMPOTENCY_KEY_REUSED);
    expectText(await voteOnIdea(key, asMember(), otherIdeaId), 422, IDEMPOTENCY_KEY_REUSED);

    expect([await ideaVotes(), await ideaVotes(otherIdeaId)]).toEqual(votesBefore);
    const [{ comments }] = await owner<{ comments: number }[]>`select count(*)::int as comments from app.idea_comments where plan_id = ${planId}`;
    expect(comments).toBe(commentsBefore);
    // The first request still replays.
    const again = await api('POST', `/api/ideas/${ideaId}/comments`, withKey(key, { token: member.token, body: { text } }));
    expect(answerOf(again)).toEqual(answerOf(first));
  });

  it('a body with its keys in another order and other spacing is the same request', async () => {
    const key = newKey();
    const text = `Spacing ${randomUUID().slice(0, 6)}`;
    // A raw body names no guest to the test client: the device's secret is given.
    const guestSecret = guestSecretOf(guest.id);
    const first = await api('POST', `/api/ideas/${ideaId}/comments`, withKey(key, { rawBody: JSON.stringify({ text, guestId: guest.id }), guestSecret }));
    expect(first.status, first.text).toBe(201);
    const again = await api(
      'POST',
      `/api/ideas/${ideaId}/comments`,
      withKey(key, { rawBody: `{ "guestId": "${guest.id}",\n  "text": ${JSON.stringify(text)} }`, guestSecret }),
    );
    expect(answerOf(again)).toEqual(answerOf(first));
    expect(replayed(again)).toBe('true');
  });
});

describe('keys are per caller', () => {
  it("a guest's key does not replay a member's answer, nor a member's a guest's, nor one member another's", async () => {
    const key = newKey();
    const before = await ideaVotes();
    const byMember = await voteOnIdea(key, asMember());
    const byGuest = await voteOnIdea(key, asGuest());
    const byHost = await voteOnIdea(key, { token: host.token, body: {} });
    for (const res of [byMember, byGuest, byHost]) {
      expect(res.status, res.text).toBe(200);
      expect(replayed(res), 'each ran as its caller').toBeNull();
    }
    const toggled = (voters: string[], who: string) => (voters.includes(who) ? voters.filter((v) => v !== who) : [...voters, who]);
    expect(await ideaVotes()).toEqual(toggled(toggled(toggled(before, member.id), guest.id), host.id).sort());
    // And each replays its own answer.
    for (const [res, who] of [
      [byMember, asMember()],
      [byGuest, asGuest()],
      [byHost, { token: host.token, body: {} }],
    ] as const) {
      const again = await voteOnIdea(key, who);
      expect(answerOf(again)).toEqual(answerOf(res));
      expect(replayed(again)).toBe('true');
    }
  });

  it("the guest's key is the guest's on every device: a device restored by name replays it", async () => {
    const key = newKey();
    const first = await voteOnIdea(key, asGuest());
    const restored = await api<{ secret: string }>('POST', '/api/guest-session/restore', { body: { planId, name: guest.name } });
    expect(restored.status, restored.text).toBe(200);
    const fromOtherDevice = await voteOnIdea(key, { ...asGuest(), guestSecret: restored.json.secret });
    expect(answerOf(fromOtherDevice)).toEqual(answerOf(first));
    expect(replayed(fromOtherDevice)).toBe('true');
  });
});

describe('a refused request keeps nothing', () => {
  it('a comment over the cap is 409 again when repeated, and runs once there is room', async () => {
    const [{ id: fullIdea }] = await owner<{ id: string }[]>`
      insert into app.ideas (plan_id, text, author_name, user_id) values (${planId}, 'Full', '-', ${host.id}) returning id`;
    await owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
                select ${fullIdea}, ${planId}, 'Comment ' || n, '-', ${host.id} from generate_series(1, 500) n`;
    const key = newKey();
    const post = () => api('POST', `/api/ideas/${fullIdea}/comments`, withKey(key, { token: member.token, body: { text: 'Room for one more?' } }));
    const FULL = 'This idea already has 500 comments, the most an idea can have';
    expectText(await post(), 409, FULL);
    const [{ keys }] = await owner<{ keys: number }[]>`select count(*)::int as keys from private.idempotency_keys where key = ${key}`;
    expect(keys).toBe(0);
    // Judged afresh: still full, the same sentence.
    const again = await post();
    expectText(again, 409, FULL);
    expect(replayed(again)).toBeNull();

    await owner`delete from app.idea_comments where id = (select id from app.idea_comments where idea_id = ${fullIdea} order by created_at limit 1)`;
    const now = await post();
    expect(now.status, now.text).toBe(201);
    expect(replayed(now)).toBeNull();
    const replay = await post();
    expect(answerOf(replay)).toEqual(answerOf(now));
    expect(replayed(replay)).toBe('true');
    const [{ n }] = await owner<{ n: number }[]>`select count(*)::int as n from app.idea_comments where idea_id = ${fullIdea} and text = 'Room for one more?'`;
    expect(n).toBe(1);
  });

  it('a vote refused for its caller (a guest of another plan) keeps nothing either', async () => {
    const otherPlan = await newPlan(host, 'Elsewhere');
    const outsider = await newGuest(otherPlan);
    const key = newKey();
    const res = await voteOnIdea(key, { body: { guestId: outsider.id } });
    expect(res.status, res.text).toBe(403);
    const [{ keys }] = await owner<{ keys: number }[]>`select count(*)::int as keys from private.idempotency_keys where key = ${key}`;
    expect(keys).toBe(0);
  });
});

describe('a malformed key', () => {
  const BAD_KEYS = ['', 'short', 'seven77', 'x'.repeat(101), 'has spaces in it', 'semi;colon-key', 'dots.are.not.ok', 'quote"key"here'];

  it('is 400 with one sentence on every endpoint that takes keys, and changes nothing', async () => {
    const date = await day(owner, 6);
    const [{ slot }] = await owner<{ slot: string }[]>`
      insert into app.time_slots (plan_id, date, period) values (${planId}, ${date}::date, 'Morning') returning id as slot`;
    await owner`insert into app.time_slot_votes (time_slot_id, plan_id, user_id) values (${slot}, ${planId}, ${host.id})`;
    const snapshot = () =>
      owner`select (select count(*) from app.idea_votes where plan_id = ${planId})::int as votes,
                   (select count(*) from app.time_slot_votes where plan_id = ${planId})::int as slot_votes,
                   (select count(*) from app.time_slots where plan_id = ${planId})::int as slots,
                   (select count(*) from app.idea_comments where plan_id = ${planId})::int as comments,
                   (select count(*) from private.idempotency_keys where user_id = ${member.id} or guest_id = ${guest.id})::int as keys`;
    const before = await snapshot();
    for (const key of BAD_KEYS) {
      const requests: Array<[string, ApiOptions]> = [
        [`/api/ideas/${ideaId}/vote`, asMember()],
        [`/api/ideas/${ideaId}/vote`, asGuest()],
        [`/api/plans/${planId}/vote-date`, { token: member.token, body: { date } }],
        [`/api/timeslots/${slot}/vote`, asGuest()],
        [`/api/ideas/${ideaId}/comments`, { token: member.token, body: { text: 'Hi' } }],
      ];
      for (const [path, opts] of requests) {
        expectText(await api('POST', path, withKey(key, opts)), 400, IDEMPOTENCY_KEY_INVALID);
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('expiry', () => {
  it(`a key older than ${IDEMPOTENCY_KEY_LIFETIME_DAYS} days runs afresh`, async () => {
    const key = newKey();
    const first = await voteOnIdea(key, asMember(), otherIdeaId);
    await owner`update private.idempotency_keys set created_at = now() - interval '6 days 23 hours' where key = ${key}`;
    expect(replayed(await voteOnIdea(key, asMember(), otherIdeaId))).toBe('true');
    await owner`update private.idempotency_keys set created_at = now() - interval '7 days 1 minute' where key = ${key}`;
    const later = await voteOnIdea(key, asMember(), otherIdeaId);
    expect(replayed(later)).toBeNull();
    expect(later.json.voted).toBe(!first.json.voted);
  });
});
