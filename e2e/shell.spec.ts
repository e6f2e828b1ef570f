// The static first paint (docs/web-app.md "First paint"): before the app's
// JavaScript has run, public/shell.js shows the shell prerendered for the
// address, inert (the join page with its plan once the plan comes), and the
// app's first render replaces it.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { settle, signInViaApi, trackRequests, uniqueEmail } from './support.ts';

/** The page as it stands before any of the app's JavaScript runs (shell.js is not in /assets). */
async function withoutApp(page: Page, path: string, token?: string) {
  if (token) await page.addInitScript((value) => localStorage.setItem('authToken', value), token);
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto(path);
}

const shell = (page: Page) => page.locator('#root > #shell[inert]');

test('signed out, / paints the landing page before the app runs, and the app replaces it', async ({ page }) => {
  await withoutApp(page, '/');
  await expect(shell(page)).toBeAttached();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Turn "we should hang out" into a real plan');
  await expect(page.getByRole('button', { name: 'Start Planning' })).toBeVisible();
  await expect(page.getByText('Loading Hangplan...')).toHaveCount(0);

  await page.unrouteAll();
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Start Planning' })).toBeVisible();
  await expect(page.locator('#shell')).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Email address' }).first().fill('not-an-email');
  await page.getByRole('button', { name: 'Start Planning' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
});

test('signed out, /l/{slug} paints the join page loading its plan', async ({ page }) => {
  await withoutApp(page, '/l/some-plan');
  await expect(shell(page)).toBeAttached();
  await expect(page.getByRole('link', { name: 'Hangplan home' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Loading plan...');
  await expect(page.getByText('Join the Plan')).toHaveCount(0);
});

test.describe('the hand-over', () => {
  // Only the app's own first request counts here: once the service worker
  // takes over a first visit, it reads what is on screen again to save it
  // (docs/offline.md "Offline"), whenever the phone gets to it.
  test.use({ serviceWorkers: 'block' });

  test('signed out, /l/{slug} paints the join page with its plan as soon as the plan comes, and the app takes that answer over', async ({ browser, page }) => {
    const hostPage = await (await browser.newContext()).newPage();
    const token = await signInViaApi(hostPage, uniqueEmail('shell-host'), { firstName: 'Hana', lastName: 'Host' });
    const created = await fetch(`${process.env.E2E_WEB_URL}/api/plans`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ title: 'Friday bowling' }),
    });
    const plan = (await created.json()) as { slug: string };
    const joinUrl = `/l/${plan.slug}`;

    await withoutApp(page, joinUrl);
    await expect(shell(page)).toBeAttached();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Friday bowling');
    await expect(page.getByText('Planning phase')).toBeVisible();
    await expect(page.locator('#shell a', { hasText: 'Sign In Instead' })).toHaveAttribute('href', `/auth?returnTo=${joinUrl}`);
    // No description: its element goes, slot and all.
    await expect(page.getByText('[[plan.', { exact: false })).toHaveCount(0);
    // Inert: nothing typed into the shell's field (it would be lost when the app replaces it).
    await page.locator('#shell input').click({ force: true });
    await page.keyboard.type('Sam');
    await expect(page.locator('#shell input')).toHaveValue('');

    await page.unrouteAll();
    const planRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/plans/slug/${plan.slug}`)) planRequests.push(request.url());
    });
    await page.goto(joinUrl);
    await expect(page.locator('#shell')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'Friday bowling' })).toBeVisible();
    await page.getByLabel("What's your name?").fill('Sam');
    await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(planRequests).toHaveLength(1);
  });
});

test('with a stored token, any page paints the splash, never the landing page', async ({ page }) => {
  for (const path of ['/', '/l/some-plan', '/home']) {
    await withoutApp(page, path, 'some-token');
    await expect(shell(page)).toBeAttached();
    await expect(page.getByRole('status')).toHaveText('Loading Hangplan...');
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(0);
  }
});

test('other pages get no shell when signed out', async ({ page }) => {
  for (const path of ['/auth', '/home', '/l/some-plan/dashboard', '/no/such/page']) {
    await withoutApp(page, path);
    await expect(page.locator('#root')).toBeEmpty();
  }
});

test("once the page is idle the toasts' code loads in the background, its imports without preload links (web/background-imports.ts)", async ({ page }) => {
  trackRequests(page);
  const toaster = page.waitForResponse(/\/assets\/toaster-[\w-]+\.js$/);
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Start Planning' })).toBeVisible();
  await toaster;
  await settle(page);
  await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);
  // The chunk's own imports came all the same, fetched by the browser's module loader.
  const scripts = await page.evaluate(() =>
    performance.getEntriesByType('resource').filter((entry) => /\/assets\/[\w-]+\.js$/.test(entry.name)).length,
  );
  expect(scripts).toBeGreaterThan(2);
});
