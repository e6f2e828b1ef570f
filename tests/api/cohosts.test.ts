// Co-hosts over HTTP (docs/api-after-the-date.md "Co-hosts", docs/decisions/0098-cohosts.md,
// 0099-what-stays-the-hosts.md): the host makes a member a co-host and takes
// it back, the participant JSON carries `role` in the participants list and
// the plans list, a co-host runs the plan (sets the place, locks the date,
// sets the time) but may not delete it, reset its link, choose co-hosts or
// remove the host, each refusal one sentence. Who may call each route is in
// authorization-matrix.test.ts; junk ids and bodies in hostile-input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectText } from '../support/api.ts';
import { addMember, cleanUp, type Guest, newGuest, newPlan, newUser, owner, type User } from '../support/api-world.ts';
import { day } from '../support/dates.ts';
import {
  COHOST_CANNOT_REMOVE,
  GUEST_CANNOT_BE_COHOST,
  ONLY_HOST_CAN_CHOOSE_COHOSTS,
  ONLY_HOST_CAN_DELETE,
  PARTICIPANT_NOT_FOUND,
  type Participant,
  participantListSchema,
  participantSchema,
  planSummaryListSchema,
} from '../../supabase/functions/_shared/contract/plans.ts';
import { type Rsvps as RsvpsJson, rsvpsSchema } from '../../supabase/functions/_shared/contract/rsvps.ts';

afterAll(cleanUp);

describe('co-hosts', () => {
  let host: User;
  let cora: User;
  let mo: User;
  let guest: Guest;
  let planId: string;
  const people = async () => {
    const res = await api<Participant[]>('GET', `/api/plans/${planId}/participants`, { token: host.token });
    expect(res.status, res.text).toBe(200);
    return participantListSchema.parse(res.json);
  };
  const idOf = async (user: User) => (await people()).find((p) => p.userId === user.id)!.id;
  const makeCohost = (participantId: string, as = host) =>
    api('POST', `/api/plans/${planId}/cohosts`, { body: { participantId }, token: as.token });

  beforeAll(async () => {
    host = await newUser('Hana');
    cora = await newUser('Cora');
    mo = await newUser('Mo');
    planId = await newPlan(host);
    await addMember(planId, cora);
    await addMember(planId, mo);
    guest = await newGuest(planId, 'Gus');
  });

  it('the host makes a member a co-host: the participant JSON, the list and the plans list say so', async () => {
    const res = await makeCohost(await idOf(cora));
    expect(res.status, res.text).toBe(200);
    expect(participantSchema.parse(res.json)).toMatchObject({ userId: cora.id, role: 'cohost', isGuest: false });
    expect((await people()).map((p) => [p.name, p.role])).toEqual([
      ['Hana', 'host'],
      ['Cora', 'cohost'],
      ['Mo', null],
      ['Gus', null],
    ]);
    const list = await api('GET', '/api/plans', { token: mo.token });
    const [summary] = planSummaryListSchema.parse(list.json).filter((p) => p.id === planId);
    expect(summary.participants.map((p) => p.role)).toEqual(['host', 'cohost', null, null]);
    // Again: the same answer, nothing else changes.
    expect((await makeCohost(await idOf(cora))).status).toBe(200);
  });

  it('a co-host runs the plan: the place, the date and the time', async () => {
    const location = await api('POST', `/api/plans/${planId}/location`, { body: { location: 'Kenji' }, token: cora.token });
    expect(location.status, location.text).toBe(200);
    const lock = await api('POST', `/api/plans/${planId}/lock-date`, { body: { date: await day(owner, 4) }, token: cora.token });
    expect(lock.status, lock.text).toBe(200);
    const time = await api<{ status: string; eventTime: string }>('POST', `/api/plans/${planId}/set-event-time`, {
      body: { time: '19:30' },
      token: cora.token,
    });
    expect(time.status, time.text).toBe(200);
    expect(time.json).toMatchObject({ status: 'completed', eventTime: '7:30 PM' });
  });

  it("a co-host runs who's coming: the spots, an answer for someone; the headcount names the roles", async () => {
    const spots = await api<RsvpsJson>('POST', `/api/plans/${planId}/capacity`, { body: { capacity: 6 }, token: cora.token });
    expect(spots.status, spots.text).toBe(200);
    expect(rsvpsSchema.parse(spots.json).capacity).toBe(6);
    const gus = (await people()).find((p) => p.guestId === guest.id)!.id;
    const answered = await api('PUT', `/api/plans/${planId}/rsvps/${gus}`, { body: { answer: 'going' }, token: cora.token });
    expect(answered.status, answered.text).toBe(200);
    const list = rsvpsSchema.parse((await api<RsvpsJson>('GET', `/api/plans/${planId}/rsvps`, { token: mo.token })).json);
    expect(list.people.map((p) => [p.name, p.role, p.answer, p.setByHost])).toEqual([
      ['Gus', null, 'going', true],
      ['Hana', 'host', null, false],
      ['Cora', 'cohost', null, false],
      ['Mo', null, null, false],
    ]);
  });

  it('a co-host may not delete the plan, reset its link, choose co-hosts or remove the host', async () => {
    expectText(await api('DELETE', `/api/plans/${planId}`, { token: cora.token }), 403, ONLY_HOST_CAN_DELETE);
    expectText(await api('POST', `/api/plans/${planId}/rotate-link`, { body: {}, token: cora.token }), 403, "Only the host can reset the plan's link");
    expectText(await makeCohost(await idOf(mo), cora), 403, ONLY_HOST_CAN_CHOOSE_COHOSTS);
    expectText(await api('DELETE', `/api/plans/${planId}/cohosts/${await idOf(cora)}`, { token: cora.token }), 403, ONLY_HOST_CAN_CHOOSE_COHOSTS);
    expectText(await api('DELETE', `/api/plans/${planId}/participants/${await idOf(host)}`, { token: cora.token }), 403, COHOST_CANNOT_REMOVE);
    expect((await people()).map((p) => p.role)).toEqual(['host', 'cohost', null, null]);
  });

  it('a guest cannot be a co-host; a stranger to the plan is not found; a member is refused', async () => {
    const gus = (await people()).find((p) => p.guestId === guest.id)!.id;
    expectText(await makeCohost(gus), 409, GUEST_CANNOT_BE_COHOST);
    expectText(await makeCohost(crypto.randomUUID()), 404, PARTICIPANT_NOT_FOUND);
    expectText(await makeCohost(await idOf(cora), mo), 403, ONLY_HOST_CAN_CHOOSE_COHOSTS);
    expectText(await api('POST', `/api/plans/${planId}/cohosts`, { body: { participantId: 'nope' }, token: host.token }), 400, 'participantId must be a valid id');
    expect((await people()).find((p) => p.guestId === guest.id)!.role).toBeNull();
  });

  it('the host takes it back: role null, and the host actions are refused again', async () => {
    const res = await api('DELETE', `/api/plans/${planId}/cohosts/${await idOf(cora)}`, { token: host.token });
    expect(res.status, res.text).toBe(200);
    expect(participantSchema.parse(res.json)).toMatchObject({ userId: cora.id, role: null });
    expectText(await api('POST', `/api/plans/${planId}/unlock`, { body: {}, token: cora.token }), 403, 'Only the host can unlock the plan');
  });
});
