// Closed invitations and resetting a plan's link over HTTP (docs/api.md
// "Plans"; docs/decisions/0086-closed-invitations-on-the-server.md,
// 0087-resetting-a-plans-link.md), as a black box: for each kind of reader
// (host, member, guest, a signed-in stranger, nobody) of an open and of a
// closed plan, what each read shows of the link, and who may join by the
// plan's id, by its link, or by an old link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_NEEDS_LINK } from '../../supabase/functions/_shared/contract/guests.ts';
import { api, apiDatabaseAsOwner, expectText, rememberGuestSecret } from '../support/api.ts';
import { newAccount, participantsOf, uniqueName, type User } from '../support/api-world.ts';

const owner = apiDatabaseAsOwner();
let host: User;

beforeAll(async () => {
  host = await newAccount(owner, 'Hanna', 'Host');
});
afterAll(async () => {
  await owner`delete from app.plans where host_id = ${host.id}`;
  await owner.end();
});

interface PlanJson {
  id: string;
  slug: string | null;
  isOpenInvite: boolean;
}

async function newPlan(isOpenInvite: boolean): Promise<{ id: string; slug: string }> {
  const res = await api<PlanJson>('POST', '/api/plans', { body: { title: uniqueName('Plan'), isOpenInvite }, token: host.token });
  expect(res.status, res.text).toBe(201);
  expect(res.json.isOpenInvite).toBe(isOpenInvite);
  // The host always sees the link.
  expect(res.json.slug).toMatch(/^[A-Za-z0-9_-]{12}$/);
  return { id: res.json.id, slug: res.json.slug! };
}

/** A plan with a member and a guest (joined by the link, as the join page does). */
async function planWithPeople(isOpenInvite: boolean) {
  const plan = await newPlan(isOpenInvite);
  const member = await newAccount(owner, 'Mia');
  const joined = await api('POST', `/api/plans/${plan.id}/join`, { body: { slug: plan.slug }, token: member.token });
  expect(joined.status, joined.text).toBe(200);
  const guest = await api<{ id: string; secret: string }>('POST', '/api/guest-session', { body: { name: uniqueName('Gus'), planId: plan.id, slug: plan.slug } });
  expect(guest.status, guest.text).toBe(201);
  rememberGuestSecret(guest.json.id, guest.json.secret);
  const stranger = await newAccount(owner, 'Sam');
  return { plan, member, guest: guest.json, stranger };
}

const readById = (planId: string, token?: string) => api<PlanJson>('GET', `/api/plans/${planId}`, { token });

describe('who sees the link', () => {
  for (const open of [true, false]) {
    it(`${open ? 'open' : 'closed'} invitations: every read by id, the participants and the home list`, async () => {
      const { plan, member, guest, stranger } = await planWithPeople(open);
      const readers: Array<[string, string | undefined, boolean]> = [
        ['host', host.token, true],
        ['member', member.token, open],
        ['stranger', stranger.token, open],
        ['nobody', undefined, open],
      ];
      for (const [who, token, sees] of readers) {
        // The first read builds this instance's copy of the plan, the later ones use it:
        // whoever read first, each reader gets its own answer.
        const res = await readById(plan.id, token);
        expect(res.status, `${who}: ${res.text}`).toBe(200);
        expect(res.json.slug, who).toBe(sees ? plan.slug : null);
        for (const part of ['participants', 'ideas', 'timeslots']) {
          const read = await api('GET', `/api/plans/${plan.id}/${part}`, { token });
          expect(read.status, `${who} ${part}`).toBe(200);
          expect(read.text, `${who} ${part}`).not.toContain(plan.slug);
        }
      }
      // A guest's reads carry no identity; its own session does, and a
      // guest's pages live under the link, so it is told the link as it is now.
      const session = await api('GET', `/api/guest-session/${guest.id}`);
      expect(session.json).toMatchObject({ id: guest.id, planId: plan.id, planSlug: plan.slug });
      // The home list of a member.
      const list = await api<Array<PlanJson>>('GET', '/api/plans', { token: member.token });
      expect(list.json.find((p) => p.id === plan.id)?.slug).toBe(open ? plan.slug : null);
      expect((await api<Array<PlanJson>>('GET', '/api/plans', { token: host.token })).json.find((p) => p.id === plan.id)?.slug).toBe(plan.slug);
      // Read by its link, the plan says the link it was read by.
      for (const token of [undefined, stranger.token, member.token]) {
        expect((await api<PlanJson>('GET', `/api/plans/slug/${plan.slug}`, { token })).json.slug).toBe(plan.slug);
      }
    });
  }

  it("closed: a member's calendar feed links the plan's page, the host's the link", async () => {
    const { plan, member } = await planWithPeople(false);
    await owner`update app.plans set status = 'time_range_locked', locked_time_slot_date = current_date + 3 where id = ${plan.id}`;
    const feedOf = async (token: string) => {
      const { json } = await api<{ url: string }>('GET', '/api/calendar/feed', { token });
      return api('GET', new URL(json.url).pathname);
    };
    const memberFeed = await feedOf(member.token);
    expect(memberFeed.status).toBe(200);
    expect(memberFeed.text).not.toContain(plan.slug);
    expect(memberFeed.text).toContain(`/plan/${plan.id}`);
    expect((await feedOf(host.token)).text).toContain(`/l/${plan.slug}`);
  });
});

describe('who may join', () => {
  it('open invitations: holding the plan id is enough, as ever', async () => {
    const plan = await newPlan(true);
    const stranger = await newAccount(owner);
    expect((await api('POST', `/api/plans/${plan.id}/join`, { body: {}, token: stranger.token })).status).toBe(200);
    expect((await api('POST', '/api/guest-session', { body: { name: uniqueName(), planId: plan.id } })).status).toBe(201);
    const other = await newAccount(owner);
    expect((await api('POST', `/api/plans/${plan.id}/ideas`, { body: { text: 'Picnic' }, token: other.token })).status).toBe(201);
  });

  it('closed invitations: by the link, yes; by the id alone, an old or a wrong link, nobody new gets in', async () => {
    const { plan, guest } = await planWithPeople(false);
    const other = await newPlan(false);
    const before = await participantsOf(owner, plan.id);
    const stranger = await newAccount(owner);
    for (const body of [{}, { slug: other.slug }, { slug: null }]) {
      expectText(await api('POST', `/api/plans/${plan.id}/join`, { body, token: stranger.token }), 403, JOIN_NEEDS_LINK);
      expectText(await api('POST', '/api/guest-session', { body: { name: 'Zoe', planId: plan.id, ...body } }), 403, JOIN_NEEDS_LINK);
    }
    // Continuing as a guest by name brings a new device in: the link too.
    const name = (await owner<{ name: string }[]>`select name from app.guests where id = ${guest.id}`)[0].name;
    expectText(await api('POST', '/api/guest-session/restore', { body: { name, planId: plan.id } }), 403, JOIN_NEEDS_LINK);
    // A first write joins a signed-in person in an open plan; not here.
    expectText(await api('POST', `/api/plans/${plan.id}/ideas`, { body: { text: 'Let me in' }, token: stranger.token }), 403, JOIN_NEEDS_LINK);
    const [{ d: date }] = await owner<{ d: string }[]>`select (current_date + 3)::text as d`;
    expectText(await api('POST', `/api/plans/${plan.id}/vote-date`, { body: { date }, token: stranger.token }), 403, JOIN_NEEDS_LINK);
    expect(await participantsOf(owner, plan.id)).toEqual(before);

    // With the link, everyone the host gave it to gets in.
    expect((await api('POST', `/api/plans/${plan.id}/join`, { body: { slug: plan.slug }, token: stranger.token })).status).toBe(200);
    expect((await api('POST', '/api/guest-session', { body: { name: uniqueName('Zoe'), planId: plan.id, slug: plan.slug } })).status).toBe(201);
    const restored = await api('POST', '/api/guest-session/restore', { body: { name, planId: plan.id, slug: plan.slug } });
    expect(restored.status, restored.text).toBe(200);
    // Who is in stays in: joining again needs nothing, and writing neither.
    expect((await api('POST', `/api/plans/${plan.id}/join`, { body: {}, token: stranger.token })).json).toMatchObject({ alreadyJoined: true });
    expect((await api('POST', `/api/plans/${plan.id}/ideas`, { body: { text: 'Bowling' }, token: stranger.token })).status).toBe(201);
    expect((await api('POST', `/api/plans/${plan.id}/ideas`, { body: { text: 'Cinema', guestId: guest.id } })).status).toBe(201);
  });

  it('refuses a link that is not shaped like one, before anything else (400)', async () => {
    const plan = await newPlan(false);
    const stranger = await newAccount(owner);
    const bad = "Slug must be the code of a plan's link";
    for (const slug of ['short', 'has space!', 42, ['x'], 'x'.repeat(65)]) {
      expectText(await api('POST', `/api/plans/${plan.id}/join`, { body: { slug }, token: stranger.token }), 400, bad);
      expectText(await api('POST', '/api/guest-session', { body: { name: 'Zoe', planId: plan.id, slug } }), 400, bad);
      expectText(await api('POST', '/api/guest-session/restore', { body: { name: 'Zoe', planId: plan.id, slug } }), 400, bad);
    }
  });
});

describe('POST /api/plans/{id}/rotate-link ("Reset link")', () => {
  it('gives the plan a new link; the old one is "Plan not found", also from copies and for joining', async () => {
    const { plan, member, guest, stranger } = await planWithPeople(false);
    // Warm this instance's copies of the reads by the old link and by id.
    expect((await api('GET', `/api/plans/slug/${plan.slug}`)).status).toBe(200);
    const etag = (await readById(plan.id, host.token)).headers.get('etag')!;

    const res = await api<PlanJson>('POST', `/api/plans/${plan.id}/rotate-link`, { token: host.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: plan.id, isOpenInvite: false });
    const fresh = res.json.slug!;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(fresh).not.toBe(plan.slug);

    expectText(await api('GET', `/api/plans/slug/${plan.slug}`), 404, 'Plan not found');
    expect((await api<PlanJson>('GET', `/api/plans/slug/${fresh}`)).json).toMatchObject({ id: plan.id, slug: fresh });
    // The host's copy of the plan moved on: a new version, the new link.
    const again = await readById(plan.id, host.token);
    expect(again.headers.get('etag')).not.toBe(etag);
    expect(again.json.slug).toBe(fresh);
    expect((await api('GET', `/api/plans/${plan.id}`, { token: host.token, headers: { 'if-none-match': etag } })).status).toBe(200);

    // The old link lets nobody in; the new one does.
    expectText(await api('POST', `/api/plans/${plan.id}/join`, { body: { slug: plan.slug }, token: stranger.token }), 403, JOIN_NEEDS_LINK);
    expect((await api('POST', `/api/plans/${plan.id}/join`, { body: { slug: fresh }, token: stranger.token })).status).toBe(200);

    // Everyone in keeps their access: the member by the plan's id, the guest
    // by its device, which learns the new link from its own session.
    expect((await api('POST', `/api/plans/${plan.id}/ideas`, { body: { text: 'Still in' }, token: member.token })).status).toBe(201);
    expect((await api('POST', `/api/plans/${plan.id}/ideas`, { body: { text: 'Me too', guestId: guest.id } })).status).toBe(201);
    expect((await api('GET', `/api/guest-session/${guest.id}`)).json).toMatchObject({ planSlug: fresh });
  });

  it("the host's only, with the host rules' answers; a body must be an object", async () => {
    const { plan, member, guest, stranger } = await planWithPeople(true);
    const rotate = (opts: Parameters<typeof api>[2]) => api('POST', `/api/plans/${plan.id}/rotate-link`, opts);
    expectText(await rotate({}), 401, 'Not signed in');
    expectText(await rotate({ body: { guestId: guest.id } }), 401, 'Not signed in');
    expectText(await rotate({ token: member.token }), 403, "Only the host can reset the plan's link");
    expectText(await rotate({ token: stranger.token }), 403, "Only the host can reset the plan's link");
    expectText(await api('POST', `/api/plans/${crypto.randomUUID()}/rotate-link`, { token: host.token }), 404, 'Plan not found');
    expectText(await rotate({ token: host.token, body: [] }), 400, 'Request body must be a JSON object');
    const [{ slug }] = await owner<{ slug: string }[]>`select slug from app.plans where id = ${plan.id}`;
    expect(slug).toBe(plan.slug);
  });
});
