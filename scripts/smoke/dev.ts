// What `npm test` runs of README's "Quick start" that nothing else does, as
// the README names it: `npm run db:reset` into a throwaway data folder, then
// `npm run dev` on that folder and free ports (the ports and folder set as a
// `.env` would). Passes when the app's page and the API's health answer
// through the dev server, and Ctrl-C (SIGINT to the process group, as a
// terminal sends it) ends it with "Stopped." and exit code 0. `npm start` is
// run, and ended every way, by tests/stack/lifecycle.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/root.ts';
import { isPortFree } from '../lib/ports.ts';
import { tempDataDir } from '../lib/db.ts';

const started = Date.now();
const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/** Five free ports below Linux's ephemeral range (as tests/stack does), so no outgoing connection takes one meanwhile. */
async function freeBlock() {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 33_000 - 5 * (1 + Math.floor(Math.random() * 600));
    const block = { WEB_PORT: base, DB_PORT: base + 1, API_PORT: base + 2, MAIL_PORT: base + 3, SMTP_PORT: base + 4 };
    if ((await Promise.all(Object.values(block).map(isPortFree))).every(Boolean)) return block;
  }
  throw new Error('no five free ports');
}

const ports = await freeBlock();
// tempDataDir's folder (made readable by the `postgres` user); the data goes in <it>/postgres as under .data.
const dataDir = path.dirname(tempDataDir('readme-smoke'));
const env = {
  ...process.env,
  ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
  HANGPLAN_DATA_DIR: dataDir,
  // The embedded database, whatever a developer's .env names.
  DATABASE_URL: '',
  SUPABASE_DB_URL: '',
  FORCE_COLOR: '0',
};

try {
  console.log('$ npm run db:reset');
  const reset = spawnSync('npm', ['run', '--silent', 'db:reset'], { cwd: ROOT, env, stdio: 'inherit' });
  if (reset.status !== 0) throw new Error(`npm run db:reset exited with ${reset.status ?? reset.signal}`);
  console.log(`(${since()})\n$ npm run dev`);
  await dev();
  console.log(`npm run db:reset and npm run dev: ok in ${since()}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

async function dev(): Promise<void> {
  // A process group of its own, as a terminal runs it: Ctrl-C reaches npm and the script.
  const child = spawn('npm', ['run', 'dev'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const fail = (what: string) => new Error(`npm run dev ${what}; its output:\n${output}`);
  try {
    const deadline = Date.now() + 120_000;
    while (!output.includes('Hangplan is running')) {
      if (child.exitCode !== null) throw fail(`ended with ${child.exitCode} before it ran`);
      if (Date.now() > deadline) throw fail('did not say "Hangplan is running" within 2 minutes');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const web = `http://localhost:${ports.WEB_PORT}`;
    const page = await fetch(`${web}/`);
    if (!page.ok || !(await page.text()).includes('<div id="root">')) throw fail(`answered ${page.status} for the app's page`);
    const health = await fetch(`${web}/api/health`);
    if (!health.ok) throw fail(`answered ${health.status} for /api/health through the dev server`);
    await health.body?.cancel();
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
  }
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([exited, new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 30_000)))]);
  clearTimeout(timer);
  if (code === 'late') {
    process.kill(-child.pid!, 'SIGKILL');
    throw fail('did not stop within 30 s of Ctrl-C');
  }
  if (code !== 0 || !output.includes('Stopped.')) throw fail(`ended with ${code} after Ctrl-C, not "Stopped." and 0`);
}
