// One plan whose dates' answers tell the one ranking of dates
// (private.date_ranking, docs/decisions/0108-answers-on-dates.md) from a
// count of people: the database tests hold the deadline's automatic lock to
// it (tests/db/reminders.test.ts), the API tests the timeslots JSON's
// `leading` (tests/api/dates.test.ts). Written as the owner, so it fits both.
import type { Sql } from 'postgres';
import { addMember, addSlot, createPlan, createUser } from './plan-fixture.ts';

export interface RankedPlan {
  planId: string;
  hostId: string;
  /** The four voters' user ids. */
  voters: string[];
  /** The leader's offset in days from the database's today. */
  leadingDay: number;
  /** [offset, yes, if need be] of each date from today on, in the ranking's order. */
  ranking: [number, number, number][];
}

/**
 * Four members answer; by people alone days 1, 3 and 4 tie (3 each) and the
 * earliest, day 1, would lead. The ranking says day 3:
 *   day -1: 4 yes (yesterday: out of the ranking)
 *   day 1: 1 yes, 2 if need be
 *   day 2: 2 yes (one of them also "if need be" on another slot: yes only)
 *   day 3: 2 yes, 1 if need be (on two slots: each person once)
 *   day 4: 2 yes, 1 if need be (ties day 3: the earlier leads)
 */
export async function rankedPlan(sql: Sql): Promise<RankedPlan> {
  const hostId = await createUser(sql, 'Rhea', 'Host');
  const plan = await createPlan(sql, hostId, 'Ranked dates');
  const voters: string[] = [];
  for (const name of ['Ada', 'Ben', 'Cy', 'Dee']) {
    const id = await createUser(sql, name, null);
    await addMember(sql, plan.id, id);
    voters.push(id);
  }
  const [a, b, c, d] = voters;
  const slot = (days: number, period: string | null) => addSlot(sql, plan.id, days, period);
  const answers: [string, string, 'yes' | 'ifneedbe'][] = [];
  const yesterday = await slot(-1, null);
  for (const v of voters) answers.push([yesterday, v, 'yes']);
  const day1 = await slot(1, null);
  answers.push([day1, a, 'yes'], [day1, b, 'ifneedbe'], [day1, c, 'ifneedbe']);
  const [day2Morning, day2Evening] = [await slot(2, 'Morning'), await slot(2, 'Evening')];
  answers.push([day2Morning, b, 'yes'], [day2Evening, c, 'yes'], [day2Evening, b, 'ifneedbe']);
  const [day3, day3Night] = [await slot(3, null), await slot(3, 'Night')];
  answers.push([day3, a, 'yes'], [day3Night, a, 'yes'], [day3Night, d, 'yes'], [day3, b, 'ifneedbe']);
  const day4 = await slot(4, '19:30');
  answers.push([day4, a, 'yes'], [day4, c, 'yes'], [day4, d, 'ifneedbe']);
  for (const [slotId, userId, answer] of answers) {
    await sql`insert into app.time_slot_votes (time_slot_id, plan_id, user_id, answer)
              values (${slotId}, ${plan.id}, ${userId}, ${answer})`;
  }
  return {
    planId: plan.id,
    hostId,
    voters,
    leadingDay: 3,
    ranking: [
      [3, 2, 1],
      [4, 2, 1],
      [2, 2, 0],
      [1, 1, 2],
    ],
  };
}
