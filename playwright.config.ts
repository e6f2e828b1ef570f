import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';

// The stack for e2e runs on its own ports (chosen once here; workers inherit
// the environment), started by e2e/global-setup.ts: embedded PostgreSQL,
// maildev, the API under Deno, and the production web build via `vite preview`.
// Below Linux's ephemeral range (32768+), so no outgoing connection can hold one.
process.env.E2E_BASE_PORT ??= String(21000 + Math.floor(Math.random() * 1500) * 5);
const base = Number(process.env.E2E_BASE_PORT);
process.env.E2E_WEB_URL = `http://localhost:${base}`;
process.env.E2E_MAIL_URL = `http://127.0.0.1:${base + 3}`;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  // Two spec files at a time (each file's tests in order, in one worker):
  // on this project's 2-core machine the browsers, the stack and the tests
  // keep both cores busy, where one worker left one mostly idle
  // (docs/testing.md "Where the time goes"). No spec needs a turn alone:
  // update.spec.ts deploys to a site of its own.
  fullyParallel: false,
  workers: Math.min(2, availableParallelism()),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: process.env.E2E_WEB_URL,
    launchOptions: chromium,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'phone',
      use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, launchOptions: chromium },
    },
    // The whole story once more on a desktop screen; the feature specs stay
    // phone-only so the suite keeps within its CI budget.
    {
      name: 'desktop',
      testMatch: 'journey.spec.ts',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
    },
  ],
});
