// Live updates over HTTP (docs/live-updates.md): the SSE streams of
// the function under Deno, fed by the database's change feed through one
// LISTEN connection; every kind of write reaches an open stream within 1 s;
// who may listen; resume with Last-Event-ID / ?since=; the home list's stream;
// and, on a second instance behind a "transaction pooler", the polling
// fallback, the heartbeat and the stream's own end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startSecondApi } from '../support/api.ts';
import { addMember, cleanUp, newGuest, newPlan, newUser, owner, type User } from '../support/api-world.ts';
import { day } from '../support/dates.ts';
import { openSse, type SseStream } from '../support/sse.ts';

afterAll(cleanUp);

const streams: SseStream[] = [];
afterAll(() => streams.forEach((s) => s.close()));

async function watch(path: string, opts: Parameters<typeof openSse>[1] = {}): Promise<SseStream> {
  const stream = await openSse(path, opts);
  streams.push(stream);
  return stream;
}

async function versionOf(planId: string): Promise<number> {
  const [row] = await owner`select version from app.plan_versions where plan_id = ${planId}`;
  return Number(row.version);
}

/**
 * Run `write` (an API call) and return the change event it caused. It comes
 * within milliseconds; the wait is generous so that a loaded machine never
 * fails it, only a delivery that does not happen (no timing is asserted:
 * docs/testing.md).
 */
async function changeAfter(stream: SseStream, planId: string, write: () => Promise<{ status: number; text: string }>) {
  const res = await write();
  expect(res.status, res.text).toBeLessThan(300);
  return await stream.next((e) => e.event === 'change' && e.data.planId === planId, 10_000);
}

describe('who may listen', () => {
  let host: User;
  let planId: string;
  beforeAll(async () => {
    host = await newUser('Hana');
    planId = await newPlan(host);
  });

  it('anyone holding the plan id (like GET /api/plans/{id}), signed in or not', async () => {
    for (const token of [undefined, host.token]) {
      const stream = await watch(`/api/plans/${planId}/events`, { token });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers.get('cache-control')).toBe('no-store');
      const ready = await stream.next();
      expect(ready).toMatchObject({ event: 'ready', id: String(await versionOf(planId)) });
      expect(ready.data).toEqual({ planId, version: await versionOf(planId) });
      stream.close();
    }
  });

  it('an unknown or malformed plan is 404 and a bad token 401, before any stream opens', async () => {
    const unknown = await watch('/api/plans/00000000-0000-4000-8000-000000000000/events');
    expect([unknown.status, unknown.text]).toEqual([404, 'Plan not found']);
    const malformed = await watch('/api/plans/not-a-plan/events');
    expect([malformed.status, malformed.text]).toEqual([404, 'Plan not found']);
    const badToken = await watch(`/api/plans/${planId}/events`, { token: 'not-a-token' });
    expect([badToken.status, badToken.text]).toEqual([401, 'Your session has expired, please sign in again']);
    const listSignedOut = await watch('/api/plans/events');
    expect([listSignedOut.status, listSignedOut.text]).toEqual([401, 'Not signed in']);
  });

  it('a deleted plan ends its stream with a "deleted" event, and is 404 afterwards', async () => {
    const doomed = await newPlan(host, 'Doomed');
    const stream = await watch(`/api/plans/${doomed}/events`);
    await stream.next((e) => e.event === 'ready');
    const event = await changeAfter(stream, doomed, () => api('DELETE', `/api/plans/${doomed}`, { token: host.token }));
    expect(event.data.parts).toEqual(['deleted']);
    await stream.ended;
    const again = await watch(`/api/plans/${doomed}/events`);
    expect(again.status).toBe(404);
  });
});

describe('every kind of write reaches an open stream at once', () => {
  let host: User;
  let member: User;
  let planId: string;
  let stream: SseStream;
  let guest: { id: string; name: string };
  let ideaId: string;

  beforeAll(async () => {
    host = await newUser('Hana');
    member = await newUser('Mo');
    planId = await newPlan(host);
    stream = await watch(`/api/plans/${planId}/events`);
    await stream.next((e) => e.event === 'ready');
  });

  const parts = (e: { data: { parts: string[] } }) => e.data.parts;
  const post = (path: string, body: unknown, token?: string) => () => api('POST', path, { body, token });

  it('joins: a guest session, a member joining', async () => {
    const versionBefore = await versionOf(planId);
    const res = { status: 0, text: '' };
    const event = await changeAfter(stream, planId, async () => {
      guest = await newGuest(planId, 'Gus');
      return { ...res, status: 201 };
    });
    expect(parts(event)).toEqual(['participants']);
    expect(event.id).toBe(String(versionBefore + 1));
    const join = await changeAfter(stream, planId, post(`/api/plans/${planId}/join`, { name: 'Mo' }, member.token));
    expect(parts(join)).toEqual(['participants']);
  });

  it('ideas, votes and comments name the idea', async () => {
    const added = await changeAfter(stream, planId, async () => {
      const res = await api('POST', `/api/plans/${planId}/ideas`, { body: { text: 'Bowling', guestId: guest.id } });
      ideaId = res.json.id;
      return res;
    });
    expect(parts(added)).toEqual(['ideas']);
    const vote = await changeAfter(stream, planId, post(`/api/ideas/${ideaId}/vote`, { guestId: guest.id }));
    expect(vote.data).toMatchObject({ parts: ['ideas'], ideaIds: [ideaId] });
    const comment = await changeAfter(stream, planId, post(`/api/ideas/${ideaId}/comments`, { text: 'Yes!' }, member.token));
    expect(comment.data).toMatchObject({ parts: ['comments'], ideaIds: [ideaId] });
  });

  it('date votes name the slot', async () => {
    const date = await day(owner, 3);
    const vote = await changeAfter(stream, planId, post(`/api/plans/${planId}/vote-date`, { date, guestId: guest.id }));
    expect(parts(vote)).toEqual(['dates']);
    const [slotId] = vote.data.slotIds;
    const again = await changeAfter(stream, planId, post(`/api/timeslots/${slotId}/vote`, {}, member.token));
    expect(again.data).toMatchObject({ parts: ['dates'], slotIds: [slotId] });
  });

  it("the host's pick, location, lock, time and unlock", async () => {
    const date = await day(owner, 4);
    expect(parts(await changeAfter(stream, planId, post(`/api/plans/${planId}/pick-idea`, { ideaId }, host.token)))).toEqual(['plan']);
    expect(parts(await changeAfter(stream, planId, post(`/api/plans/${planId}/location`, { location: 'Lanes' }, host.token)))).toEqual([
      'plan',
    ]);
    expect(parts(await changeAfter(stream, planId, post(`/api/plans/${planId}/lock-date`, { date }, host.token)))).toEqual(['plan']);
    expect(parts(await changeAfter(stream, planId, post(`/api/plans/${planId}/set-event-time`, { time: '19:30' }, host.token)))).toEqual([
      'dates',
      'plan',
    ]);
    // The time's slot had no votes: unlocking removes it (empty slots go).
    expect(parts(await changeAfter(stream, planId, post(`/api/plans/${planId}/unlock`, {}, host.token)))).toEqual(['dates', 'plan']);
  });

  it('a leave', async () => {
    const left = await changeAfter(stream, planId, () => api('DELETE', `/api/plans/${planId}/leave`, { token: member.token }));
    expect(parts(left)).toContain('participants');
  });

  it('events carry their version as id, strictly increasing, and match the database', async () => {
    const ids = stream.events.filter((e) => e.event === 'change').map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.at(-1)).toBe(await versionOf(planId));
  });
});

describe('a lost LISTEN connection', () => {
  it('is re-established, and open streams resync what they may have missed', async () => {
    const host = await newUser('Lis');
    const planId = await newPlan(host);
    const stream = await watch(`/api/plans/${planId}/events`);
    await stream.next((e) => e.event === 'ready');
    // Kill the function's LISTEN session (as a failover or idle reaper would)
    // and change the plan while it is gone.
    const killed = await owner`
      select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = 'hangplan-live'`;
    expect(killed.length).toBeGreaterThan(0);
    await api('POST', `/api/plans/${planId}/location`, { body: { location: 'Somewhere' }, token: host.token });
    const event = await stream.next((e) => e.event === 'change', 5000);
    expect(Number(event.id)).toBe(await versionOf(planId));
    // And the feed is live again afterwards.
    await changeAfter(stream, planId, () =>
      api('POST', `/api/plans/${planId}/location`, { body: { location: 'Elsewhere' }, token: host.token }),
    );
  });
});

describe('resume', () => {
  let host: User;
  let planId: string;
  beforeAll(async () => {
    host = await newUser('Hana');
    planId = await newPlan(host);
    await newGuest(planId, 'One');
    await newGuest(planId, 'Two');
  });

  it('Last-Event-ID behind the plan: one full change at the current version, then live', async () => {
    const version = await versionOf(planId);
    const stream = await watch(`/api/plans/${planId}/events`, { headers: { 'last-event-id': String(version - 2) } });
    const first = await stream.next();
    expect(first).toMatchObject({ event: 'change', id: String(version) });
    expect(first.data).toEqual({
      planId,
      version,
      parts: ['plan', 'participants', 'ideas', 'comments', 'dates', 'rsvps'],
      ideaIds: null,
      slotIds: null,
    });
    await changeAfter(stream, planId, async () => {
      await newGuest(planId, 'Three');
      return { status: 201, text: '' };
    });
    stream.close();
  });

  it('?since= at the current version: ready, nothing to refetch', async () => {
    const version = await versionOf(planId);
    const stream = await watch(`/api/plans/${planId}/events?since=${version}`);
    expect(await stream.next()).toMatchObject({ event: 'ready', id: String(version) });
    stream.close();
  });

  it('a change committed while the stream opens is not lost', async () => {
    const before = await versionOf(planId);
    const [stream] = await Promise.all([watch(`/api/plans/${planId}/events?since=${before}`), newGuest(planId, 'Racer')]);
    // Either the first event already reports the new version, or a change follows.
    const first = await stream.next();
    const latest = first.event === 'change' ? first : await stream.next((e) => e.event === 'change');
    expect(Number(latest.id)).toBe(await versionOf(planId));
    stream.close();
  });
});

describe('the home list stream (GET /api/plans/events)', () => {
  it("carries the changes of every plan the user takes part in, and nobody else's", async () => {
    const me = await newUser('Mara');
    const other = await newUser('Otto');
    const mine = await newPlan(me, 'Mine');
    const joined = await newPlan(other, 'Joined');
    await addMember(joined, me);
    const notMine = await newPlan(other, 'Not mine');
    const stream = await watch('/api/plans/events', { token: me.token });
    const ready = await stream.next();
    expect(ready.event).toBe('ready');
    expect([...ready.data.planIds].sort()).toEqual([mine, joined].sort());

    await newGuest(notMine, 'Stranger');
    const fromJoined = await changeAfter(stream, joined, () =>
      api('POST', `/api/plans/${joined}/location`, { body: { location: 'Cafe' }, token: other.token }),
    );
    expect(fromJoined.data.parts).toEqual(['plan']);
    await changeAfter(stream, mine, async () => {
      await newGuest(mine, 'Gil');
      return { status: 201, text: '' };
    });
    expect(stream.events.some((e) => e.data.planId === notMine)).toBe(false);
  });
});

describe('ETags: a refetch of an unchanged plan is a 304', () => {
  let host: User;
  let planId: string;
  let slug: string;
  let ideaId: string;
  let slotId: string;
  let guest: { id: string; name: string };

  beforeAll(async () => {
    host = await newUser('Hana');
    planId = await newPlan(host);
    slug = (await api('GET', `/api/plans/${planId}`)).json.slug;
    guest = await newGuest(planId, 'Gwen');
    ideaId = (await api('POST', `/api/plans/${planId}/ideas`, { body: { text: 'Darts' }, token: host.token })).json.id;
    await api('POST', `/api/ideas/${ideaId}/vote`, { body: { guestId: guest.id } });
    const date = await day(owner, 5);
    slotId = (await api('POST', `/api/plans/${planId}/vote-date`, { body: { date }, token: host.token })).json.timeSlotId;
  });

  const reads = () => [
    { path: `/api/plans/${planId}` },
    { path: `/api/plans/slug/${slug}` },
    { path: `/api/plans/${planId}/participants` },
    { path: `/api/plans/${planId}/ideas`, token: host.token },
    { path: `/api/plans/${planId}/ideas?guestId=${guest.id}` },
    { path: `/api/plans/${planId}/timeslots` },
    { path: `/api/plans/${planId}/my-votes`, token: host.token },
    { path: `/api/plans/${planId}/my-votes?guestId=${guest.id}` },
    { path: `/api/ideas/${ideaId}/voters` },
    { path: `/api/ideas/${ideaId}/comments` },
    { path: `/api/timeslots/${slotId}/voters` },
    { path: '/api/plans', token: host.token },
  ];

  it('every plan read: ETag, 304 with no body when it matches, 200 again after any change', async () => {
    for (const read of reads()) {
      const first = await api('GET', read.path, { token: read.token });
      expect(first.status, read.path).toBe(200);
      const etag = first.headers.get('etag');
      expect(etag, read.path).toMatch(/^W\/"[vl][0-9a-f.]+"$/);
      expect(first.headers.get('cache-control')).toBe('no-store');
      const same = await api('GET', read.path, { token: read.token, headers: { 'if-none-match': etag! } });
      expect([same.status, same.text, same.headers.get('etag')], read.path).toEqual([304, '', etag]);
    }
    const etags = [];
    for (const read of reads()) etags.push((await api('GET', read.path, { token: read.token })).headers.get('etag')!);
    await api('POST', `/api/plans/${planId}/location`, { body: { location: 'Pub' }, token: host.token });
    for (const [i, read] of reads().entries()) {
      const after = await api('GET', read.path, { token: read.token, headers: { 'if-none-match': etags[i] } });
      expect(after.status, read.path).toBe(200);
      expect(after.headers.get('etag'), read.path).not.toBe(etags[i]);
      expect(after.json, read.path).toBeDefined();
    }
  });

  it("one viewer's ETag never answers for another (hasUserVoted, my-votes)", async () => {
    const asGuest = await api('GET', `/api/plans/${planId}/ideas?guestId=${guest.id}`);
    const asHost = await api('GET', `/api/plans/${planId}/ideas`, {
      token: host.token,
      headers: { 'if-none-match': asGuest.headers.get('etag')! },
    });
    expect(asHost.status).toBe(200);
    expect(asHost.headers.get('etag')).not.toBe(asGuest.headers.get('etag'));
    expect(asGuest.json[0].hasUserVoted).toBe(true);
    expect(asHost.json[0].hasUserVoted).toBe(false);
  });

  it('a foreign or garbage If-None-Match is simply a 200', async () => {
    for (const tag of ['"abc"', 'W/"v99999999"', '*', 'W/"v1.zzzzzzzz"']) {
      const res = await api('GET', `/api/plans/${planId}`, { headers: { 'if-none-match': tag } });
      expect(res.status, tag).toBe(200);
    }
  });
});

describe('a second instance behind a transaction pooler: polling, heartbeat, end of stream', () => {
  let server: { url: string; stop: () => Promise<void> };
  beforeAll(async () => {
    server = await startSecondApi({
      DATABASE_POOL_MODE: 'transaction',
      LIVE_POLL_SECONDS: '0.25',
      LIVE_HEARTBEAT_SECONDS: '0.3',
      LIVE_STREAM_SECONDS: '2',
    });
  }, 60_000);
  afterAll(() => server?.stop());

  it('delivers changes by polling the versions (every part, the new version)', async () => {
    const host = await newUser('Polly');
    const planId = await newPlan(host);
    const stream = await watch(`/api/plans/${planId}/events`, { baseUrl: server.url });
    await stream.next((e) => e.event === 'ready');
    const event = await changeAfter(stream, planId, () =>
      api('POST', `/api/plans/${planId}/location`, { body: { location: 'Park' }, token: host.token }),
    );
    expect(event.data.parts).toEqual(['plan', 'participants', 'ideas', 'comments', 'dates', 'rsvps']);
    expect(Number(event.id)).toBe(await versionOf(planId));
    const deleted = await changeAfter(stream, planId, () => api('DELETE', `/api/plans/${planId}`, { token: host.token }));
    expect(deleted.data.parts).toEqual(['deleted']);
    await stream.ended;
  });

  it('sends heartbeat comments and ends the stream at its lifetime', async () => {
    const host = await newUser('Beat');
    const planId = await newPlan(host);
    const started = performance.now();
    const stream = await watch(`/api/plans/${planId}/events`, { baseUrl: server.url });
    await stream.ended;
    // It ended by itself (else the test times out), and not before its lifetime.
    expect(performance.now() - started).toBeGreaterThan(1500);
    expect(stream.comments.filter((c) => c === 'ping').length).toBeGreaterThanOrEqual(3);
  });
});
