// /api/unsubscribe/{token}: a notification e-mail's one-click unsubscribe
// (RFC 8058; docs/api.md "Notifications"). The token (_shared/delivery/unsubscribe.ts)
// is the only credential while it is fresh and the account still has the
// address it was mailed to; after that only its member, signed in, may use it.
//
//   POST   turns the plan's e-mails off (mail clients post the form body
//          List-Unsubscribe=One-Click; the app's page posts nothing)
//   DELETE turns them on again
//   GET    says which plan and whether they are on; a browser (it asks for
//          HTML) is sent to the app's page /unsubscribe/{token} instead,
//          since the function cannot serve HTML
import { Hono } from 'hono';
import type { Context } from 'hono';
import { optionalUserId } from '../../../_shared/auth/tokens.ts';
import {
  type PlanEmailsState,
  UNSUBSCRIBE_LINK_EXPIRED,
  UNSUBSCRIBE_LINK_INVALID,
  UNSUBSCRIBE_PLAN_GONE,
} from '../../../_shared/contract/notifications.ts';
import { requestRow, withWorker } from '../../../_shared/db/client.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { appOrigin } from '../../../_shared/delivery/notify.ts';
import { readUnsubscribeToken, type UnsubscribeLink } from '../../../_shared/delivery/unsubscribe.ts';

/** The link was mailed to an address the account no longer uses: what it changed is rolled back. */
class MailedElsewhere extends Error {}

/** The link alone: its member and plan, if it was mailed to the account's address; null when it was not. */
async function byLink(link: UnsubscribeLink, on: boolean | null): Promise<PlanEmailsState | null | undefined> {
  try {
    return await withWorker(async (tx) => {
      const [row] = await tx<(PlanEmailsState & { email: string })[]>`
        select plan_title as "planTitle", emails, email
          from private.set_plan_emails(${link.userId}::uuid, ${link.planId}::uuid, ${on}::boolean)`;
      if (row && !(await link.sentTo(row.email))) throw new MailedElsewhere();
      return row && { planTitle: row.planTitle, emails: row.emails };
    });
  } catch (error) {
    if (error instanceof MailedElsewhere) return null;
    throw error;
  }
}

/** The token's member, when the request is signed in as them; a bad token counts as none. */
async function signedInAs(c: Context, userId: string): Promise<boolean> {
  try {
    return (await optionalUserId(c)) === userId;
  } catch {
    return false;
  }
}

/**
 * Read or change the e-mails of the link's member and plan: 404 for a bad
 * link or a plan that is gone, 410 for a link past its days or mailed to
 * another address, unless its member is signed in (the session checked live).
 */
async function planEmails(c: Context, on: boolean | null): Promise<Response> {
  const link = await readUnsubscribeToken(c.req.param('token') ?? '');
  if (!link) throw new HttpError(404, UNSUBSCRIBE_LINK_INVALID);
  let state = link.expired ? null : await byLink(link, on);
  if (state === null) {
    if (!(await signedInAs(c, link.userId))) throw new HttpError(410, UNSUBSCRIBE_LINK_EXPIRED);
    state = await requestRow({ userId: link.userId }, (tx) => tx<PlanEmailsState[]>`
      select plan_title as "planTitle", emails from private.set_my_plan_emails(${link.planId}::uuid, ${on}::boolean)`);
  }
  if (!state) throw new HttpError(404, UNSUBSCRIBE_PLAN_GONE);
  const answer: PlanEmailsState = { planTitle: state.planTitle, emails: state.emails };
  c.header('Cache-Control', 'no-store');
  return c.json(answer);
}

export const unsubscribeRoutes = new Hono()
  .get('/unsubscribe/:token', async (c) => {
    const accept = c.req.header('accept') ?? '';
    if (/text\/html/i.test(accept)) {
      return c.redirect(`${appOrigin()}/unsubscribe/${encodeURIComponent(c.req.param('token'))}`, 303);
    }
    return await planEmails(c, null);
  })
  .post('/unsubscribe/:token', (c) => planEmails(c, false))
  .delete('/unsubscribe/:token', (c) => planEmails(c, true));
