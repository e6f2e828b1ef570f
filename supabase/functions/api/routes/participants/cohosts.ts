// Co-hosts (docs/api-after-the-date.md "Co-hosts", docs/decisions/0098-cohosts.md): the host
// makes a member of the plan a co-host, who then runs the plan with the host,
// or an ordinary participant again. private.set_cohost makes every check
// (404 unknown plan, 403 not the host, 404 not a participant of it, 409 a
// guest or the host) and the change; the answer, the participant with its
// new role, comes from the same statement: one round trip.
import { Hono } from 'hono';
import { requireUserId } from '../../../_shared/auth/tokens.ts';
import { cohostBody } from '../../../_shared/contract/plans-requests.ts';
import { type Participant, PARTICIPANT_NOT_FOUND, PLAN_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { requestRow } from '../../../_shared/db/client.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { participantJson } from './participant-json.ts';

async function setCohost(userId: string, planId: string, participantId: string, isCohost: boolean): Promise<Participant> {
  const row = await requestRow({ userId, planId }, (tx) => tx<{ participant: Participant }[]>`
    select ${participantJson(tx)} as participant
      from private.set_cohost(${planId}::uuid, ${participantId}::uuid, ${isCohost}) pa
      join app.plans p on p.id = pa.plan_id`);
  // set_cohost raised unless it changed the row, which the host reads.
  return row!.participant;
}

export const cohostRoutes = new Hono()
  .post('/plans/:id/cohosts', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { participantId } = await parseBody(c, cohostBody);
    return c.json(await setCohost(userId, planId, participantId.toLowerCase(), true));
  })

  .delete('/plans/:id/cohosts/:participantId', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const participantId = pathId(c.req.param('participantId'), PARTICIPANT_NOT_FOUND);
    const userId = await requireUserId(c);
    return c.json(await setCohost(userId, planId, participantId, false));
  });
