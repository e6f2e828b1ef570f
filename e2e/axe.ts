// Accessibility checks shared by the specs: a phone-sized page, and axe-core
// (WCAG 2.1 A/AA) in the light and the dark scheme, with no sideways scroll,
// once a screen has settled.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { settle, trackRequests } from './support.ts';

export const PHONE = { width: 360, height: 780 };

/** A new phone-sized page in a context of its own (`options` such as a `timezoneId` for that phone). */
export async function phonePage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await (await browser.newContext({ ...options, viewport: PHONE })).newPage();
  trackRequests(page);
  return page;
}

type Scheme = 'light' | 'dark';

/** The scheme the page is painted in: the attribute Mantine (and public/shell.js) set on <html>. */
const paintedScheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));

/**
 * Paints the page in `scheme`: the phone's setting (emulated, `phone`), which
 * the app follows on System, and the attribute every colour of the theme
 * hangs on, for a page whose device keeps a choice of its own. Then waits
 * for the colour transitions it started, so that axe reads the final colours.
 */
async function paint(page: Page, scheme: Scheme, phone: Scheme = scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: phone });
  await page.evaluate((value) => document.documentElement.setAttribute('data-mantine-color-scheme', value), scheme);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  );
}

async function axeReport(page: Page): Promise<string> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}\n      ${n.failureSummary?.replace(/\n/g, '\n      ')}`)
          .join('\n'),
    )
    .join('\n');
}

/**
 * The screen has settled (the `ready` locator is visible, no request in
 * flight): axe finds no WCAG 2.1 A/AA violation in the scheme it is in, nor
 * in the other one (docs/web-app.md "Dark mode"), after which the page is
 * back in its own; and nothing scrolls sideways.
 */
export async function check(page: Page, screen: string, ready: Locator) {
  await expect(ready, `${screen}: ready`).toBeVisible();
  await settle(page);
  const own: Scheme = (await paintedScheme(page)) === 'dark' ? 'dark' : 'light';
  const phone: Scheme = (await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)) ? 'dark' : 'light';
  const other: Scheme = own === 'dark' ? 'light' : 'dark';
  expect(await axeReport(page), `${screen} (${own}): axe violations`).toBe('');
  await paint(page, other);
  expect(await axeReport(page), `${screen} (${other}): axe violations`).toBe('');
  await paint(page, own, phone);
  expect(await paintedScheme(page), `${screen}: back in its own scheme`).toBe(own);
  const overflow = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(overflow.scroll, `${screen}: horizontal scroll at ${PHONE.width}px`).toBeLessThanOrEqual(overflow.client);
}
