// Netlify Edge Function (Deno): a plan's link page, /l/{slug}, with the
// plan's card in its head, so a chat shows the plan's title, where it stands
// and its picture. The static host runs it before its rewrites; context.next()
// is the page it would have served (web/dist/index.html with web/public/_headers'
// headers). The code is the handler every host path runs (web/link-preview/);
// any failure there gives the page as built: the generic card
// (docs/decisions/0107-the-head-in-production.md, README "Deploying to hosted Supabase").
//
// HANGPLAN_API_URL: the API the card comes from, e.g.
// https://<ref>.supabase.co/functions/v1/api (unset: every page as built).
import { handleLinkPreview } from '../../../link-preview/handler.ts';

/** What this function uses of Netlify's Context. */
interface Context {
  next: () => Promise<Response>;
}

interface Env {
  get: (name: string) => string | undefined;
}

/** Netlify's `Netlify.env`, or Deno's `Deno.env` where there is no Netlify global (a local run). */
function env(name: string): string | undefined {
  const scope = globalThis as { Netlify?: { env: Env }; Deno?: { env: Env } };
  return (scope.Netlify?.env ?? scope.Deno?.env)?.get(name);
}

export default (request: Request, context: Context): Promise<Response> =>
  handleLinkPreview(request, () => context.next(), env('HANGPLAN_API_URL') ?? '');

// `/l/*`: the handler passes every other path under it (/l/{slug}/dashboard)
// through untouched. `onError: 'bypass'`: if the function itself fails, the
// host serves the page as built.
export const config = { path: '/l/*', method: ['GET', 'HEAD'], onError: 'bypass' };
