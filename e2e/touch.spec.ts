// Phone-first polish that axe does not check: on a touch screen every control
// is at least 44×44 px, and keyboard focus is always visible.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiPost as post, localDate, settle, signInViaApi, trackRequests, uniqueEmail } from './support.ts';

// Count the page's requests from the start, for settle().
test.beforeEach(({ page }) => void trackRequests(page));

const MIN = 44;
/** Every visible button-like control smaller than 44 px in either direction. */
async function smallTargets(page: Page): Promise<string[]> {
  await settle(page);
  return page.evaluate((min) => {
    // A radio group's choices are tapped on their labels (the profile's Appearance).
    const controls = document.querySelectorAll<HTMLElement>('button, [role="tab"], [role="switch"], [role="menuitem"], [role="radiogroup"] label');
    const small: string[] = [];
    for (const el of controls) {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      // Mantine's switch input is visually replaced by its (larger) label track.
      if (el.matches('input')) continue;
      // Days of the 7-column week grid are 72 px tall; at 360–390 px a week
      // leaves each only ~40–43 px of width (still a larger area than 44×44).
      const minWidth = el.closest('[data-week-grid]') ? 40 : min;
      if (Math.round(box.height) < min || Math.round(box.width) < minWidth) {
        small.push(`${el.getAttribute('aria-label') ?? el.textContent?.trim()} (${Math.round(box.width)}×${Math.round(box.height)})`);
      }
    }
    return small;
  }, MIN);
}

test('controls are at least 44×44 px on a touch screen', async ({ page, isMobile }) => {
  test.skip(!isMobile, 'touch sizes apply to the phone project');
  const token = await signInViaApi(page, uniqueEmail('touch'), { firstName: 'Tia', lastName: 'Touch' });
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Beach day', isOpenInvite: true }, token);
  const idea = await post<{ id: string }>(`/api/plans/${plan.id}/ideas`, { text: 'Volleyball' }, token);
  await post(`/api/ideas/${idea.id}/vote`, {}, token);

  await page.goto('/home');
  expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
  await expect(page.getByRole('link', { name: /Beach day/ })).toBeVisible();
  expect(await smallTargets(page), 'home').toEqual([]);

  await page.goto(`/plan/${plan.id}`);
  await expect(page.getByText('Volleyball')).toBeVisible();
  expect(await smallTargets(page), 'plan: ideas').toEqual([]);

  await page.goto(`/plan/${plan.id}?tab=availability`);
  await expect(page.getByText('When are you free?').first()).toBeVisible();
  expect(await smallTargets(page), 'plan: availability').toEqual([]);

  // Who's coming (decision 0103): the answers, the friends stepper, and the host's Answer in the people list.
  await post(`/api/plans/${plan.id}/lock-date`, { date: localDate(1) }, token);
  await post('/api/guest-session', { name: 'Gus', planId: plan.id });
  await page.goto(`/plan/${plan.id}`);
  const coming = page.getByRole('region', { name: 'Are you coming?' });
  await coming.getByRole('button', { name: 'Going' }).click();
  await expect(coming.getByText("You're going")).toBeVisible();
  expect(await smallTargets(page), 'plan: are you coming').toEqual([]);
  await page.getByRole('button', { name: /See everyone coming/ }).click();
  await expect(page.getByRole('button', { name: 'Answer for Gus' })).toBeVisible();
  expect(await smallTargets(page), "plan: who's coming").toEqual([]);

  await page.goto(`/plan/${plan.id}/share`);
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  expect(await smallTargets(page), 'share').toEqual([]);

  await page.goto('/profile');
  await expect(page.getByRole('radiogroup', { name: 'Appearance' })).toBeVisible();
  expect(await smallTargets(page), 'profile').toEqual([]);
});

test('keyboard focus is always visible', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Start Planning' })).toBeVisible();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    // Polled: Mantine animates the border of a focused text field.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return 'visible';
          const style = getComputedStyle(el);
          const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
          const shadow = style.boxShadow !== 'none';
          // Text fields show focus with their border in the primary colour.
          const border = el.matches('input, textarea') && style.borderColor === 'rgb(112, 72, 232)';
          return outline || shadow || border ? 'visible' : `no focus ring on ${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent?.trim()}`;
        }),
      )
      .toBe('visible');
  }
});

/** Cumulative layout shift of `page` from its first paint until the network is idle. */
async function layoutShift(page: Page, path: string, ready: () => Promise<void>): Promise<number> {
  await page.addInitScript(() => {
    (window as unknown as { __cls: number }).__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(path);
  await ready();
  await settle(page);
  return page.evaluate(() => (window as unknown as { __cls: number }).__cls);
}

test('screens do not jump when their data arrives (CLS below 0.1)', async ({ page }) => {
  const token = await signInViaApi(page, uniqueEmail('cls'), { firstName: 'Cleo', lastName: 'Stable' });
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Museum visit', isOpenInvite: true }, token);
  await post(`/api/plans/${plan.id}/ideas`, { text: 'Modern art wing' }, token);

  const home = await layoutShift(page, '/home', () => expect(page.getByRole('link', { name: /Museum visit/ })).toBeVisible());
  expect(home, 'home').toBeLessThan(0.1);
  const detail = await layoutShift(page, `/plan/${plan.id}`, () => expect(page.getByText('Modern art wing')).toBeVisible());
  expect(detail, 'plan page').toBeLessThan(0.1);
});

test('the bottom navigation and the floating button never cover content', async ({ page }) => {
  const token = await signInViaApi(page, uniqueEmail('fab'), { firstName: 'Fay', lastName: 'Float' });
  for (const title of ['Dinner', 'Climbing', 'Karaoke', 'Picnic', 'Board games', 'Cinema']) {
    await post('/api/plans', { title, isOpenInvite: true }, token);
  }
  await page.goto('/home');
  const cards = page.getByRole('link', { name: /Dinner|Climbing|Karaoke|Picnic|Board games|Cinema/ });
  await expect(cards).toHaveCount(6);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(() => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight);

  const lastCardBottom = Math.max(...(await cards.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().bottom))));
  const navTop = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!.y;
  const fabTop = (await page.getByRole('link', { name: 'Create Plan' }).boundingBox())!.y;
  expect(lastCardBottom, 'last card ends above the bottom navigation').toBeLessThanOrEqual(navTop);
  expect(lastCardBottom, 'last card ends above the floating button').toBeLessThanOrEqual(fabTop);
});
