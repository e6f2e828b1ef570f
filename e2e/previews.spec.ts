import type { APIResponse } from '@playwright/test';
import { startNetlifyEdge } from '../scripts/lib/netlify-edge.ts';
import { check, phonePage } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiPost, signInViaApi, uniqueEmail } from './support.ts';

// A plan's link pasted into a chat (docs/web-app.md "The link page's head",
// docs/decisions/0107-the-head-in-production.md): every chat app's crawler,
// and a browser, get the page with the plan's card in its head, the same for
// each; an unknown link gets the page as built (the generic card); the
// static host's edge function, run as Netlify runs it, answers the same
// page; and the browser on that link joins as always.

const AGENTS: Record<string, string> = {
  WhatsApp: 'WhatsApp/2.23.20.0 A',
  Slackbot: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  Telegram: 'TelegramBot (like TwitterBot)',
  Discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  facebookexternalhit: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  Twitterbot: 'Twitterbot/1.0',
  browser: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
};

const web = process.env.E2E_WEB_URL!;
const apiUrl = `http://127.0.0.1:${Number(process.env.E2E_BASE_PORT) + 2}/functions/v1/api`;

const NAMED: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };
const unescape = (text: string) =>
  text.replace(/&(?:#(\d+)|([a-z]+));/g, (_, code?: string, name?: string) => (code ? String.fromCharCode(Number(code)) : NAMED[name!]!));

/** The head's card: each og:* / twitter:* tag's content (unescaped) and the <title>. */
function cardOf(html: string): Record<string, string> {
  const head = html.slice(0, html.indexOf('</head>'));
  const tags: Record<string, string> = {};
  for (const m of head.matchAll(/<meta\s+(?:property|name)="((?:og|twitter):[^"]+)"\s+content="([^"]*)"\s*\/?>/g)) {
    expect(tags[m[1]!], `${m[1]} once`).toBeUndefined();
    tags[m[1]!] = unescape(m[2]!);
  }
  tags.title = unescape(/<title>([^<]*)<\/title>/.exec(head)?.[1] ?? '');
  return tags;
}

async function page(response: APIResponse): Promise<string> {
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/html/);
  // The page keeps the static host's headers: the strict CSP first.
  expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
  return response.text();
}

test("every chat app and a browser get the plan's card; an unknown link the generic one; the browser joins", async ({ browser, request }) => {
  const hostPage = await (await browser.newContext()).newPage();
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Sato' });
  const plan = await apiPost<{ id: string; slug: string }>('/api/plans', { title: 'Ramen & karaoke "night"', isOpenInvite: true }, hostToken);
  const card = (await (await request.get(`/api/plans/slug/${plan.slug}/preview`)).json()) as { image: string; version: string };
  const link = `/l/${plan.slug}`;

  const pages: string[] = [];
  for (const [app, agent] of Object.entries(AGENTS)) {
    const html = await page(await request.get(link, { headers: { 'user-agent': agent } }));
    expect(cardOf(html), app).toEqual({
      'og:type': 'website',
      'og:site_name': 'Hangplan',
      'og:title': 'Ramen & karaoke "night"',
      'og:description': 'Hana wants to hang out. Suggest ideas and vote on dates.',
      'og:url': `${web}${link}`,
      'og:image': `${web}${card.image}`,
      'og:image:type': 'image/png',
      'og:image:width': '1200',
      'og:image:height': '630',
      'og:image:alt': 'Ramen & karaoke "night": Hana wants to hang out. Suggest ideas and vote on dates.',
      'twitter:card': 'summary_large_image',
      'twitter:title': 'Ramen & karaoke "night"',
      'twitter:description': 'Hana wants to hang out. Suggest ideas and vote on dates.',
      'twitter:image': `${web}${card.image}`,
      'twitter:image:alt': 'Ramen & karaoke "night": Hana wants to hang out. Suggest ideas and vote on dates.',
      title: 'Ramen & karaoke "night" · Hangplan',
    });
    pages.push(html);
  }
  // The same page for every user agent.
  expect(new Set(pages).size).toBe(1);
  expect(card.image).toBe(`/api/plans/slug/${plan.slug}/preview.png?v=${card.version}`);
  // The absolute og:image answers the plan's picture: a PNG of 1200 x 630 (its IHDR).
  const picture = await request.get(cardOf(pages[0]!)['og:image']!, { headers: { 'user-agent': AGENTS.WhatsApp! } });
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/png');
  const png = await picture.body();
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);

  // A link to no plan: the page exactly as built (the landing page's bytes), the generic card.
  const built = await page(await request.get('/'));
  const unknown = await page(await request.get('/l/NoSuchPlan404'));
  expect(unknown).toBe(built);
  expect(cardOf(unknown)['og:title']).toBe('Hangplan');
  expect(cardOf(unknown)['og:url']).toBeUndefined();
  // The body of the plan's page is the build's (its prerendered first paint).
  expect(pages[0]!.slice(pages[0]!.indexOf('</head>'))).toBe(built.slice(built.indexOf('</head>')));

  // The host turns details off: the generic card, on this link.
  await apiPost(`/api/plans/${plan.id}/preview-details`, { previewDetails: false }, hostToken);
  const hidden = cardOf(await page(await request.get(link, { headers: { 'user-agent': AGENTS.WhatsApp! } })));
  expect(hidden).toMatchObject({ 'og:title': 'Hangplan', 'og:url': `${web}${link}`, 'og:image': `${web}/og-image.png`, title: 'Hangplan' });
  expect(JSON.stringify(hidden)).not.toContain('Ramen');
  await apiPost(`/api/plans/${plan.id}/preview-details`, { previewDetails: true }, hostToken);

  // The same link opened in a browser: the join page, and the guest joins as always.
  const guest = await (await browser.newContext()).newPage();
  await guest.goto(link);
  await expect(guest.getByRole('heading', { level: 1, name: 'Ramen & karaoke "night"' })).toBeVisible();
  await guest.getByLabel("What's your name?").fill('Sam');
  await guest.getByRole('button', { name: 'Continue' }).click();
  await expect(guest.getByText("You've joined the planning session")).toBeVisible();
  await expect(guest).toHaveURL(new RegExp(`/l/${plan.slug}/dashboard`));
});

test('the Netlify edge function, run as the host runs it, answers the same page from the build and the API', async ({ browser, request }) => {
  const hostPage = await (await browser.newContext()).newPage();
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Kenji', lastName: 'Mori' });
  const plan = await apiPost<{ slug: string }>('/api/plans', { title: 'Café Zürich — Łódź trip', isOpenInvite: true }, hostToken);
  const link = `/l/${plan.slug}`;
  const edge = await startNetlifyEdge(process.env.E2E_WEB_DIR!, apiUrl);
  try {
    const preview = await page(await request.get(link));
    const fromEdge = await page(await request.get(`${edge.url}${link}`, { headers: { 'user-agent': AGENTS.facebookexternalhit! } }));
    expect(cardOf(fromEdge)['og:title']).toBe('Café Zürich — Łódź trip');
    expect(cardOf(fromEdge)['og:url']).toBe(`${edge.url}${link}`);
    // The same page as the preview server's, but for the origin it was asked on.
    expect(fromEdge.replaceAll(edge.url, web)).toBe(preview);
    // A link to no plan, and the plan's other pages: the page as built.
    const built = await page(await request.get(`${edge.url}/`));
    expect(await page(await request.get(`${edge.url}/l/NoSuchPlan404`))).toBe(built);
    expect(await page(await request.get(`${edge.url}${link}/dashboard`))).toBe(built);
  } finally {
    await edge.service.stop();
  }
});

// The share page's "Link preview" (docs/web-app.md "Link preview"): the card
// as a chat shows it, and the host's switch; axe clean in both schemes.
test.describe('share page', () => {
  test('the host turns details off and on, the preview follows; others see the card but no switch', async ({ browser }) => {
    const hostPage = await phonePage(browser);
    const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
    const plan = await apiPost<{ id: string; slug: string }>('/api/plans', { title: 'Ramen night', isOpenInvite: true }, hostToken);

    await hostPage.goto(`/plan/${plan.id}/share`);
    const preview = hostPage.getByRole('region', { name: 'Link preview' });
    const line = 'Hana wants to hang out. Suggest ideas and vote on dates.';
    const picture = preview.getByRole('img', { name: `Ramen night: ${line}` });
    await expect(picture).toHaveAttribute('src', new RegExp(`^/api/plans/slug/${plan.slug}/preview\\.png\\?v=`));
    await expect(preview.getByText('Ramen night', { exact: true })).toBeVisible();
    await expect(preview.getByText(line, { exact: true })).toBeVisible();
    const details = preview.getByRole('switch', { name: 'Show details in link previews' });
    await expect(details).toBeChecked();
    await check(hostPage, 'share page, link preview with details', details);

    // Off: the generic card at once, and so it stays after a reload.
    await details.click();
    await expect(details).not.toBeChecked();
    const generic = preview.getByRole('img', { name: 'Hangplan: turn "we should hang out" into a real plan.' });
    await expect(generic).toHaveAttribute('src', '/og-image.png');
    await expect(preview.getByText('Ramen night', { exact: true })).toBeHidden();
    await expect(details).toBeEnabled();
    await expect.poll(() => generic.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
    await check(hostPage, 'share page, generic link preview', details);
    await hostPage.reload();
    await expect(details).not.toBeChecked();
    await expect(generic).toBeVisible();

    // A member sees the same card, and no switch.
    const memberPage = await phonePage(browser);
    const memberToken = await signInViaApi(memberPage, uniqueEmail('member'), { firstName: 'Mo', lastName: 'Member' });
    await apiPost(`/api/plans/${plan.id}/join`, { slug: plan.slug }, memberToken);
    await memberPage.goto(`/plan/${plan.id}/share`);
    const memberPreview = memberPage.getByRole('region', { name: 'Link preview' });
    await expect(memberPreview.getByRole('img', { name: 'Hangplan: turn "we should hang out" into a real plan.' })).toBeVisible();
    await expect(memberPreview.getByRole('switch')).toHaveCount(0);

    // On again: the plan's card comes back, for the host and, live, for the member.
    await details.click();
    await expect(details).toBeChecked();
    await expect(picture).toBeVisible();
    await expect(preview.getByText(line, { exact: true })).toBeVisible();
    await expect(memberPreview.getByRole('img', { name: `Ramen night: ${line}` })).toBeVisible();
    await memberPage.context().close();
  });
});
