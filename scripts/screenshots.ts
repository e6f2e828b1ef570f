// `npm run screenshots`: starts the whole stack on free ports with a throwaway
// database (like the e2e run), seeds a story through the API
// (scripts/screenshots/story.ts) and captures every screen at phone size
// (scripts/screenshots/screens.ts) into a temporary folder; only when every
// one is taken does it replace docs/screenshots/ with them and write the
// folder's index (README.md). A failed run leaves the old pictures as they were.
//
// `-- --smoke` (what `npm test` runs): the same stack, story and screens, each
// waited for and taken, into a temporary folder that is then deleted;
// docs/screenshots/ untouched. A screen whose wait rots fails `npm test`.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page, type Request } from '@playwright/test';
import { ROOT, tempDataDir } from './lib/db.ts';
import { startStack } from './lib/stack.ts';
import { SCREEN_NAMES, screenshotIndex, type ScreenName } from './screenshots/screens.ts';
import { apiClient, calendarFile, decide, seedStory } from './screenshots/story.ts';

const OUT = path.join(ROOT, 'docs/screenshots');
const SMOKE = process.argv.includes('--smoke');
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
/** How long a screen may take to show what it waits for; only a broken screen reaches it. */
const SCREEN_TIMEOUT = 30_000;

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

/** The API requests of each page still waiting for their answer (live event streams never end: not counted). */
const pending = new WeakMap<Page, Set<Request>>();
function track(page: Page): Page {
  const set = new Set<Request>();
  pending.set(page, set);
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && !url.pathname.endsWith('/events')) set.add(request);
  });
  page.on('requestfinished', (request) => void set.delete(request));
  page.on('requestfailed', (request) => void set.delete(request));
  return page;
}

/**
 * Until the screen shows what it is for: every `ready` locator visible, the
 * page loaded, no loader or placeholder on it, no API request of the page
 * unanswered, and its fonts in.
 */
async function settled(page: Page, ready: Locator[]): Promise<void> {
  for (const locator of ready) await locator.first().waitFor({ state: 'visible', timeout: SCREEN_TIMEOUT });
  await page.waitForLoadState('load');
  await page.waitForFunction(
    () =>
      ![...document.querySelectorAll<HTMLElement>('.mantine-Loader-root, .mantine-Skeleton-root[data-visible], [aria-busy="true"]')].some(
        (element) => element.getClientRects().length > 0,
      ),
    undefined,
    { timeout: SCREEN_TIMEOUT },
  );
  const requests = pending.get(page);
  const deadline = Date.now() + SCREEN_TIMEOUT;
  while (requests && requests.size > 0) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${[...requests].map((r) => r.url()).join(', ')}`);
    await page.waitForEvent('requestfinished', { timeout: SCREEN_TIMEOUT }).catch(() => undefined);
  }
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

interface Capture {
  /** Brings the page to the screen (navigates, taps). */
  go: (page: Page) => Promise<unknown>;
  /** What the screen shows once it is ready. */
  ready: (page: Page) => Locator[];
  /** Scrolled to the top of the screen, below the sticky header. */
  scrollTo?: (page: Page) => Locator;
  /** Leaves the screen as it found it (closes a dialog). */
  after?: (page: Page) => Promise<unknown>;
}

/** Where this run's pictures go until every one is taken. */
const folder = mkdtempSync(path.join(tmpdir(), 'hangplan-screenshots-'));
const taken: ScreenName[] = [];
/** Scrolls the page so that `locator` is at the top, below the sticky header. */
async function scrollToTop(locator: Locator): Promise<void> {
  await locator.first().evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
}

async function capture(name: ScreenName, page: Page, how: Capture): Promise<void> {
  await how.go(page);
  await settled(page, how.ready(page));
  if (how.scrollTo) await scrollToTop(how.scrollTo(page));
  await page.screenshot({ path: path.join(folder, `${name}.png`), animations: 'disabled', caret: 'hide' });
  taken.push(name);
  await how.after?.(page);
}

async function phone(browser: Browser, opts: { storage?: Record<string, string>; dark?: boolean } = {}): Promise<Page> {
  const ctx = await browser.newContext({ ...PHONE, baseURL: web, reducedMotion: 'reduce', colorScheme: opts.dark ? 'dark' : 'light' });
  await ctx.addInitScript((items) => {
    for (const [key, value] of Object.entries(items)) if (!localStorage.getItem(key)) localStorage.setItem(key, value);
  }, opts.storage ?? {});
  return track(await ctx.newPage());
}

/** Taps a button that opens a dialog; `after` taps its Cancel. */
const cancel = (dialog: string) => (page: Page) => page.getByRole('dialog', { name: dialog }).getByRole('button', { name: 'Cancel' }).click();

const base = await freeBase();
const web = `http://localhost:${base}`;
const started = Date.now();

console.log('Starting the stack (build + preview)...');
const stack = await startStack({
  dataDir: tempDataDir('screenshots'),
  persistent: false,
  ports: { web: base, db: base + 1, api: base + 2, mail: base + 3, smtp: base + 4 },
  web: 'preview',
  jwtSecret: 'screenshots-secret-that-is-long-enough-0123456789',
  quiet: !process.env.DEBUG_STACK,
}).catch((error: unknown) => {
  rmSync(folder, { recursive: true, force: true });
  throw error;
});
let browser: Browser | undefined;
let ok = false;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  console.log('Seeding the story...');
  const api = apiClient(web, `http://127.0.0.1:${base + 3}`);
  const story = await seedStory(api);
  const { plan, gail } = story;
  const guestSession = JSON.stringify({ id: gail.id, name: gail.name, planId: plan.id, secret: gail.secret });

  console.log(`Capturing ${SCREEN_NAMES.length} screens${SMOKE ? ' (smoke: into a folder that is then deleted)' : ''}...`);
  const visitor = await phone(browser);
  await capture('01-landing', visitor, { go: (p) => p.goto('/'), ready: (p) => [p.getByRole('button', { name: 'Start Planning' })] });
  await capture('02-sign-in-code', visitor, {
    go: async (p) => {
      await p.goto('/auth');
      await p.getByLabel(/email/i).fill('new.friend@example.com');
      await p.getByRole('button', { name: 'Send Verification Code' }).click();
      await p.getByRole('button', { name: 'Verify & Continue' }).waitFor({ timeout: SCREEN_TIMEOUT });
      // The "code sent" toast would cover the form.
      await p.evaluate(() => document.querySelectorAll('.mantine-Notification-root').forEach((n) => n.remove()));
    },
    ready: (p) => [p.getByRole('button', { name: 'Verify & Continue' })],
  });

  const host = await phone(browser, { storage: { authToken: story.hana } });
  const hostDark = await phone(browser, { storage: { authToken: story.hana }, dark: true });
  for (const [name, page] of [['03-home', host], ['03-home-dark', hostDark]] as const) {
    await capture(name, page, { go: (p) => p.goto('/home'), ready: (p) => [p.getByRole('heading', { name: 'Your Plans' }), p.getByText("Mia's birthday dinner")] });
  }
  await capture('04-create-plan', host, { go: (p) => p.goto('/create-plan'), ready: (p) => [p.getByRole('button', { name: 'Create & Share Plan' })] });
  const share = { go: (p: Page) => p.goto(`/plan/${plan.id}/share`), ready: (p: Page) => [p.getByRole('textbox', { name: 'Plan link' }), p.getByRole('button', { name: 'Reset link' })] };
  await capture('05-share', host, share);
  await capture('06-share-reset-link', host, {
    go: async (p) => {
      await share.go(p);
      await settled(p, share.ready(p));
      await p.getByRole('button', { name: 'Reset link' }).click();
    },
    ready: (p) => [p.getByRole('dialog', { name: 'Reset the plan link?' })],
    after: cancel('Reset the plan link?'),
  });
  for (const [name, page] of [['07-plan-ideas', host], ['07-plan-ideas-dark', hostDark]] as const) {
    await capture(name, page, {
      go: (p) => p.goto(`/plan/${plan.id}`),
      ready: (p) => [p.getByRole('article', { name: 'Ramen at Kenji' }), p.getByRole('article', { name: 'Rooftop pizza' })],
      scrollTo: (p) => p.getByRole('tablist'),
    });
  }
  await capture('08-plan-availability', host, {
    go: (p) => p.goto(`/plan/${plan.id}?tab=availability`),
    ready: (p) => [p.getByRole('button', { name: 'Pick Date' })],
    scrollTo: (p) => p.getByRole('tablist'),
  });
  await capture('09-people-removed', host, {
    go: async (p) => {
      await p.goto(`/plan/${plan.id}`);
      // The list opens below the avatars: the card at the top leaves it room.
      const card = p.getByRole('region', { name: "Who's coming" });
      await card.getByRole('button', { name: /^See everyone coming/ }).waitFor({ timeout: SCREEN_TIMEOUT });
      await scrollToTop(card);
      await card.getByRole('button', { name: /^See everyone coming/ }).click();
    },
    ready: (p) => [p.getByRole('list', { name: 'Everyone coming' }), p.getByRole('list', { name: 'Removed' }).getByText('Spammy Sam')],
    after: (p) => p.keyboard.press('Escape'),
  });

  // A friend opens the link on a new phone; then Gail's own phone.
  const joiner = await phone(browser);
  await capture('10-join', joiner, { go: (p) => p.goto(`/l/${plan.slug}`), ready: (p) => [p.getByRole('textbox', { name: "What's your name?" })] });
  await capture('11-is-this-you', joiner, {
    go: async (p) => {
      await p.getByRole('textbox', { name: "What's your name?" }).fill('Gail Green');
      await p.getByRole('button', { name: 'Continue' }).click();
    },
    ready: (p) => [p.getByRole('button', { name: "Yes, that's me" })],
  });
  const guest = await phone(browser, { storage: { guestSession } });
  const guestDark = await phone(browser, { storage: { guestSession }, dark: true });
  for (const [name, page] of [['12-guest-dashboard', guest], ['12-guest-dashboard-dark', guestDark]] as const) {
    await capture(name, page, {
      go: (p) => p.goto(`/l/${plan.slug}/dashboard`),
      ready: (p) => [p.getByText('Welcome, Gail Green'), p.getByRole('region', { name: 'Plan Status' }), p.getByRole('article', { name: 'Ramen at Kenji' })],
    });
  }
  await capture('13-guest-ideas', guest, { go: (p) => p.goto(`/l/${plan.slug}/ideas`), ready: (p) => [p.getByRole('article', { name: 'Ramen at Kenji' })] });
  await capture('14-guest-availability', guest, {
    go: (p) => p.goto(`/l/${plan.slug}/availability`),
    ready: (p) => [p.getByRole('region', { name: 'Next 2 Weeks' }), p.getByRole('button', { name: 'Submit Availability' })],
  });
  await capture('15-calendar-import', guest, {
    go: async (p) => {
      await p.goto(`/l/${plan.slug}/availability`);
      const chooser = p.waitForEvent('filechooser');
      await p.getByRole('button', { name: 'Import my calendar (.ics)' }).click();
      await (await chooser).setFiles({ name: 'my-calendar.ics', mimeType: 'text/calendar', buffer: Buffer.from(calendarFile()) });
    },
    ready: (p) => [p.getByRole('status').filter({ hasText: 'From my-calendar.ics' }), p.getByRole('region', { name: 'Next 2 Weeks' }).getByText('Busy', { exact: true })],
    scrollTo: (p) => p.getByRole('region', { name: 'Next 2 Weeks' }),
  });
  await capture('16-notifications-install', guest, {
    go: async (p) => {
      await p.goto(`/l/${plan.slug}/dashboard`);
      await p.getByRole('region', { name: 'Notifications' }).waitFor({ timeout: SCREEN_TIMEOUT });
      // Chromium's offer to install, as the browser fires it once Hangplan is
      // installable (e2e/offline.spec.ts). A string: tsx would wrap a named
      // function in a helper the page does not have.
      await p.evaluate(`window.dispatchEvent(Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: () => Promise.resolve(), userChoice: Promise.resolve({ outcome: 'dismissed' }) }))`);
    },
    ready: (p) => [
      p.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Turn on notifications' }),
      p.getByRole('region', { name: 'Hangplan on your phone' }).getByRole('button', { name: 'Install Hangplan' }),
    ],
    scrollTo: (p) => p.getByRole('region', { name: 'Notifications' }),
  });

  await capture('17-profile', host, { go: (p) => p.goto('/profile'), ready: (p) => [p.getByRole('button', { name: 'Save Changes' })] });
  await capture('18-calendar-feed', host, {
    go: (p) => p.goto('/profile'),
    ready: (p) => [p.getByRole('region', { name: 'Subscribe in your calendar' }).getByRole('textbox', { name: 'Your calendar link' }).and(p.locator('[value*="/calendar/feed/"]'))],
    scrollTo: (p) => p.getByRole('region', { name: 'Subscribe in your calendar' }),
  });
  await capture('19-delete-account', host, {
    go: async (p) => {
      await p.goto('/profile');
      await p.getByRole('region', { name: 'Delete account' }).getByRole('button', { name: 'Delete account' }).click();
    },
    ready: (p) => [p.getByRole('dialog', { name: 'Delete your account?' }).getByRole('listitem').first()],
    after: cancel('Delete your account?'),
  });
  await capture('20-interests', host, { go: (p) => p.goto('/interests'), ready: (p) => [p.getByText('Board games')] });
  await capture('21-manage-interests', host, {
    go: async (p) => {
      await p.goto('/interests/manage');
      await p.getByRole('button', { name: /Dining/ }).click();
    },
    ready: (p) => [p.getByText('Sushi')],
  });
  await capture('22-not-found', visitor, { go: (p) => p.goto('/this/page/does/not/exist'), ready: (p) => [p.getByText('404 Page Not Found')] });

  await decide(api, story);
  for (const [name, page] of [['23-final-time-set', host], ['23-final-time-set-dark', hostDark]] as const) {
    await capture(name, page, {
      go: (p) => p.goto(`/plan/${plan.id}?tab=availability`),
      ready: (p) => [p.getByRole('region', { name: 'Final Time Set' })],
      scrollTo: (p) => p.getByRole('region', { name: 'Final Time Set' }),
    });
  }
  await capture('24-plan-completed', host, {
    go: (p) => p.goto(`/plan/${plan.id}`),
    ready: (p) => [p.getByRole('region', { name: 'Are you coming?' }).getByRole('button', { name: 'Going' }), p.getByRole('region', { name: 'Plan Status' }).getByText('7:30 PM')],
  });
  // Gail answers Going with a friend on her phone (docs/decisions/0103-whos-coming-on-the-screens.md).
  for (const [name, page] of [['25-are-you-coming', guest], ['25-are-you-coming-dark', guestDark]] as const) {
    await capture(name, page, {
      go: async (p) => {
        await p.goto(`/l/${plan.slug}/dashboard`);
        const card = p.getByRole('region', { name: 'Are you coming?' });
        if (name === '25-are-you-coming') {
          await card.getByRole('button', { name: 'Going' }).click();
          await card.getByText("You're going").waitFor({ timeout: SCREEN_TIMEOUT });
          await card.getByRole('button', { name: 'One more' }).click();
        }
      },
      ready: (p) => [p.getByRole('region', { name: 'Are you coming?' }).getByText("You're going with 1 friend"), p.getByRole('region', { name: 'Plan Status' }).getByText('1 going · 2 with friends')],
    });
  }

  const missing = SCREEN_NAMES.filter((name) => !taken.includes(name));
  if (missing.length) throw new Error(`not captured: ${missing.join(', ')} (each screen of scripts/screenshots/screens.ts needs its capture here)`);
  ok = true;
} finally {
  await browser?.close();
  await stack.stop();
  if (ok && !SMOKE) {
    // Only now, with every picture taken: the old ones go, the new ones and their index come in.
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    cpSync(folder, OUT, { recursive: true });
    writeFileSync(path.join(OUT, 'README.md'), screenshotIndex());
  }
  rmSync(folder, { recursive: true, force: true });
}
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(
  SMOKE
    ? `Smoke run: ${taken.length} screens captured in ${seconds} s; docs/screenshots left as it is.`
    : `Wrote ${taken.length} screenshots and their index to docs/screenshots in ${seconds} s.`,
);
