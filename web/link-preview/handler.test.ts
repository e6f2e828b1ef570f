// The handler against a real HTTP server standing in for the API's card route
// (every answer it can give: a card, 404, the wrong shape, not JSON, none in
// time), with `next` the page a host would serve. The API itself is in
// e2e/previews.spec.ts.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { linkPreviewOf } from '../../supabase/functions/_shared/contract/previews.ts';
import { fetchCard, handleLinkPreview, linkSlug } from './handler.ts';

const page = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
const CSP = "default-src 'none'; script-src 'self'";
const SLUG = 'AbCdEfGh1234';
const card = linkPreviewOf(
  SLUG,
  '7',
  { title: 'Ramen night', status: 'planning', hostName: 'Hana Sato', date: null, eventTime: null, period: null, location: null, going: 0 },
  true,
);

// What the stand-in API answers for each slug.
const answers: Record<string, (res: ServerResponse) => void> = {
  [SLUG]: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card)),
  Missing12345: (res) => res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Plan not found' })),
  WrongShape12: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ title: 42 })),
  NotJson12345: (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>'),
  Broken123456: (res) => res.writeHead(500).end(),
  Silent123456: () => {}, // never answers
};
const asked: string[] = [];
const held: ServerResponse[] = [];
let api: ReturnType<typeof createServer>;
let apiBase = '';

beforeAll(async () => {
  api = createServer((req: IncomingMessage, res: ServerResponse) => {
    asked.push(req.url ?? '');
    const slug = /^\/functions\/v1\/api\/plans\/slug\/([^/]+)\/preview$/.exec(req.url ?? '')?.[1];
    const answer = slug ? answers[slug] : undefined;
    if (!answer) return void res.writeHead(404).end();
    if (slug === 'Silent123456') held.push(res);
    answer(res);
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}/functions/v1/api`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise<void>((resolve) => api.close(() => resolve()));
});
beforeEach(() => {
  asked.length = 0;
});

/** The static page with a host's headers (as _headers gives them). */
const next = async () =>
  new Response(page, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, etag: '"static-1"', 'last-modified': 'Mon, 01 Dec 2025 00:00:00 GMT' },
  });
const get = (path: string, init: RequestInit = {}) => new Request(`https://hangplan.example${path}`, init);

describe('linkSlug', () => {
  it('the slug of /l/{slug} alone, well-formed', () => {
    expect(linkSlug(`/l/${SLUG}`)).toBe(SLUG);
    expect(linkSlug(`/l/${SLUG}/`)).toBe(SLUG);
    expect(linkSlug(`/l/${SLUG}/dashboard`)).toBeNull();
    expect(linkSlug('/l/short')).toBeNull();
    expect(linkSlug('/l/has%20space12')).toBeNull();
    expect(linkSlug(`/l/${'a'.repeat(65)}`)).toBeNull();
    expect(linkSlug(`/plan/${SLUG}`)).toBeNull();
  });
});

describe('handleLinkPreview', () => {
  it("fills the head with the plan's card, keeps the host's headers, fixes Content-Length, drops the static validators", async () => {
    const response = await handleLinkPreview(get(`/l/${SLUG}`), next, apiBase);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('<meta property="og:title" content="Ramen night" />');
    expect(html).toContain('<meta property="og:url" content="https://hangplan.example/l/AbCdEfGh1234" />');
    expect(html).toContain('<meta property="og:image" content="https://hangplan.example/api/plans/slug/AbCdEfGh1234/preview.png?v=7" />');
    expect(html).toContain('<title>Ramen night · Hangplan</title>');
    expect(html.slice(html.indexOf('</head>'))).toBe(page.slice(page.indexOf('</head>')));
    expect(response.headers.get('content-security-policy')).toBe(CSP);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-length')).toBe(String(new TextEncoder().encode(html).byteLength));
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('last-modified')).toBeNull();
    expect(asked).toEqual([`/functions/v1/api/plans/slug/${SLUG}/preview`]);
  });

  it('the same page for every user agent', async () => {
    const agents = ['WhatsApp/2.23.20.0', 'Slackbot-LinkExpanding 1.0', 'TelegramBot (like TwitterBot)', 'Mozilla/5.0 (Windows NT 10.0) Chrome/120'];
    const pages = await Promise.all(agents.map(async (ua) => (await handleLinkPreview(get(`/l/${SLUG}`, { headers: { 'user-agent': ua } }), next, apiBase)).text()));
    expect(new Set(pages).size).toBe(1);
    expect(pages[0]).toContain('og:title" content="Ramen night"');
  });

  it('HEAD: the filled page\'s headers, no body', async () => {
    const full = await handleLinkPreview(get(`/l/${SLUG}`), next, apiBase);
    const head = await handleLinkPreview(get(`/l/${SLUG}`, { method: 'HEAD' }), next, apiBase);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(full.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  it.each([
    ['an unknown plan (404)', 'Missing12345'],
    ['an answer of the wrong shape', 'WrongShape12'],
    ['an answer that is not JSON', 'NotJson12345'],
    ['a failing API (500)', 'Broken123456'],
    ['no answer in time', 'Silent123456'],
  ])('%s: the page exactly as the host gave it', async (_case, slug) => {
    const response = await handleLinkPreview(get(`/l/${slug}`), next, apiBase, 200);
    const expected = await next();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(page);
    expect([...response.headers]).toEqual([...expected.headers]);
    expect(asked).toEqual([`/functions/v1/api/plans/slug/${slug}/preview`]);
  });

  it('an API that is not there: the page as given', async () => {
    const response = await handleLinkPreview(get(`/l/${SLUG}`), next, 'http://127.0.0.1:9/functions/v1/api');
    expect(await response.text()).toBe(page);
  });

  it('no API configured: the page as given, nothing asked', async () => {
    expect(await (await handleLinkPreview(get(`/l/${SLUG}`), next, '')).text()).toBe(page);
    expect(asked).toEqual([]);
  });

  it.each([
    ['a malformed slug', get('/l/bad!slug!!')],
    ['a short slug', get('/l/abc')],
    ['another page of the plan', get(`/l/${SLUG}/dashboard`)],
    ['another path', get('/')],
    ['a POST', get(`/l/${SLUG}`, { method: 'POST', body: '{}' })],
  ])('%s: passed through, the API never asked', async (_case, request) => {
    const response = await handleLinkPreview(request, next, apiBase);
    expect(await response.text()).toBe(page);
    expect(asked).toEqual([]);
  });

  it("a host's answer that is not the page (a 404, another type, compressed): as given", async () => {
    const notFound = async () => new Response('gone', { status: 404, headers: { 'content-type': 'text/html' } });
    expect((await handleLinkPreview(get(`/l/${SLUG}`), notFound, apiBase)).status).toBe(404);
    const text = async () => new Response(page, { headers: { 'content-type': 'text/plain' } });
    expect(await (await handleLinkPreview(get(`/l/${SLUG}`), text, apiBase)).text()).toBe(page);
    const gzip = async () => new Response(page, { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' } });
    expect((await handleLinkPreview(get(`/l/${SLUG}`), gzip, apiBase)).headers.get('content-encoding')).toBe('gzip');
  });

  it('requests for the same card at the same time share one fetch; a later one asks again', async () => {
    const pages = await Promise.all([1, 2, 3].map(async () => (await handleLinkPreview(get(`/l/${SLUG}`), next, apiBase)).text()));
    expect(pages.every((html) => html.includes('og:title" content="Ramen night"'))).toBe(true);
    expect(asked).toEqual([`/functions/v1/api/plans/slug/${SLUG}/preview`]);
    await handleLinkPreview(get(`/l/${SLUG}`), next, apiBase);
    expect(asked).toHaveLength(2);
  });

  it('fetchCard: the card, or null', async () => {
    expect(await fetchCard(apiBase, SLUG)).toEqual(card);
    expect(await fetchCard(`${apiBase}/`, SLUG)).toEqual(card);
    expect(await fetchCard(apiBase, 'Missing12345')).toBeNull();
  });
});
