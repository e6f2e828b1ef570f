// Global setup of the `api` project: PostgreSQL (migrated), maildev, and the
// API function served by Deno exactly as `npm start` serves it.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import webpush from 'web-push';
import { startPushService } from '../support/push-service.ts';
import './context.ts';
import { API_TEST_RATE_LIMITS, TEST_LIVE_STREAMS_PER_NETWORK, freePort, prefixedLog, startApi, startMaildev, type Service } from '../../scripts/lib/services.ts';
import { cloneTemplate, startTemplateDatabase, TEMPLATE_DB, verboseLog } from './stack.ts';

const JWT_SECRET = 'integration-test-secret-that-is-long-enough-0123456789';

export default async function setup(project: TestProject) {
  const db = await startTemplateDatabase();
  const services: Service[] = [];
  // One stand-in push service for every test file (each subscribes its own
  // endpoints through its control surface, tests/support/push-client.ts).
  const vapid = webpush.generateVAPIDKeys();
  const push = await startPushService({ vapidPublicKey: vapid.publicKey });
  const notificationEnv = {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:tests@hangplan.test',
    PUSH_SERVICE_ORIGINS: push.origin,
    SCHEDULER_SECRET: randomBytes(32).toString('base64url'),
  };
  try {
    const apiDbUrl = await cloneTemplate(db.url, 'hangplan_api');
    const [smtpPort, webPort, apiPort] = [await freePort(), await freePort(), await freePort()];
    services.push(await startMaildev({ smtpPort, webPort, log: verboseLog }));
    services.push(
      await startApi({
        port: apiPort,
        env: {
          DATABASE_URL: apiDbUrl,
          JWT_SECRET,
          SMTP_HOST: '127.0.0.1',
          SMTP_PORT: String(smtpPort),
          MAIL_FROM: 'Hangplan <hello@hangplan.test>',
          APP_ORIGIN: 'http://localhost:5173',
          ALLOWED_ORIGINS: 'http://localhost:5173',
          RATE_LIMITS: API_TEST_RATE_LIMITS,
          LIVE_STREAMS_PER_NETWORK: TEST_LIVE_STREAMS_PER_NETWORK,
          ...notificationEnv,
        },
        log: process.env.DEBUG_STACK ? prefixedLog('api', process.stderr) : () => {},
      }),
    );
    project.provide('adminUrl', db.url);
    project.provide('templateDb', TEMPLATE_DB);
    project.provide('apiDbUrl', apiDbUrl);
    project.provide('apiUrl', `http://127.0.0.1:${apiPort}/functions/v1`);
    project.provide('mailUrl', `http://127.0.0.1:${webPort}`);
    project.provide('smtpPort', smtpPort);
    project.provide('jwtSecret', JWT_SECRET);
    project.provide('pushServiceOrigin', push.origin);
    project.provide('notificationEnv', notificationEnv);
  } catch (error) {
    await Promise.all(services.map((s) => s.stop()));
    await push.close();
    await db.stop();
    throw error;
  }
  return async () => {
    await Promise.all(services.map((s) => s.stop()));
    await push.close();
    await db.stop();
  };
}
