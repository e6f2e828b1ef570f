// Accessibility checks shared by the specs: a phone-sized page, and axe-core
// (WCAG 2.1 A/AA) with no sideways scroll once a screen has settled.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { settle, trackRequests } from './support.ts';

export const PHONE = { width: 360, height: 780 };

export async function phonePage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  trackRequests(page);
  return page;
}

/**
 * The screen has settled (the `ready` locator is visible, no request in
 * flight): axe finds no WCAG 2.1 A/AA violation and nothing scrolls sideways.
 */
export async function check(page: Page, screen: string, ready: Locator) {
  await expect(ready, `${screen}: ready`).toBeVisible();
  await settle(page);
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const report = violations
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}\n      ${n.failureSummary?.replace(/\n/g, '\n      ')}`)
          .join('\n'),
    )
    .join('\n');
  expect(report, `${screen}: axe violations`).toBe('');
  const overflow = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(overflow.scroll, `${screen}: horizontal scroll at ${PHONE.width}px`).toBeLessThanOrEqual(overflow.client);
}

