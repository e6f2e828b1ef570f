// Dark mode that follows the phone (docs/web-app.md "Dark mode"): with the
// phone in dark mode every page paints dark from its first frame (the static
// shells before any of the app's JavaScript, then the app) with a dark
// browser bar; the profile's Appearance choice overrides the phone, at once
// and after a reload; on System the page follows the phone while it is open.
// (Every screen's axe check runs in both schemes: e2e/axe.ts.)
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signInViaApi, trackRequests, uniqueEmail } from './support.ts';

test.use({ colorScheme: 'dark' });

/**
 * Before any of the page's own scripts: the colour of every frame the page
 * paints, sampled in requestAnimationFrame (which runs before each one),
 * with the scheme on <html>. The canvas is <html>'s background, else
 * <body>'s, else the browser's own, which follows the `color-scheme` the
 * page asks for (index.html's meta while Mantine's variable is not set).
 */
function recordFrames(): void {
  const frames: { background: string; scheme: string | null }[] = [];
  (window as unknown as { paintedFrames: typeof frames }).paintedFrames = frames;
  const transparent = (color: string) => color === 'rgba(0, 0, 0, 0)' || color === 'transparent';
  const canvas = (): string => {
    const html = document.documentElement;
    const own = getComputedStyle(html).backgroundColor;
    if (!transparent(own)) return own;
    const body = document.body && getComputedStyle(document.body).backgroundColor;
    if (body && !transparent(body)) return body;
    const declared = getComputedStyle(html).colorScheme;
    const asked = declared && declared !== 'normal' ? declared : (document.querySelector<HTMLMetaElement>('meta[name="color-scheme"]')?.content ?? 'light');
    const dark = asked.includes('dark') && (!asked.includes('light') || matchMedia('(prefers-color-scheme: dark)').matches);
    return dark ? 'canvas: dark' : 'canvas: light';
  };
  const sample = () => {
    frames.push({ background: canvas(), scheme: document.documentElement.getAttribute('data-mantine-color-scheme') });
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}

/** 'dark' or 'light' by relative luminance, for a computed colour ('rgb(…)') or the canvas's own. */
function tone(color: string): 'dark' | 'light' {
  if (color.startsWith('canvas: ')) return color.slice(8) as 'dark' | 'light';
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255);
  const linear = (v: number) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
  return luminance < 0.2 ? 'dark' : 'light';
}

async function frames(page: Page) {
  return page.evaluate(() => (window as unknown as { paintedFrames: { background: string; scheme: string | null }[] }).paintedFrames);
}

/**
 * Every frame painted since the page loaded was `expected`, and there was at
 * least one. `chosenOnDevice`: the scheme is a choice kept on the device that
 * differs from the phone's, which only a script can read; a frame the browser
 * may paint before shell.js has run (no scheme set yet) shows its own canvas
 * in the phone's scheme (docs/web-app.md "Dark mode").
 */
async function expectEveryFrame(page: Page, expected: 'dark' | 'light', what: string, { chosenOnDevice = false } = {}) {
  const painted = await frames(page);
  expect(painted.length, `${what}: frames`).toBeGreaterThan(0);
  const beforeScripts = (frame: { background: string; scheme: string | null }) =>
    chosenOnDevice && frame.scheme === null && frame.background.startsWith('canvas: ');
  const other = painted.filter(
    (frame) => !beforeScripts(frame) && (tone(frame.background) !== expected || (frame.scheme !== null && frame.scheme !== expected)),
  );
  expect(other, `${what}: frames not ${expected}`).toEqual([]);
}

/** The colour of the browser's bar: the first theme-color meta whose media matches, as the browser picks it. */
function barColor(page: Page) {
  return page.evaluate(() => {
    const metas = [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')];
    return metas.find((meta) => !meta.media || matchMedia(meta.media).matches)?.content ?? null;
  });
}

/** The bar in each scheme (web/src/app/color-scheme.ts THEME_COLORS): the primary colour in light, the dark body in dark. */
const BAR = { light: '#7048e8', dark: '#242424' } as const;

async function expectPainted(page: Page, scheme: 'dark' | 'light', what: string) {
  await expect(page.locator('html'), what).toHaveAttribute('data-mantine-color-scheme', scheme);
  const body = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(tone(body), `${what}: the body's background (${body})`).toBe(scheme);
  // The app points the metas after its render (app/providers.tsx).
  await expect.poll(() => barColor(page), { message: `${what}: the browser's bar` }).toBe(BAR[scheme]);
}

test.beforeEach(async ({ page }) => {
  trackRequests(page);
  await page.addInitScript(recordFrames);
});

test('with the phone in dark mode, the landing page, the join page before the app runs, and the app paint dark from the first frame', async ({ page }) => {
  // The join page's shell, with none of the app's JavaScript (first: once the
  // app has run, its service worker would serve the app's files).
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/l/some-plan');
  await expect(page.locator('#root > #shell[inert]')).toBeAttached();
  await expect(page.getByRole('status')).toHaveText('Loading plan...');
  await expectPainted(page, 'dark', 'join shell');
  const main = await page.locator('#shell main').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(tone(main), `join shell: the page under the header (${main})`).toBe('dark');
  await expectEveryFrame(page, 'dark', 'join shell');
  await page.unrouteAll();

  // The landing page, the app taking over its shell.
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Start Planning' })).toBeVisible();
  await expect(page.locator('#shell')).toHaveCount(0);
  await expectPainted(page, 'dark', 'landing');
  const hero = await page.getByRole('region', { name: 'Turn "we should hang out" into a real plan' }).evaluate((el) => getComputedStyle(el).backgroundImage);
  expect(hero).not.toContain('255, 255, 255');
  await expectEveryFrame(page, 'dark', 'landing');

  // Signed in: the splash, then the app.
  await signInViaApi(page, uniqueEmail('dark'), { firstName: 'Dara', lastName: 'Dark' });
  await page.goto('/home');
  await expect(page.getByText('Ready to make plans?')).toBeVisible();
  await expectPainted(page, 'dark', 'home');
  const content = await page.locator('main').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(tone(content), `home: the page (${content})`).toBe('dark');
  await expectEveryFrame(page, 'dark', 'home');
});

test("Appearance in the profile: Light overrides the dark phone at once and after a reload; System follows the phone while the page is open", async ({ page }) => {
  await signInViaApi(page, uniqueEmail('appearance'), { firstName: 'Ari', lastName: 'Appearance' });
  await page.goto('/profile');
  const appearance = page.getByRole('radiogroup', { name: 'Appearance' });
  await expect(appearance).toBeVisible();
  await expect(appearance.getByRole('radio', { name: 'System' })).toBeChecked();
  await expectPainted(page, 'dark', 'profile on System');

  // Each choice is a 44 px tap target on the phone (app/touch-targets.css).
  for (const label of await appearance.locator('label').all()) {
    const box = (await label.boundingBox())!;
    expect(box.height, `${await label.textContent()}: height`).toBeGreaterThanOrEqual(44);
    expect(box.width, `${await label.textContent()}: width`).toBeGreaterThanOrEqual(44);
  }

  await appearance.getByText('Light', { exact: true }).click();
  await expect(appearance.getByRole('radio', { name: 'Light' })).toBeChecked();
  await expectPainted(page, 'light', 'profile after choosing Light');
  // Both metas: the browser's bar is light although the phone is dark.
  expect(await page.locator('meta[name="theme-color"]').evaluateAll((metas) => metas.map((meta) => (meta as HTMLMetaElement).content))).toEqual([
    BAR.light,
    BAR.light,
  ]);

  await page.reload();
  await expect(appearance.getByRole('radio', { name: 'Light' })).toBeChecked();
  await expectPainted(page, 'light', 'profile reloaded');
  await expectEveryFrame(page, 'light', 'profile reloaded', { chosenOnDevice: true });
  // The phone changing does not move a choice.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectPainted(page, 'light', 'Light, the phone changed');

  await appearance.getByText('System', { exact: true }).click();
  await expect(appearance.getByRole('radio', { name: 'System' })).toBeChecked();
  await expectPainted(page, 'dark', 'back on System');
  await page.emulateMedia({ colorScheme: 'light' });
  await expectPainted(page, 'light', 'System, the phone turned light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectPainted(page, 'dark', 'System, the phone turned dark');

  await appearance.getByText('Dark', { exact: true }).click();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.reload();
  await expect(appearance.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expectPainted(page, 'dark', 'Dark on a light phone, reloaded');
  await expectEveryFrame(page, 'dark', 'Dark on a light phone, reloaded', { chosenOnDevice: true });
});
