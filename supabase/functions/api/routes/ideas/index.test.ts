// The idea routes through app.request(), without a database: everything here
// must be answered before a handler opens a transaction. The database module
// refuses (../../no-database-test-helpers.ts), and no test may have called it
// but the one that shows the guard reaches it.
import { afterEach, beforeAll, describe, it, vi } from 'vitest';
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

describe('malformed ids are "not found", never a 500', () => {
  for (const bad of ['nope', '123', `${PLAN}x`, 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz']) {
    it(`plan id ${bad}`, async () => {
      await expectText(await send('GET', `/api/plans/${bad}/ideas`), 404, 'Plan not found');
      await expectText(await send('POST', `/api/plans/${bad}/ideas`, { text: 'x', guestId: IDEA }), 404, 'Plan not found');
    });
    it(`idea id ${bad}`, async () => {
      await expectText(await send('POST', `/api/ideas/${bad}/vote`, { guestId: PLAN }), 404, 'Idea not found');
      await expectText(await send('GET', `/api/ideas/${bad}/voters`), 404, 'Idea not found');
      await expectText(await send('GET', `/api/ideas/${bad}/comments`), 404, 'Idea not found');
      await expectText(await send('POST', `/api/ideas/${bad}/comments`, { text: 'x', guestId: PLAN }), 404, 'Idea not found');
    });
  }
});

describe('bodies are validated with one sentence naming the field', () => {
  it('idea text', async () => {
    const path = `/api/plans/${PLAN}/ideas`;
    await expectText(await send('POST', path, {}), 400, 'Idea text is required');
    await expectText(await send('POST', path, ''), 400, 'Idea text is required');
    await expectText(await send('POST', path, { text: '  \n ' }), 400, 'Idea text is required');
    await expectText(await send('POST', path, { text: 7 }), 400, 'Idea text must be text');
    await expectText(await send('POST', path, { text: 'x'.repeat(281) }), 400, 'Idea text must be at most 280 characters');
    await expectText(await send('POST', path, { text: 'Bowling', guestId: 'nope' }), 400, 'Guest id must be a valid id');
    await expectText(await send('POST', path, { text: 'Bowling', guestId: 5 }), 400, 'Guest id must be a valid id');
    await expectText(await send('POST', path, '[]'), 400, 'Request body must be a JSON object');
    await expectText(await send('POST', path, '{"text":'), 400, 'Request body must be valid JSON');
  });

  it('comment text', async () => {
    const path = `/api/ideas/${IDEA}/comments`;
    await expectText(await send('POST', path, {}), 400, 'Comment text is required');
    await expectText(await send('POST', path, { text: ' ' }), 400, 'Comment text is required');
    await expectText(await send('POST', path, { text: 'x'.repeat(1001) }), 400, 'Comment text must be at most 1000 characters');
  });

  it('vote guest id and the ?guestId= of the ideas list', async () => {
    await expectText(await send('POST', `/api/ideas/${IDEA}/vote`, { guestId: 'x' }), 400, 'Guest id must be a valid id');
    await expectText(await send('GET', `/api/plans/${PLAN}/ideas?guestId=x`), 400, 'Guest id must be a valid id');
  });
});

describe('writes need an identity', () => {
  it('no token and no guest id: 401 with what to do', async () => {
    await expectText(await send('POST', `/api/plans/${PLAN}/ideas`, { text: 'Bowling', authorName: 'Me' }), 401, 'Join the plan first to suggest ideas');
    await expectText(await send('POST', `/api/plans/${PLAN}/ideas`, { text: 'Bowling', guestId: null }), 401, 'Join the plan first to suggest ideas');
    await expectText(await send('POST', `/api/plans/${PLAN}/ideas`, { text: 'Bowling', guestId: '' }), 401, 'Join the plan first to suggest ideas');
    await expectText(await send('POST', `/api/ideas/${IDEA}/vote`), 401, 'Please join the plan first to vote');
    await expectText(await send('POST', `/api/ideas/${IDEA}/comments`, { text: 'Yes' }), 401, 'Join the plan first to comment');
  });

  it('a bad token is a 401, never silently anonymous', async () => {
    const headers = { authorization: 'Bearer not-a-token' };
    const expired = 'Your session has expired, please sign in again';
    await expectText(await send('POST', `/api/plans/${PLAN}/ideas`, { text: 'Bowling', guestId: IDEA }, headers), 401, expired);
    await expectText(await send('GET', `/api/plans/${PLAN}/ideas`, undefined, headers), 401, expired);
  });
});

describe('the guard itself', () => {
  it('a valid request does reach the refusing database (through requestRow), so the answers above came before it', async () => {
    await expectDatabaseReachedThrough(send('GET', `/api/plans/${PLAN}/ideas`), 'requestRow');
    await expectDatabaseReachedThrough(send('POST', `/api/ideas/${IDEA}/vote`, { guestId: PLAN }), 'requestRow');
    await expectDatabaseReachedThrough(send('POST', `/api/plans/${PLAN}/ideas`, { text: 'Bowling', guestId: IDEA }), 'withRequest');
  });
});
