// The authorization matrix: every write route, called by each kind of
// caller, answers exactly the status that docs/authorization.md documents.
// The table is read from that document, so the documentation and the
// behaviour cannot drift apart; and the routes are compared with those the
// app registers (its Hono router), so a new write route that is in neither
// the matrix nor the document's list of routes open to anyone fails here.
//
// Each route gets a world of its own (tests/support/world.ts) on the shared
// server; the callers go one after the other with the host last, so a write
// that succeeds (a guest leaving, the host deleting) does not change what the
// next caller may do. Moving a guest's votes deletes the guest, so that route
// gets a world per caller.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiOptions } from '../support/api.ts';
import { pushServiceClient } from '../support/push-client.ts';
import { buildWorld, isOneSentence, type World } from '../support/world.ts';
import { owner } from '../support/api-world.ts';

afterAll(() => owner.end());

// The restored device goes before the guest's own: a guest who leaves is gone.
// The co-host goes just before the host (a route whose success by a co-host
// leaves the host nothing to do gives the host a world of its own).
const ACTORS = ['anonymous', 'restored guest', 'guest with secret', 'guest without secret', "other plan's guest", 'member', 'non-member', 'co-host', 'host'] as const;
type Actor = (typeof ACTORS)[number];

/** The identity part of a request: token, guest id (body or query) and secret header. */
function as(actor: Actor, w: World): { token?: string; guestId?: string; secret?: string } {
  switch (actor) {
    case 'anonymous':
      return {};
    case 'restored guest':
      return { guestId: w.guest.id, secret: w.restoredGuestSecret };
    case 'guest with secret':
      return { guestId: w.guest.id, secret: w.guest.secret };
    case 'guest without secret':
      return { guestId: w.guest.id };
    case "other plan's guest":
      return { guestId: w.otherGuest.id, secret: w.otherGuest.secret };
    case 'member':
      return { token: w.member.token };
    case 'non-member':
      return { token: w.stranger.token };
    case 'co-host':
      return { token: w.cohost.token };
    case 'host':
      return { token: w.host.token };
  }
}

interface Route {
  /** As written in the first column of the documented table. */
  name: string;
  /** Arrange what the route needs (as the host), before the callers. */
  arrange?: (w: World) => Promise<void>;
  /** A world per caller (the route destroys what it acts on). */
  freshWorldPerCaller?: boolean;
  /** A world of its own for the host (the co-host's success leaves nothing to do: a removal, a reminder). */
  freshWorldForHost?: boolean;
  request: (w: World, who: ReturnType<typeof as>) => [string, string, ApiOptions];
}

const secretHeader = (secret?: string): Record<string, string> => (secret ? { 'x-guest-secret': secret } : {});

const withGuest = (who: ReturnType<typeof as>, body: Record<string, unknown> = {}): ApiOptions => ({
  body: who.guestId ? { ...body, guestId: who.guestId } : body,
  token: who.token,
  headers: secretHeader(who.secret),
});

/** The idea Gus posted in a world, for the route that deletes it. */
const guestIdeas = new WeakMap<World, string>();
/** The host's interest in a world, for the route that deletes it. */
const hostInterests = new WeakMap<World, string>();
/** A fresh subscription of the stand-in push service per world. */
const pushSubscriptions = new WeakMap<World, unknown>();
/** Gus's removal in a world, for the route that undoes it. */
const removals = new WeakMap<World, string>();

/** The host locks the world's date (what the answers wait for). */
const lockTheDate = async (w: World) => void (await w.call('POST', `/api/plans/${w.planA.id}/lock-date`, { body: { date: w.date }, token: w.host.token }));

const ROUTES: Route[] = [
  { name: 'POST /api/plans/{id}/ideas', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/ideas`, withGuest(who, { text: 'An idea' })] },
  { name: 'POST /api/ideas/{id}/comments', request: (w, who) => ['POST', `/api/ideas/${w.ideaA}/comments`, withGuest(who, { text: 'A comment' })] },
  { name: 'POST /api/ideas/{id}/vote', request: (w, who) => ['POST', `/api/ideas/${w.ideaA}/vote`, withGuest(who)] },
  { name: 'POST /api/plans/{id}/vote-date', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/vote-date`, withGuest(who, { date: w.date })] },
  {
    name: 'POST /api/timeslots/{id}/vote',
    // A second vote keeps the slot when the guest's toggle takes theirs away
    // (a slot without votes is removed).
    arrange: async (w) => void (await w.call('POST', `/api/timeslots/${w.slotA}/vote`, { body: {}, token: w.host.token })),
    request: (w, who) => ['POST', `/api/timeslots/${w.slotA}/vote`, withGuest(who)] },
  { name: 'POST /api/plans/{id}/join', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/join`, withGuest(who)] },
  {
    name: 'DELETE /api/plans/{id}/leave',
    request: (w, who) => [
      'DELETE',
      `/api/plans/${w.planA.id}/leave${who.guestId ? `?guestId=${who.guestId}` : ''}`,
      { token: who.token, headers: secretHeader(who.secret) },
    ],
  },
  { name: 'POST /api/plans/{id}/pick-idea', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/pick-idea`, withGuest(who, { ideaId: w.ideaA })] },
  { name: 'POST /api/plans/{id}/lock-date', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/lock-date`, withGuest(who, { date: w.date })] },
  {
    name: 'POST /api/plans/{id}/set-event-time',
    arrange: async (w) => void (await w.call('POST', `/api/plans/${w.planA.id}/lock-date`, { body: { date: w.date }, token: w.host.token })),
    request: (w, who) => ['POST', `/api/plans/${w.planA.id}/set-event-time`, withGuest(who, { time: '19:30' })],
  },
  { name: 'POST /api/plans/{id}/unlock', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/unlock`, withGuest(who)] },
  { name: 'POST /api/plans/{id}/cancel', freshWorldForHost: true, request: (w, who) => ['POST', `/api/plans/${w.planA.id}/cancel`, withGuest(who, { message: 'Rain' })] },
  { name: 'POST /api/plans/{id}/location', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/location`, withGuest(who, { location: 'The park' })] },
  { name: 'POST /api/plans/{id}/remind', freshWorldForHost: true, request: (w, who) => ['POST', `/api/plans/${w.planA.id}/remind`, withGuest(who)] },
  { name: 'POST /api/plans/{id}/rotate-link', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/rotate-link`, withGuest(who)] },
  {
    name: 'POST /api/plans/{id}/deadline',
    request: (w, who) => ['POST', `/api/plans/${w.planA.id}/deadline`, withGuest(who, { deadline: new Date(Date.now() + 86_400_000).toISOString() })],
  },
  {
    name: 'DELETE /api/plans/{id}/participants/{participantId} (the guest)',
    freshWorldForHost: true,
    request: (w, who) => ['DELETE', `/api/plans/${w.planA.id}/participants/${w.guestParticipantId}`, withGuest(who)],
  },
  {
    // Nobody removes the host: a co-host is refused, the host is told to hand it over instead.
    name: 'DELETE /api/plans/{id}/participants/{participantId} (the host)',
    request: (w, who) => ['DELETE', `/api/plans/${w.planA.id}/participants/${w.hostParticipantId}`, withGuest(who)],
  },
  {
    // "Allow back" (docs/decisions/0083-removal-holds.md): the host removed Gus first.
    name: "DELETE /api/plans/{id}/removals/{removalId} (the guest's removal)",
    freshWorldForHost: true,
    arrange: async (w) => {
      await w.call('DELETE', `/api/plans/${w.planA.id}/participants/${w.guestParticipantId}`, { token: w.host.token });
      const list = await w.call<Array<{ id: string }>>('GET', `/api/plans/${w.planA.id}/removals`, { token: w.host.token });
      removals.set(w, list.json[0].id);
    },
    request: (w, who) => ['DELETE', `/api/plans/${w.planA.id}/removals/${removals.get(w)}`, withGuest(who)],
  },
  {
    name: "DELETE /api/ideas/{id} (the host's idea)",
    freshWorldPerCaller: true,
    request: (w, who) => ['DELETE', `/api/ideas/${w.ideaA}`, withGuest(who)],
  },
  {
    name: "DELETE /api/ideas/{id} (the guest's idea)",
    freshWorldPerCaller: true,
    arrange: async (w) => {
      const posted = await w.call<{ id: string }>('POST', `/api/plans/${w.planA.id}/ideas`, withGuest(as('guest with secret', w), { text: 'Mine' }));
      guestIdeas.set(w, posted.json.id);
    },
    request: (w, who) => ['DELETE', `/api/ideas/${guestIdeas.get(w)}`, withGuest(who)],
  },
  {
    name: "DELETE /api/ideas/{id}/comments/{commentId} (the member's comment)",
    freshWorldPerCaller: true,
    request: (w, who) => ['DELETE', `/api/ideas/${w.ideaA}/comments/${w.commentA}`, withGuest(who)],
  },
  // Co-hosts (docs/decisions/0098-cohosts.md): the host's alone.
  {
    name: 'POST /api/plans/{id}/cohosts (the member)',
    request: (w, who) => ['POST', `/api/plans/${w.planA.id}/cohosts`, withGuest(who, { participantId: w.memberParticipantId })],
  },
  {
    name: 'DELETE /api/plans/{id}/cohosts/{participantId} (the co-host)',
    request: (w, who) => ['DELETE', `/api/plans/${w.planA.id}/cohosts/${w.cohostParticipantId}`, withGuest(who)],
  },
  {
    name: 'DELETE /api/plans/{id}',
    request: (w, who) => ['DELETE', `/api/plans/${w.planA.id}`, { token: who.token, headers: secretHeader(who.secret) }],
  },
  {
    name: 'POST /api/auth/transfer-guest-votes (of the plan\'s guest)',
    freshWorldPerCaller: true,
    request: (w, who) => [
      'POST',
      '/api/auth/transfer-guest-votes',
      // The caller's own secret, if any, for the plan's guest: only that guest's device may move its votes.
      { body: { guestId: w.guest.id }, token: who.token, headers: { 'x-guest-secret': who.secret ?? (who.token ? w.guest.secret : '') } },
    ],
  },
  {
    name: 'DELETE /api/guest-session/{id}/other-devices (of the plan\'s guest)',
    request: (w, who) => ['DELETE', `/api/guest-session/${w.guest.id}/other-devices`, { token: who.token, headers: secretHeader(who.secret) }],
  },
  {
    name: "POST /api/auth/transfer-guest-votes (with a restored device's secret)",
    freshWorldPerCaller: true,
    request: (w, who) => [
      'POST',
      '/api/auth/transfer-guest-votes',
      { body: { guestId: w.guest.id }, token: who.token, headers: { 'x-guest-secret': w.restoredGuestSecret } },
    ],
  },
  // A member's own feed (docs/calendars.md "Calendar feed"): signed in is all it takes.
  { name: 'POST /api/calendar/feed/rotate', request: (_w, who) => ['POST', '/api/calendar/feed/rotate', withGuest(who)] },
  // A person's own account: signed in is all it takes; a guest has none.
  { name: 'POST /api/plans', request: (_w, who) => ['POST', '/api/plans', withGuest(who, { title: 'Another plan' })] },
  { name: 'PATCH /api/auth/profile', request: (_w, who) => ['PATCH', '/api/auth/profile', withGuest(who, { firstName: 'Pat' })] },
  // Signed in, there is no pending change: the code is wrong (400), not the caller.
  { name: 'POST /api/auth/confirm-email', request: (_w, who) => ['POST', '/api/auth/confirm-email', withGuest(who, { code: '123456' })] },
  { name: 'POST /api/auth/sign-out', request: (_w, who) => ['POST', '/api/auth/sign-out', withGuest(who)] },
  { name: 'POST /api/auth/sign-out-everywhere', request: (_w, who) => ['POST', '/api/auth/sign-out-everywhere', withGuest(who)] },
  { name: 'POST /api/users/me/interests', request: (_w, who) => ['POST', '/api/users/me/interests', withGuest(who, { freeFormText: 'Climbing' })] },
  {
    name: "DELETE /api/users/me/interests/{id} (the host's interest)",
    freshWorldPerCaller: true,
    arrange: async (w) => {
      const added = await w.call<{ id: string }>('POST', '/api/users/me/interests', { body: { freeFormText: 'Chess' }, token: w.host.token });
      hostInterests.set(w, added.json.id);
    },
    request: (w, who) => ['DELETE', `/api/users/me/interests/${hostInterests.get(w)}`, withGuest(who)],
  },
  // A device asks to be told: a member by token, a guest with its device's secret.
  {
    name: 'POST /api/push/subscriptions',
    request: (w, who) => ['POST', '/api/push/subscriptions', withGuest(who, { subscription: pushSubscriptions.get(w) })],
    arrange: async (w) => void pushSubscriptions.set(w, await pushServiceClient(inject('pushServiceOrigin')).subscribe()),
  },
  {
    name: 'DELETE /api/push/subscriptions',
    request: (_w, who) => ['DELETE', '/api/push/subscriptions', withGuest(who, { endpoint: `${inject('pushServiceOrigin')}/push/none` })],
  },
  // One's own account (docs/decisions/0081-deleting-an-account.md): signed in is all it takes; it ends the caller.
  { name: 'DELETE /api/auth/account', freshWorldPerCaller: true, request: (_w, who) => ['DELETE', '/api/auth/account', withGuest(who)] },
  {
    name: "POST /api/auth/transfer-guest-votes (without the guest's secret)",
    freshWorldPerCaller: true,
    request: (w, who) => ['POST', '/api/auth/transfer-guest-votes', { body: { guestId: w.guest.id }, token: who.token }],
  },
  // Who's coming (docs/api-after-the-date.md "Who's coming"): answers open once the date is locked.
  { name: 'PUT /api/plans/{id}/rsvp', arrange: lockTheDate, request: (w, who) => ['PUT', `/api/plans/${w.planA.id}/rsvp`, withGuest(who, { answer: 'going' })] },
  {
    name: 'PUT /api/plans/{id}/rsvps/{participantId} (the guest)',
    arrange: lockTheDate,
    request: (w, who) => ['PUT', `/api/plans/${w.planA.id}/rsvps/${w.guestParticipantId}`, withGuest(who, { answer: 'maybe' })],
  },
  { name: 'POST /api/plans/{id}/capacity', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/capacity`, withGuest(who, { capacity: 10 })] },
  // Link previews (docs/api.md "Link previews"): the link's card is the host's alone.
  {
    name: 'POST /api/plans/{id}/preview-details',
    request: (w, who) => ['POST', `/api/plans/${w.planA.id}/preview-details`, withGuest(who, { previewDetails: false })],
  },
  // "None of these dates work" (docs/decisions/0108-answers-on-dates.md): a date vote's callers.
  { name: 'POST /api/plans/{id}/no-dates', request: (w, who) => ['POST', `/api/plans/${w.planA.id}/no-dates`, withGuest(who)] },
];

/** The rows of docs/authorization.md: the matrix (a status per caller) and the routes open to anyone. */
function documentedRows(): { matrix: Map<string, Record<Actor, number>>; open: string[] } {
  const text = readFileSync(path.join(import.meta.dirname, '../../docs/authorization.md'), 'utf8');
  const rows = text.split('\n').filter((line) => line.startsWith('| `'));
  const matrix = new Map<string, Record<Actor, number>>();
  const open: string[] = [];
  for (const row of rows) {
    const cells = row.split('|').slice(1, -1).map((c) => c.trim());
    const name = cells[0].replaceAll('`', '');
    if (cells.length === ACTORS.length + 1) {
      const statuses = cells.slice(1).map((c) => Number(c.replace(/\D.*$/, '')));
      matrix.set(name, Object.fromEntries(ACTORS.map((a, i) => [a, statuses[i]])) as Record<Actor, number>);
    } else {
      open.push(name);
    }
  }
  return { matrix, open };
}

/** 'DELETE /api/plans/{id}/participants/{participantId} (the guest)' and 'DELETE /api/plans/:id/participants/:participantId' alike: 'DELETE /api/plans/:/participants/:'. */
const routeShape = (name: string) =>
  name
    .replace(/\s*\(.*\)$/, '')
    .replace(/\{[^}]+\}|:[A-Za-z]+/g, ':')
    .trim();

/**
 * Every write route the app registers (its Hono router), as routeShape. The
 * function's module is Deno's (`deno check` types it), so it is imported by a
 * path this project's tsc does not follow.
 */
async function registeredWriteRoutes(): Promise<string[]> {
  const appModule: string = '../../supabase/functions/api/app.ts';
  const { app } = (await import(appModule)) as { app: { routes: { method: string; path: string }[] } };
  const writes = app.routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
  return [...new Set(writes.map((r) => routeShape(`${r.method} ${r.path}`)))].sort();
}

const jwtSecret = () => inject('jwtSecret');

describe('every write route, every kind of caller: exactly the documented status', () => {
  const documented = new Map<string, Record<Actor, number>>();
  let open: string[] = [];
  beforeAll(() => {
    const rows = documentedRows();
    for (const [name, row] of rows.matrix) documented.set(name, row);
    open = rows.open;
  });

  it('documents every route tested here, and only those', () => {
    expect([...documented.keys()].sort()).toEqual(ROUTES.map((r) => r.name).sort());
  });

  it('every write route the app registers is in the matrix or documented as open to anyone, and no other', async () => {
    const documentedRoutes = [...new Set([...documented.keys(), ...open].map(routeShape))].sort();
    expect(documentedRoutes).toEqual(await registeredWriteRoutes());
    // A route is either tested caller by caller or open to anyone, not both.
    expect(open.map(routeShape).filter((r) => [...documented.keys()].map(routeShape).includes(r))).toEqual([]);
  });

  it.each(ROUTES.map((r) => [r.name, r] as const))('%s', async (name, route) => {
    const expected = documented.get(name)!;
    const actual: Partial<Record<Actor, number>> = {};
    let shared: World | undefined;
    for (const actor of ACTORS) {
      let w = shared;
      if (!w || route.freshWorldPerCaller || (route.freshWorldForHost && actor === 'host')) {
        w = await buildWorld(owner, jwtSecret());
        await route.arrange?.(w);
        if (!route.freshWorldPerCaller) shared = w;
      }
      const [method, url, opts] = route.request(w, as(actor, w));
      const res = await w.call(method, url, opts);
      actual[actor] = res.status;
      if (res.status >= 400) expect(isOneSentence(res), `${name} as ${actor}: ${JSON.stringify(res.text)}`).toBe(true);
      expect(res.status, `${name} as ${actor}: ${res.text}`).toBeLessThan(500);
    }
    expect(actual).toEqual(expected);
  });
});
