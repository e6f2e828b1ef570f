// The whole local stack in one place, used by `npm start`, `npm run dev`, the
// screenshots and the end-to-end tests: PostgreSQL (embedded unless a URL is
// given), the migrations, maildev, the API function under Deno, and the web app.
// Every service runs under a guard that stops it when this process ends,
// however it ends (spawn.ts, docs/stack-lifecycle.md).
import { randomBytes } from 'node:crypto';
import webpush from 'web-push';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, prepareDatabase, removeDataDir, startEmbeddedPostgres } from './db.ts';
import { assertPortsFree, type PortNeed } from './ports.ts';
import {
  prefixedLog,
  serviceFailure,
  spawnService,
  startApi,
  startMaildev,
  waitForHttp,
  waitForOwnPort,
  type Log,
  type Service,
} from './services.ts';

type PortName = 'db' | 'api' | 'smtp' | 'mail' | 'web';

export interface StackOptions {
  /** Use this PostgreSQL instead of the embedded one (e.g. `supabase start`'s). */
  databaseUrl?: string;
  /** Where the embedded PostgreSQL keeps its data. */
  dataDir: string;
  persistent: boolean;
  ports: Record<PortName, number>;
  /** The setting that moves each port, named when a port is busy (e.g. API_PORT). */
  portSettings?: Partial<Record<PortName, string>>;
  /** `dev`: Vite dev server; `preview`: production build served by `vite preview`. */
  web: 'dev' | 'preview' | 'none';
  watchApi?: boolean;
  jwtSecret: string;
  /** More settings of the API function (e.g. RATE_LIMITS for a test stack). */
  apiEnv?: Record<string, string>;
  /** The Web Push keys and the scheduler's secret; fresh ones for this start when left out. */
  notificationKeys?: NotificationKeys;
  /** How often the stack runs the scheduler (POST /api/scheduler/run); 0 never. Default SCHEDULER_SECONDS, else 30. */
  schedulerSeconds?: number;
  quiet?: boolean;
}

export interface RunningStack {
  urls: { web: string; api: string; mail: string; db: string };
  /**
   * The folder `vite preview` serves the build from (web: 'preview' only;
   * deleted when the stack stops). e2e/update.spec.ts serves a copy of it and
   * deploys a new build into that (e2e/global-setup.ts hands it to the specs
   * as E2E_WEB_DIR).
   */
  webDir?: string;
  /** Resolves with a sentence if a service ends while the stack runs (not during stop). */
  died: Promise<string>;
  stop: () => Promise<void>;
}

const ROLES: Record<PortName, string> = {
  db: 'PostgreSQL',
  api: 'the API',
  mail: 'the mail catcher',
  smtp: 'SMTP of the mail catcher',
  web: 'the web app',
};

/** A JWT secret kept under .data so sign-ins survive restarts of `npm start`. */
export function localJwtSecret(dataDir: string): string {
  if (process.env.JWT_SECRET) return process.env.JWT_SECRET;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

/** VAPID keys (Web Push, RFC 8292) and the secret the scheduler's calls carry. */
export interface NotificationKeys {
  vapidPublicKey: string;
  vapidPrivateKey: string;
  schedulerSecret: string;
}

export function newNotificationKeys(): NotificationKeys {
  const vapid = webpush.generateVAPIDKeys();
  return { vapidPublicKey: vapid.publicKey, vapidPrivateKey: vapid.privateKey, schedulerSecret: randomBytes(32).toString('base64url') };
}

/**
 * Notification keys kept under .data like the JWT secret: browsers'
 * subscriptions are bound to the VAPID public key, so a restart must not
 * change it. VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY and SCHEDULER_SECRET win.
 */
export function localNotificationKeys(dataDir: string): NotificationKeys {
  const file = path.join(dataDir, 'notification-keys.json');
  let keys: NotificationKeys;
  if (existsSync(file)) {
    keys = JSON.parse(readFileSync(file, 'utf8')) as NotificationKeys;
  } else {
    mkdirSync(dataDir, { recursive: true });
    keys = newNotificationKeys();
    writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  }
  return {
    vapidPublicKey: process.env.VAPID_PUBLIC_KEY || keys.vapidPublicKey,
    vapidPrivateKey: process.env.VAPID_PRIVATE_KEY || keys.vapidPrivateKey,
    schedulerSecret: process.env.SCHEDULER_SECRET || keys.schedulerSecret,
  };
}

/**
 * The local stand-in of pg_cron + pg_net: POST /api/scheduler/run every
 * `everySeconds`, one run at a time, the same request Supabase's job sends.
 */
function startScheduler(apiBase: string, secret: string, everySeconds: number, log: Log): () => void {
  let running = false;
  let failing = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const response = await fetch(`${apiBase}/api/scheduler/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}` },
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      if (failing) log('Scheduler runs again');
      failing = false;
    } catch (error) {
      // Said once per outage, not every tick.
      if (!failing) log(`Scheduler run failed (${(error as Error).message}); retrying every ${everySeconds} s`);
      failing = true;
    } finally {
      running = false;
    }
  }, everySeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

export async function startStack(opts: StackOptions): Promise<RunningStack> {
  const log = (name: string): Log => (opts.quiet ? () => {} : prefixedLog(name));
  const stops: Array<() => Promise<void>> = [];
  const running: Service[] = [];
  let stopping = false;
  const stop = async () => {
    stopping = true;
    for (const s of stops.reverse()) await s().catch(() => {});
    stops.length = 0;
  };
  try {
    // Every port first, so a busy one fails in a second rather than halfway.
    const needs: PortNeed[] = (['db', 'api', 'mail', 'smtp', 'web'] as const)
      .filter((name) => !(name === 'db' && opts.databaseUrl) && !(name === 'web' && opts.web === 'none'))
      .map((name) => ({ port: opts.ports[name], role: ROLES[name], setting: opts.portSettings?.[name] }));
    await assertPortsFree(needs);

    const dbLog = log('db');
    let dbUrl = opts.databaseUrl;
    if (!dbUrl) {
      const started = performance.now();
      dbLog(`Starting PostgreSQL on port ${opts.ports.db}...`);
      const db = await startEmbeddedPostgres({
        dir: opts.dataDir,
        port: opts.ports.db,
        persistent: opts.persistent,
        // Statement errors (a refused vote, the CLI probing for its history
        // table) are answered by the API and are noise here: keep only what
        // means the server itself is in trouble.
        onLog: (line) => {
          if (/FATAL|PANIC/.test(line)) dbLog(line);
        },
      });
      stops.push(db.stop);
      running.push(db.service);
      dbLog(`PostgreSQL ready in ${seconds(started)}${db.initialised ? ` (new cluster in ${opts.dataDir})` : ''}`);
      dbUrl = db.url;
    }
    let started = performance.now();
    const pushed = await prepareDatabase(dbUrl);
    for (const line of pushed.split('\n')) if (/Applying|up to date|Finished/i.test(line)) dbLog(line);
    dbLog(`Migrations done in ${seconds(started)}`);

    started = performance.now();
    const mailLog = log('mail');
    mailLog(`Starting maildev (web ${opts.ports.mail}, SMTP ${opts.ports.smtp})...`);
    const mail = await startMaildev({ smtpPort: opts.ports.smtp, webPort: opts.ports.mail, log: mailLog });
    stops.push(mail.stop);
    running.push(mail);
    mailLog(`maildev ready in ${seconds(started)}`);

    started = performance.now();
    const apiLog = log('api');
    apiLog(`Starting the API under Deno on port ${opts.ports.api}...`);
    const appOrigin = `http://localhost:${opts.ports.web}`;
    const keys = opts.notificationKeys ?? newNotificationKeys();
    const api = await startApi({
      port: opts.ports.api,
      watch: opts.watchApi,
      log: apiLog,
      env: {
        DATABASE_URL: dbUrl,
        JWT_SECRET: opts.jwtSecret,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(opts.ports.smtp),
        MAIL_FROM: process.env.MAIL_FROM ?? 'Hangplan <hello@hangplan.local>',
        APP_ORIGIN: process.env.APP_ORIGIN ?? appOrigin,
        ALLOWED_ORIGINS:
          process.env.ALLOWED_ORIGINS ?? `${appOrigin},http://127.0.0.1:${opts.ports.web}`,
        VAPID_PUBLIC_KEY: keys.vapidPublicKey,
        VAPID_PRIVATE_KEY: keys.vapidPrivateKey,
        VAPID_SUBJECT: process.env.VAPID_SUBJECT ?? 'mailto:hello@hangplan.local',
        SCHEDULER_SECRET: keys.schedulerSecret,
        ...(process.env.PUSH_SERVICE_ORIGINS ? { PUSH_SERVICE_ORIGINS: process.env.PUSH_SERVICE_ORIGINS } : {}),
        ...opts.apiEnv,
      },
    });
    stops.push(api.stop);
    running.push(api);
    apiLog(`API ready in ${seconds(started)}`);
    const schedulerSeconds = opts.schedulerSeconds ?? Number(process.env.SCHEDULER_SECONDS ?? 30);
    if (Number.isFinite(schedulerSeconds) && schedulerSeconds > 0) {
      const stopScheduler = startScheduler(`http://127.0.0.1:${opts.ports.api}/functions/v1`, keys.schedulerSecret, schedulerSeconds, log('scheduler'));
      stops.push(async () => stopScheduler());
      apiLog(`Scheduler runs every ${schedulerSeconds} s (deliveries, reminders, deadlines)`);
    }

    let webDir: string | undefined;
    if (opts.web !== 'none') {
      started = performance.now();
      const webLog = log('web');
      webLog(opts.web === 'dev' ? `Starting Vite on port ${opts.ports.web}...` : `Building the web app, then serving it on port ${opts.ports.web}...`);
      const web = await startWeb(opts, webLog);
      webDir = web.dir;
      stops.push(web.stop);
      running.push(web);
      webLog(`web app ready in ${seconds(started)}`);
    }

    const died = new Promise<string>((resolve) => {
      for (const service of running) {
        void service.exited.then(() => {
          if (!stopping) resolve(`${service.name} ${service.describeExit()}`);
        });
      }
    });
    return {
      urls: {
        web: `http://localhost:${opts.ports.web}`,
        api: `http://127.0.0.1:${opts.ports.api}/functions/v1/api`,
        mail: `http://localhost:${opts.ports.mail}`,
        db: redact(dbUrl),
      },
      webDir,
      died,
      stop,
    };
  } catch (error) {
    await stop();
    // A throwaway data folder made for this start goes too (the database's
    // own stop removes it once PostgreSQL has run).
    if (!opts.persistent && !opts.databaseUrl) removeDataDir(opts.dataDir);
    throw error;
  }
}

/**
 * The production build of the web app into `outDir` (an empty folder of the
 * caller's): `vite build`, or, when HANGPLAN_WEB_BUILD names a build, a copy
 * of it. `npm test` builds once with `npm run build` and hands web/dist to the
 * steps after it that serve the app (the screenshots, the web bench, the e2e
 * stack: scripts/test-steps.ts), each still serving a copy of its own.
 */
export async function buildWeb(outDir: string, opts: { env?: Record<string, string>; log?: Log } = {}): Promise<void> {
  const built = process.env.HANGPLAN_WEB_BUILD;
  if (built) {
    for (const file of ['index.html', 'sw.js']) {
      if (!existsSync(path.join(built, file))) throw new Error(`HANGPLAN_WEB_BUILD (${built}) is not a build of the web app: it has no ${file}`);
    }
    cpSync(built, outDir, { recursive: true });
    return;
  }
  const vite = path.join(ROOT, 'node_modules/.bin/vite');
  const build = spawnService('build', vite, ['build', '--config', path.join(ROOT, 'web/vite.config.ts'), '--outDir', outDir, '--emptyOutDir'], opts);
  const exit = await build.exited;
  if (exit.code !== 0) throw serviceFailure(build, '(vite build failed)');
}

/** The web app's server; `dir`: the build it serves (`vite preview` only). */
async function startWeb(opts: StackOptions, log: Log): Promise<Service & { dir?: string }> {
  const vite = path.join(ROOT, 'node_modules/.bin/vite');
  const config = path.join(ROOT, 'web/vite.config.ts');
  const env = {
    API_PROXY_TARGET: `http://127.0.0.1:${opts.ports.api}/functions/v1`,
    WEB_PORT: String(opts.ports.web),
  };
  const serve = async (args: string[], removeOnExit?: string[]): Promise<Service> => {
    const web = spawnService('web', vite, [...args, '--port', String(opts.ports.web), '--strictPort'], {
      env,
      log,
      removeOnExit,
    });
    try {
      await waitForHttp(`http://localhost:${opts.ports.web}/`, 60_000, web);
      await waitForOwnPort(web, opts.ports.web);
    } catch (error) {
      await web.stop();
      throw error;
    }
    return web;
  };
  if (opts.web !== 'preview') return serve(['--config', config]);
  // Each preview stack builds into a directory of its own: a shared web/dist
  // would be emptied and rebuilt under a running stack by any other build
  // (a second e2e run, the screenshots, `npm run build`), which then answers
  // 404 for the app's pages in the middle of a test.
  const outDir = mkdtempSync(path.join(tmpdir(), 'hangplan-web-'));
  const removeOutDir = () => rmSync(outDir, { recursive: true, force: true });
  try {
    await buildWeb(outDir, { env, log });
    // The guard deletes the build when the server ends, however the run ends.
    const web = await serve(['preview', '--config', config, '--outDir', outDir], [outDir]);
    return {
      ...web,
      dir: outDir,
      stop: async () => {
        await web.stop();
        removeOutDir();
      },
    };
  } catch (error) {
    removeOutDir();
    throw error;
  }
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
