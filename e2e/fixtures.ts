// `test` and `expect` for every spec: Playwright's, plus a watch that fails
// the test on any Content-Security-Policy (or Permissions-Policy) violation or
// error in any page of the worker: the default `page`, and pages of contexts a
// test opens itself with browser.newContext() (docs/security-and-limits.md
// "Headers"). Specs import { test, expect } from './fixtures.ts' (ESLint
// refuses them from '@playwright/test' in e2e/*.spec.ts).
//
// Two witnesses, so neither a quiet console nor a missed event hides one:
//   - the console: Chromium reports each violation there ("Refused to load ...
//     because it violates the following Content Security Policy directive"),
//     and a malformed policy too ("Unrecognized Content-Security-Policy
//     directive", "Error with Permissions-Policy header");
//   - the DOM's `securitypolicyviolation` event, which an init script in every
//     page reports back through the console with a marker.
import { test as base, expect, type BrowserContext, type ConsoleMessage } from '@playwright/test';

export { expect };

const MARKER = '[securitypolicyviolation]';

/** True for a console text that reports a policy violation or a malformed policy header. */
export function isPolicyMessage(text: string): boolean {
  return text.startsWith(MARKER) || /Content[- ]Security[- ]Policy|Permissions[- ]Policy/i.test(text);
}

/** Runs in every page before its own scripts (Playwright's init scripts are exempt from the page's CSP). */
function reportViolations(marker: string): void {
  window.addEventListener(
    'securitypolicyviolation',
    (e) => {
      const where = e.sourceFile ? ` at ${e.sourceFile}:${e.lineNumber}` : '';
      console.error(`${marker} ${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} on ${e.documentURI}${where}`);
    },
    true,
  );
}

export interface PolicyViolation {
  text: string;
  url: string;
}

/** Every violation seen in the worker's contexts since the last take(). */
class PolicyWatch {
  private seen: PolicyViolation[] = [];
  private readonly watched = new WeakSet<BrowserContext>();

  async attach(context: BrowserContext): Promise<void> {
    if (this.watched.has(context)) return;
    this.watched.add(context);
    context.on('console', (message: ConsoleMessage) => {
      const text = message.text();
      if (isPolicyMessage(text)) this.seen.push({ text, url: message.page()?.url() ?? message.location().url });
    });
    await context.addInitScript(reportViolations, MARKER);
  }

  take(): PolicyViolation[] {
    return this.seen.splice(0);
  }
}

export interface PolicyFixture {
  /** The violations seen so far in this test, forgotten: for a test that causes one on purpose. */
  take: () => PolicyViolation[];
}

const describe = (violations: PolicyViolation[]) =>
  violations.map((v) => `  ${v.text}${v.url ? ` (page ${v.url})` : ''}`).join('\n');

export const test = base.extend<{ policyViolations: PolicyFixture }, { policyWatch: PolicyWatch }>({
  // Worker-wide, so contexts made in any test or hook are watched from their start:
  // the 'context' event comes before browser.newContext() returns.
  policyWatch: [
    async ({ browser }, use) => {
      const watch = new PolicyWatch();
      // A context closed before its init script is in needs none.
      const onContext = (context: BrowserContext) => void watch.attach(context).catch(() => {});
      browser.on('context', onContext);
      browser.contexts().forEach(onContext);
      await use(watch);
      browser.off('context', onContext);
      const left = watch.take();
      if (left.length > 0) throw new Error(`Content-Security-Policy violations outside a test:\n${describe(left)}`);
    },
    { scope: 'worker', auto: true },
  ],

  policyViolations: [
    async ({ policyWatch }, use) => {
      const before = policyWatch.take();
      expect(before, `Content-Security-Policy violations seen before this test began (late, from the previous test or a hook):\n${describe(before)}`).toEqual([]);
      await use({ take: () => policyWatch.take() });
      const violations = policyWatch.take();
      expect(violations, `Content-Security-Policy violations in this test:\n${describe(violations)}`).toEqual([]);
    },
    { auto: true },
  ],
});
