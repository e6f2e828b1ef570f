// Starts the whole stack once for the e2e run and stops it afterwards. Every
// service runs under a guard, so an interrupted run (Ctrl-C, a killed
// Playwright) leaves nothing behind either (docs/stack-lifecycle.md).
import { tempDataDir } from '../scripts/lib/db.ts';
import { TEST_LIVE_STREAMS_PER_NETWORK, TEST_RATE_LIMITS } from '../scripts/lib/services.ts';
import { newNotificationKeys, startStack, type RunningStack } from '../scripts/lib/stack.ts';
import { startPushService } from '../tests/support/push-service.ts';

export default async function globalSetup() {
  const base = Number(process.env.E2E_BASE_PORT);
  // The stand-in push service (tests/support/push-service.ts): headless
  // Chromium has no push service of its own, so e2e/notifications.spec.ts
  // gives the page a subscription of this one, which decrypts what the API
  // sends; the spec hands it to the service worker (docs/testing.md).
  const notificationKeys = newNotificationKeys();
  const push = await startPushService({ vapidPublicKey: notificationKeys.vapidPublicKey });
  process.env.E2E_PUSH_URL = push.origin;
  let stack: RunningStack;
  try {
    stack = await startStack({
      dataDir: tempDataDir('e2e'),
      persistent: false,
      ports: { web: base, db: base + 1, api: base + 2, mail: base + 3, smtp: base + 4 },
      portSettings: { web: 'E2E_BASE_PORT', db: 'E2E_BASE_PORT', api: 'E2E_BASE_PORT', mail: 'E2E_BASE_PORT', smtp: 'E2E_BASE_PORT' },
      web: 'preview',
      jwtSecret: 'e2e-secret-that-is-long-enough-0123456789abcdef',
      // Every browser of the suite is 127.0.0.1: raise the per-network limits.
      apiEnv: { RATE_LIMITS: TEST_RATE_LIMITS, LIVE_STREAMS_PER_NETWORK: TEST_LIVE_STREAMS_PER_NETWORK, PUSH_SERVICE_ORIGINS: push.origin },
      notificationKeys,
      quiet: !process.env.DEBUG_STACK,
    });
  } catch (error) {
    await push.close();
    throw error;
  }
  // The build the preview serves, for e2e/update.spec.ts, which deploys a
  // new build into a copy of it. Workers inherit this.
  if (stack.webDir) process.env.E2E_WEB_DIR = stack.webDir;
  // The scheduler's secret, for a spec that runs the scheduler as soon as a
  // deadline passes rather than waiting for the stack's timer
  // (e2e/dates.spec.ts, the automatic lock).
  process.env.E2E_SCHEDULER_SECRET = notificationKeys.schedulerSecret;
  return async () => {
    await stack.stop();
    await push.close();
  };
}
