// `npm start` / `npm run dev`: the whole app on this machine, no Docker, no
// accounts. Ctrl-C stops everything. See README "Quick start".
import path from 'node:path';
import { existsSync } from 'node:fs';
import { ROOT } from './lib/db.ts';
import { localJwtSecret, startStack } from './lib/stack.ts';

const dev = process.argv.includes('--dev');
const envFile = path.join(ROOT, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const dataDir = path.join(ROOT, '.data');

console.log(`Starting Hangplan${dev ? ' (dev: API reloads on change)' : ''}...`);
try {
  const stack = await startStack({
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
    web: 'dev',
    watchApi: dev,
    jwtSecret: localJwtSecret(dataDir),
  });

  console.log(`
  Hangplan is running:
    App            ${stack.urls.web}
    Sign-in codes  ${stack.urls.mail}   (the mail catcher: every e-mail lands here)
    API            ${stack.urls.api}
    Database       ${stack.urls.db}

  Press Ctrl-C to stop.
`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping Hangplan...');
    await stack.stop();
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  console.error(`\nHangplan could not start: ${error instanceof Error ? error.message : String(error)}`);
  if (/EADDRINUSE|already in use|lock file/i.test(String(error))) {
    console.error('Is another Hangplan (or `supabase start`) already running? Stop it or set the *_PORT variables (.env.example).');
  }
  process.exit(1);
}
