// GET /api/interests/catalog and /api/users/me/interests (GET, POST, DELETE)
// over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInterest } from '../../supabase/functions/_shared/contract/interests.ts';
import { api, expectText, ISO_TIME } from '../support/api.ts';
import { cleanUp, newUser, owner, tokenFor, type User } from '../support/api-world.ts';

type Interest = UserInterest;

const catalogId = (n: number) => `6b1f0c2e-000${n}-4c8a-9a61-00000000000${n}`;
const COFFEE = catalogId(5);

let ann: User;
let ben: User;
beforeAll(async () => {
  ann = await newUser('Ann', null);
  ben = await newUser('Ben', null);
});
afterAll(cleanUp);

const mine = (token?: string) => api<Interest[]>('GET', '/api/users/me/interests', { token });
const add = (body: unknown, token?: string) => api<Interest>('POST', '/api/users/me/interests', { body, token });
const remove = (id: string, token?: string) => api('DELETE', `/api/users/me/interests/${id}`, { token });

describe('GET /api/interests/catalog', () => {
  it('answers the 8 seeded items in their fixed order, signed in or not', async () => {
    const res = await api<{ id: string; name: string; icon: string }[]>('GET', '/api/interests/catalog');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual([
      { id: catalogId(1), name: 'Board Games', icon: 'gamepad' },
      { id: catalogId(2), name: 'Food & Dining', icon: 'utensils' },
      { id: catalogId(3), name: 'Hiking & Outdoors', icon: 'tree' },
      { id: catalogId(4), name: 'Travel', icon: 'globe' },
      { id: catalogId(5), name: 'Coffee', icon: 'coffee' },
      { id: catalogId(6), name: 'Live Music', icon: 'music' },
      { id: catalogId(7), name: 'Movies', icon: 'film' },
      { id: catalogId(8), name: 'Reading', icon: 'book' },
    ]);
    expect((await api('GET', '/api/interests/catalog', { token: ann.token })).json).toEqual(res.json);
  });
});

describe('/api/users/me/interests', () => {
  it('adds free text (trimmed) and catalogue items, and lists them oldest first', async () => {
    const user = await newUser('Cat', null);
    expect((await mine(user.token)).json).toEqual([]);

    const free = await add({ freeFormText: '  Rock climbing ' }, user.token);
    expect(free.status, free.text).toBe(201);
    expect(free.json).toEqual({ id: expect.any(String), freeFormText: 'Rock climbing', catalogId: null, createdAt: expect.stringMatching(ISO_TIME) });

    const picked = await add({ catalogId: COFFEE, freeFormText: 'Coffee' }, user.token);
    expect(picked.status, picked.text).toBe(201);
    expect(picked.json).toMatchObject({ freeFormText: 'Coffee', catalogId: COFFEE });

    // With a catalogue id alone, the catalogue name is the text.
    const byId = await add({ catalogId: catalogId(7).toUpperCase() }, user.token);
    expect(byId.status, byId.text).toBe(201);
    expect(byId.json).toMatchObject({ freeFormText: 'Movies', catalogId: catalogId(7) });

    const res = await mine(user.token);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual([free.json, picked.json, byId.json]);
  });

  it('refuses a duplicate, trimmed and in any case (409)', async () => {
    expect((await add({ freeFormText: 'Board games' }, ann.token)).status).toBe(201);
    expectText(await add({ freeFormText: '  BOARD GAMES ' }, ann.token), 409, 'You already have that interest');
    expectText(await add({ catalogId: catalogId(1), freeFormText: 'board games' }, ann.token), 409, 'You already have that interest');
    expectText(await add({ catalogId: catalogId(1) }, ann.token), 409, 'You already have that interest');
    // Another user may have the same one.
    expect((await add({ freeFormText: 'Board games' }, ben.token)).status).toBe(201);
  });

  it('refuses the 51st interest with a sentence naming the limit (409); nothing is added', async () => {
    const ivy = await newUser('Ivy', null);
    await owner`insert into app.user_interests (user_id, free_form_text) select ${ivy.id}, 'Interest ' || n from generate_series(1, 50) n`;
    expectText(await add({ freeFormText: 'Knitting' }, ivy.token), 409, 'You already have 50 interests, the most you can have; remove one first');
    expect((await mine(ivy.token)).json).toHaveLength(50);
  });

  it('refuses an unknown catalogue item (400) and validates the body', async () => {
    expectText(await add({ catalogId: crypto.randomUUID(), freeFormText: 'Mystery' }, ann.token), 400, 'Catalog id does not name a catalogue interest');
    expectText(await add({ catalogId: crypto.randomUUID() }, ann.token), 400, 'Catalog id does not name a catalogue interest');
    expectText(await add({}, ann.token), 400, 'Interest is required');
    expectText(await add({ freeFormText: ' ' }, ann.token), 400, 'Interest is required');
    expectText(await add({ freeFormText: 42 }, ann.token), 400, 'Interest must be text');
    expectText(await add({ freeFormText: 'i'.repeat(81) }, ann.token), 400, 'Interest must be at most 80 characters');
    expectText(await add({ freeFormText: 'Tea', catalogId: 'coffee' }, ann.token), 400, 'Catalog id must be a valid id');
    expect((await add({ freeFormText: ` ${'i'.repeat(80)} ` }, ann.token)).status).toBe(201);
    const texts = (await mine(ann.token)).json.map((i) => i.freeFormText);
    expect(texts).not.toContain('Mystery');
  });

  it('keeps each list private', async () => {
    const dana = await newUser('Dana', null);
    await add({ freeFormText: 'Private thing' }, dana.token);
    const others = [...(await mine(ann.token)).json, ...(await mine(ben.token)).json].map((i) => i.freeFormText);
    expect(others).not.toContain('Private thing');
  });

  it('deletes one\u2019s own interest (204); anyone else\u2019s or an unknown one is 404', async () => {
    const eve = await newUser('Eve', null);
    const interest = (await add({ freeFormText: 'Chess' }, eve.token)).json;
    expectText(await remove(interest.id, ann.token), 404, 'Interest not found');
    expect((await mine(eve.token)).json).toHaveLength(1);
    const res = await remove(interest.id, eve.token);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect((await mine(eve.token)).json).toEqual([]);
    expectText(await remove(interest.id, eve.token), 404, 'Interest not found');
    expectText(await remove('chess', eve.token), 404, 'Interest not found');
  });

  it('needs a signed-in user (401), and a live account', async () => {
    expectText(await mine(), 401, 'Not signed in');
    expectText(await add({ freeFormText: 'Tea' }), 401, 'Not signed in');
    expectText(await remove(crypto.randomUUID()), 401, 'Not signed in');
    expectText(await api('GET', '/api/users/me/interests', { headers: { authorization: 'Bearer nope' } }), 401, 'Your session has expired, please sign in again');
    const gone = await tokenFor(crypto.randomUUID());
    expectText(await add({ freeFormText: 'Tea' }, gone), 401, 'Your session has expired, please sign in again');
  });
});
