// `npm start` / `npm run dev`: the whole app on this machine, no Docker, no
// accounts. Ctrl-C stops everything. See README "Quick start" and
// docs/stack-lifecycle.md.
//
// Run with `node --import tsx` (package.json), not the `tsx` wrapper, and with
// `exec` so npm is this process's parent: the wrapper relays Ctrl-C to this
// process and SIGKILLs it 30 ms later if it has not confirmed the signal,
// cutting the stop short.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { ROOT } from './lib/db.ts';
import { PortBusyError } from './lib/ports.ts';
import { stopAllServices } from './lib/services.ts';
import { localJwtSecret, localNotificationKeys, startStack, type RunningStack } from './lib/stack.ts';

// A closed terminal must not turn the stop into a crash (EIO/EPIPE on write).
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

const dev = process.argv.includes('--dev');
const envFile = path.join(ROOT, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

const num = (name: string, fallback: number) => Number(process.env[name] || fallback);
const dataDir = path.resolve(process.env.HANGPLAN_DATA_DIR || path.join(ROOT, '.data'));
const began = performance.now();

let stack: RunningStack | undefined;
let stopping: Promise<void> | undefined;
let stopRequestedAt = 0;

/** Stop everything that runs, then exit. Idempotent: a second Ctrl-C only says it is still stopping. */
function shutdown(why: string, code: number): Promise<void> {
  if (stopping) {
    // One Ctrl-C arrives twice (from the terminal, and passed on by npm):
    // only a later press is a second one.
    if (performance.now() - stopRequestedAt > 1000) {
      console.log('Still stopping (a service that does not stop is killed after a few seconds)...');
    }
    return stopping;
  }
  stopRequestedAt = performance.now();
  stopping = (async () => {
    console.log(`\n${why ? `${why}. ` : ''}Stopping Hangplan...`);
    // Mid-start there is no stack yet: stop whatever has been started so far.
    await (stack ? stack.stop() : stopAllServices());
    console.log('Stopped.');
    process.exit(code);
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => void shutdown('', 0));
}
// The process that started this one (npm) was killed, e.g. with `kill -9`:
// nobody will ever send a signal, so stop by ourselves.
const parent = process.ppid;
if (parent > 1) {
  setInterval(() => {
    if (process.ppid !== parent) void shutdown(`The process that started Hangplan (pid ${parent}) has ended`, 1);
  }, 500).unref();
}

console.log(`Starting Hangplan${dev ? ' (dev: API reloads on change)' : ''}...`);
try {
  stack = await startStack({
    databaseUrl: process.env.SUPABASE_DB_URL || process.env.DATABASE_URL || undefined,
    dataDir: path.join(dataDir, 'postgres'),
    persistent: true,
    ports: {
      db: num('DB_PORT', 54322),
      api: num('API_PORT', 54321),
      mail: num('MAIL_PORT', 54324),
      smtp: num('SMTP_PORT', 54325),
      web: num('WEB_PORT', 5173),
    },
    portSettings: { db: 'DB_PORT', api: 'API_PORT', mail: 'MAIL_PORT', smtp: 'SMTP_PORT', web: 'WEB_PORT' },
    web: 'dev',
    watchApi: dev,
    jwtSecret: localJwtSecret(dataDir),
    notificationKeys: localNotificationKeys(dataDir),
  });
} catch (error) {
  if (stopping) await stopping;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof PortBusyError) {
    // One sentence: which port, who holds it, what to do.
    console.error(`Hangplan could not start: ${message}`);
  } else {
    console.error(`\nHangplan could not start: ${message}`);
  }
  await stopAllServices();
  process.exit(1);
}

if (!stopping) {
  console.log(`
  Hangplan is running (started in ${((performance.now() - began) / 1000).toFixed(1)} s):
    App            ${stack.urls.web}
    Sign-in codes  ${stack.urls.mail}   (the mail catcher: every e-mail lands here)
    API            ${stack.urls.api}
    Database       ${stack.urls.db}

  Press Ctrl-C to stop.
`);
  // A service that ends by itself leaves a broken app: say which, stop the rest.
  void stack.died.then((what) => shutdown(`Service ${what}`, 1));
}
