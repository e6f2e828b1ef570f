// /api/unsubscribe/{token}: a notification e-mail's one-click unsubscribe
// (RFC 8058; docs/api.md "Notifications"). The token (_shared/unsubscribe.ts)
// is the only credential: no token or session is asked for.
//
//   POST   turns the plan's e-mails off (mail clients post the form body
//          List-Unsubscribe=One-Click; the app's page posts nothing)
//   DELETE turns them on again
//   GET    says which plan and whether they are on; a browser (it asks for
//          HTML) is sent to the app's page /unsubscribe/{token} instead,
//          since the function cannot serve HTML
import { Hono } from 'hono';
import type { Context } from 'hono';
import { type PlanEmailsState, UNSUBSCRIBE_LINK_INVALID, UNSUBSCRIBE_PLAN_GONE } from '../../_shared/contract/notifications.ts';
import { withWorker } from '../../_shared/db.ts';
import { HttpError } from '../../_shared/errors.ts';
import { appOrigin } from '../../_shared/notify.ts';
import { readUnsubscribeToken } from '../../_shared/unsubscribe.ts';

/** Read or change the e-mails of the link's member and plan; 404 for a bad link or a plan that is gone. */
async function planEmails(c: Context, on: boolean | null): Promise<Response> {
  const named = await readUnsubscribeToken(c.req.param('token') ?? '');
  if (!named) throw new HttpError(404, UNSUBSCRIBE_LINK_INVALID);
  const state = await withWorker(async (tx) => {
    const [row] = await tx<{ planTitle: string; emails: boolean }[]>`
      select plan_title as "planTitle", emails
        from private.set_plan_emails(${named.userId}::uuid, ${named.planId}::uuid, ${on}::boolean)`;
    return row;
  });
  if (!state) throw new HttpError(404, UNSUBSCRIBE_PLAN_GONE);
  const answer: PlanEmailsState = { planTitle: state.planTitle, emails: state.emails };
  c.header('Cache-Control', 'no-store');
  return c.json(answer);
}

export const unsubscribeRoutes = new Hono()
  .get('/:token', async (c) => {
    const accept = c.req.header('accept') ?? '';
    if (/text\/html/i.test(accept)) {
      return c.redirect(`${appOrigin()}/unsubscribe/${encodeURIComponent(c.req.param('token'))}`, 303);
    }
    return await planEmails(c, null);
  })
  .post('/:token', (c) => planEmails(c, false))
  .delete('/:token', (c) => planEmails(c, true));
