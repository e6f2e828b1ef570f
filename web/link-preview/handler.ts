// The one code every host runs for a plan's link page, /l/{slug}: the Vite
// plugin under `npm start` and `vite preview` (web/link-preview/vite.ts), and
// the static host's edge function in production
// (web/hosting/netlify/edge-functions/link-preview.ts). It asks the API for
// the plan's card while the host reads index.html, and fills the page's head
// with it (head.ts). Whatever goes wrong (no such plan, a slow or broken API,
// an answer of the wrong shape), the page is exactly what the host gave: the
// generic card, and the app shows its not-found screen as it always did
// (docs/decisions/0107-the-head-in-production.md). The same head for every
// user agent: some chat apps fetch with a browser's.
// Web APIs only (fetch, Request, Response): it runs under Node and Deno alike.
import { SLUG_PATTERN } from '../../supabase/functions/_shared/contract/common.ts';
import { linkPreviewSchema, type LinkPreview } from '../../supabase/functions/_shared/contract/previews.ts';
import { fillHead } from './head.ts';

/**
 * How long the page waits for the card, in ms. A crawler waits a few seconds
 * for the whole page; past this it gets the generic card rather than none.
 */
export const CARD_TIMEOUT_MS = 2_000;

/** The slug of a link page's path, `/l/{slug}` (a trailing slash allowed); null for any other path or a malformed slug. */
export function linkSlug(pathname: string): string | null {
  const match = /^\/l\/([^/]+)\/?$/.exec(pathname);
  return match && SLUG_PATTERN.test(match[1]!) ? match[1]! : null;
}

/**
 * The plan's card from `{apiBase}/plans/slug/{slug}/preview`
 * (docs/api.md "Link previews"); null on any answer but a 200 with a card,
 * on a timeout, or on any error.
 */
export async function fetchCard(apiBase: string, slug: string, timeoutMs = CARD_TIMEOUT_MS): Promise<LinkPreview | null> {
  try {
    const response = await fetch(`${apiBase.replace(/\/+$/, '')}/plans/slug/${encodeURIComponent(slug)}/preview`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return null;
    }
    const parsed = linkPreviewSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

// The cards being fetched, by API and slug: a link pasted into a busy chat
// is fetched by many crawlers at once, and those that come while its card is
// on its way wait for that answer instead of asking again. An answer is
// never older than the first of them (nothing is kept once it is in).
const inFlight = new Map<string, Promise<LinkPreview | null>>();

/** fetchCard, shared by the requests for the same card at the same time. */
export function sharedCard(apiBase: string, slug: string, timeoutMs = CARD_TIMEOUT_MS): Promise<LinkPreview | null> {
  const key = `${apiBase} ${slug}`;
  let card = inFlight.get(key);
  if (!card) {
    card = fetchCard(apiBase, slug, timeoutMs).finally(() => inFlight.delete(key));
    inFlight.set(key, card);
  }
  return card;
}

const isHtml = (response: Response) => /^text\/html\b/i.test(response.headers.get('content-type') ?? '');
const isEncoded = (response: Response) => !/^(identity)?$/i.test(response.headers.get('content-encoding') ?? '');

/**
 * The answer to `request`: for GET or HEAD of `/l/{slug}` with a well-formed
 * slug, `next()` (the page the host would serve) with the plan's card in its
 * head; every other request, and every failure, gets `next()` as it is.
 * `next` is called at once, in parallel with the card's fetch.
 */
export async function handleLinkPreview(
  request: Request,
  next: () => Promise<Response>,
  apiBase: string,
  timeoutMs = CARD_TIMEOUT_MS,
): Promise<Response> {
  const url = new URL(request.url);
  const slug = request.method === 'GET' || request.method === 'HEAD' ? linkSlug(url.pathname) : null;
  if (!slug || !apiBase) return next();
  const [page, card] = await Promise.all([next(), sharedCard(apiBase, slug, timeoutMs)]);
  if (!card || page.status !== 200 || !isHtml(page) || isEncoded(page) || !page.body) return page;
  const bytes = new Uint8Array(await page.arrayBuffer());
  const html = new TextDecoder().decode(bytes);
  const filled = fillHead(html, { origin: url.origin, slug }, card);
  const headers = new Headers(page.headers);
  if (filled === html) return new Response(request.method === 'HEAD' ? null : bytes, { status: page.status, statusText: page.statusText, headers });
  const body = new TextEncoder().encode(filled);
  headers.set('content-length', String(body.byteLength));
  // The static file's validators describe the generic page, not this one: a
  // 304 on them would keep a card that has changed since.
  headers.delete('etag');
  headers.delete('last-modified');
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, statusText: page.statusText, headers });
}
