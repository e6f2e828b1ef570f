// Link previews over HTTP (docs/api.md "Link previews"; docs/decisions/0105-link-previews.md):
// GET /api/plans/slug/{slug}/preview, the card a chat shows for /l/{slug}, in
// each state of a plan (planning, set with a place and answers, cancelled),
// versioned like every plan read; POST /api/plans/{id}/preview-details, the
// host's setting, who may and what it hides; hostile slugs.
import { afterAll, describe, expect, it } from 'vitest';
import {
  GENERIC_PREVIEW_DESCRIPTION,
  GENERIC_PREVIEW_IMAGE,
  GENERIC_PREVIEW_TITLE,
  formatCardDate,
  type LinkPreview,
  linkPreviewSchema,
} from '../../supabase/functions/_shared/contract/previews.ts';
import { PLAN_NOT_FOUND } from '../../supabase/functions/_shared/contract/plans.ts';
import { api, apiDatabaseAsOwner, expectText, PLAN_KEYS } from '../support/api.ts';
import { apiWorld, type PlanJson } from '../support/api-world.ts';
import { day } from '../support/dates.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});

const preview = (slug: string, headers: Record<string, string> = {}) =>
  api<LinkPreview>('GET', `/api/plans/slug/${slug}/preview`, { headers });
const post = (planId: string, action: string, body: unknown, token?: string) =>
  api<PlanJson>('POST', `/api/plans/${planId}/${action}`, { body, token });
const setDetails = (planId: string, body: unknown, token?: string) => post(planId, 'preview-details', body, token);

describe('GET /api/plans/slug/{slug}/preview', () => {
  it('a plan being planned: its title, the host\'s first name and the picture of this version; 304 when unchanged', async () => {
    const host = await world.newUser('Hana', 'Sato');
    const plan = await world.newPlan(host, 'Ramen night');
    const res = await preview(plan.slug!);
    expect(res.status, res.text).toBe(200);
    expect(linkPreviewSchema.parse(res.json)).toEqual(res.json);
    const etag = res.headers.get('etag')!;
    const version = /^W\/"v(\d+)"$/.exec(etag)?.[1];
    expect(version).toBeDefined();
    expect(res.json).toEqual({
      previewDetails: true,
      title: 'Ramen night',
      description: 'Hana wants to hang out. Suggest ideas and vote on dates.',
      hostFirstName: 'Hana',
      image: `/api/plans/slug/${plan.slug}/preview.png?v=${version}`,
      imageAlt: 'Ramen night: Hana wants to hang out. Suggest ideas and vote on dates.',
      version,
    });
    const again = await preview(plan.slug!, { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  it('once set: the day, the time, the place and how many are going; never a guest\'s name', async () => {
    const host = await world.newUser('Kenji');
    const plan = await world.newPlan(host, 'Karaoke');
    const member = await world.newMember(plan.id, 'Mia');
    const guest = await world.newGuest(plan.id, 'Zephyrine Quillfeather');
    const date = await day(owner, 5);
    expect((await post(plan.id, 'lock-date', { date }, host.token)).status).toBe(200);
    expect((await post(plan.id, 'set-event-time', { time: '19:30' }, host.token)).status).toBe(200);
    expect((await post(plan.id, 'location', { location: 'Kenji Ramen' }, host.token)).status).toBe(200);
    const set = await preview(plan.slug!);
    expect(set.json.description).toBe(`${formatCardDate(date)} at 7:30 PM, Kenji Ramen`);
    expect(set.json.description).toMatch(/^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2} at 7:30 PM, Kenji Ramen$/);

    for (const who of [{ token: member.token }, { guestSecret: guest.secret }]) {
      const answer = await api('PUT', `/api/plans/${plan.id}/rsvp`, {
        body: { answer: 'going', ...('guestSecret' in who ? { guestId: guest.id } : {}) },
        ...('token' in who ? { token: who.token } : { headers: { 'x-guest-secret': who.guestSecret } }),
      });
      expect(answer.status, answer.text).toBe(200);
    }
    const going = await preview(plan.slug!);
    expect(going.json.description).toBe(`${formatCardDate(date)} at 7:30 PM, Kenji Ramen · 2 going`);
    expect(going.json.version).not.toBe(set.json.version);
    expect(going.text).not.toContain('Zephyrine');
    expect(going.text).not.toContain('Quillfeather');
    expect(going.text).not.toContain(member.email);
  });

  it('a cancelled plan says so', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host, 'Picnic');
    expect((await post(plan.id, 'cancel', { message: 'Rain, sorry' }, host.token)).status).toBe(200);
    expect((await preview(plan.slug!)).json).toMatchObject({ title: 'Picnic', description: 'Cancelled' });
  });

  it('404 "Plan not found" for an unknown, malformed or hostile slug, and for the old slug after "Reset link"', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    expect((await post(plan.id, 'rotate-link', {}, host.token)).status).toBe(200);
    const hostile = [plan.slug!, 'unknownslug1', 'short', 'x'.repeat(65), '%2e%2e%2f%2e%2e', '%00abcdefgh', "a'or'1'='1", '%F0%9F%8E%89abcdefgh'];
    for (const slug of hostile) expectText(await preview(slug), 404, PLAN_NOT_FOUND);
  });
});

describe('POST /api/plans/{id}/preview-details', () => {
  it('the host turns details off: the plan says so and its card is the generic one; on again, the plan\'s card', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host, 'Secret birthday');
    expect(plan.previewDetails).toBe(true);
    const off = await setDetails(plan.id, { previewDetails: false }, host.token);
    expect(off.status, off.text).toBe(200);
    expect(Object.keys(off.json).sort()).toEqual(PLAN_KEYS);
    expect(off.json.previewDetails).toBe(false);
    const generic = await preview(plan.slug!);
    expect(generic.json).toEqual({
      previewDetails: false,
      title: GENERIC_PREVIEW_TITLE,
      description: GENERIC_PREVIEW_DESCRIPTION,
      hostFirstName: null,
      image: GENERIC_PREVIEW_IMAGE,
      imageAlt: expect.any(String),
      version: expect.any(String),
    });
    expect(generic.text).not.toContain('Secret');
    expect(generic.text).not.toContain('Hana');
    const on = await setDetails(plan.id, { previewDetails: true }, host.token);
    expect(on.json.previewDetails).toBe(true);
    expect((await preview(plan.slug!)).json.title).toBe('Secret birthday');
  });

  it('only the host: 403 for a co-host and a member, 401 without a session, 404 for an unknown plan; bad bodies are 400', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const cohost = await world.newMember(plan.id, 'Cora');
    const member = await world.newMember(plan.id, 'Mia');
    const [cohostRow] = await owner<{ id: string }[]>`
      select id from app.participants where plan_id = ${plan.id} and user_id = ${cohost.id}`;
    expect((await post(plan.id, 'cohosts', { participantId: cohostRow.id }, host.token)).status).toBe(200);
    for (const who of [cohost, member]) {
      expectText(await setDetails(plan.id, { previewDetails: false }, who.token), 403, 'Only the host can change link previews');
    }
    expect((await setDetails(plan.id, { previewDetails: false })).status).toBe(401);
    expectText(await setDetails('00000000-0000-4000-8000-000000000000', { previewDetails: false }, host.token), 404, PLAN_NOT_FOUND);
    expectText(await setDetails('not-an-id', { previewDetails: false }, host.token), 404, PLAN_NOT_FOUND);
    for (const body of [{}, { previewDetails: 'no' }, { previewDetails: null }, { previewDetails: 0 }]) {
      expectText(await setDetails(plan.id, body, host.token), 400, 'previewDetails must be true or false');
    }
    expect((await preview(plan.slug!)).json.previewDetails).toBe(true);
  });
});
