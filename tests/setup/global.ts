// One throwaway PostgreSQL (bootstrapped + migrated into a template database),
// maildev, and the API function under Deno, for the whole integration run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { prepareDatabase, startEmbeddedPostgres } from '../../scripts/lib/db.ts';
import { freePort, prefixedLog, startApi, startMaildev, type Service } from '../../scripts/lib/services.ts';

export const TEMPLATE_DB = 'hangplan_template';
export const API_DB = 'hangplan_api';
export const JWT_SECRET = 'integration-test-secret-that-is-long-enough-0123456789';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDb: string;
    apiDbUrl: string;
    apiUrl: string;
    mailUrl: string;
    jwtSecret: string;
  }
}

function dbUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const quiet = () => {};
  const verbose = process.env.DEBUG_STACK ? prefixedLog('it', process.stderr) : quiet;
  const pgPort = await freePort();
  const db = await startEmbeddedPostgres({
    dir: path.join(mkdtempSync(path.join(tmpdir(), 'hangplan-it-')), 'pg'),
    port: pgPort,
    persistent: false,
    onLog: verbose,
  });
  const services: Service[] = [];
  try {
    const admin = postgres(db.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${TEMPLATE_DB}`);
    await prepareDatabase(dbUrl(db.url, TEMPLATE_DB));
    await admin.unsafe(`create database ${API_DB} template ${TEMPLATE_DB}`);
    await admin.end();

    const [smtpPort, webPort, apiPort] = [await freePort(), await freePort(), await freePort()];
    services.push(await startMaildev({ smtpPort, webPort, log: verbose }));
    services.push(
      await startApi({
        port: apiPort,
        env: {
          DATABASE_URL: dbUrl(db.url, API_DB),
          JWT_SECRET,
          SMTP_HOST: '127.0.0.1',
          SMTP_PORT: String(smtpPort),
          MAIL_FROM: 'Hangplan <hello@hangplan.test>',
          APP_ORIGIN: 'http://localhost:5173',
          ALLOWED_ORIGINS: 'http://localhost:5173',
        },
        log: process.env.DEBUG_STACK ? prefixedLog('api', process.stderr) : quiet,
      }),
    );

    project.provide('adminUrl', db.url);
    project.provide('templateDb', TEMPLATE_DB);
    project.provide('apiDbUrl', dbUrl(db.url, API_DB));
    project.provide('apiUrl', `http://127.0.0.1:${apiPort}/functions/v1`);
    project.provide('mailUrl', `http://127.0.0.1:${webPort}`);
    project.provide('jwtSecret', JWT_SECRET);
  } catch (error) {
    await Promise.all(services.map((s) => s.stop()));
    await db.stop();
    throw error;
  }

  return async () => {
    await Promise.all(services.map((s) => s.stop()));
    await db.stop();
  };
}
