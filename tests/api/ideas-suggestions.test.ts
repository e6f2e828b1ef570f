// GET /api/plans/{id}/activity-suggestions over HTTP: texts from the interests
// the plan's signed-in participants share (most shared first), without texts
// of existing ideas. The mapping itself is unit-tested next to
// supabase/functions/api/routes/plan-ideas/suggestions.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import { addMember, cleanUp, expectText, newGuest, newPlan, newUser, owner, type User } from './ideas-fixture.ts';

let host: User;
let planId: string;

async function addInterests(user: User, ...texts: string[]) {
  for (const text of texts) {
    await owner`insert into app.user_interests (user_id, free_form_text) values (${user.id}, ${text})`;
  }
}

const suggestions = (plan: string, token?: string) =>
  api<{ suggestions: string[] }>('GET', `/api/plans/${plan}/activity-suggestions`, { token });

beforeAll(async () => {
  host = await newUser('Hanna', 'Host');
  const mia = await newUser('Mia', null);
  const max = await newUser('Max', null);
  const stranger = await newUser('Sam', 'Stranger');
  planId = await newPlan(host, 'Suggestions');
  await addMember(planId, mia);
  await addMember(planId, max);
  await newGuest(planId); // guests have no interests; they change nothing
  await addInterests(host, 'Coffee', 'Board Games');
  await addInterests(mia, ' coffee', 'Hiking');
  await addInterests(max, 'COFFEE ', 'hiking', 'Origami');
  // Not in the plan: never counted.
  await addInterests(stranger, 'Karaoke', 'Karaoke night', 'Board games night');
});
afterAll(cleanUp);

describe('GET /api/plans/{id}/activity-suggestions', () => {
  it('maps the shared interests to activities, most shared first; anyone with the id may read', async () => {
    const res = await suggestions(planId);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      suggestions: [
        'Meet for coffee at a new café', // 3 members
        'Go on a day hike', // 2
        'Host a board game night', // 1, but a catalogue item
        // 'Origami' is Max's own words, held by nobody else: never shown.
      ],
    });
    expect((await suggestions(planId, host.token)).json).toEqual(res.json);
  });

  it('drops suggestions equal to an existing idea (trimmed, any case)', async () => {
    const added = await api('POST', `/api/plans/${planId}/ideas`, { token: host.token, body: { text: '  host a BOARD game NIGHT ' } });
    expect(added.status, added.text).toBe(201);
    const res = await suggestions(planId);
    expect(res.json.suggestions).toEqual(['Meet for coffee at a new café', 'Go on a day hike']);
  });

  it('answers an empty list when nobody in the plan has interests', async () => {
    const loner = await newUser('Lou', null);
    const plan = await newPlan(loner, 'Quiet');
    const res = await suggestions(plan);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ suggestions: [] });
  });

  it('answers at most 6', async () => {
    const busy = await newUser('Bea', 'Busy');
    const plan = await newPlan(busy, 'Busy');
    await addInterests(busy, 'Board Games', 'Food & Dining', 'Hiking & Outdoors', 'Travel', 'Coffee', 'Live Music', 'Movies', 'Reading');
    const res = await suggestions(plan);
    expect(res.json.suggestions).toHaveLength(6);
    expect(new Set(res.json.suggestions).size).toBe(6);
  });

  it('answers 404 for an unknown or malformed plan', async () => {
    expectText(await suggestions(crypto.randomUUID()), 404, 'Plan not found');
    expectText(await suggestions('abc'), 404, 'Plan not found');
  });
});
