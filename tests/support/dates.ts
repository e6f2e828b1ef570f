// Days as the database counts them, for the tests of dates, the lock,
// deadlines and calendars: the rules use the server's date, not the test
// machine's.
import type { Sql } from 'postgres';

/** The database's calendar date `offset` days from today, 'YYYY-MM-DD'. */
export async function day(owner: Sql, offset: number): Promise<string> {
  const [{ d }] = await owner<{ d: string }[]>`select (current_date + ${offset}::int)::text as d`;
  return d;
}

/** '2026-03-14' → '20260314'. */
export const compact = (date: string) => date.replaceAll('-', '');
