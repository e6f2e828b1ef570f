// For the route tests that run the app without a database (app.request()):
// what a handler must answer before it opens a transaction. Each such test
// file replaces the database module with refusingDatabase:
//
//   vi.mock('<path to>/_shared/db/client.ts', async (original) =>
//     (await import('<path to>/api/no-database-test-helpers.ts')).refusingDatabase(await original()));
//
// Every way a handler reaches PostgreSQL is then a function that records its
// name in databaseCalls and throws, so a test tells an answer given before
// the database (databaseCalls stays empty) from one its refusal caused, and
// the test of the guard itself sees which of them the route really calls.
import { expect, vi } from 'vitest';

/** The database entry points of _shared/db/client.ts the handlers called, in order. */
export const databaseCalls: string[] = [];

const ENTRY_POINTS = ['sql', 'withRequest', 'requestRow', 'requestStatements', 'countLimits', 'withWorker'] as const;

/** The module `actual` with every entry point to the database refusing. */
export function refusingDatabase<T extends object>(actual: T): T {
  const refusing = Object.fromEntries(
    ENTRY_POINTS.map((name) => [
      name,
      () => {
        databaseCalls.push(name);
        throw new Error(`the database was touched (${name})`);
      },
    ]),
  );
  for (const name of ENTRY_POINTS) if (!(name in actual)) throw new Error(`_shared/db/client.ts has no ${name} any more`);
  return { ...actual, ...refusing };
}

/** For afterEach: no test but the guard's reached the database (cleared, so one failure does not spill into the next test). */
export function expectNoDatabaseCall() {
  expect(databaseCalls.splice(0), 'answered before the database').toEqual([]);
}

/** A request to the app (imported here on first use, after the test file's mock is in place). */
export async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const { app } = await import('./app.ts');
  return await app.request(path, {
    method,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A text/plain answer with this status and sentence. */
export async function expectText(res: Response, status: number, text: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(await res.text()).toBe(text);
}

/**
 * A valid request reaches the refusing database through `entryPoint` and
 * answers the 500 of an unexpected error: the route's database call is the
 * one replaced, so the 4xx answers of the other tests came before it.
 */
export async function expectDatabaseReachedThrough(res: Promise<Response>, entryPoint: (typeof ENTRY_POINTS)[number]) {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    await expectText(await res, 500, 'Something went wrong on our side');
    expect(databaseCalls).toEqual([entryPoint]);
    expect(logged).toHaveBeenCalledTimes(1);
  } finally {
    logged.mockRestore();
    databaseCalls.length = 0;
  }
}
