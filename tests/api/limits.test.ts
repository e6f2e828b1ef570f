// Abuse limits over HTTP (docs/security-and-limits.md "Abuse limits"): each answers 429
// with Retry-After and one sentence. The real numbers are too big to reach
// here, so a second instance of the function runs on the same database with
// tiny ones (RATE_LIMITS) and counters of its own (RATE_LIMIT_SCOPE). Caps per
// plan (409) and the per-address sign-in limit run on the shared server.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { api, type ApiOptions, type ApiResult, startSecondApi, testMailbox, uniqueEmail } from '../support/api.ts';
import { addMember, cleanUp, newGuest, newPlan, newUser, owner, type User } from '../support/api-world.ts';
import { day } from '../support/dates.ts';

const LIMITS = [
  'otp-ip=2/1h',
  'otp-site=3/1h',
  'otp-address=2/1h',
  'otp-guess-ip=3/1h',
  'otp-guess-site=5/1h',
  'otp-guess-account=4/1d',
  'guest-ip=2/1h',
  'idea=2/60',
  'comment=2/60',
  'vote=3/60',
  'plan=2/1d',
  'calendar-feed=2/1h',
  'calendar-feed-miss=2/1h',
].join(',');

let server: Awaited<ReturnType<typeof startSecondApi>>;
beforeAll(async () => {
  server = await startSecondApi({
    RATE_LIMITS: LIMITS,
    RATE_LIMIT_SCOPE: `limits-test-${randomUUID()}`,
    SMTP_PORT: String(inject('smtpPort')),
  });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await cleanUp();
});

/** A request to the instance with tiny limits, from the given client address (X-Forwarded-For). */
function limited<T = unknown>(method: string, path: string, opts: ApiOptions & { ip?: string } = {}): Promise<ApiResult<T>> {
  const headers = { ...opts.headers, ...(opts.ip ? { 'x-forwarded-for': opts.ip } : {}) };
  return api<T>(method, path, { ...opts, headers, baseUrl: server.url });
}

/** A fresh documentation address (RFC 5737) each call, so no two tests share a network. */
let ipCount = 0;
const randomIp = () => `198.51.${(++ipCount >> 8) & 0xff}.${ipCount & 0xff}`;
/** A fresh IPv6 /56 each call (documentation prefix 2001:db8::/32); `inSite(site, i)` is an address in its i-th /64. */
let siteCount = 0;
const randomSite = () => `2001:db8:${(++siteCount).toString(16)}`;
const inSite = (site: string, i: number) => `${site}:${i.toString(16)}::1`;
/** A browser's sign-in key (web/src/lib/sign-in-device.ts): 43 base64url characters. */
const newDevice = () => randomBytes(32).toString('base64url');

/** 429, Retry-After in (0, max] seconds, text/plain, exactly one sentence. */
function expectTooMany(res: ApiResult, sentence: RegExp | string, maxWait: number) {
  expect(res.status, res.text).toBe(429);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  const wait = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(wait)).toBe(true);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(maxWait);
  if (typeof sentence === 'string') expect(res.text).toBe(sentence);
  else expect(res.text).toMatch(sentence);
  expect(res.text).not.toMatch(/[\r\n]/);
}

// Sign-in codes (docs/security-and-limits.md "Sign-in codes", decision 0076): no
// counter is shared by everyone, so no flood of strangers can stop a real
// person; a source (network, IPv6 site) is slowed, and a code takes guesses
// only from the device that asked for it.
const send = (email: string, ip: string, device?: string) => limited('POST', '/api/auth/send-otp', { body: { email, device }, ip });
const verify = (email: string, code: string, ip: string, device?: string) =>
  limited<{ token: string }>('POST', '/api/auth/verify-otp', { body: { email, code, device }, ip });
/** Sign in on the limited instance from a device: its code from the mailbox, as a person would. */
async function signInFrom(email: string, device: string, ip = randomIp()): Promise<string> {
  const before = (await testMailbox().mailsTo(email)).length;
  const sent = await send(email, ip, device);
  expect(sent.status, sent.text).toBe(204);
  const code = await testMailbox().latestCodeFor(email, { count: before + 1 });
  const verified = await verify(email, code, ip, device);
  expect(verified.status, verified.text).toBe(200);
  return verified.json.token;
}

describe('wrong codes: per network and site, never per address', () => {
  it('a network that guessed 3 wrong codes is refused for every address, even with the right code; others are not', async () => {
    const guesser = randomIp();
    for (let i = 0; i < 3; i++) {
      expect((await verify(uniqueEmail('victim'), '000000', guesser)).text).toBe('Invalid or expired code');
    }
    // The right code of a real person, mailed by the shared server (same database).
    const email = uniqueEmail('real');
    expect((await api('POST', '/api/auth/send-otp', { body: { email } })).status).toBe(204);
    const code = await testMailbox().latestCodeFor(email);
    expectTooMany(await verify(email, code, guesser), 'Too many wrong codes were tried from your network, please try again in an hour', 3600);
    // Not compared, so not used up: the same code still signs in from another network.
    const elsewhere = await verify(email, code, randomIp());
    expect(elsewhere.status, elsewhere.text).toBe(200);
  });

  it('the 256 networks of an IPv6 /56 are one site: 5 wrong codes from 5 of them, and a 6th is refused', async () => {
    const site = randomSite();
    for (let i = 0; i < 5; i++) expect((await verify(uniqueEmail('v6'), '333333', inSite(site, i))).status).toBe(400);
    expectTooMany(await verify(uniqueEmail('v6'), '333333', inSite(site, 9)), 'Too many wrong codes were tried from your network, please try again in an hour', 3600);
    expect((await verify(uniqueEmail('v6'), '333333', inSite(randomSite(), 0))).status).toBe(400);
  });

  it("a flood of wrong codes for one address from 40 networks never locks its owner out: the owner's fresh code works", async () => {
    const victim = uniqueEmail('victim');
    const device = newDevice();
    // The owner asks for a code; strangers then guess at the address from everywhere.
    const before = (await testMailbox().mailsTo(victim)).length;
    expect((await send(victim, randomIp(), device)).status).toBe(204);
    const code = await testMailbox().latestCodeFor(victim, { count: before + 1 });
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => verify(victim, String(100000 + i), randomIp(), i % 2 ? newDevice() : undefined)),
    );
    expect(guesses.map((r) => r.status)).toEqual(guesses.map(() => 400));
    const [row] = await owner`select failed_attempts from app.sign_in_codes where email = ${victim} and device_hash <> ''`;
    expect(row.failed_attempts).toBe(0);
    const signedIn = await verify(victim, code, randomIp(), device);
    expect(signedIn.status, signedIn.text).toBe(200);
  });
});

describe('send-otp: per network and site, per address, never for everyone', () => {
  it('the third code from one network is 429; the trusted hop is the last X-Forwarded-For entry', async () => {
    const a = randomIp();
    expect((await send(uniqueEmail('limit'), a)).status).toBe(204);
    expect((await send(uniqueEmail('limit'), a)).status).toBe(204);
    expectTooMany(await send(uniqueEmail('limit'), a), 'Too many codes were requested from your network, please try again in an hour', 3600);
    // A client cannot pick its network: only the entry the proxy appended counts.
    expectTooMany(await send(uniqueEmail('limit'), `${randomIp()}, ${a}`), /^Too many codes were requested from your network/, 3600);
  });

  it('only a code that is sent counts: "please wait" answers do not use up the network', async () => {
    const ip = randomIp();
    const email = uniqueEmail('patient');
    expect((await send(email, ip)).status).toBe(204);
    for (let i = 0; i < 4; i++) expectTooMany(await send(email, ip), 'Please wait 30 seconds before asking for another code', 30);
    expect((await send(uniqueEmail('patient'), ip)).status).toBe(204);
    expectTooMany(await send(uniqueEmail('patient'), ip), /^Too many codes were requested from your network/, 3600);
  });

  it('the 256 networks of an IPv6 /56 are one site: 3 codes, then 429 from any of them', async () => {
    const site = randomSite();
    for (let i = 0; i < 3; i++) expect((await send(uniqueEmail('v6'), inSite(site, i))).status).toBe(204);
    expectTooMany(await send(uniqueEmail('v6'), inSite(site, 0x42)), 'Too many codes were requested from your network, please try again in an hour', 3600);
  });

  it('a flood from 40 networks leaves a real person\'s sign-in working (no counter shared by everyone)', async () => {
    const flood = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const ip = randomIp();
        const target = uniqueEmail('flood');
        return [await send(target, ip), await send(uniqueEmail('flood'), ip), await verify(target, '999999', ip)];
      }),
    );
    expect(flood.flat().map((r) => r.status)).toEqual(flood.flat().map((_, i) => (i % 3 === 2 ? 400 : 204)));
    await signInFrom(uniqueEmail('real'), newDevice());
  });

  it("strangers spend an address's budget from many networks; its owner's own device still gets a code and signs in", async () => {
    const victim = uniqueEmail('owner');
    const phone = newDevice();
    await signInFrom(victim, phone);
    // The phone was not yet the account's, so that code was 1 of the address's 2; a stranger sends the 2nd...
    expect((await send(victim, randomIp(), newDevice())).status).toBe(204);
    // ...and then no stranger anywhere can make it mail the address.
    expectTooMany(await send(victim, randomIp(), newDevice()), 'Too many codes requested, please try again in an hour', 3600);
    expectTooMany(await send(victim, randomIp()), 'Too many codes requested, please try again in an hour', 3600);
    // The owner's phone has a budget of its own.
    await signInFrom(victim, phone);
  });

  it("an e-mail change's code counts on its new address: K accounts cannot mail one address more than its budget", async () => {
    const victim = uniqueEmail('named');
    const change = async (user: User) =>
      limited('PATCH', '/api/auth/profile', { body: { firstName: 'Kay', email: victim }, token: user.token, ip: randomIp() });
    for (let i = 0; i < 2; i++) expect((await change(await newUser('K'))).status).toBe(200);
    const refused = await newUser('Eve');
    expectTooMany(await change(refused), 'Too many codes were sent to that address, please try again in an hour', 3600);
    // Refused: nothing of the request happened (not even the name).
    const [row] = await owner`select email, first_name from app.users where id = ${refused.id}`;
    expect(row).toEqual({ email: refused.email, first_name: 'Eve' });
    expect(await owner`select 1 from app.email_changes where user_id = ${refused.id} and new_email is not null`).toHaveLength(0);
    await testMailbox().latestMailTo(victim, { count: 2 });
    expect(await testMailbox().mailsTo(victim)).toHaveLength(2);
    // The changes named it, so a stranger's sign-in code cannot be sent to it either.
    expectTooMany(await send(victim, randomIp()), 'Too many codes requested, please try again in an hour', 3600);
  });

  it('an e-mail change counts on the network like any code', async () => {
    const ip = randomIp();
    const user = await newUser('Net');
    for (let i = 0; i < 2; i++) expect((await send(uniqueEmail('net'), ip)).status).toBe(204);
    const change = await limited('PATCH', '/api/auth/profile', { body: { email: uniqueEmail('moved') }, token: user.token, ip });
    expectTooMany(change, 'Too many codes were requested from your network, please try again in an hour', 3600);
    expect(await owner`select 1 from app.email_changes where user_id = ${user.id} and new_email is not null`).toHaveLength(0);
  });

  it('the per-address limits answer Retry-After too (shared server)', async () => {
    const email = uniqueEmail('again');
    expect((await api('POST', '/api/auth/send-otp', { body: { email } })).status).toBe(204);
    await testMailbox().latestCodeFor(email);
    const again = await api('POST', '/api/auth/send-otp', { body: { email } });
    expectTooMany(again, 'Please wait 30 seconds before asking for another code', 30);
  });
});

describe('new guests: per network and per plan', () => {
  it('per network, across plans', async () => {
    const host = await newUser('Nia');
    const [p1, p2] = [await newPlan(host), await newPlan(host)];
    const ip = randomIp();
    const join = (planId: string, name: string) => limited('POST', '/api/guest-session', { body: { name, planId }, ip });
    expect((await join(p1, 'Ann')).status).toBe(201);
    // A refused join (name taken) counts nothing.
    expect((await join(p1, 'ann')).status).toBe(409);
    expect((await join(p2, 'Bea')).status).toBe(201);
    expectTooMany(await join(p1, 'Cid'), 'Too many people joined from your network, please try again in an hour', 3600);
    expect((await limited('POST', '/api/guest-session', { body: { name: 'Cid', planId: p1 }, ip: randomIp() })).status).toBe(201);
  });

  it('no rate per plan: a big group chat of 60 joins one plan at once, each from their own phone', async () => {
    const host = await newUser('Pia');
    const planId = await newPlan(host);
    const networks = new Set<string>();
    while (networks.size < 60) networks.add(randomIp());
    const joins = await Promise.all(
      [...networks].map((ip, i) => limited('POST', '/api/guest-session', { body: { name: `Friend ${i + 1}`, planId }, ip })),
    );
    expect(joins.map((r) => r.status)).toEqual(joins.map(() => 201));
    const [{ n }] = await owner`select count(*)::int as n from app.guests where plan_id = ${planId}`;
    expect(n).toBe(60);
  });
});

describe('writes per participant per minute', () => {
  let host: User;
  let planId: string;
  beforeAll(async () => {
    host = await newUser('Hoa');
    planId = await newPlan(host);
  });

  it('ideas: the third in a minute is 429; another participant is not affected', async () => {
    const member = await newUser('Mo');
    await addMember(planId, member);
    const post = (body: object, token?: string) => limited('POST', `/api/plans/${planId}/ideas`, { body, token });
    expect((await post({ text: 'Bowling' }, member.token)).status).toBe(201);
    expect((await post({ text: 'Karaoke' }, member.token)).status).toBe(201);
    expectTooMany(await post({ text: 'Pottery' }, member.token), /^Too many ideas in a short time, please try again in (a minute|\d+ seconds)$/, 60);
    const guest = await newGuest(planId);
    expect((await post({ text: 'Picnic', guestId: guest.id })).status).toBe(201);
    const [{ n }] = await owner`select count(*)::int as n from app.ideas where plan_id = ${planId} and user_id = ${member.id}`;
    expect(n).toBe(2);
  });

  it('comments', async () => {
    const guest = await newGuest(planId);
    const [{ id: ideaId }] = await owner`
      insert into app.ideas (plan_id, text, author_name, user_id) values (${planId}, 'Zoo', '-', ${host.id}) returning id`;
    const comment = (text: string) => limited('POST', `/api/ideas/${ideaId}/comments`, { body: { text, guestId: guest.id } });
    expect((await comment('Yes')).status).toBe(201);
    expect((await comment('Saturday?')).status).toBe(201);
    expectTooMany(await comment('Hello?'), /^Too many comments in a short time, please try again in /, 60);
  });

  it('votes: idea votes, date votes (either answer), slot votes and "none of these dates work" count together', async () => {
    const voter = await newUser('Vi');
    await addMember(planId, voter);
    const [{ id: ideaId }] = await owner`
      insert into app.ideas (plan_id, text, author_name, user_id) values (${planId}, 'Museum', '-', ${host.id}) returning id`;
    const date = await day(owner, 3);
    expect((await limited('POST', `/api/ideas/${ideaId}/vote`, { body: {}, token: voter.token })).status).toBe(200);
    const byDate = await limited<{ timeSlotId: string }>('POST', `/api/plans/${planId}/vote-date`, { body: { date }, token: voter.token });
    expect(byDate.status).toBe(200);
    // Someone else keeps the slot alive, so the next toggle is a real one.
    await api('POST', `/api/plans/${planId}/vote-date`, { body: { date }, token: host.token });
    expect((await limited('POST', `/api/timeslots/${byDate.json.timeSlotId}/vote`, { body: {}, token: voter.token })).status).toBe(200);
    const votes = [
      await limited('POST', `/api/ideas/${ideaId}/vote`, { body: {}, token: voter.token }),
      await limited('POST', `/api/plans/${planId}/vote-date`, { body: { date }, token: voter.token }),
      await limited('POST', `/api/timeslots/${byDate.json.timeSlotId}/vote`, { body: { answer: 'ifneedbe' }, token: voter.token }),
      await limited('POST', `/api/plans/${planId}/no-dates`, { body: {}, token: voter.token }),
    ];
    for (const res of votes) expectTooMany(res, /^Too many votes in a short time, please try again in /, 60);
    // Refused votes changed nothing.
    const [{ n }] = await owner`select count(*)::int as n from app.idea_votes where idea_id = ${ideaId} and user_id = ${voter.id}`;
    expect(n).toBe(1);
    expect(await owner`select 1 from app.no_dates where plan_id = ${planId}`).toEqual([]);
  });

  it('votes: a replay of an Idempotency-Key counts like any vote (docs/offline.md "Idempotency keys")', async () => {
    const voter = await newUser('Rey');
    await addMember(planId, voter);
    const [{ id: ideaId }] = await owner`
      insert into app.ideas (plan_id, text, author_name, user_id) values (${planId}, 'Aquarium', '-', ${host.id}) returning id`;
    const vote = () =>
      limited('POST', `/api/ideas/${ideaId}/vote`, { body: {}, token: voter.token, headers: { 'Idempotency-Key': 'replayed-vote-key' } });
    const first = await vote();
    expect(first.status, first.text).toBe(200);
    for (let i = 0; i < 2; i += 1) {
      const again = await vote();
      expect(again.text).toBe(first.text);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    }
    expectTooMany(await vote(), /^Too many votes in a short time, please try again in /, 60);
    const [{ n }] = await owner`select count(*)::int as n from app.idea_votes where idea_id = ${ideaId} and user_id = ${voter.id}`;
    expect(n).toBe(1);
  });
});

describe('new plans per user per day', () => {
  it('the third plan of the day is 429', async () => {
    const user = await newUser('Ola');
    const create = () => limited('POST', '/api/plans', { body: { title: 'Another one' }, token: user.token });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(201);
    expectTooMany(await create(), /^Too many new plans today, please try again in (2[34] hours|an hour|\d+ hours)$/, 86_400);
    const [{ n }] = await owner`select count(*)::int as n from app.plans where host_id = ${user.id}`;
    expect(n).toBe(2);
  });
});

describe('the calendar feed: bodies per feed, unknown links per network', () => {
  const feedPath = async (user: User) => {
    const res = await limited<{ url: string }>('GET', '/api/calendar/feed', { token: user.token });
    expect(res.status, res.text).toBe(200);
    return new URL(res.json.url).pathname;
  };

  it('the third build of one feed in an hour is 429; unchanged polls (304, or the instance\'s copy) count nothing; another feed is not affected', async () => {
    const [member, other] = [await newUser('Fiona'), await newUser('Felix')];
    const planId = await newPlan(member);
    const post = (action: string, body: object) => limited('POST', `/api/plans/${planId}/${action}`, { body, token: member.token });
    expect((await post('lock-date', { date: await day(owner, 3) })).status).toBe(200);
    const path = await feedPath(member);
    const first = await limited('GET', path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    for (let i = 0; i < 3; i++) {
      expect((await limited('GET', path, { headers: { 'if-none-match': etag } })).status).toBe(304);
      // A calendar service that never sends If-None-Match: the same text again, not built again.
      const again = await limited('GET', path);
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
    }
    // The plan changes: the feed is built again (the second time), and again (refused).
    expect((await post('location', { location: 'The park' })).status).toBe(200);
    const second = await limited('GET', path, { headers: { 'if-none-match': etag } });
    expect(second.status).toBe(200);
    expect(second.text).toContain('LOCATION:The park');
    expect((await post('location', { location: 'The beach' })).status).toBe(200);
    expectTooMany(await limited('GET', path), 'This calendar was fetched too often, please try again in an hour', 3600);
    // The other member's feed is its own.
    expect((await limited('GET', await feedPath(other))).status).toBe(200);
  });

  it('the third unknown link from one network is 429; a valid link from that network still works; other networks are not affected', async () => {
    const ip = randomIp();
    const unknown = () => `/api/calendar/feed/${randomUUID().replaceAll('-', '')}${'x'.repeat(11)}.ics`;
    expect((await limited('GET', unknown(), { ip })).status).toBe(404);
    expect((await limited('GET', unknown(), { ip })).status).toBe(404);
    expectTooMany(
      await limited('GET', unknown(), { ip }),
      'Too many calendar links that are not valid were tried from your network, please try again in an hour',
      3600,
    );
    // Calendar services poll for many people from one network: a right link is not refused.
    expect((await limited('GET', await feedPath(await newUser('Vera')), { ip })).status).toBe(200);
    expect((await limited('GET', unknown(), { ip: randomIp() })).status).toBe(404);
    // A malformed link is refused before anything is counted or looked up.
    expect((await limited('GET', '/api/calendar/feed/short.ics', { ip })).status).toBe(404);
  });
});

describe('caps per plan: 409 with a sentence (not about time, so no Retry-After)', () => {
  function expectCap(res: ApiResult, text: string) {
    expect(res.status, res.text).toBe(409);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.text).toBe(text);
  }

  it('ideas, comments per idea, guests, date slots', async () => {
    const host = await newUser('Cap');
    const planId = await newPlan(host);
    const token = host.token;

    await owner`insert into app.ideas (plan_id, text, author_name, user_id)
                select ${planId}, 'Idea ' || n, '-', ${host.id} from generate_series(1, 999) n`;
    expect((await api('POST', `/api/plans/${planId}/ideas`, { body: { text: 'Number 1000' }, token })).status).toBe(201);
    expectCap(await api('POST', `/api/plans/${planId}/ideas`, { body: { text: 'Number 1001' }, token }), 'This plan already has 1000 ideas, the most a plan can have');

    const [{ id: ideaId }] = await owner`select id from app.ideas where plan_id = ${planId} limit 1`;
    await owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
                select ${ideaId}, ${planId}, 'Comment ' || n, '-', ${host.id} from generate_series(1, 500) n`;
    expectCap(
      await api('POST', `/api/ideas/${ideaId}/comments`, { body: { text: 'One more' }, token }),
      'This idea already has 500 comments, the most an idea can have',
    );

    await owner`insert into app.guests (plan_id, name) select ${planId}, 'Guest ' || n from generate_series(1, 200) n`;
    expectCap(
      await api('POST', '/api/guest-session', { body: { name: 'Late', planId } }),
      'This plan already has 200 guests, the most a plan can have',
    );

    await owner`
      with s as (
        insert into app.time_slots (plan_id, date, period)
        select ${planId}, current_date + (n % 366) + 1, case when n < 366 then null else 'Evening' end
          from generate_series(0, 499) n
        returning id
      )
      insert into app.time_slot_votes (time_slot_id, plan_id, user_id) select id, ${planId}, ${host.id} from s`;
    expectCap(
      await api('POST', `/api/plans/${planId}/vote-date`, { body: { date: await day(owner, 2), period: 'Morning' }, token }),
      'This plan already has 500 dates and times to vote on, the most a plan can have; vote for one of them',
    );
  });
});
