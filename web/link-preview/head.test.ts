import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkPreviewOf, type LinkPreview, type PreviewFacts } from '../../supabase/functions/_shared/contract/previews.ts';
import { escapeHtml } from '../../supabase/functions/_shared/contract/text.ts';
import { cardTags, fillHead } from './head.ts';

// The page as the repository writes it, with a body standing in for the
// prerendered shells: a <title> and card-like tags there must stay as they are.
const source = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
const page = source.replace(
  '<!-- shells -->',
  '<template id="shell-join"><title>Hangplan</title><meta property="og:title" content="body" /><h1>Join the Plan</h1></template>',
);
const address = { origin: 'https://hangplan.example', slug: 'AbCdEfGh1234' };

const facts: PreviewFacts = {
  title: 'Ramen night',
  status: 'date_locked',
  hostName: 'Hana Sato',
  date: '2026-12-05',
  eventTime: '7:30 PM',
  period: null,
  location: 'Kenji Ramen',
  going: 5,
};
const card = (over: Partial<PreviewFacts> = {}, details = true): LinkPreview =>
  linkPreviewOf(address.slug, '12', { ...facts, ...over }, details);

const headOf = (html: string) => html.slice(0, html.indexOf('</head>'));
const bodyOf = (html: string) => html.slice(html.indexOf('</head>'));
const NAMED: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };
const unescape = (text: string) =>
  text.replace(/&(?:#(\d+)|([a-z]+));/g, (_, code?: string, name?: string) => (code ? String.fromCharCode(Number(code)) : NAMED[name!]!));
/** The content of every <meta> with this property or name in the head, unescaped. */
function meta(html: string, key: string): string[] {
  const found: string[] = [];
  const tag = /<meta\s+(?:property|name)="([^"]+)"\s+content="([^"]*)"\s*\/?>/g;
  for (const m of headOf(html).matchAll(tag)) {
    if (m[1] === key) found.push(unescape(m[2]!));
  }
  return found;
}
const titleOf = (html: string) => [...headOf(html).matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);

describe('fillHead: the plan card in the head of /l/{slug}', () => {
  it("puts the plan's card in place of the generic one, each tag once", () => {
    const html = fillHead(page, address, card());
    expect(meta(html, 'og:title')).toEqual(['Ramen night']);
    expect(meta(html, 'og:description')).toEqual(['Saturday, December 5 at 7:30 PM, Kenji Ramen · 5 going']);
    expect(meta(html, 'og:url')).toEqual(['https://hangplan.example/l/AbCdEfGh1234']);
    expect(meta(html, 'og:image')).toEqual(['https://hangplan.example/api/plans/slug/AbCdEfGh1234/preview.png?v=12']);
    expect(meta(html, 'og:image:type')).toEqual(['image/png']);
    expect(meta(html, 'og:image:width')).toEqual(['1200']);
    expect(meta(html, 'og:image:height')).toEqual(['630']);
    expect(meta(html, 'og:image:alt')).toEqual(['Ramen night: Saturday, December 5 at 7:30 PM, Kenji Ramen · 5 going']);
    expect(meta(html, 'og:type')).toEqual(['website']);
    expect(meta(html, 'og:site_name')).toEqual(['Hangplan']);
    expect(meta(html, 'twitter:card')).toEqual(['summary_large_image']);
    expect(meta(html, 'twitter:title')).toEqual(['Ramen night']);
    expect(meta(html, 'twitter:description')).toEqual(['Saturday, December 5 at 7:30 PM, Kenji Ramen · 5 going']);
    expect(meta(html, 'twitter:image')).toEqual(['https://hangplan.example/api/plans/slug/AbCdEfGh1234/preview.png?v=12']);
    expect(titleOf(html)).toEqual(['Ramen night · Hangplan']);
    // The rest of the head is the page's own, in its order.
    expect(meta(html, 'description')).toEqual(meta(page, 'description'));
    expect(headOf(html)).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(headOf(html).indexOf('og:title')).toBeGreaterThan(headOf(html).indexOf('apple-mobile-web-app-title'));
    expect(headOf(html).indexOf('<title>')).toBeLessThan(headOf(html).indexOf('<style>'));
  });

  it('says where the plan stands: planning, cancelled', () => {
    expect(meta(fillHead(page, address, card({ status: 'planning', date: null })), 'og:description')).toEqual([
      'Hana wants to hang out. Suggest ideas and vote on dates.',
    ]);
    expect(meta(fillHead(page, address, card({ status: 'cancelled' })), 'og:description')).toEqual(['Cancelled']);
  });

  it('never touches the body (the prerendered first paint)', () => {
    const html = fillHead(page, address, card());
    expect(bodyOf(html)).toBe(bodyOf(page));
    expect(html).not.toBe(page);
  });

  it('adds no script and no style: only <meta> tags and the <title> change (the strict CSP)', () => {
    const html = fillHead(page, address, card({ title: 'Picnic' }));
    const count = (text: string, what: RegExp) => (text.match(what) ?? []).length;
    expect(count(html, /<script\b/g)).toBe(count(page, /<script\b/g));
    expect(count(html, /<style\b/g)).toBe(count(page, /<style\b/g));
    expect(count(html, /\son[a-z]+=/gi)).toBe(count(page, /\son[a-z]+=/gi));
  });

  it("keeps a hostile title text: '\"><script>' and the like are escaped in every tag", () => {
    const hostile = `"><script>alert(1)</script><meta property='og:title' content='x'> & Tom's`;
    const html = fillHead(page, address, card({ title: hostile, location: '<img src=x onerror=alert(1)>' }));
    expect(headOf(html)).not.toContain('<script>alert');
    expect(headOf(html)).not.toContain('<img');
    expect(headOf(html)).not.toContain(`content='x'`);
    expect(meta(html, 'og:title')).toEqual([hostile]);
    expect(meta(html, 'twitter:title')).toEqual([hostile]);
    expect(meta(html, 'og:description')[0]).toContain('<img src=x onerror=alert(1)>');
    expect(titleOf(html)).toEqual([`${escapeHtml(hostile)} · Hangplan`]);
    expect((headOf(html).match(/<script\b/g) ?? []).length).toBe((headOf(page).match(/<script\b/g) ?? []).length);
  });

  it('with details off, the generic card with an absolute image and this link', () => {
    const html = fillHead(page, address, card({}, false));
    expect(meta(html, 'og:title')).toEqual(['Hangplan']);
    expect(meta(html, 'og:description')).toEqual(meta(page, 'og:description'));
    expect(meta(html, 'og:image')).toEqual(['https://hangplan.example/og-image.png']);
    expect(meta(html, 'og:url')).toEqual(['https://hangplan.example/l/AbCdEfGh1234']);
    expect(titleOf(html)).toEqual(['Hangplan']);
    expect(html).not.toContain('Ramen');
  });

  it('no card: the page exactly as given', () => {
    expect(fillHead(page, address, null)).toBe(page);
  });

  it('a page without the generic card (not the app): as given', () => {
    const other = '<!doctype html><html><head><title>Other</title></head><body></body></html>';
    expect(fillHead(other, address, card())).toBe(other);
    expect(fillHead('no head at all', address, card())).toBe('no head at all');
  });

  it('cardTags: one tag a line, at the indentation given', () => {
    const lines = cardTags(address, card(), '  ').split('\n');
    expect(lines).toHaveLength(16);
    expect(lines.slice(1).every((line) => line.startsWith('  <'))).toBe(true);
  });
});
