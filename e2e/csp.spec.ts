// The static deploy's headers as the end-to-end server serves them (the built
// web/public/_headers, web/static-headers.ts), and proof that the suite's
// policy watch (fixtures.ts) sees a violation: an inline script, in the
// default page and in a context a test opens itself, and a page framing the app.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { headersFor, parseHeadersFile } from '../web/static-headers.ts';
import { expect, test, type PolicyFixture, type PolicyViolation } from './fixtures.ts';

const source = () => readFile(new URL('../web/public/_headers', import.meta.url), 'utf8');

test('the server sends the headers of the _headers file the build ships, path by path', async ({ request }) => {
  const shipped = await (await request.get('/_headers')).text();
  // Without VITE_SUPABASE_URL (as the e2e stack builds) the build ships the file unchanged.
  expect(shipped, 'dist/_headers is web/public/_headers').toBe(await source());
  const rules = parseHeadersFile(shipped);
  const html = await (await request.get('/')).text();
  const entry = /<script [^>]*type="module"[^>]*\ssrc="(\/assets\/[^"]+\.js)"[^>]*><\/script>/.exec(html)?.[1];
  expect(entry, 'the entry script in index.html').toBeTruthy();
  const stylesheet = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/.exec(html)?.[1];
  for (const path of ['/', '/plans/5f0c6a8e-1d2b-4c3d-9e8f-0a1b2c3d4e5f', '/join/abc', entry!, stylesheet!, '/manifest.webmanifest', '/icons/icon-192.png']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    const want = headersFor(rules, path);
    expect(want.get('content-security-policy'), path).toContain("script-src 'self'");
    for (const [name, value] of want) expect(res.headers()[name], `${name} of ${path}`).toBe(value);
    expect(res.headers()['cache-control'], path).toBe(path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  }
  // No inline script anywhere in the page the CSP has to allow.
  expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
});

/** Wait until the watch has seen both witnesses of one violation (console and DOM event); returns them. */
async function violationsOf(policy: PolicyFixture, directive: RegExp, witnesses = 2): Promise<PolicyViolation[]> {
  const seen: PolicyViolation[] = [];
  await expect
    .poll(() => {
      seen.push(...policy.take());
      return seen.filter((v) => directive.test(v.text)).length;
    }, { message: `violations of ${directive}` })
    .toBeGreaterThanOrEqual(witnesses);
  return seen;
}

async function injectInlineScript(page: Page): Promise<void> {
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineScriptRan = true';
    document.body.append(script);
  });
}

test('an inline script is refused, and the watch catches it in the default page', async ({ page, policyViolations }) => {
  await page.goto('/');
  await expect(page.getByRole('heading').first()).toBeVisible();
  await injectInlineScript(page);
  const seen = await violationsOf(policyViolations, /script-src/);
  expect(seen.some((v) => v.text.startsWith('[securitypolicyviolation] script-src'))).toBe(true);
  expect(seen.some((v) => /inline script violates the following Content Security Policy directive 'script-src 'self''/.test(v.text))).toBe(true);
  expect(await page.evaluate(() => (window as { inlineScriptRan?: boolean }).inlineScriptRan)).toBeUndefined();
});

test('the watch covers pages of contexts a test opens itself, from their first load', async ({ browser, policyViolations }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The very first document of the new context violates the policy while it loads.
  await page.route('**/csp-probe', (route) =>
    route.fulfill({ contentType: 'text/html', headers: { 'content-security-policy': "script-src 'self'" }, body: '<p>probe</p><script>1</script>' }),
  );
  await page.goto('/csp-probe');
  const seen = await violationsOf(policyViolations, /script-src/);
  expect(seen.filter((v) => v.text.startsWith('[securitypolicyviolation]'))).toHaveLength(1);
  await context.close();
});

test('no page may frame the app (frame-ancestors), and the refusal is caught too', async ({ page, policyViolations, baseURL }) => {
  await page.setContent(`<iframe src="${baseURL}/"></iframe>`);
  const seen = await violationsOf(policyViolations, /frame-ancestors/, 1);
  expect(seen.some((v) => /Framing '.*' violates the following Content Security Policy directive: "frame-ancestors 'none'"/.test(v.text))).toBe(true);
});

test('a violation that no test takes fails the test it happened in', async ({ page }) => {
  // Expected to fail, in the fixture's teardown: Playwright reports this test as
  // passed only if it does (it is "failed" when the watch lets it through).
  test.fail(true, 'the policy watch fails a test with a violation');
  await page.goto('/');
  const reported = page.waitForEvent('console', (m) => /Content Security Policy/.test(m.text()));
  await injectInlineScript(page);
  await reported;
  expect(await page.evaluate(() => (window as { inlineScriptRan?: boolean }).inlineScriptRan)).toBeUndefined();
});
