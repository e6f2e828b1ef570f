// When the "time is set" e-mail cannot be sent, the host's decision stands:
// set-event-time commits first, then sends; a failed send is logged and the
// answer is still 200 with the completed plan. Uses a second function
// instance whose SMTP port has nobody listening (like mail-failure.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiDatabaseAsOwner, startApiWithDeadSmtp } from '../support/api.ts';
import { datesWorld, day, type PlanJson } from '../support/dates.ts';

const owner = apiDatabaseAsOwner();
const world = datesWorld(owner);
let brokenApi: Awaited<ReturnType<typeof startApiWithDeadSmtp>>;
let brokenUrl: string;

beforeAll(async () => {
  brokenApi = await startApiWithDeadSmtp();
  brokenUrl = brokenApi.url;
});

afterAll(async () => {
  await brokenApi?.stop();
  await world.cleanUp();
  await owner.end();
});

describe('set-event-time when SMTP is down', () => {
  it('answers 200 with the completed plan, and the lock is kept', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    await world.newMember(plan.id);
    const date = await day(owner, 5);
    const baseUrl = brokenUrl;
    expect((await api('POST', `/api/plans/${plan.id}/lock-date`, { body: { date }, token: host.token, baseUrl })).status).toBe(200);

    const res = await api<PlanJson>('POST', `/api/plans/${plan.id}/set-event-time`, { body: { time: '19:00' }, token: host.token, baseUrl });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ status: 'completed', eventTime: '7:00 PM', lockedTimeSlotDate: date });

    const [row] = await owner`
      select p.status, p.event_time, s.period
        from app.plans p join app.time_slots s on s.id = p.locked_time_slot_id
       where p.id = ${plan.id}`;
    expect(row).toEqual({ status: 'completed', event_time: '7:00 PM', period: '19:00' });
  });
});
