// The head of a plan's link page, /l/{slug}: the built index.html with its
// generic Open Graph and Twitter block (web/index.html) replaced by the plan's
// card (docs/web-app.md "The link page's head", docs/decisions/0107-the-head-in-production.md).
// Pure: a string in, a string out. Only the <head>'s card tags and <title>
// change; the body (the prerendered first paint) is never touched, and
// nothing but <meta> tags is added (no inline script or style: the strict
// CSP of docs/headers.md).
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, type LinkPreview } from '../../supabase/functions/_shared/contract/previews.ts';
import { escapeHtml } from '../../supabase/functions/_shared/contract/text.ts';

/** The app's name, after a plan's title in <title>. */
export const APP_NAME = 'Hangplan';

/** Where the page was asked for: the origin the chat saw and the plan's slug. */
export interface PageAddress {
  /** `https://hangplan.example` (no trailing slash). */
  origin: string;
  slug: string;
}

/** The card's tags (Open Graph, Twitter) and <title>, indented as in web/index.html. */
export function cardTags(address: PageAddress, card: LinkPreview, indent = '    '): string {
  const url = `${address.origin}/l/${encodeURIComponent(address.slug)}`;
  const image = new URL(card.image, `${address.origin}/`).href;
  const title = card.previewDetails ? `${card.title} · ${APP_NAME}` : APP_NAME;
  const property = (name: string, value: string) => `<meta property="${name}" content="${escapeHtml(value)}" />`;
  const named = (name: string, value: string) => `<meta name="${name}" content="${escapeHtml(value)}" />`;
  return [
    property('og:type', 'website'),
    property('og:site_name', APP_NAME),
    property('og:title', card.title),
    property('og:description', card.description),
    property('og:url', url),
    property('og:image', image),
    property('og:image:type', 'image/png'),
    property('og:image:width', String(PREVIEW_WIDTH)),
    property('og:image:height', String(PREVIEW_HEIGHT)),
    property('og:image:alt', card.imageAlt),
    named('twitter:card', 'summary_large_image'),
    named('twitter:title', card.title),
    named('twitter:description', card.description),
    named('twitter:image', image),
    named('twitter:image:alt', card.imageAlt),
    `<title>${escapeHtml(title)}</title>`,
  ].join(`\n${indent}`);
}

// The generic block's tags: every og:* and twitter:* <meta>, and the <title>,
// each with the line's indentation before it (removed with it).
const CARD_TAG = /(\n[ \t]*)?(?:<meta\s+(?:property="og:[^"]*"|name="twitter:[^"]*")[^>]*>|<title>[^<]*<\/title>)/g;

/**
 * `html` (the built index.html) with the generic card's tags replaced by the
 * plan's, in the place of the first of them; `card` null: `html` as it is.
 * Only the part before </head> is searched, so the body is never touched. A
 * page without an og:title (not the app's index.html) is returned as it is.
 */
export function fillHead(html: string, address: PageAddress, card: LinkPreview | null): string {
  if (!card) return html;
  const end = html.indexOf('</head>');
  if (end < 0) return html;
  const head = html.slice(0, end);
  if (!/<meta\s+property="og:title"/.test(head)) return html;
  let first = true;
  const filled = head.replace(CARD_TAG, (_tag, newline: string | undefined) => {
    if (!first) return '';
    first = false;
    const indent = (newline ?? '').replace('\n', '');
    return `${newline ?? ''}${cardTags(address, card, indent || '    ')}`;
  });
  return filled + html.slice(end);
}
