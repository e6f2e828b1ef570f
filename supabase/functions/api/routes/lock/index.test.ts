// The host's pick of an idea through app.request(), without a database
// (../../no-database-test-helpers.ts): what is answered before a handler
// opens a transaction.
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

describe('pick-idea', () => {
  for (const bad of ['nope', '123', `${PLAN}x`, 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz']) {
    it(`plan id ${bad} is "not found", never a 500`, async () => {
      await expectText(await send('POST', `/api/plans/${bad}/pick-idea`, { ideaId: IDEA }), 404, 'Plan not found');
    });
  }

  it('needs a token', async () => {
    await expectText(await send('POST', `/api/plans/${PLAN}/pick-idea`, { ideaId: IDEA }), 401, 'Not signed in');
  });

  it('validates its body with one sentence naming the field', async () => {
    const headers = { authorization: `Bearer ${await signSessionToken(PLAN, IDEA)}` };
    const path = `/api/plans/${PLAN}/pick-idea`;
    await expectText(await send('POST', path, {}, headers), 400, 'Idea id is required');
    await expectText(await send('POST', path, { ideaId: 'nope' }, headers), 400, 'Idea id must be a valid id');
    await expectText(await send('POST', path, { ideaId: 12 }, headers), 400, 'Idea id must be a valid id');
  });

  it('a valid request does reach the refusing database, so the answers above came before it', async () => {
    const headers = { authorization: `Bearer ${await signSessionToken(PLAN, IDEA)}` };
    await expectDatabaseReachedThrough(send('POST', `/api/plans/${PLAN}/pick-idea`, { ideaId: IDEA }, headers), 'withRequest');
  });
});
