// Link previews (docs/api.md "Link previews", docs/decisions/0105-link-previews.md):
// the card a chat app shows for /l/{slug}, read by the page's head on the
// static host and by the share page, and the host's setting that hides the
// plan's details from it.
import { Hono } from 'hono';
import { optionalUserId, requireUserId } from '../../../_shared/auth/tokens.ts';
import { type Plan, PLAN_NOT_FOUND } from '../../../_shared/contract/plans.ts';
import { previewDetailsBody } from '../../../_shared/contract/previews-requests.ts';
import { requestRow, requestStatements } from '../../../_shared/db/client.ts';
import { versionedRead } from '../../../_shared/db/versioned.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { pathId, planSlugParam } from '../../../_shared/http/params.ts';
import { parseBody } from '../../../_shared/http/validation.ts';
import { planJson } from '../plans/plan-json.ts';
import { type PreviewBody, previewOf, type PreviewRow, previewStatement } from './card.ts';
import { previewPicture } from './picture.ts';

export const previewRoutes = new Hono()
  // Public like the slug: whoever holds the link may see its card. Versioned
  // like every plan read (ETag of the plan's version, 304); each instance
  // keeps the last facts it read per slug.
  .get('/plans/slug/:slug/preview', async (c) => {
    const planSlug = planSlugParam(c.req.param('slug'));
    const userId = await optionalUserId(c);
    const response = await versionedRead<PreviewRow, PreviewBody>(c, {
      key: `preview:${planSlug}`,
      query: (known) => requestRow({ userId, planSlug }, (tx) => previewStatement(tx, planSlug, known)),
      prepare: (text) => JSON.parse(text) as PreviewBody,
      render: (body, row) => JSON.stringify(previewOf(body, row)),
    });
    if (!response) throw new HttpError(404, PLAN_NOT_FOUND);
    return response;
  })

  // The card's picture (picture.ts), public like the slug.
  .get('/plans/slug/:slug/preview.png', previewPicture)

  // "Show details in link previews" (the host only). The rule and the plan's
  // read go out together: one round trip.
  .post('/plans/:id/preview-details', async (c) => {
    const planId = pathId(c.req.param('id'), PLAN_NOT_FOUND);
    const userId = await requireUserId(c);
    const { previewDetails } = await parseBody(c, previewDetailsBody);
    const [, [row]] = await requestStatements({ userId, planId }, (tx) => [
      tx`select private.set_preview_details(${planId}::uuid, ${previewDetails})`,
      tx<{ plan: Plan }[]>`select ${planJson(tx)} as plan from app.plans p where p.id = ${planId}::uuid`,
    ] as const);
    return c.json(row.plan);
  });
