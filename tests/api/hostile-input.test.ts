// The hostile-input suite (docs/security-and-limits.md): property-based, 1,200 generated requests
// across every route and field, each hostile in at least one way a server on
// the open internet meets (control characters and NUL, bidi and zero-width
// characters mixed in, over-long text, wrong JSON types, broken JSON, huge
// bodies and numbers, impossible dates and times, malformed ids, forged,
// expired, foreign-key and revoked tokens, missing, forged and foreign guest
// secrets, malformed Idempotency-Keys, malformed calendar feed links). For
// every one: no 5xx, a 4xx whose body is one readable sentence, and
// afterwards the database is exactly as before (every table's rows).
//
// It runs against its own instance of the function on its own database (a
// clone of the migrated template), so the other test files writing at the
// same time cannot disturb the before/after comparison.
import { createECDH, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cloneTemplate } from '../setup/stack.ts';
import { startSecondApi, type ApiOptions, type ApiResult } from '../support/api.ts';
import { buildWorld, isOneSentence, snapshotTables, worldUser, type World } from '../support/world.ts';

let server: { url: string; stop: () => Promise<void> };
let owner: postgres.Sql;
let w: World;
/** Tokens that must open nothing. */
let badTokens: string[];

beforeAll(async () => {
  const dbUrl = await cloneTemplate(inject('adminUrl'), `hostile_${Date.now()}`);
  owner = postgres(dbUrl, { max: 2, onnotice: () => {} });
  server = await startSecondApi({ DATABASE_URL: dbUrl });
  w = await buildWorld(owner, inject('jwtSecret'), server.url);

  const key = (secret: string) => new TextEncoder().encode(secret);
  const now = Math.floor(Date.now() / 1000);
  const jwt = (claims: Record<string, unknown>, secret: string, { sub = w.host.id, exp = now + 3600 } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setIssuer('hangplan')
      .setAudience('hangplan')
      .setIssuedAt(now - 10)
      .setExpirationTime(exp)
      .sign(key(secret));
  // A session that was signed out: its token is well signed but dead.
  const revoked = await worldUser(owner, inject('jwtSecret'), 'Rex');
  await owner`delete from app.sessions where id = ${revoked.sessionId}`;
  badTokens = [
    'not-a-token',
    'a.b.c',
    await jwt({ sid: w.host.sessionId }, 'a-different-secret-that-is-long-enough-0123456789'),
    await jwt({ sid: w.host.sessionId }, inject('jwtSecret'), { exp: now - 60 }),
    await jwt({}, inject('jwtSecret')), // no session id: issued before sessions existed
    await jwt({ sid: crypto.randomUUID() }, inject('jwtSecret')),
    await jwt({ sid: w.host.sessionId }, inject('jwtSecret'), { sub: 'not-a-uuid' }),
    await jwt({ sid: w.member.sessionId }, inject('jwtSecret')), // another user's session
    revoked.token,
  ];
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await owner?.end();
});

// ---------------------------------------------------------------------------
// The hostile requests
// ---------------------------------------------------------------------------

interface Hostile {
  label: string;
  method: string;
  path: string;
  opts: ApiOptions;
  /** The statuses this kind of refusal may have (all 4xx). */
  statuses: number[];
}

const C0 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i));
/** Characters no form sends; in a multi-line field, line breaks are allowed. */
const CONTROLS_ONE_LINE = [...C0, '\u007F', '\u0085', '\u009B', '\u2028', '\u2029'];
const CONTROLS_MULTI_LINE = CONTROLS_ONE_LINE.filter((c) => !['\n', '\r', '\u2028', '\u2029'].includes(c));
/** Mixed in: invisible and direction characters, look-alikes, emoji, a lone surrogate. */
const ODD = ['\u202E', '\u202D', '\u2066', '\u2069', '\u200B', '\u200D', '\uFEFF', '\u00A0', 'e\u0301', 'А', '😀', '\uD800', 'ß', '𝒜'];

const oddText = fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...ODD)), { maxLength: 6 }).map((parts) => parts.join(''));

/** Text with at least one control character (a NUL among them). */
const hostileText = (multiline: boolean) =>
  fc
    .tuple(oddText, fc.constantFrom(...(multiline ? CONTROLS_MULTI_LINE : CONTROLS_ONE_LINE)), oddText)
    .map(([a, control, b]) => `${a}Bowl${control}ing${b}`);

const wrongType = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }), // NaN and Infinity would be sent as null
  fc.constant(1e308),
  fc.constant(-0),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);

const guestHeader = (secret: string) => ({ 'x-guest-secret': secret });

interface TextTarget {
  field: string;
  multiline: boolean;
  max: number;
  /** The request with `value` in the field (everything else valid). */
  build: (value: unknown) => Omit<Hostile, 'label' | 'statuses'>;
}

function textTargets(): TextTarget[] {
  const asGuest = { headers: guestHeader(w.guest.secret) };
  return [
    { field: 'Title', multiline: false, max: 120, build: (title) => ({ method: 'POST', path: '/api/plans', opts: { body: { title }, token: w.host.token } }) },
    {
      field: 'Idea text',
      multiline: true,
      max: 280,
      build: (text) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/ideas`, opts: { body: { text }, token: w.member.token } }),
    },
    {
      field: 'Idea text',
      multiline: true,
      max: 280,
      build: (text) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/ideas`, opts: { body: { text, guestId: w.guest.id }, ...asGuest } }),
    },
    {
      field: 'Comment text',
      multiline: true,
      max: 1000,
      build: (text) => ({ method: 'POST', path: `/api/ideas/${w.ideaA}/comments`, opts: { body: { text, guestId: w.guest.id }, ...asGuest } }),
    },
    { field: 'Name', multiline: false, max: 80, build: (name) => ({ method: 'POST', path: '/api/guest-session', opts: { body: { name, planId: w.planA.id } } }) },
    {
      field: 'Name',
      multiline: false,
      max: 80,
      build: (name) => ({ method: 'POST', path: '/api/guest-session/restore', opts: { body: { name, planId: w.planA.id } } }),
    },
    { field: 'Name', multiline: false, max: 80, build: (name) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/check-guest`, opts: { body: { name } } }) },
    {
      field: 'Location',
      multiline: false,
      max: 500,
      build: (location) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/location`, opts: { body: { location }, token: w.host.token } }),
    },
    { field: 'First name', multiline: false, max: 80, build: (firstName) => ({ method: 'PATCH', path: '/api/auth/profile', opts: { body: { firstName }, token: w.member.token } }) },
    { field: 'Last name', multiline: false, max: 80, build: (lastName) => ({ method: 'PATCH', path: '/api/auth/profile', opts: { body: { lastName }, token: w.member.token } }) },
    {
      field: 'Message',
      multiline: true,
      max: 500,
      build: (message) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/cancel`, opts: { body: { message }, token: w.host.token } }),
    },
    {
      field: 'Interest',
      multiline: false,
      max: 80,
      build: (freeFormText) => ({ method: 'POST', path: '/api/users/me/interests', opts: { body: { freeFormText }, token: w.member.token } }),
    },
  ];
}

/** Fields of other shapes, with values that cannot be right. */
function shapeTargets(): Array<{ name: string; bad: fc.Arbitrary<unknown>; build: TextTarget['build'] }> {
  const badDate = fc.oneof(
    fc.string({ maxLength: 12 }).filter((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s)),
    fc.constantFrom('2026-02-30', '2026-13-01', '2026-00-10', '1999-01-01', '2999-12-31', '0000-01-01', '20261201', '2026-1-1', 'today'),
    wrongType,
  );
  const badTime = fc.oneof(
    fc.string({ maxLength: 8 }).filter((s) => !/^\d{1,2}:\d{2}$/.test(s.trim())),
    fc.constantFrom('24:00', '7:60', '99:99', '-1:00', 'noon', '7:30 PM', '07:30:00'),
    wrongType,
  );
  // No zone name starts with anything but a letter; the rest name no zone there is.
  const badTimeZone = fc.oneof(
    fc.string({ maxLength: 20 }).map((s) => `+${s}`),
    fc.constantFrom('Mars/Olympus_Mons', 'Europe/Atlantis', '', ' ', 'Z'.repeat(65), 'Europe/Berlin\u0000', '../../etc/passwd', '+02:00', 'Europe/Berlin; drop table'),
    wrongType,
  );
  const badEmail = fc.oneof(
    fc.string({ maxLength: 20 }).filter((s) => !/^[^\s@]+@[^\s@]+$/.test(s.trim())),
    fc.constantFrom('a@b@c', '@x.y', 'x@', `${'a'.repeat(260)}@x.y`, 'a\u0000@x.y', 'a b@x.y'),
    wrongType,
  );
  const badCode = fc.oneof(fc.string({ maxLength: 8 }).filter((s) => !/^\d{6}$/.test(s.trim())), fc.constantFrom('12345', '1234567', '12 456', '١٢٣٤٥٦'), wrongType);
  const badId = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('0', '-1', '1e999', '00000000-0000-0000-0000-00000000000g', 'null'), wrongType);
  const badSlug = fc.oneof(
    fc.string({ maxLength: 70 }).filter((s) => !/^[A-Za-z0-9_-]{8,64}$/.test(s)),
    fc.constantFrom('short', 'x'.repeat(65), 'has space 1', '../../etc/passwd', 'slug\u0000slug', '%2e%2e%2f%2e%2e'),
    wrongType,
  );
  const guest = { headers: guestHeader(w.guest.secret) };
  const badAnswer = fc.oneof(fc.string({ maxLength: 12 }).filter((a) => !['going', 'maybe', 'no'].includes(a)), fc.constantFrom('waitlist', 'Going', 'yes', ' going'), wrongType);
  const badDateAnswer = fc.oneof(
    fc.string({ maxLength: 12 }).filter((a) => !['yes', 'ifneedbe'].includes(a)),
    fc.constantFrom('Yes', 'IFNEEDBE', 'if need be', 'no', 'maybe', ' yes', 'yes\u0000'),
    wrongType,
  );
  const badFriends = fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: 11 }), fc.double({ min: 0.1, max: 9.9, noInteger: true }), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant(null));
  return [
    { name: 'vote-date date', bad: badDate, build: (date) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/vote-date`, opts: { body: { date, guestId: w.guest.id }, ...guest } }) },
    { name: 'vote-date period', bad: fc.oneof(fc.constantFrom('Midnight', '25:00', 'morning!', '7:5'), wrongType), build: (period) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/vote-date`, opts: { body: { date: w.date, period, guestId: w.guest.id }, ...guest } }) },
    { name: 'lock-date date', bad: badDate, build: (date) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/lock-date`, opts: { body: { date }, token: w.host.token } }) },
    { name: 'set-event-time time', bad: badTime, build: (time) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/set-event-time`, opts: { body: { time }, token: w.host.token } }) },
    { name: 'set-event-time timeZone', bad: badTimeZone, build: (timeZone) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/set-event-time`, opts: { body: { time: '19:30', timeZone }, token: w.host.token } }) },
    { name: 'send-otp email', bad: badEmail, build: (email) => ({ method: 'POST', path: '/api/auth/send-otp', opts: { body: { email } } }) },
    { name: 'verify-otp code', bad: badCode, build: (code) => ({ method: 'POST', path: '/api/auth/verify-otp', opts: { body: { email: 'nobody@example.com', code } } }) },
    { name: 'confirm-email code', bad: badCode, build: (code) => ({ method: 'POST', path: '/api/auth/confirm-email', opts: { body: { code }, token: w.member.token } }) },
    {
      name: 'undo-email-change token',
      // Well-formed tokens too: none names an undo, so each is refused like junk.
      bad: fc.oneof(fc.string({ maxLength: 60 }), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), wrongType),
      build: (token) => ({ method: 'POST', path: '/api/auth/undo-email-change', opts: { body: { token } } }),
    },
    { name: 'profile email', bad: badEmail, build: (email) => ({ method: 'PATCH', path: '/api/auth/profile', opts: { body: { email }, token: w.member.token } }) },
    { name: 'pick-idea ideaId', bad: badId, build: (ideaId) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/pick-idea`, opts: { body: { ideaId }, token: w.host.token } }) },
    { name: 'guest-session planId', bad: badId, build: (planId) => ({ method: 'POST', path: '/api/guest-session', opts: { body: { name: 'Newcomer', planId } } }) },
    { name: 'transfer guestId', bad: badId, build: (guestId) => ({ method: 'POST', path: '/api/auth/transfer-guest-votes', opts: { body: { guestId }, token: w.stranger.token, ...guest } }) },
    { name: 'join userId', bad: fc.oneof(fc.uuid(), wrongType), build: (userId) => ({ method: 'POST', path: `/api/plans/${w.planB.id}/join`, opts: { body: { userId }, token: w.stranger.token } }) },
    // The join page's link (closed invitations need it): anything not shaped like a slug.
    { name: 'join slug', bad: badSlug, build: (slug) => ({ method: 'POST', path: `/api/plans/${w.planB.id}/join`, opts: { body: { slug }, token: w.stranger.token } }) },
    { name: 'guest-session slug', bad: badSlug, build: (slug) => ({ method: 'POST', path: '/api/guest-session', opts: { body: { name: 'Newcomer', planId: w.planA.id, slug } } }) },
    { name: 'restore slug', bad: badSlug, build: (slug) => ({ method: 'POST', path: '/api/guest-session/restore', opts: { body: { name: 'Gus', planId: w.planA.id, slug } } }) },
    { name: 'create plan isOpenInvite', bad: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), build: (isOpenInvite) => ({ method: 'POST', path: '/api/plans', opts: { body: { title: 'Fine title', isOpenInvite }, token: w.host.token } }) },
    {
      name: 'deadline',
      bad: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('2020-01-01T10:00:00Z', '2027-01-01', '2027-01-01T10:00', '2999-01-01T00:00:00Z', 'now'), wrongType),
      build: (deadline) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/deadline`, opts: { body: { deadline }, token: w.host.token } }),
    },
    {
      name: 'deadline autoLock',
      bad: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)),
      build: (autoLock) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/deadline`, opts: { body: { deadline: null, autoLock }, token: w.host.token } }),
    },
    {
      name: 'push subscription endpoint',
      bad: fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('http://127.0.0.1:1/push/x', 'https://evil.example/push', 'file:///etc/passwd', `https://fcm.googleapis.com/${'x'.repeat(2100)}`),
        wrongType,
      ),
      build: (endpoint) => ({ method: 'POST', path: '/api/push/subscriptions', opts: { body: { subscription: { endpoint, keys: pushKeys() } }, token: w.member.token } }),
    },
    {
      name: 'push subscription keys',
      bad: fc.oneof(
        fc.record({ p256dh: fc.string({ maxLength: 90 }), auth: fc.string({ maxLength: 24 }) }),
        fc.constant({ p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'), auth: pushKeys().auth }),
        wrongType,
      ),
      build: (keys) => ({ method: 'POST', path: '/api/push/subscriptions', opts: { body: { subscription: { endpoint: pushEndpoint(), keys } }, token: w.member.token } }),
    },
    // Co-hosts (docs/api-after-the-date.md "Co-hosts"): the participant is named by its id.
    { name: 'cohosts participantId', bad: badId, build: (participantId) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/cohosts`, opts: { body: { participantId }, token: w.host.token } }) },
    { name: 'interest catalogId', bad: fc.oneof(fc.string({ maxLength: 10 }), fc.uuid(), wrongType), build: (catalogId) => ({ method: 'POST', path: '/api/users/me/interests', opts: { body: { catalogId }, token: w.member.token } }) },
    // Who's coming (docs/api-after-the-date.md "Who's coming").
    { name: 'rsvp answer', bad: badAnswer, build: (answer) => ({ method: 'PUT', path: `/api/plans/${w.planA.id}/rsvp`, opts: { body: { answer, guestId: w.guest.id }, ...guest } }) },
    { name: 'rsvp plusOnes', bad: badFriends, build: (plusOnes) => ({ method: 'PUT', path: `/api/plans/${w.planA.id}/rsvp`, opts: { body: { answer: 'going', plusOnes }, token: w.member.token } }) },
    { name: 'rsvp for answer', bad: badAnswer, build: (answer) => ({ method: 'PUT', path: `/api/plans/${w.planA.id}/rsvps/${w.guestParticipantId}`, opts: { body: { answer }, token: w.host.token } }) },
    {
      name: 'capacity',
      bad: fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 1001 }), fc.double({ min: 1.1, max: 999.9, noInteger: true }), fc.string({ maxLength: 5 }), fc.boolean(), fc.constantFrom(Number.MAX_VALUE, -0.5)),
      build: (capacity) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/capacity`, opts: { body: { capacity }, token: w.host.token } }),
    },
    { name: 'capacity maxPlusOnes', bad: badFriends, build: (maxPlusOnes) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/capacity`, opts: { body: { capacity: 8, maxPlusOnes }, token: w.host.token } }) },
    // Answers on dates (docs/decisions/0108-answers-on-dates.md): "yes" or "ifneedbe", nothing else.
    { name: 'vote-date answer', bad: badDateAnswer, build: (answer) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/vote-date`, opts: { body: { date: w.date, answer, guestId: w.guest.id }, ...guest } }) },
    { name: 'timeslot vote answer', bad: badDateAnswer, build: (answer) => ({ method: 'POST', path: `/api/timeslots/${w.slotA}/vote`, opts: { body: { answer }, token: w.member.token } }) },
    { name: 'no-dates guestId', bad: badId, build: (guestId) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/no-dates`, opts: { body: { guestId }, ...guest } }) },
    // Link previews (docs/api.md "Link previews").
    {
      name: 'preview-details previewDetails',
      bad: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null), fc.constant(undefined)),
      build: (previewDetails) => ({ method: 'POST', path: `/api/plans/${w.planA.id}/preview-details`, opts: { body: { previewDetails }, token: w.host.token } }),
    },
  ];
}

/** Paths that name something by id, with the id replaced by junk. */
function idPaths(junk: string): Array<[string, string, ApiOptions]> {
  const id = encodeURIComponent(junk);
  const guest = { headers: guestHeader(w.guest.secret) };
  return [
    ['GET', `/api/plans/${id}`, {}],
    ['GET', `/api/plans/slug/${id}`, {}],
    ['GET', `/api/plans/${id}/ideas`, {}],
    ['GET', `/api/plans/${id}/events`, {}],
    ['POST', `/api/plans/${id}/ideas`, { body: { text: 'Fine idea' }, token: w.member.token }],
    ['POST', `/api/plans/${id}/vote-date`, { body: { date: w.date, guestId: w.guest.id }, ...guest }],
    ['POST', `/api/plans/${id}/lock-date`, { body: { date: w.date }, token: w.host.token }],
    ['POST', `/api/plans/${id}/join`, { body: {}, token: w.stranger.token }],
    ['DELETE', `/api/plans/${id}`, { token: w.host.token }],
    ['DELETE', `/api/plans/${id}/leave`, { token: w.member.token }],
    ['POST', `/api/ideas/${id}/vote`, { body: { guestId: w.guest.id }, ...guest }],
    ['POST', `/api/ideas/${id}/comments`, { body: { text: 'Fine comment' }, token: w.member.token }],
    ['GET', `/api/ideas/${id}/voters`, {}],
    ['POST', `/api/timeslots/${id}/vote`, { body: {}, token: w.member.token }],
    ['GET', `/api/guest-session/${id}`, guest],
    ['DELETE', `/api/guest-session/${id}/other-devices`, guest],
    ['DELETE', `/api/users/me/interests/${id}`, { token: w.member.token }],
    ['DELETE', `/api/plans/${w.planA.id}/participants/${id}`, { token: w.host.token }],
    ['DELETE', `/api/plans/${id}/participants/${w.guestParticipantId}`, { token: w.host.token }],
    ['GET', `/api/plans/${id}/removals`, { token: w.host.token }],
    ['DELETE', `/api/plans/${w.planA.id}/removals/${id}`, { token: w.host.token }],
    ['DELETE', `/api/plans/${id}/removals/${w.guestParticipantId}`, { token: w.host.token }],
    ['DELETE', `/api/ideas/${id}`, { token: w.host.token }],
    ['DELETE', `/api/ideas/${w.ideaA}/comments/${id}`, { token: w.host.token }],
    ['DELETE', `/api/ideas/${id}/comments/${w.commentA}`, { token: w.host.token }],
    ['POST', `/api/plans/${id}/remind`, { token: w.host.token }],
    ['POST', `/api/plans/${id}/deadline`, { body: { deadline: null }, token: w.host.token }],
    ['POST', `/api/plans/${id}/rotate-link`, { token: w.host.token }],
    ['POST', `/api/plans/${id}/cohosts`, { body: { participantId: w.memberParticipantId }, token: w.host.token }],
    ['DELETE', `/api/plans/${w.planA.id}/cohosts/${id}`, { token: w.host.token }],
    ['DELETE', `/api/plans/${id}/cohosts/${w.cohostParticipantId}`, { token: w.host.token }],
    ['POST', `/api/plans/${id}/cancel`, { body: {}, token: w.host.token }],
    ['GET', `/api/unsubscribe/${id}`, {}],
    ['POST', `/api/unsubscribe/${id}`, { rawBody: 'List-Unsubscribe=One-Click' }],
    ['DELETE', `/api/unsubscribe/${id}`, {}],
    ['GET', `/api/calendar/feed/${id}.ics`, {}],
    ['GET', `/api/calendar/feed/${id}`, {}],
    ['PUT', `/api/plans/${id}/rsvp`, { body: { answer: 'going', guestId: w.guest.id }, ...guest }],
    ['GET', `/api/plans/${id}/rsvps`, {}],
    ['PUT', `/api/plans/${id}/rsvps/${w.guestParticipantId}`, { body: { answer: 'maybe' }, token: w.host.token }],
    ['PUT', `/api/plans/${w.planA.id}/rsvps/${id}`, { body: { answer: 'maybe' }, token: w.host.token }],
    ['POST', `/api/plans/${id}/capacity`, { body: { capacity: 5 }, token: w.host.token }],
    ['GET', `/api/plans/slug/${id}/preview`, {}],
    ['GET', `/api/plans/slug/${id}/preview.png`, {}],
    ['POST', `/api/plans/${id}/preview-details`, { body: { previewDetails: false }, token: w.host.token }],
    ['POST', `/api/plans/${id}/no-dates`, { body: { guestId: w.guest.id }, ...guest }],
  ];
}

/** Routes that take a token, each with an otherwise valid request: a bad token must stop it. */
function tokenRoutes(): Array<[string, string, ApiOptions]> {
  return [
    ['GET', '/api/auth/me', {}],
    ['PATCH', '/api/auth/profile', { body: { firstName: 'Changed' } }],
    ['POST', '/api/auth/sign-out', {}],
    ['POST', '/api/auth/sign-out-everywhere', {}],
    ['DELETE', '/api/auth/account', {}],
    ['GET', '/api/plans', {}],
    ['GET', '/api/plans/events', {}],
    ['POST', '/api/plans', { body: { title: 'Stolen plan' } }],
    ['GET', `/api/plans/${w.planA.id}`, {}],
    ['POST', `/api/plans/${w.planA.id}/ideas`, { body: { text: 'Stolen idea' } }],
    ['POST', `/api/ideas/${w.ideaA}/vote`, { body: {} }],
    ['POST', `/api/ideas/${w.ideaA}/comments`, { body: { text: 'Stolen comment' } }],
    ['POST', `/api/plans/${w.planA.id}/vote-date`, { body: { date: w.date } }],
    ['POST', `/api/timeslots/${w.slotA}/vote`, { body: {} }],
    ['POST', `/api/plans/${w.planA.id}/pick-idea`, { body: { ideaId: w.ideaA } }],
    ['POST', `/api/plans/${w.planA.id}/lock-date`, { body: { date: w.date } }],
    ['POST', `/api/plans/${w.planA.id}/location`, { body: { location: 'Stolen' } }],
    ['POST', `/api/plans/${w.planA.id}/unlock`, { body: {} }],
    ['POST', `/api/plans/${w.planA.id}/join`, { body: {} }],
    ['DELETE', `/api/plans/${w.planA.id}`, {}],
    ['DELETE', `/api/plans/${w.planA.id}/leave`, {}],
    ['DELETE', `/api/plans/${w.planA.id}/participants/${w.guestParticipantId}`, {}],
    ['GET', `/api/plans/${w.planA.id}/removals`, {}],
    ['DELETE', `/api/plans/${w.planA.id}/removals/${w.guestParticipantId}`, {}],
    ['DELETE', `/api/ideas/${w.ideaA}`, {}],
    ['DELETE', `/api/ideas/${w.ideaA}/comments/${w.commentA}`, {}],
    ['POST', '/api/auth/transfer-guest-votes', { body: { guestId: w.guest.id }, headers: guestHeader(w.guest.secret) }],
    ['POST', '/api/users/me/interests', { body: { freeFormText: 'Stolen interest' } }],
    ['POST', `/api/plans/${w.planA.id}/remind`, {}],
    ['POST', `/api/plans/${w.planA.id}/deadline`, { body: { deadline: null } }],
    ['POST', `/api/plans/${w.planA.id}/rotate-link`, {}],
    ['POST', `/api/plans/${w.planA.id}/cohosts`, { body: { participantId: w.memberParticipantId } }],
    ['DELETE', `/api/plans/${w.planA.id}/cohosts/${w.cohostParticipantId}`, {}],
    ['POST', `/api/plans/${w.planA.id}/cancel`, { body: {} }],
    ['POST', '/api/push/subscriptions', { body: { subscription: { endpoint: pushEndpoint(), keys: pushKeys() } } }],
    ['DELETE', '/api/push/subscriptions', { body: { endpoint: pushEndpoint() } }],
    ['GET', '/api/calendar/feed', {}],
    ['POST', '/api/calendar/feed/rotate', {}],
    ['PUT', `/api/plans/${w.planA.id}/rsvp`, { body: { answer: 'going' } }],
    ['PUT', `/api/plans/${w.planA.id}/rsvps/${w.guestParticipantId}`, { body: { answer: 'going' } }],
    ['POST', `/api/plans/${w.planA.id}/capacity`, { body: { capacity: 5 } }],
    ['POST', `/api/plans/${w.planA.id}/preview-details`, { body: { previewDetails: false } }],
    ['POST', `/api/plans/${w.planA.id}/no-dates`, { body: {} }],
  ];
}

/** Every guest write, with a missing, forged or foreign secret (or another guest's id). */
function guestWrites(guestId: string): Array<[string, string, ApiOptions]> {
  return [
    ['POST', `/api/plans/${w.planA.id}/ideas`, { body: { text: 'Impostor idea', guestId } }],
    ['POST', `/api/ideas/${w.ideaA}/comments`, { body: { text: 'Impostor comment', guestId } }],
    ['POST', `/api/ideas/${w.ideaA}/vote`, { body: { guestId } }],
    ['POST', `/api/plans/${w.planA.id}/vote-date`, { body: { date: w.date, guestId } }],
    ['POST', `/api/timeslots/${w.slotA}/vote`, { body: { guestId } }],
    ['POST', `/api/plans/${w.planA.id}/join`, { body: { guestId } }],
    ['DELETE', `/api/plans/${w.planA.id}/leave?guestId=${guestId}`, {}],
    ['DELETE', `/api/ideas/${w.ideaA}?guestId=${guestId}`, {}],
    ['DELETE', `/api/ideas/${w.ideaA}/comments/${w.commentA}`, { body: { guestId } }],
    ['POST', '/api/auth/transfer-guest-votes', { body: { guestId }, token: w.stranger.token }],
    ['GET', `/api/guest-session/${guestId}`, {}],
    ['DELETE', `/api/guest-session/${guestId}/other-devices`, {}],
    ['POST', '/api/push/subscriptions', { body: { subscription: { endpoint: pushEndpoint(), keys: pushKeys() }, guestId } }],
    ['PUT', `/api/plans/${w.planA.id}/rsvp`, { body: { answer: 'going', guestId } }],
    ['POST', `/api/plans/${w.planA.id}/no-dates`, { body: { guestId } }],
  ];
}

/** Every route that honours an Idempotency-Key, with an otherwise valid request (docs/offline.md "Idempotency keys"). */
function idempotentRoutes(): Array<[string, string, ApiOptions]> {
  const guest = { headers: guestHeader(w.guest.secret) };
  return [
    ['POST', `/api/ideas/${w.ideaA}/vote`, { body: { guestId: w.guest.id }, ...guest }],
    ['POST', `/api/ideas/${w.ideaA}/vote`, { body: {}, token: w.member.token }],
    ['POST', `/api/plans/${w.planA.id}/vote-date`, { body: { date: w.date, guestId: w.guest.id }, ...guest }],
    ['POST', `/api/timeslots/${w.slotA}/vote`, { body: {}, token: w.member.token }],
    ['POST', `/api/ideas/${w.ideaA}/comments`, { body: { text: 'Fine comment' }, token: w.member.token }],
    ['PUT', `/api/plans/${w.planA.id}/rsvp`, { body: { answer: 'going', guestId: w.guest.id }, ...guest }],
    ['PUT', `/api/plans/${w.planA.id}/rsvps/${w.guestParticipantId}`, { body: { answer: 'maybe' }, token: w.host.token }],
    ['POST', `/api/plans/${w.planA.id}/no-dates`, { body: { guestId: w.guest.id }, ...guest }],
  ];
}

/** Header values that are not keys: empty, too short, too long, other characters (never trimmed away: inside the value). */
const KEY_CHARS = [...'ABCXYZabcxyz0189_-'];
const keyPart = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: min, maxLength: max });
const badIdempotencyKey = fc.oneof(
  fc.constantFrom('', 'short', '1234567', 'x'.repeat(101), 'has space', 'semi;colon-key', 'dots.are.not.ok', '{"json":true}', '../../etc/passwd', 'a,b,c,d,e,f,g,h', 'null'),
  keyPart(0, 7),
  keyPart(101, 300),
  fc
    .tuple(keyPart(4, 40), fc.constantFrom(' ', '\t', '.', '/', '+', '=', ':', '@', '%', '"', '\\', '*', '\u00e9', '\u00ff'), keyPart(4, 40))
    .map(([a, bad, b]) => `${a}${bad}${b}`),
);

/** A push endpoint the server may send to (the stand-in's), never subscribed by these requests. */
const pushEndpoint = () => `${inject('pushServiceOrigin')}/push/hostile-${crypto.randomUUID()}`;

/** Well-formed subscription keys: a P-256 public key and a 16-byte secret. */
function pushKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

const POSTS = () => [
  '/api/auth/send-otp',
  '/api/auth/verify-otp',
  '/api/auth/undo-email-change',
  '/api/plans',
  '/api/guest-session',
  '/api/guest-session/restore',
  `/api/plans/${w.planA.id}/check-guest`,
  `/api/plans/${w.planA.id}/ideas`,
  `/api/ideas/${w.ideaA}/comments`,
  `/api/plans/${w.planA.id}/lock-date`,
  '/api/users/me/interests',
];

function hostileRequests(): fc.Arbitrary<Hostile> {
  const texts = textTargets();
  const shapes = shapeTargets();
  const withLabel = (label: string, statuses: number[]) => (r: Omit<Hostile, 'label' | 'statuses'>): Hostile => ({ ...r, label, statuses });

  const controlText = fc
    .tuple(fc.constantFrom(...texts), fc.boolean())
    .chain(([t]) => hostileText(t.multiline).map((v) => withLabel(`${t.field}: control character`, [400])(t.build(v))));
  const overLong = fc
    .tuple(fc.constantFrom(...texts), fc.integer({ min: 1, max: 2000 }), fc.constantFrom('x', 'é', '😀', ' a'))
    .map(([t, extra, unit]) => withLabel(`${t.field}: too long`, [400, 413])(t.build(unit.repeat(Math.ceil((t.max + extra) / unit.length)))));
  const wrongTypes = fc
    .tuple(fc.constantFrom(...texts), wrongType)
    .map(([t, v]) => withLabel(`${t.field}: wrong type ${JSON.stringify(v)?.slice(0, 20)}`, [400])(t.build(v)));
  const badShapes = fc
    .constantFrom(...shapes)
    .chain((s) => s.bad.map((v) => withLabel(`${s.name}: ${JSON.stringify(v)?.slice(0, 30)}`, [400, 403, 404])(s.build(v))));
  const junkIds = fc
    .tuple(fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('..', '%00', '0x1', '1e309', ' ', 'ü', '\u202E')), fc.nat(63))
    .map(([junk, i]) => {
      const paths = idPaths(junk);
      const [method, path, opts] = paths[i % paths.length];
      return { label: `${method} ${path.replace(encodeURIComponent(junk), '{junk}')}`, method, path, opts, statuses: [400, 401, 403, 404, 405] };
    });
  const forgedTokens = fc
    .tuple(fc.nat(), fc.nat(), fc.constantFrom('Bearer ', 'bearer ', 'Basic ', ''))
    .map(([t, r, scheme]) => {
      const routes = tokenRoutes();
      const [method, path, opts] = routes[r % routes.length];
      const token = badTokens[t % badTokens.length];
      return { label: `${method} ${path} with a bad token`, method, path, opts: { ...opts, headers: { ...opts.headers, authorization: `${scheme}${token}` } }, statuses: [401] };
    });
  const badSecrets = fc
    .tuple(fc.nat(), fc.constantFrom('missing', 'forged', 'foreign', 'other guest id'))
    .map(([r, how]) => {
      const guestId = how === 'other guest id' ? w.otherGuest.id : w.guest.id;
      // Another plan's guest with ITS OWN secret may read itself, sign out its
      // other devices, move its votes to an account and turn notifications on
      // for its own device: not hostile, left out.
      const routes = guestWrites(guestId).filter(
        ([, path]) =>
          how !== 'other guest id' || !(path.includes('transfer-guest-votes') || path.includes('/guest-session/') || path.startsWith('/api/push/')),
      );
      const [method, path, opts] = routes[r % routes.length];
      const secret = how === 'forged' ? 'x'.repeat(43) : how === 'missing' ? undefined : w.otherGuest.secret;
      return {
        label: `${method} ${path} as a guest, secret ${how}`,
        method,
        path,
        opts: { ...opts, headers: secret ? guestHeader(secret) : {} },
        statuses: [401, 403, 404],
      };
    });
  const brokenJson = fc
    .tuple(
      fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('{', '[1,2]', 'null', '"text"', '123', '{"title":', '\u0000', 'true')),
      fc.nat(),
    )
    .filter(([raw]) => {
      try {
        const value = JSON.parse(raw);
        return typeof value !== 'object' || value === null || Array.isArray(value);
      } catch {
        return true;
      }
    })
    .map(([raw, r]) => {
      const paths = POSTS();
      const path = paths[r % paths.length];
      return { label: `POST ${path} with body ${JSON.stringify(raw)}`, method: 'POST', path, opts: { rawBody: raw, token: w.host.token }, statuses: [400] };
    });
  const hugeBody = fc.nat().map((r) => {
    const paths = POSTS();
    const path = paths[r % paths.length];
    return { label: `POST ${path} with 20 KB`, method: 'POST', path, opts: { body: { title: 'x'.repeat(20_000), text: 'y' }, token: w.host.token }, statuses: [413] };
  });
  const badKeys = fc.tuple(badIdempotencyKey, fc.nat()).map(([key, r]) => {
    const routes = idempotentRoutes();
    const [method, path, opts] = routes[r % routes.length];
    return {
      label: `Idempotency-Key: ${method} ${path} with ${JSON.stringify(key)}`,
      method,
      path,
      opts: { ...opts, headers: { ...opts.headers, 'Idempotency-Key': key } },
      statuses: [400],
    };
  });
  return fc.oneof(controlText, overLong, wrongTypes, badShapes, junkIds, forgedTokens, badSecrets, brokenJson, hugeBody, badKeys);
}

// ---------------------------------------------------------------------------

describe('1,200 hostile requests across every route and field', () => {
  it('answer 4xx with one readable sentence, never 5xx, and change nothing', async () => {
    const before = await snapshotTables(owner);
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(hostileRequests(), async (request) => {
        const res: ApiResult = await w.call(request.method, request.path, request.opts);
        const kind = request.label.split(':')[0];
        seen.set(kind, (seen.get(kind) ?? 0) + 1);
        expect(res.status, `${request.label} → ${res.status} ${res.text}`).toBeLessThan(500);
        expect(request.statuses, `${request.label} → ${res.status} ${res.text}`).toContain(res.status);
        expect(isOneSentence(res), `${request.label} → ${JSON.stringify(res.text)}`).toBe(true);
      }),
      { numRuns: 1200, seed: Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31), endOnFailure: true },
    );
    expect(await snapshotTables(owner)).toEqual(before);
    // Every kind of hostility was tried.
    expect(seen.size).toBeGreaterThan(20);
    expect(seen.get('Idempotency-Key'), 'malformed Idempotency-Keys were tried').toBeGreaterThan(0);
  }, 240_000);
});
