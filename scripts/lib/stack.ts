// The whole local stack in one place, used by `npm start`, `npm run dev` and
// the end-to-end tests: PostgreSQL (embedded unless a URL is given), the
// migrations, maildev, the API function under Deno, and the web app.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, prepareDatabase, startEmbeddedPostgres } from './db.ts';
import { prefixedLog, spawnService, startApi, startMaildev, waitForHttp, type Log, type Service } from './services.ts';

export interface StackOptions {
  /** Use this PostgreSQL instead of the embedded one (e.g. `supabase start`'s). */
  databaseUrl?: string;
  /** Where the embedded PostgreSQL keeps its data. */
  dataDir: string;
  persistent: boolean;
  ports: { db: number; api: number; smtp: number; mail: number; web: number };
  /** `dev`: Vite dev server; `preview`: production build served by `vite preview`. */
  web: 'dev' | 'preview' | 'none';
  watchApi?: boolean;
  jwtSecret: string;
  quiet?: boolean;
}

export interface RunningStack {
  urls: { web: string; api: string; mail: string; db: string };
  stop: () => Promise<void>;
}

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

export async function startStack(opts: StackOptions): Promise<RunningStack> {
  const log = (name: string): Log => (opts.quiet ? () => {} : prefixedLog(name));
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
  };
  try {
    let dbUrl = opts.databaseUrl;
    if (!dbUrl) {
      const pgLog = log('db');
      const db = await startEmbeddedPostgres({
        dir: opts.dataDir,
        port: opts.ports.db,
        persistent: opts.persistent,
        // Statement errors (a refused vote, the CLI probing for its history
        // table) are answered by the API and are noise here: keep only what
        // means the server itself is in trouble.
        onLog: (line) => {
          if (/FATAL|PANIC/.test(line)) pgLog(line);
        },
      });
      stops.push(db.stop);
      dbUrl = db.url;
    }
    const migrateLog = log('db');
    const pushed = await prepareDatabase(dbUrl);
    for (const line of pushed.split('\n')) if (/Applying|up to date|Finished/i.test(line)) migrateLog(line);

    const mail = await startMaildev({ smtpPort: opts.ports.smtp, webPort: opts.ports.mail, log: log('mail') });
    stops.push(mail.stop);

    const appOrigin = `http://localhost:${opts.ports.web}`;
    const api = await startApi({
      port: opts.ports.api,
      watch: opts.watchApi,
      log: log('api'),
      env: {
        DATABASE_URL: dbUrl,
        JWT_SECRET: opts.jwtSecret,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(opts.ports.smtp),
        MAIL_FROM: process.env.MAIL_FROM ?? 'Hangplan <hello@hangplan.local>',
        APP_ORIGIN: process.env.APP_ORIGIN ?? appOrigin,
        ALLOWED_ORIGINS:
          process.env.ALLOWED_ORIGINS ?? `${appOrigin},http://127.0.0.1:${opts.ports.web}`,
      },
    });
    stops.push(api.stop);

    if (opts.web !== 'none') stops.push((await startWeb(opts, log('web'))).stop);

    return {
      urls: {
        web: `http://localhost:${opts.ports.web}`,
        api: `http://127.0.0.1:${opts.ports.api}/functions/v1/api`,
        mail: `http://localhost:${opts.ports.mail}`,
        db: redact(dbUrl),
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startWeb(opts: StackOptions, log: Log): Promise<Service> {
  const vite = path.join(ROOT, 'node_modules/.bin/vite');
  const config = path.join(ROOT, 'web/vite.config.ts');
  const env = {
    API_PROXY_TARGET: `http://127.0.0.1:${opts.ports.api}/functions/v1`,
    WEB_PORT: String(opts.ports.web),
  };
  if (opts.web !== 'preview') {
    const web = spawnService('web', vite, ['--config', config, '--port', String(opts.ports.web), '--strictPort'], { env, log });
    await waitForHttp(`http://localhost:${opts.ports.web}/`, 60_000, web);
    return web;
  }
  // Each preview stack builds into a directory of its own: a shared web/dist
  // would be emptied and rebuilt under a running stack by any other build
  // (a second e2e run, the screenshots, `npm run build`), which then answers
  // 404 for the app's pages in the middle of a test.
  const outDir = mkdtempSync(path.join(tmpdir(), 'hangplan-web-'));
  const removeOutDir = () => rmSync(outDir, { recursive: true, force: true });
  try {
    const build = spawnService('build', vite, ['build', '--config', config, '--outDir', outDir, '--emptyOutDir'], { env, log });
    const code = await new Promise<number | null>((resolve) => build.child.once('exit', resolve));
    if (code !== 0) throw new Error(`vite build failed with exit code ${code}`);
    const web = spawnService(
      'web',
      vite,
      ['preview', '--config', config, '--outDir', outDir, '--port', String(opts.ports.web), '--strictPort'],
      { env, log },
    );
    try {
      await waitForHttp(`http://localhost:${opts.ports.web}/`, 60_000, web);
    } catch (error) {
      await web.stop();
      throw error;
    }
    return {
      ...web,
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
