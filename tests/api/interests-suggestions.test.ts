// GET /api/plans/{id}/activity-suggestions over HTTP: texts from the interests
// the plan's signed-in participants share (most shared first), without texts
// of existing ideas. The mapping itself is unit-tested next to
// supabase/functions/api/routes/interests/suggestions.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectText } from '../support/api.ts';
import { addMember, cleanUp, newGuest, newPlan, newUser, owner, type User } from '../support/api-world.ts';

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
    // A member is told what the others share: the host's own Coffee and Board Games are left out.
    expect((await suggestions(planId, host.token)).json).toEqual({
      suggestions: ['Meet for coffee at a new café', 'Go on a day hike'],
    });
  });

  it("a member cannot probe another's interest by adding it to their own list", async () => {
    const addInterest = async (user: User, freeFormText: string) => {
      const res = await api<{ id: string }>('POST', '/api/users/me/interests', { token: user.token, body: { freeFormText } });
      expect(res.status, res.text).toBe(201);
      return res.json.id;
    };
    const removeInterest = async (user: User, id: string) =>
      expect((await api('DELETE', `/api/users/me/interests/${id}`, { token: user.token })).status).toBe(204);
    const victim = await newUser('Vic', 'Victim');
    const prober = await newUser('Pat', 'Prober');
    const plan = await newPlan(victim, 'Probe');
    await addMember(plan, prober);
    const read = async () => {
      const res = await suggestions(plan, prober.token);
      expect(res.status, res.text).toBe(200);
      return res.json;
    };
    const nothing = await read();
    expect(nothing).toEqual({ suggestions: [] });

    // The prober guesses; whether the victim holds it or not, the answer is the same.
    const guess = await addInterest(prober, 'Divorce lawyer');
    expect(await read()).toEqual(nothing);
    const secret = await addInterest(victim, 'divorce lawyer');
    expect(await read()).toEqual(nothing);
    // Nor does a catalogue item tell (its place would say how many hold it).
    await addInterest(victim, 'Coffee');
    const withCoffee = await read();
    expect(withCoffee).toEqual({ suggestions: ['Meet for coffee at a new café'] });
    await addInterest(prober, 'Coffee');
    expect(await read()).toEqual(withCoffee);
    await removeInterest(victim, secret);
    expect(await read()).toEqual(withCoffee);
    await removeInterest(prober, guess);
    expect(await read()).toEqual(withCoffee);
    // The victim, anonymous readers and the prober never saw the victim's words.
    expect((await suggestions(plan, victim.token)).json).toEqual({ suggestions: ['Meet for coffee at a new café'] });
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
