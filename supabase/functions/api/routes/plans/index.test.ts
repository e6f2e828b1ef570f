// Which route answers a URL that two domains' paths both match (api/app.ts
// mounts them in an order for this), through app.request() without a
// database (../../no-database-test-helpers.ts).
import { afterEach, beforeAll, describe, it, vi } from 'vitest';
import { expectDatabaseReachedThrough, expectNoDatabaseCall, expectText, send } from '../../no-database-test-helpers.ts';

vi.mock('../../../_shared/db/client.ts', async (original) =>
  (await import('../../no-database-test-helpers.ts')).refusingDatabase(await original()),
);

beforeAll(() => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
});

afterEach(expectNoDatabaseCall);

describe('route order', () => {
  it('GET /api/plans/events is the live stream of my plans, not the plan with id "events"', async () => {
    await expectText(await send('GET', '/api/plans/events'), 401, 'Not signed in');
  });

  it('GET /api/plans/slug/participants is the plan whose slug is "participants", not the participants of the plan with id "slug"', async () => {
    // The plan is looked up (the database is reached), not "Plan not found" for the id "slug" at once.
    await expectDatabaseReachedThrough(send('GET', '/api/plans/slug/participants'), 'requestRow');
  });
});
