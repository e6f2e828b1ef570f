// The benches' plans, built through the API as people build them: issue 13's
// fixture for `npm run bench` (a plan with 40 guests, 20 signed-in members,
// 120 ideas, ~400 idea votes and ~240 date votes; a plan with 500 ideas for
// growth; 10 plans on the host's home list), and the small plans of
// `npm run bench:live`.
import { log } from './options.ts';
import type { BenchStack } from './stack.ts';

export interface Guest {
  id: string;
  secret: string;
}

export interface Caller {
  token?: string;
  guestSecret?: string;
}

/** A call to the API that throws on anything but a 2xx answer, with the answer's text. */
export function apiCaller(base: string) {
  return async <T>(method: string, p: string, body?: unknown, as: Caller = {}): Promise<T> => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(as.token ? { authorization: `Bearer ${as.token}` } : {}),
        ...(as.guestSecret ? { 'x-guest-secret': as.guestSecret } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? null : await res.json()) as T;
  };
}

/** Run `tasks` with at most `n` at a time (building a fixture, not measuring). */
async function parallel(tasks: Array<() => Promise<unknown>>, n = 8): Promise<void> {
  const queue = [...tasks];
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (queue.length) await queue.shift()!();
    }),
  );
}

export interface PlanShape {
  title: string;
  guests: number;
  ideas: number;
  /** Idea votes each guest casts. */
  ideaVotes?: number;
  /** Days each guest votes for, among `dates`. */
  dateVotes?: number;
  dates?: string[];
}

export interface BuiltPlan {
  plan: { id: string; slug: string };
  guests: Guest[];
  ideaIds: string[];
}

/** A plan of the host's with its guests, ideas and votes, in parallel. */
export async function planWith(stack: BenchStack, hostToken: string, shape: PlanShape): Promise<BuiltPlan> {
  const call = apiCaller(stack.api);
  const host = { token: hostToken };
  const plan = await call<{ id: string; slug: string }>('POST', '/plans', { title: shape.title }, host);
  const guests: Guest[] = [];
  await parallel(
    Array.from({ length: shape.guests }, (_, g) => async () => {
      guests.push(await call<Guest>('POST', '/guest-session', { name: `Guest ${g + 1}`, planId: plan.id }));
    }),
  );
  const ideaIds: string[] = [];
  await parallel(
    Array.from({ length: shape.ideas }, (_, i) => async () => {
      ideaIds.push((await call<{ id: string }>('POST', `/plans/${plan.id}/ideas`, { text: `Idea number ${i + 1}` }, host)).id);
    }),
  );
  const dates = shape.dates ?? [];
  await parallel(
    guests.flatMap((guest, g) => {
      const as = { guestSecret: guest.secret };
      return [
        ...Array.from({ length: shape.ideaVotes ?? 0 }, (_, v) => () =>
          call('POST', `/ideas/${ideaIds[(g * 7 + v * 13) % ideaIds.length]}/vote`, { guestId: guest.id }, as)),
        ...Array.from({ length: shape.dateVotes ?? 0 }, (_, v) => () =>
          call('POST', `/plans/${plan.id}/vote-date`, { date: dates[(g + v) % dates.length], guestId: guest.id }, as)),
      ];
    }),
  );
  return { plan, guests, ideaIds };
}

export interface Fixture {
  plan: { id: string; slug: string };
  bigPlan: { id: string };
  hostToken: string;
  /** Tokens of 20 signed-in members of the main plan (the member write rows take turns among them). */
  memberTokens: string[];
  guests: Guest[];
  ideaIds: string[];
  slotId: string;
  dates: string[];
  /** The path of a member's calendar feed (of 10 plans with a date, 5 with a time), under the API's base. */
  feedPath: string;
}

/** The next 12 days after the database's today, as `YYYY-MM-DD`. */
async function nextDays(stack: BenchStack): Promise<string[]> {
  const [{ d: today }] = await stack.owner<{ d: string }[]>`select current_date::text as d`;
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(`${today}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() + i + 1);
    return d.toISOString().slice(0, 10);
  });
}

/** `npm run bench`'s fixture (issue 13). */
export async function buildFixture(stack: BenchStack): Promise<Fixture> {
  const call = apiCaller(stack.api);
  const hostToken = await stack.signIn('host@bench.local', 'Hana', 'Host');
  const dates = await nextDays(stack);
  log('building the fixture through the API: 40 guests, 120 ideas, ~400 idea votes, ~240 date votes...');
  const main = await planWith(stack, hostToken, { title: 'Bench night', guests: 40, ideas: 120, ideaVotes: 10, dateVotes: 6, dates });
  const memberTokens: string[] = [];
  for (let m = 0; m < 20; m++) {
    const token = await stack.signIn(`member${m}@bench.local`, `Member ${m + 1}`);
    await call('POST', `/plans/${main.plan.id}/join`, {}, { token });
    memberTokens.push(token);
  }
  await call('POST', `/ideas/${main.ideaIds[0]}/comments`, { text: 'Count me in' }, { token: hostToken });
  // Who's coming: the date is locked, so the answers open (docs/api.md "Who's coming").
  await call('POST', `/plans/${main.plan.id}/lock-date`, { date: dates[0] }, { token: hostToken });
  log('... a plan with 500 ideas (growth), and 8 more small plans for the home list...');
  const big = await planWith(stack, hostToken, { title: 'Bench growth', guests: 40, ideas: 500, ideaVotes: 42 });
  for (let i = 0; i < 8; i++) {
    await planWith(stack, hostToken, { title: `Small plan ${i + 1}`, guests: 5, ideas: 3, ideaVotes: 1, dateVotes: 1, dates });
  }
  const slots = await call<Array<{ id: string }>>('GET', `/plans/${main.plan.id}/timeslots`);
  log('... and a member whose calendar feed has 10 plans with a date, 5 of them with a time');
  const feedPath = await feedOf(stack, dates);
  return { ...main, bigPlan: big.plan, hostToken, memberTokens, slotId: slots[0].id, dates, feedPath };
}

/** A member with 10 dated plans (every other one timed); the path of their feed, /calendar/feed/{secret}.ics. */
async function feedOf(stack: BenchStack, dates: string[]): Promise<string> {
  const call = apiCaller(stack.api);
  const member = { token: await stack.signIn('feed@bench.local', 'Fay', 'Feed') };
  for (let i = 0; i < 10; i++) {
    const plan = await call<{ id: string }>('POST', '/plans', { title: `Feed plan ${i + 1}` }, member);
    await call('POST', `/plans/${plan.id}/location`, { location: `Place ${i + 1}, Main Street` }, member);
    await call('POST', `/plans/${plan.id}/lock-date`, { date: dates[i % dates.length] }, member);
    if (i % 2 === 0) await call('POST', `/plans/${plan.id}/set-event-time`, { time: '19:30' }, member);
  }
  const { url } = await call<{ url: string }>('GET', '/calendar/feed', undefined, member);
  return new URL(url).pathname.replace(/^\/api/, '');
}
