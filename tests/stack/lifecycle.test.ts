// The local stack lives through real life (docs/testing.md): `npm start`'s script is
// started for real (PostgreSQL, maildev, the API under Deno, Vite) on free ports
// with a throwaway data folder, in a process group of its own as a terminal
// would run it, and ended every way it ends in practice. Afterwards every port
// must be free and every process it started gone; the next start must work.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/root.ts';
import { isPortFree } from '../../scripts/lib/ports.ts';
import { spawnService, startApi } from '../../scripts/lib/services.ts';

type PortName = 'db' | 'api' | 'mail' | 'smtp' | 'web';
const SETTING: Record<PortName, string> = { db: 'DB_PORT', api: 'API_PORT', mail: 'MAIL_PORT', smtp: 'SMTP_PORT', web: 'WEB_PORT' };

interface Run {
  proc: ChildProcess;
  output: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let ports: Record<PortName, number>;
let dataDir: string;
const runs: Run[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Five free ports below Linux's ephemeral range, so no outgoing connection takes one between runs. */
async function freeBlock(): Promise<Record<PortName, number>> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 29_000 + Math.floor(Math.random() * 700) * 5;
    const block = { web: base, db: base + 1, api: base + 2, mail: base + 3, smtp: base + 4 };
    const free = await Promise.all(Object.values(block).map(isPortFree));
    if (free.every(Boolean)) return block;
  }
  throw new Error('no five free ports');
}

/** `npm start` (through npm) or its script run directly, as the leader of a new process group. */
function start(launcher: 'npm' | 'node', env: Record<string, string> = {}): Run {
  const [command, args] =
    launcher === 'npm' ? ['npm', ['start']] : [process.execPath, ['--import', 'tsx', 'scripts/start.ts']];
  const proc = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [SETTING[name as PortName], String(port)])),
      HANGPLAN_DATA_DIR: dataDir,
      // Never a database from a developer's .env: this is about the embedded one.
      DATABASE_URL: '',
      SUPABASE_DB_URL: '',
      FORCE_COLOR: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    out += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const run = { proc, output: () => out, stderr: () => err, exited };
  runs.push(run);
  return run;
}

async function untilRunning(run: Run): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!run.output().includes('Hangplan is running')) {
    if (run.proc.exitCode !== null || run.proc.signalCode !== null) {
      throw new Error(`the stack ended before it ran:\n${run.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`the stack did not start in time:\n${run.output()}`);
    await sleep(100);
  }
}

function stat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/** Every process below `root` (guards, services, their helpers), from /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(name)]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

const alive = (pid: number) => {
  const s = stat(pid);
  return s !== undefined && s.state !== 'Z';
};

async function busyPorts(): Promise<number[]> {
  const busy: number[] = [];
  for (const port of Object.values(ports)) if (!(await isPortFree(port))) busy.push(port);
  return busy;
}

/** Within `ms`: every port free and every process the run started gone. */
function expectAllDown(pids: number[], ms: number): Promise<void> {
  return expectAllDownOn(Object.values(ports), pids, ms);
}

async function expectAllDownOn(watched: number[], pids: number[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const busy: number[] = [];
    for (const port of watched) if (!(await isPortFree(port))) busy.push(port);
    const left = pids.filter(alive);
    if (busy.length === 0 && left.length === 0) return;
    if (Date.now() > deadline) {
      const what = left.map((pid) => `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`);
      throw new Error(`after ${ms} ms still busy ports [${busy.join(', ')}], still running:\n${what.join('\n')}`);
    }
    await sleep(100);
  }
}

/** Start, check that the services are up and ours, and return what runs below the launcher. */
async function startAndCollect(launcher: 'npm' | 'node', env: Record<string, string> = {}): Promise<{ run: Run; pids: number[] }> {
  const run = start(launcher, env);
  await untilRunning(run);
  expect(await busyPorts()).toEqual(Object.values(ports));
  const pids = descendants(run.proc.pid!);
  // At least a guard and a service for each of PostgreSQL, maildev, the API and Vite.
  expect(pids.length).toBeGreaterThanOrEqual(8);
  return { run, pids };
}

beforeAll(async () => {
  ports = await freeBlock();
  const parent = mkdtempSync(path.join(tmpdir(), 'hangplan-stack-'));
  // As root, PostgreSQL runs as the `postgres` user, who must enter it.
  chmodSync(parent, 0o755);
  dataDir = path.join(parent, 'data');
}, 30_000);

afterAll(async () => {
  for (const run of runs) {
    if (run.proc.exitCode === null && run.proc.signalCode === null) {
      try {
        process.kill(-run.proc.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
  await sleep(500);
  rmSync(path.dirname(dataDir), { recursive: true, force: true });
}, 30_000);

describe('npm start ends with everything it started', () => {
  it('Ctrl-C (SIGINT to the whole process group): "Stopped." and every port free before npm returns', async () => {
    const { run, pids } = await startAndCollect('npm');
    process.kill(-run.proc.pid!, 'SIGINT');
    const exit = await run.exited;
    // The moment npm hands the prompt back, everything is already down.
    expect(await busyPorts()).toEqual([]);
    expect(pids.filter(alive)).toEqual([]);
    expect(run.output()).toMatch(/Stopping Hangplan\.\.\.[\s\S]*Stopped\./);
    expect(exit.code).toBe(0);
  });

  it('SIGTERM to the script: the same orderly stop, and the next start on the same ports works', async () => {
    const { run, pids } = await startAndCollect('node');
    process.kill(run.proc.pid!, 'SIGTERM');
    await run.exited;
    expect(await busyPorts()).toEqual([]);
    expect(pids.filter(alive)).toEqual([]);
    expect(run.output()).toContain('Stopped.');
  });

  it('closing the terminal (SIGHUP to the process group)', async () => {
    const { run, pids } = await startAndCollect('node');
    process.kill(-run.proc.pid!, 'SIGHUP');
    await run.exited;
    await expectAllDown(pids, 5_000);
    expect(run.output()).toContain('Stopped.');
  });

  it('kill -9 of the script: no handler runs, the guards take every service down', async () => {
    const { run, pids } = await startAndCollect('node');
    process.kill(run.proc.pid!, 'SIGKILL');
    await run.exited;
    await expectAllDown(pids, 12_000);
  });

  it('kill -9 of `npm start`: the script notices its parent is gone and stops everything', async () => {
    const { run, pids } = await startAndCollect('npm');
    process.kill(run.proc.pid!, 'SIGKILL');
    await run.exited;
    await expectAllDown(pids, 12_000);
  });

  it('a service that dies takes the stack down with a sentence saying which', async () => {
    const { run, pids } = await startAndCollect('node');
    const deno = pids.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('functions/api/index.ts') && !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('guard'));
    expect(deno).toBeDefined();
    process.kill(deno!, 'SIGKILL');
    const exit = await run.exited;
    expect(exit.code).toBe(1);
    expect(run.output()).toContain('Service api was killed by SIGKILL. Stopping Hangplan...');
    await expectAllDown(pids, 5_000);
  });
});

describe("npm start's scheduler (the stand-in for pg_cron + pg_net)", () => {
  /** A JSON call to the running stack's API; fails unless 2xx. */
  async function call<T>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
    const res = await fetch(`http://127.0.0.1:${ports.api}/functions/v1${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async function signIn(email: string): Promise<string> {
    await call('POST', '/api/auth/send-otp', { email });
    for (let tries = 0; tries < 100; tries++) {
      const mails = (await (await fetch(`http://127.0.0.1:${ports.mail}/email`)).json()) as { to: { address: string }[]; text?: string }[];
      const code = mails.find((m) => m.to.some((t) => t.address === email))?.text?.match(/\b(\d{6})\b/)?.[1];
      if (code) return (await call<{ token: string }>('POST', '/api/auth/verify-otp', { email, code })).token;
      await sleep(100);
    }
    throw new Error(`no sign-in code reached ${email}`);
  }

  it('runs every SCHEDULER_SECONDS: a deadline with auto-lock locks the leaders by itself', async () => {
    const { run, pids } = await startAndCollect('node', { SCHEDULER_SECONDS: '1' });
    try {
      expect(run.output()).toContain('Scheduler runs every 1 s');
      const token = await signIn('scheduler-host@example.com');
      const plan = await call<{ id: string }>('POST', '/api/plans', { title: 'Deadline test' }, token);
      const idea = await call<{ id: string }>('POST', `/api/plans/${plan.id}/ideas`, { text: 'Bowling' }, token);
      await call('POST', `/api/ideas/${idea.id}/vote`, {}, token);
      const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
      await call('POST', `/api/plans/${plan.id}/vote-date`, { date }, token);
      await call('POST', `/api/plans/${plan.id}/deadline`, { deadline: new Date(Date.now() + 1500).toISOString(), autoLock: true }, token);

      // Nobody calls the scheduler here but npm start's timer.
      let locked: { lockedIdeaId: string | null; lockedTimeSlotDate: string | null } | undefined;
      for (let tries = 0; tries < 100 && !locked?.lockedTimeSlotDate; tries++) {
        await sleep(200);
        locked = await call('GET', `/api/plans/${plan.id}`, undefined, token);
      }
      expect(locked).toMatchObject({ lockedIdeaId: idea.id, lockedTimeSlotDate: date });
    } finally {
      process.kill(run.proc.pid!, 'SIGTERM');
      await run.exited;
      await expectAllDown(pids, 5_000);
    }
  });
});

describe('a busy port', () => {
  let holder: Server;
  afterAll(() => new Promise<void>((resolve) => (holder ? holder.close(() => resolve()) : resolve())));

  it('fails fast, in one sentence naming the port and what holds it, starting nothing', async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(ports.api, '127.0.0.1', resolve));
    const began = Date.now();
    const run = start('node');
    const exit = await run.exited;
    expect(exit.code).toBe(1);
    expect(Date.now() - began).toBeLessThan(10_000);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Hangplan could not start: port ${ports.api} \\(the API, API_PORT\\) is already in use by pid ${process.pid} \\(.+\\): stop it or set API_PORT to a free port\\.$`));
    expect(run.output()).not.toContain('[db');
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    expect(await busyPorts()).toEqual([]);
  });

  it("the API is never taken for ready when another program answers on its port", async () => {
    // The orphan of an earlier run, say: it answers health, but it is not ours.
    const orphan = createServer((socket) => {
      socket.on('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}'));
    });
    await new Promise<void>((resolve) => orphan.listen(ports.api, '127.0.0.1', resolve));
    try {
      await expect(
        startApi({
          port: ports.api,
          env: {
            DATABASE_URL: 'postgresql://postgres:postgres@127.0.0.1:1/postgres',
            JWT_SECRET: 'stack-test-secret-that-is-long-enough-0123456789',
            SMTP_HOST: '127.0.0.1',
            SMTP_PORT: '9',
            MAIL_FROM: 'Hangplan <hello@hangplan.test>',
            APP_ORIGIN: 'http://localhost:5173',
          },
        }),
      ).rejects.toThrow(String(ports.api));
    } finally {
      await new Promise<void>((resolve) => orphan.close(() => resolve()));
    }
  });
});

describe('the guard', () => {
  it('kills a service that ignores its stop signal, with its whole process group, after the grace time', async () => {
    // A shell that shrugs off SIGTERM, with a helper process in its group.
    const service = spawnService('stubborn', 'sh', ['-c', 'trap "" TERM; sleep 300 & wait; sleep 300'], { graceMs: 1_000 });
    const pid = await service.spawned;
    await sleep(300);
    const group = descendants(service.guard.pid!);
    expect(group).toContain(pid);
    expect(group.length).toBeGreaterThanOrEqual(2);
    const began = Date.now();
    await service.stop();
    expect(Date.now() - began).toBeGreaterThanOrEqual(900);
    expect(Date.now() - began).toBeLessThan(4_000);
    expect((await service.exited).signal ?? (await service.exited).code).toBeTruthy();
    await sleep(100);
    expect(group.filter(alive)).toEqual([]);
  });

  it('a throwaway database goes with a starter killed by SIGKILL: server stopped, folder deleted', async () => {
    const port = ports.db;
    const script = `
      import { startEmbeddedPostgres, tempDataDir } from './scripts/lib/db.ts';
      const dir = tempDataDir('it');
      await startEmbeddedPostgres({ dir, port: ${port}, persistent: false });
      console.log('READY ' + dir);
      setInterval(() => {}, 1000);`;
    const starter = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    starter.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 30_000;
    while (!out.includes('READY ') && Date.now() < deadline && starter.exitCode === null) await sleep(100);
    const dir = out.match(/READY (\S+)/)?.[1];
    expect(dir, out).toBeDefined();
    expect(existsSync(dir!)).toBe(true);
    const pids = descendants(starter.pid!);
    starter.kill('SIGKILL');
    await expectAllDownOn([port], pids, 12_000);
    expect(existsSync(path.dirname(dir!))).toBe(false);
  });
});
