// /api/plans over HTTP: create, read by id and slug, participants, my plans
// (spec §4 order), delete and leave. The server and its database are shared
// by all test files, so every user and plan here is fresh. Users are made as
// the owner with a token signed by the server's secret (the e-mail sign-in is
// covered by tests/api/auth-*.test.ts; one test below uses it end to end).
// Locks, ideas, slots, guests and votes are arranged as the owner, since their
// endpoints are written elsewhere.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { GUEST_SECRET_MISSING, GUEST_SECRET_WRONG } from '../../supabase/functions/_shared/contract/guest-secret.ts';
import { type Plan, planSchema, type PlanSummary, planSummaryListSchema } from '../../supabase/functions/_shared/contract/plans.ts';
import { api, apiDatabaseAsOwner, expectText, PLAN_KEYS, rememberGuestSecret, signIn } from '../support/api.ts';
import { tokenFor } from '../support/api-world.ts';

const owner = apiDatabaseAsOwner();
const createdUsers: string[] = [];

afterAll(async () => {
  // Plans first (host_id is ON DELETE RESTRICT), then the users.
  await owner`delete from app.plans where host_id in ${owner(createdUsers)}`;
  await owner`delete from app.users where id in ${owner(createdUsers)}`;
  await owner.end();
});

// ---------------------------------------------------------------------------
// Arranging
// ---------------------------------------------------------------------------

interface User {
  id: string;
  token: string;
}

async function newUser(firstName: string | null = 'Pat', lastName: string | null = null): Promise<User> {
  const email = `plans-${randomUUID().slice(0, 12)}@example.com`;
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.users (email, first_name, last_name) values (${email}, ${firstName}, ${lastName}) returning id`;
  createdUsers.push(id);
  return { id, token: await tokenFor(id) };
}

/** A plan through the API (so the host's row is exactly what POST makes). */
async function createPlan(host: User, title = 'Friday hangout', isOpenInvite?: boolean): Promise<PlanJson> {
  const res = await api<PlanJson>('POST', '/api/plans', { token: host.token, body: { title, isOpenInvite } });
  if (res.status !== 201) throw new Error(`POST /api/plans answered ${res.status}: ${res.text}`);
  return res.json;
}

/**
 * Increasing join times after every row made so far (a host's row is stamped
 * now() by POST /api/plans): rows inserted as the owner may set joined_at.
 */
let clock = Date.now() + 60_000;
const nextJoin = () => new Date((clock += 1_000));

async function addMember(planId: string, user: User, joinedAt = nextJoin()): Promise<string> {
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.participants (plan_id, user_id, name, joined_at)
    values (${planId}, ${user.id}, '-', ${joinedAt}) returning id`;
  return id;
}

async function addGuest(planId: string, name: string, joinedAt = nextJoin()): Promise<{ guestId: string; participantId: string }> {
  const [{ id: guestId }] = await owner<{ id: string }[]>`
    insert into app.guests (plan_id, name) values (${planId}, ${name}) returning id`;
  const [{ id: participantId }] = await owner<{ id: string }[]>`
    insert into app.participants (plan_id, guest_id, name, joined_at)
    values (${planId}, ${guestId}, '-', ${joinedAt}) returning id`;
  // This process is the guest's device (tests/support/api.ts): it holds the secret.
  // Shaped like the API's secrets (43 base64url characters), as the API checks.
  const secret = createHash('sha256').update(`plans-test-secret-${guestId}`).digest('base64url');
  await owner`insert into app.guest_credentials (guest_id, secret_hash, kind)
              values (${guestId}, ${createHash('sha256').update(secret).digest('hex')}, 'joined')`;
  rememberGuestSecret(guestId, secret);
  return { guestId, participantId };
}

async function addIdea(planId: string, authorId: string, text: string): Promise<string> {
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.ideas (plan_id, text, author_name, user_id) values (${planId}, ${text}, '-', ${authorId}) returning id`;
  return id;
}

async function pickIdea(planId: string, ideaId: string) {
  await owner`update app.plans set locked_idea_id = ${ideaId} where id = ${planId}`;
}

async function lockDate(planId: string, date: string) {
  await owner`update app.plans set locked_time_slot_date = ${date}::date, status = 'time_range_locked' where id = ${planId}`;
}

/** Date locked and the event time set: a locked slot, status completed. */
async function completeAt(planId: string, date: string, period: string, eventTime: string): Promise<string> {
  const [{ id }] = await owner<{ id: string }[]>`
    insert into app.time_slots (plan_id, date, period) values (${planId}, ${date}::date, ${period}) returning id`;
  await owner`
    update app.plans
       set locked_time_slot_date = ${date}::date, locked_time_slot_id = ${id},
           event_time = ${eventTime}, time_zone = 'Europe/Paris', status = 'completed'
     where id = ${planId}`;
  return id;
}

const planExists = async (planId: string) =>
  (await owner`select 1 from app.plans where id = ${planId}`).length === 1;

// ---------------------------------------------------------------------------
// Response shapes
// ---------------------------------------------------------------------------

type PlanJson = Plan;
type ListItem = PlanSummary;

// ---------------------------------------------------------------------------

describe('POST /api/plans', () => {
  it('creates the plan with the creator as host and first participant (real sign-in)', async () => {
    const { token } = await signIn();
    const me = (await api('GET', '/api/auth/me', { token })).json as { id: string };
    createdUsers.push(me.id);

    const res = await api<PlanJson>('POST', '/api/plans', { token, body: { title: '  Board games night  ' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.json).sort()).toEqual(PLAN_KEYS);
    // The shape the web app parses (the contract), and nothing beside it.
    expect(planSchema.parse(res.json)).toEqual(res.json);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
      title: 'Board games night',
      description: null,
      isOpenInvite: true,
      status: 'planning',
      hostId: me.id,
      location: null,
      eventTime: null,
      timeZone: null,
      lockedIdeaId: null,
      lockedIdeaText: null,
      lockedTimeSlotId: null,
      lockedTimeSlot: null,
      lockedTimeSlotDate: null,
      participantCount: 1,
      deadline: null,
      autoLock: false,
      remindedAt: null,
      calendarSequence: 0,
      capacity: null,
      maxPlusOnes: 2,
      answers: null,
      cancelMessage: null,
      cancelledAt: null,
      previewDetails: true,
    });

    const [plan] = await owner`select title, host_id, slug from app.plans where id = ${res.json.id}`;
    expect(plan).toEqual({ title: 'Board games night', host_id: me.id, slug: res.json.slug });
    const participants = await owner`select user_id, guest_id from app.participants where plan_id = ${res.json.id}`;
    expect(participants).toEqual([{ user_id: me.id, guest_id: null }]);
  });

  it('keeps isOpenInvite false when asked', async () => {
    const host = await newUser();
    const plan = await createPlan(host, 'Closed circle', false);
    expect(plan.isOpenInvite).toBe(false);
    const [row] = await owner`select is_open_invite from app.plans where id = ${plan.id}`;
    expect(row.is_open_invite).toBe(false);
  });

  it('gives every plan its own random slug', async () => {
    const host = await newUser();
    const slugs = await Promise.all([1, 2, 3, 4, 5].map(async (n) => (await createPlan(host, `Plan ${n}`)).slug));
    expect(new Set(slugs).size).toBe(5);
  });

  it('accepts 120 characters and refuses 121 (after trimming)', async () => {
    const host = await newUser();
    const ok = await api<PlanJson>('POST', '/api/plans', { token: host.token, body: { title: ` ${'x'.repeat(120)} ` } });
    expect(ok.status).toBe(201);
    expect(ok.json.title).toBe('x'.repeat(120));
    expectText(
      await api('POST', '/api/plans', { token: host.token, body: { title: 'x'.repeat(121) } }),
      400,
      'Title must be at most 120 characters',
    );
  });

  it.each([
    [{}, 'Title is required'],
    [{ title: '' }, 'Title is required'],
    [{ title: '   ' }, 'Title is required'],
    [{ title: null }, 'Title must be text'],
    [{ title: 42 }, 'Title must be text'],
    [{ title: 'Picnic', isOpenInvite: 'yes' }, 'isOpenInvite must be true or false'],
    [[{ title: 'Picnic' }], 'Request body must be a JSON object'],
  ])('answers 400 to %j: %s', async (body, message) => {
    const host = await newUser();
    expectText(await api('POST', '/api/plans', { token: host.token, body }), 400, message);
    expect(await owner`select 1 from app.plans where host_id = ${host.id}`).toHaveLength(0);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const host = await newUser();
    expectText(
      await api('POST', '/api/plans', { token: host.token, rawBody: '{title:', headers: { 'content-type': 'application/json' } }),
      400,
      'Request body must be valid JSON',
    );
  });

  it('needs a signed-in user', async () => {
    expectText(await api('POST', '/api/plans', { body: { title: 'Picnic' } }), 401, 'Not signed in');
    expectText(
      await api('POST', '/api/plans', { body: { title: 'Picnic' }, token: 'not-a-token' }),
      401,
      'Your session has expired, please sign in again',
    );
  });

  it('answers 401 (not 500) to a valid token whose account no longer exists', async () => {
    const token = await tokenFor(randomUUID());
    expectText(
      await api('POST', '/api/plans', { token, body: { title: 'Ghost plan' } }),
      401,
      'Your session has expired, please sign in again',
    );
  });
});

describe('GET /api/plans/{id} and /api/plans/slug/{slug}', () => {
  it('anyone holding the id or the slug reads the same plan JSON, counting guests too', async () => {
    const host = await newUser('Hal', 'Host');
    const plan = await createPlan(host, 'Dinner');
    await addMember(plan.id, await newUser('Mo'));
    await addGuest(plan.id, 'Gwen');

    const byId = await api<PlanJson>('GET', `/api/plans/${plan.id}`);
    expect(byId.status).toBe(200);
    expect(byId.json).toEqual({ ...plan, participantCount: 3 });

    // Signed out, holding only the slug: the count must still include everyone.
    const bySlug = await api<PlanJson>('GET', `/api/plans/slug/${plan.slug}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.json).toEqual(byId.json);

    // A signed-in stranger with the link reads it as well.
    const stranger = await newUser();
    expect((await api('GET', `/api/plans/${plan.id}`, { token: stranger.token })).json).toEqual(byId.json);
    expect((await api('GET', `/api/plans/slug/${plan.slug}`, { token: stranger.token })).json).toEqual(byId.json);
  });

  it('carries the locked state exactly; lockedTimeSlotDate is the stored calendar date', async () => {
    const host = await newUser();
    const plan = await createPlan(host, 'New year', false);
    const ideaId = await addIdea(plan.id, host.id, 'Fireworks');
    await pickIdea(plan.id, ideaId);
    const slotId = await completeAt(plan.id, '2026-12-31', '23:30', '11:30 PM');
    await owner`update app.plans set location = 'Rooftop', description = 'Bring snacks' where id = ${plan.id}`;

    for (const path of [`/api/plans/${plan.id}`, `/api/plans/slug/${plan.slug}`]) {
      const res = await api<PlanJson>('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.json).toEqual({
        ...plan,
        // Closed invitations: the link only to the host, or to whoever read by it (docs/decisions/0086).
        slug: path.includes('/slug/') ? plan.slug : null,
        description: 'Bring snacks',
        isOpenInvite: false,
        status: 'completed',
        hostId: host.id,
        location: 'Rooftop',
        eventTime: '11:30 PM',
        timeZone: 'Europe/Paris',
        lockedIdeaId: ideaId,
        lockedIdeaText: 'Fireworks',
        lockedTimeSlotId: slotId,
        lockedTimeSlot: { id: slotId, date: '2026-12-31', period: '23:30' },
        lockedTimeSlotDate: '2026-12-31',
        participantCount: 1,
        // The idea, the date and time, and the place: each raised the event's revision.
        calendarSequence: 3,
        // A date is locked: answers are open, nobody has answered yet.
        answers: { going: 0, maybe: 0, headcount: 0 },
      });
    }
  });

  it('answers 404 "Plan not found" to unknown and malformed ids and slugs', async () => {
    for (const path of [
      `/api/plans/${randomUUID()}`,
      '/api/plans/not-a-uuid',
      `/api/plans/${randomUUID()}x`,
      '/api/plans/slug/NoSuchSlug123',
      '/api/plans/slug/short',
      '/api/plans/slug/has%20a%20space',
      `/api/plans/slug/${'a'.repeat(65)}`,
      `/api/plans/${randomUUID()}/participants`,
      '/api/plans/0/participants',
    ]) {
      expectText(await api('GET', path), 404, 'Plan not found');
    }
  });

  it('does not accept a slug where an id belongs, nor an id where a slug belongs', async () => {
    const host = await newUser();
    const plan = await createPlan(host);
    expectText(await api('GET', `/api/plans/${plan.slug}`), 404, 'Plan not found');
    expectText(await api('GET', `/api/plans/slug/${plan.id}`), 404, 'Plan not found');
  });

  it('answers 401 to a bad token instead of reading anonymously', async () => {
    const host = await newUser();
    const plan = await createPlan(host);
    expectText(
      await api('GET', `/api/plans/${plan.id}`, { token: 'garbage' }),
      401,
      'Your session has expired, please sign in again',
    );
  });
});

describe('GET /api/plans/{id}/participants', () => {
  it('lists members and guests in join order, with userId for members and guestId for guests', async () => {
    const host = await newUser('Hal', 'Host');
    const plan = await createPlan(host, 'Hike');
    await owner`update app.participants set joined_at = ${new Date('2025-06-01T08:00:00Z')} where plan_id = ${plan.id}`;
    const [hostRow] = await owner<{ id: string }[]>`select id from app.participants where plan_id = ${plan.id}`;
    const zed = await newUser('Zed', null);
    const amy = await newUser(null, null);
    // Join order differs from name order and from insertion order.
    const gus = await addGuest(plan.id, '  Gus  ', new Date('2025-06-01T09:00:00Z'));
    const amyRow = await addMember(plan.id, amy, new Date('2025-06-01T11:00:00Z'));
    const zedRow = await addMember(plan.id, zed, new Date('2025-06-01T10:00:00Z'));
    const [amyEmail] = await owner<{ email: string }[]>`select email from app.users where id = ${amy.id}`;
    // Zed voted on an idea, Gus on a date: they have answered; Hal and Amy not yet.
    const [{ id: ideaId }] = await owner<{ id: string }[]>`
      insert into app.ideas (plan_id, text, author_name, user_id) values (${plan.id}, 'Summit', '-', ${host.id}) returning id`;
    await owner`insert into app.idea_votes (idea_id, plan_id, user_id) values (${ideaId}, ${plan.id}, ${zed.id})`;
    const [{ id: slotId }] = await owner<{ id: string }[]>`
      insert into app.time_slots (plan_id, date) values (${plan.id}, current_date + 3) returning id`;
    await owner`insert into app.time_slot_votes (time_slot_id, plan_id, guest_id) values (${slotId}, ${plan.id}, ${gus.guestId})`;

    const res = await api('GET', `/api/plans/${plan.id}/participants`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      { id: hostRow.id, name: 'Hal Host', userId: host.id, guestId: null, isGuest: false, hasResponded: false, noDates: false, role: 'host' },
      { id: gus.participantId, name: 'Gus', userId: null, guestId: gus.guestId, isGuest: true, hasResponded: true, noDates: false, role: null },
      { id: zedRow, name: 'Zed', userId: zed.id, guestId: null, isGuest: false, hasResponded: true, noDates: false, role: null },
      { id: amyRow, name: amyEmail.email.split('@')[0], userId: amy.id, guestId: null, isGuest: false, hasResponded: false, noDates: false, role: null },
    ]);
  });

  it("shows nothing of another plan's participants", async () => {
    const a = await createPlan(await newUser(), 'A');
    const b = await createPlan(await newUser(), 'B');
    await addGuest(b.id, 'Only in B');
    const res = await api<{ name: string }[]>('GET', `/api/plans/${a.id}/participants`);
    expect(res.json.map((p) => p.name)).not.toContain('Only in B');
    expect(res.json).toHaveLength(1);
  });
});

describe('GET /api/plans', () => {
  it('needs a signed-in user', async () => {
    expectText(await api('GET', '/api/plans'), 401, 'Not signed in');
  });

  it('is empty for someone without plans', async () => {
    const res = await api('GET', '/api/plans', { token: (await newUser()).token });
    expect(res).toMatchObject({ status: 200, json: [] });
  });

  it('lists only my plans, in spec §4 order, each with locked idea/slot and all participants', async () => {
    const me = await newUser('Me', 'Myself');
    const other = await newUser('Olga', 'Other');

    // Created oldest to newest; the names say where each must end up.
    const oldSmall = await createPlan(me, 'old, 1 person');
    const crowded = await createPlan(me, 'no locks, 3 people');
    const withIdea = await createPlan(me, 'idea picked, 1 person');
    const lateDate = await createPlan(me, 'date locked 2026-12-20');
    const joined = await createPlan(other, 'date locked 2026-12-10, completed, I joined');
    const newSmall = await createPlan(me, 'new, 1 person');
    const notMine = await createPlan(other, 'not mine');
    // Two more people than oldSmall and newSmall, but fewer than the date-locked ones need.
    const g1 = await addGuest(crowded.id, 'Gia');
    const m2 = await newUser('Max', 'Two');
    const m2Row = await addMember(crowded.id, m2);
    const ideaId = await addIdea(withIdea.id, me.id, 'Picnic in the park');
    await pickIdea(withIdea.id, ideaId);
    await lockDate(lateDate.id, '2026-12-20');
    const myRow = await addMember(joined.id, me);
    const slotId = await completeAt(joined.id, '2026-12-10', 'Evening', '7:00 PM');
    // A picked idea on a date-locked plan does not move it ahead of an earlier date.
    await pickIdea(lateDate.id, await addIdea(lateDate.id, me.id, 'Skating'));
    await addGuest(notMine.id, 'Nina');

    const res = await api<ListItem[]>('GET', '/api/plans', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.json.map((p) => p.title)).toEqual([
      'date locked 2026-12-10, completed, I joined',
      'date locked 2026-12-20',
      'idea picked, 1 person',
      'no locks, 3 people',
      'new, 1 person',
      'old, 1 person',
    ]);
    expect(res.json.map((p) => p.id)).toEqual([joined.id, lateDate.id, withIdea.id, crowded.id, newSmall.id, oldSmall.id]);
    for (const item of res.json) expect(Object.keys(item).sort()).toEqual([...PLAN_KEYS, 'participants'].sort());
    expect(planSummaryListSchema.parse(res.json)).toEqual(res.json);

    const [first, second, third, fourth] = res.json;
    const [otherRow] = await owner<{ id: string }[]>`select id from app.participants where plan_id = ${joined.id} and user_id = ${other.id}`;
    expect(first).toMatchObject({
      hostId: other.id,
      status: 'completed',
      eventTime: '7:00 PM',
      lockedTimeSlotId: slotId,
      lockedTimeSlotDate: '2026-12-10',
      lockedIdeaId: null,
      lockedIdeaText: null,
      lockedTimeSlot: { id: slotId, date: '2026-12-10', period: 'Evening' },
      participantCount: 2,
      participants: [
        { id: otherRow.id, name: 'Olga Other', isGuest: false },
        { id: myRow, name: 'Me Myself', isGuest: false },
      ],
    });
    expect(second).toMatchObject({ lockedTimeSlotDate: '2026-12-20', lockedTimeSlot: null, lockedIdeaText: 'Skating', status: 'time_range_locked' });
    expect(third).toMatchObject({ lockedIdeaId: ideaId, lockedIdeaText: 'Picnic in the park', lockedTimeSlotDate: null, lockedTimeSlot: null });
    const [myHostRow] = await owner<{ id: string }[]>`select id from app.participants where plan_id = ${crowded.id} and user_id = ${me.id}`;
    expect(fourth).toMatchObject({
      participantCount: 3,
      lockedIdeaText: null,
      lockedTimeSlot: null,
      participants: [
        { id: myHostRow.id, name: 'Me Myself', isGuest: false },
        { id: g1.participantId, name: 'Gia', isGuest: true },
        { id: m2Row, name: 'Max Two', isGuest: false },
      ],
    });
  });

  it('orders by participant count when nothing is locked, bigger first', async () => {
    const me = await newUser();
    const small = await createPlan(me, 'two');
    const big = await createPlan(me, 'four');
    const mid = await createPlan(me, 'three');
    await addGuest(small.id, 'S1');
    for (const n of ['B1', 'B2', 'B3']) await addGuest(big.id, n);
    for (const n of ['M1', 'M2']) await addGuest(mid.id, n);
    const res = await api<ListItem[]>('GET', '/api/plans', { token: me.token });
    expect(res.json.map((p) => [p.title, p.participantCount, p.participants.length])).toEqual([
      ['four', 4, 4],
      ['three', 3, 3],
      ['two', 2, 2],
    ]);
  });

  it('orders locked dates earliest first even across years and months', async () => {
    const me = await newUser();
    const plans = await Promise.all(['2027-01-05', '2026-12-31', '2026-02-01'].map((d) => createPlan(me, d)));
    for (const p of plans) await lockDate(p.id, p.title);
    const res = await api<ListItem[]>('GET', '/api/plans', { token: me.token });
    expect(res.json.map((p) => [p.title, p.lockedTimeSlotDate])).toEqual([
      ['2026-02-01', '2026-02-01'],
      ['2026-12-31', '2026-12-31'],
      ['2027-01-05', '2027-01-05'],
    ]);
  });
});

describe('DELETE /api/plans/{id}', () => {
  it('lets only the host delete: 401 signed out, 403 member and stranger, 404 unknown', async () => {
    const host = await newUser();
    const member = await newUser();
    const stranger = await newUser();
    const plan = await createPlan(host);
    await addMember(plan.id, member);

    expectText(await api('DELETE', `/api/plans/${plan.id}`), 401, 'Not signed in');
    expectText(await api('DELETE', `/api/plans/${plan.id}`, { token: member.token }), 403, 'Only the host can delete this plan');
    expectText(await api('DELETE', `/api/plans/${plan.id}`, { token: stranger.token }), 403, 'Only the host can delete this plan');
    expectText(await api('DELETE', `/api/plans/${randomUUID()}`, { token: host.token }), 404, 'Plan not found');
    expectText(await api('DELETE', '/api/plans/nope', { token: host.token }), 404, 'Plan not found');
    expect(await planExists(plan.id)).toBe(true);
  });

  it('deletes the plan and everything in it', async () => {
    const host = await newUser();
    const member = await newUser();
    const plan = await createPlan(host);
    await addMember(plan.id, member);
    const { guestId } = await addGuest(plan.id, 'Gil');
    const ideaId = await addIdea(plan.id, host.id, 'Bowling');
    await owner`insert into app.idea_votes (idea_id, plan_id, guest_id) values (${ideaId}, ${plan.id}, ${guestId})`;
    await owner`insert into app.idea_comments (idea_id, plan_id, text, author_name, user_id)
                values (${ideaId}, ${plan.id}, 'Yes!', '-', ${member.id})`;
    await pickIdea(plan.id, ideaId);
    const slotId = await completeAt(plan.id, '2026-11-30', 'Night', '9:00 PM');
    await owner`insert into app.time_slot_votes (time_slot_id, plan_id, user_id) values (${slotId}, ${plan.id}, ${member.id})`;

    const res = await api('DELETE', `/api/plans/${plan.id}`, { token: host.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    const [left] = await owner<Record<string, number>[]>`
      select (select count(*)::int from app.plans where id = ${plan.id}) as plans,
             (select count(*)::int from app.participants where plan_id = ${plan.id}) as participants,
             (select count(*)::int from app.guests where plan_id = ${plan.id}) as guests,
             (select count(*)::int from app.ideas where plan_id = ${plan.id}) as ideas,
             (select count(*)::int from app.idea_votes where plan_id = ${plan.id}) as idea_votes,
             (select count(*)::int from app.idea_comments where plan_id = ${plan.id}) as comments,
             (select count(*)::int from app.time_slots where plan_id = ${plan.id}) as slots,
             (select count(*)::int from app.time_slot_votes where plan_id = ${plan.id}) as slot_votes`;
    expect(left).toEqual({ plans: 0, participants: 0, guests: 0, ideas: 0, idea_votes: 0, comments: 0, slots: 0, slot_votes: 0 });
    // The people stay.
    expect(await owner`select id from app.users where id in (${host.id}, ${member.id})`).toHaveLength(2);

    expectText(await api('GET', `/api/plans/${plan.id}`), 404, 'Plan not found');
    expectText(await api('DELETE', `/api/plans/${plan.id}`, { token: host.token }), 404, 'Plan not found');
  });
});

describe('DELETE /api/plans/{id}/leave', () => {
  const leave = (planId: string, opts: { token?: string; guestId?: string; body?: unknown; guestSecret?: string | null } = {}) =>
    api<{ planDeleted: boolean }>(
      'DELETE',
      `/api/plans/${planId}/leave${opts.guestId !== undefined ? `?guestId=${encodeURIComponent(opts.guestId)}` : ''}`,
      { token: opts.token, body: opts.body, guestSecret: opts.guestSecret },
    );

  it('a member leaves: removed with its votes, the plan stays', async () => {
    const host = await newUser();
    const member = await newUser();
    const plan = await createPlan(host);
    await addMember(plan.id, member);
    const ideaId = await addIdea(plan.id, member.id, 'Karaoke');
    await owner`insert into app.idea_votes (idea_id, plan_id, user_id) values (${ideaId}, ${plan.id}, ${member.id})`;

    const res = await leave(plan.id, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ planDeleted: false });
    expect(await owner`select 1 from app.participants where plan_id = ${plan.id} and user_id = ${member.id}`).toHaveLength(0);
    expect(await owner`select 1 from app.idea_votes where plan_id = ${plan.id} and user_id = ${member.id}`).toHaveLength(0);
    // Its idea stays (decisions: ideas and comments are not deleted).
    expect(await owner`select 1 from app.ideas where id = ${ideaId}`).toHaveLength(1);
    expect((await api<PlanJson>('GET', `/api/plans/${plan.id}`)).json.participantCount).toBe(1);
    // It no longer lists the plan.
    expect((await api<ListItem[]>('GET', '/api/plans', { token: member.token })).json).toEqual([]);
  });

  it('a leaving host hands over to the earliest-joined remaining member with an account', async () => {
    const host = await newUser();
    const later = await newUser('Later');
    const earlier = await newUser('Earlier');
    const plan = await createPlan(host);
    // A guest joined first, but a guest cannot host.
    await addGuest(plan.id, 'First guest', new Date('2030-01-01T00:00:00Z'));
    await addMember(plan.id, later, new Date('2030-01-01T00:02:00Z'));
    await addMember(plan.id, earlier, new Date('2030-01-01T00:01:00Z'));

    const res = await leave(plan.id, { token: host.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ planDeleted: false });
    const after = await api<PlanJson>('GET', `/api/plans/${plan.id}`);
    expect(after.json).toMatchObject({ hostId: earlier.id, participantCount: 3 });
    // The new host may now delete; the old one may not.
    expectText(await api('DELETE', `/api/plans/${plan.id}`, { token: host.token }), 403, 'Only the host can delete this plan');
    expect((await api('DELETE', `/api/plans/${plan.id}`, { token: earlier.token })).status).toBe(204);
  });

  it('a host with only guests left gets 409 and stays', async () => {
    const host = await newUser();
    const plan = await createPlan(host);
    await addGuest(plan.id, 'Gaby');
    expectText(await leave(plan.id, { token: host.token }), 409, 'Delete the plan instead: no one else with an account can host it');
    expect((await api<PlanJson>('GET', `/api/plans/${plan.id}`)).json).toMatchObject({ hostId: host.id, participantCount: 2 });
  });

  it('the last one out deletes the plan (planDeleted true)', async () => {
    const host = await newUser();
    const plan = await createPlan(host);
    await addIdea(plan.id, host.id, 'Solo idea');
    const res = await leave(plan.id, { token: host.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ planDeleted: true });
    expect(await planExists(plan.id)).toBe(false);
    expect(await owner`select 1 from app.ideas where plan_id = ${plan.id}`).toHaveLength(0);
  });

  it('a guest leaves with ?guestId= and is deleted with its votes', async () => {
    const host = await newUser();
    const plan = await createPlan(host);
    const gina = await addGuest(plan.id, 'Gina');
    const ideaId = await addIdea(plan.id, host.id, 'Movie night');
    await owner`insert into app.idea_votes (idea_id, plan_id, guest_id) values (${ideaId}, ${plan.id}, ${gina.guestId})`;
    const res = await leave(plan.id, { guestId: gina.guestId });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ planDeleted: false });
    expect(await owner`select 1 from app.guests where id = ${gina.guestId}`).toHaveLength(0);
    expect(await owner`select 1 from app.idea_votes where idea_id = ${ideaId}`).toHaveLength(0);
    expect((await api<PlanJson>('GET', `/api/plans/${plan.id}`)).json.participantCount).toBe(1);
  });

  it("a guest needs its device's secret to leave: 401 without, 403 with a wrong one; nothing is deleted", async () => {
    const host = await newUser();
    const plan = await createPlan(host);
    const g = await addGuest(plan.id, 'Careful guest');
    expectText(await leave(plan.id, { guestId: g.guestId, guestSecret: null }), 401, GUEST_SECRET_MISSING);
    expectText(await leave(plan.id, { guestId: g.guestId, guestSecret: 'a guess' }), 403, GUEST_SECRET_WRONG);
    expectText(await leave(plan.id, { body: { guestId: g.guestId }, guestSecret: null }), 401, GUEST_SECRET_MISSING);
    expect(await owner`select 1 from app.guests where id = ${g.guestId}`).toHaveLength(1);
  });

  it('a guest may name itself in a JSON body instead of the query', async () => {
    const host = await newUser();
    const plan = await createPlan(host);
    const g = await addGuest(plan.id, 'Body guest');
    const res = await leave(plan.id, { body: { guestId: g.guestId } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ planDeleted: false });
    expect(await owner`select 1 from app.participants where guest_id = ${g.guestId}`).toHaveLength(0);
  });

  it('a valid token wins over a guestId: the member leaves, the guest stays', async () => {
    const host = await newUser();
    const member = await newUser();
    const plan = await createPlan(host);
    await addMember(plan.id, member);
    const g = await addGuest(plan.id, 'Stays');
    expect((await leave(plan.id, { token: member.token, guestId: g.guestId })).json).toEqual({ planDeleted: false });
    expect(await owner`select 1 from app.participants where guest_id = ${g.guestId}`).toHaveLength(1);
    expect(await owner`select 1 from app.participants where user_id = ${member.id} and plan_id = ${plan.id}`).toHaveLength(0);
  });

  it('refuses non-participants: 403 for a stranger or a guest of another plan, 401 with no identity', async () => {
    const host = await newUser();
    const plan = await createPlan(host);
    const other = await createPlan(host, 'Other');
    const otherGuest = await addGuest(other.id, 'Elsewhere');

    expectText(await leave(plan.id, { token: (await newUser()).token }), 403, 'You are not a participant of this plan');
    expectText(await leave(plan.id, { guestId: otherGuest.guestId }), 403, 'You are not a participant of this plan');
    expectText(await leave(plan.id, { guestId: randomUUID() }), 401, GUEST_SECRET_MISSING);
    expectText(await leave(plan.id, { guestId: randomUUID(), guestSecret: 'a'.repeat(43) }), 404, 'Guest not found');
    expectText(await leave(plan.id), 401, 'Not signed in');
    expect(await owner`select 1 from app.participants where guest_id = ${otherGuest.guestId}`).toHaveLength(1);
    expect((await api<PlanJson>('GET', `/api/plans/${plan.id}`)).json.participantCount).toBe(1);
  });

  it('answers 404 to unknown or malformed plans and 400 to a malformed guestId', async () => {
    const user = await newUser();
    expectText(await leave(randomUUID(), { token: user.token }), 404, 'Plan not found');
    expectText(await leave('not-a-uuid', { token: user.token }), 404, 'Plan not found');
    const guestElsewhere = await addGuest((await createPlan(user, 'Elsewhere')).id, 'Wanderer');
    expectText(await leave(randomUUID(), { guestId: guestElsewhere.guestId }), 404, 'Plan not found');

    const plan = await createPlan(user);
    expectText(await leave(plan.id, { guestId: 'nope' }), 400, 'guestId must be a valid id');
    expectText(await leave(plan.id, { body: { guestId: 12 } }), 400, 'guestId must be a valid id');
    expectText(
      await leave(plan.id, { guestId: randomUUID(), body: { guestId: randomUUID() } }),
      400,
      'guestId in the URL and in the body must be the same',
    );
    expect(await planExists(plan.id)).toBe(true);
  });
});
