// The interest routes and a plan's activity suggestions through
// app.request(), without a database (../../no-database-test-helpers.ts): what
// is answered before a handler opens a transaction.
import { afterEach, beforeAll, describe, it, vi } from 'vitest';
import { signSessionToken } from '../../../_shared/auth/tokens.ts';
import { expectDatabaseReachedThrough, expectNoDatabaseCall, expectText, send } from '../../no-database-test-helpers.ts';

vi.mock('../../../_shared/db/client.ts', async (original) =>
  (await import('../../no-database-test-helpers.ts')).refusingDatabase(await original()),
);

const PLAN = '3f1c2a4e-8b7d-4c6e-9a5b-1d2e3f405162';
const IDEA = '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';

beforeAll(() => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
});

afterEach(expectNoDatabaseCall);

describe('activity suggestions', () => {
  for (const bad of ['nope', '123', `${PLAN}x`, 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz']) {
    it(`plan id ${bad} is "not found", never a 500`, async () => {
      await expectText(await send('GET', `/api/plans/${bad}/activity-suggestions`), 404, 'Plan not found');
    });
  }
});

describe('interests', () => {
  it('a bad token is a 401, never silently anonymous', async () => {
    await expectText(await send('GET', '/api/interests/catalog', undefined, { authorization: 'Bearer not-a-token' }), 401, 'Your session has expired, please sign in again');
  });

  it('my interests need a token', async () => {
    await expectText(await send('GET', '/api/users/me/interests'), 401, 'Not signed in');
    await expectText(await send('POST', '/api/users/me/interests', { freeFormText: 'Coffee' }), 401, 'Not signed in');
    await expectText(await send('DELETE', `/api/users/me/interests/${IDEA}`), 401, 'Not signed in');
  });

  it('bodies and ids are validated before the database too', async () => {
    const headers = { authorization: `Bearer ${await signSessionToken(PLAN, IDEA)}` };
    const path = '/api/users/me/interests';
    await expectText(await send('POST', path, {}, headers), 400, 'Interest is required');
    await expectText(await send('POST', path, { freeFormText: '   ' }, headers), 400, 'Interest is required');
    await expectText(await send('POST', path, { freeFormText: 5 }, headers), 400, 'Interest must be text');
    await expectText(await send('POST', path, { freeFormText: 'x'.repeat(81) }, headers), 400, 'Interest must be at most 80 characters');
    await expectText(await send('POST', path, { freeFormText: 'Coffee', catalogId: 'nope' }, headers), 400, 'Catalog id must be a valid id');
    await expectText(await send('POST', path, { catalogId: null }, headers), 400, 'Interest is required');
    await expectText(await send('DELETE', `${path}/nope`, undefined, headers), 404, 'Interest not found');
  });

  it('a valid request does reach the refusing database, so the answers above came before it', async () => {
    const headers = { authorization: `Bearer ${await signSessionToken(PLAN, IDEA)}` };
    await expectDatabaseReachedThrough(send('GET', `/api/plans/${PLAN}/activity-suggestions`), 'withRequest');
    await expectDatabaseReachedThrough(send('POST', '/api/users/me/interests', { freeFormText: 'Coffee' }, headers), 'withRequest');
  });
});
