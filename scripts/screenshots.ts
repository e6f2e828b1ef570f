// `npm run screenshots`: starts the whole stack on free ports with a throwaway
// database (like the e2e run), seeds a realistic story through the API, and
// captures every screen at phone size into docs/screenshots/<nn>-<screen>.png.
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { ROOT, tempDataDir } from './lib/db.ts';
import { startStack } from './lib/stack.ts';

const OUT = path.join(ROOT, 'docs/screenshots');
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** Five consecutive free ports (web, db, api, mail, smtp). */
async function freeBase(): Promise<number> {
  const isFree = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 56000 + Math.floor(Math.random() * 1800) * 5;
    const checks = await Promise.all([0, 1, 2, 3, 4].map((i) => isFree(base + i)));
    if (checks.every(Boolean)) return base;
  }
  throw new Error('no five free ports found');
}

/** 'YYYY-MM-DD' of the local day `days` from today. */
function localDate(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const base = await freeBase();
const web = `http://localhost:${base}`;
const mailUrl = `http://127.0.0.1:${base + 3}`;

// The secrets of the guests made here (POST /api/guest-session answers one),
// sent as X-Guest-Secret with the calls that name that guest, as the app does.
const guestSecrets = new Map<string, string>();

async function call<T>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
  const guestId = (body as { guestId?: unknown } | undefined)?.guestId;
  const secret = typeof guestId === 'string' ? guestSecrets.get(guestId) : undefined;
  const res = await fetch(`${web}${route}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(secret ? { 'x-guest-secret': secret } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
  const answer = (res.status === 204 ? null : await res.json()) as T;
  const guest = answer as { id?: unknown; secret?: unknown } | null;
  if (typeof guest?.id === 'string' && typeof guest.secret === 'string') guestSecrets.set(guest.id, guest.secret);
  return answer;
}
const post = <T = unknown>(route: string, body: unknown, token?: string) => call<T>('POST', route, body, token);

async function codeFor(email: string): Promise<string> {
  for (let i = 0; i < 60; i++) {
    const mails = (await (await fetch(`${mailUrl}/email`)).json()) as Array<{ to: Array<{ address: string }>; text?: string; date: string }>;
    const mine = mails
      .filter((m) => m.to.some((t) => t.address.toLowerCase() === email))
      .sort((a, b) => new Date(b.date).getTime() - new Date(a.date).getTime());
    const code = mine[0]?.text?.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no sign-in code for ${email}`);
}

async function signIn(email: string, firstName: string, lastName: string): Promise<string> {
  await post('/api/auth/send-otp', { email });
  const { token } = await post<{ token: string }>('/api/auth/verify-otp', { email, code: await codeFor(email) });
  await call('PATCH', '/api/auth/profile', { firstName, lastName, email }, token);
  return token;
}

async function context(browser: Browser, storage: Record<string, string> = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext({ ...PHONE, baseURL: web, reducedMotion: 'reduce' });
  await ctx.addInitScript((items) => {
    for (const [key, value] of Object.entries(items)) if (!localStorage.getItem(key)) localStorage.setItem(key, value);
  }, storage);
  return ctx;
}

let shots = 0;
const produced: string[] = [];
/** Waits for the screen to settle, then saves the visible phone screen. */
async function shoot(page: Page, file: string, ready: string | RegExp, scrollTo?: (page: Page) => Locator) {
  await page.getByText(ready).first().waitFor({ state: 'visible', timeout: 15_000 });
  // Not 'networkidle': an app with a service worker and live updates may keep
  // a connection open for as long as the page lives. The screen names what it
  // waits for (`ready`), and the reads behind it have answered by then.
  await page.waitForLoadState('load');
  if (scrollTo) {
    // Into view below the sticky header, clear of the bottom navigation.
    await scrollTo(page).first().evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
  }
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  const name = `${file}.png`;
  await page.screenshot({ path: path.join(OUT, name), animations: 'disabled', caret: 'hide' });
  produced.push(name);
  shots++;
}

console.log('Starting the stack (build + preview)...');
const stack = await startStack({
  dataDir: tempDataDir('screenshots'),
  persistent: false,
  ports: { web: base, db: base + 1, api: base + 2, mail: base + 3, smtp: base + 4 },
  web: 'preview',
  jwtSecret: 'screenshots-secret-that-is-long-enough-0123456789',
  quiet: !process.env.DEBUG_STACK,
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});

try {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });

  // The story: Hana plans a birthday dinner with Milo (an account) and Gail (a guest).
  console.log('Seeding the story...');
  const hana = await signIn('hana@example.com', 'Hana', 'Host');
  const milo = await signIn('milo@example.com', 'Milo', 'Martins');
  for (const text of ['Sushi', 'Board games', 'Hiking']) await post('/api/users/me/interests', { freeFormText: text }, hana);
  await post('/api/plans', { title: 'Climbing after work', isOpenInvite: true }, hana);
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: "Mia's birthday dinner", isOpenInvite: true }, hana);
  await post(`/api/plans/${plan.id}/join`, { name: 'Milo Martins' }, milo);
  const gail = await post<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Gail Green', planId: plan.id });
  const ramen = await post<{ id: string }>(`/api/plans/${plan.id}/ideas`, { text: 'Ramen at Kenji' }, hana);
  const tacos = await post<{ id: string }>(`/api/plans/${plan.id}/ideas`, { text: 'Tacos on the pier' }, milo);
  await post(`/api/plans/${plan.id}/ideas`, { text: 'Rooftop pizza', guestId: gail.id, authorName: gail.name });
  await post(`/api/ideas/${ramen.id}/vote`, {}, hana);
  await post(`/api/ideas/${ramen.id}/vote`, {}, milo);
  await post(`/api/ideas/${ramen.id}/vote`, { guestId: gail.id });
  await post(`/api/ideas/${tacos.id}/vote`, {}, milo);
  await post(`/api/ideas/${ramen.id}/comments`, { text: 'They do a great birthday dessert!' }, milo);
  for (const [days, voter] of [[2, hana], [2, milo], [3, milo], [5, hana]] as const) {
    await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(days) }, voter);
  }
  await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(2), guestId: gail.id });
  await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(3), guestId: gail.id });

  console.log('Capturing...');
  const visitor = await (await context(browser)).newPage();
  await visitor.goto('/');
  await shoot(visitor, '01-landing', 'Start Planning');
  await visitor.goto('/auth');
  await visitor.getByLabel(/email/i).fill('new.friend@example.com');
  await visitor.getByRole('button', { name: 'Send Verification Code' }).click();
  await visitor.getByRole('button', { name: 'Verify & Continue' }).waitFor();
  await visitor.evaluate(() => document.querySelectorAll('.mantine-Notification-root').forEach((n) => n.remove()));
  await shoot(visitor, '02-auth-code', 'Verify & Continue');

  const host = await (await context(browser, { authToken: hana })).newPage();
  await host.goto('/home');
  await shoot(host, '03-home', "Mia's birthday dinner");
  await host.goto('/create-plan');
  await shoot(host, '04-create-plan', 'Create & Share Plan');
  await host.goto(`/plan/${plan.id}/share`);
  await shoot(host, '05-share', 'View Plan Details');
  await host.goto(`/plan/${plan.id}`);
  await shoot(host, '06-plan-ideas', 'Ramen at Kenji', (p) => p.getByRole('tablist'));
  await host.goto(`/plan/${plan.id}?tab=availability`);
  await shoot(host, '07-plan-availability', 'Pick Date', (p) => p.getByRole('tablist'));

  // Guest screens while voting is open.
  const joiner = await (await context(browser)).newPage();
  await joiner.goto(`/l/${plan.slug}`);
  await shoot(joiner, '09-join', "What's your name?");
  await joiner.getByLabel("What's your name?").fill('Gail Green');
  await joiner.getByRole('button', { name: 'Continue' }).click();
  await shoot(joiner, '10-is-this-you', "Yes, that's me");
  const guest = await (await context(browser, {
    guestSession: JSON.stringify({ id: gail.id, name: gail.name, planId: plan.id, secret: gail.secret }),
  })).newPage();
  await guest.goto(`/l/${plan.slug}/dashboard`);
  await shoot(guest, '11-guest-dashboard', 'Welcome, Gail Green');
  await guest.goto(`/l/${plan.slug}/ideas`);
  await shoot(guest, '12-ideas-page', 'Ramen at Kenji');
  await guest.goto(`/l/${plan.slug}/availability`);
  await shoot(guest, '13-availability-page', 'Submit Availability');

  await host.goto('/profile');
  await shoot(host, '14-profile', 'Save Changes');
  await host.goto('/interests');
  await shoot(host, '15-interests', 'Board games');
  await host.goto('/interests/manage');
  await host.getByRole('button', { name: /Dining/ }).click();
  await shoot(host, '16-manage-interests', 'Sushi');
  await visitor.goto('/this/page/does/not/exist');
  await shoot(visitor, '17-not-found', '404 Page Not Found');

  // Hana picks the ramen, locks the first date and sets 7:30 PM.
  await post(`/api/plans/${plan.id}/pick-idea`, { ideaId: ramen.id }, hana);
  await post(`/api/plans/${plan.id}/lock-date`, { date: localDate(2) }, hana);
  await post(`/api/plans/${plan.id}/set-event-time`, { time: '19:30' }, hana);
  await host.goto(`/plan/${plan.id}?tab=availability`);
  await shoot(host, '08-final-time-set', 'Final Time Set', (p) => p.getByRole('region', { name: 'Final Time Set' }));
  await host.goto(`/plan/${plan.id}`);
  await shoot(host, '18-plan-completed', 'Plan Status');

  console.log(`Wrote ${shots} screenshots to docs/screenshots:\n  ${produced.sort().join('\n  ')}`);
} finally {
  await browser.close();
  await stack.stop();
}
