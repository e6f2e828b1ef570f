// Child processes of the local stack (maildev, the API under Deno, Vite),
// with prefixed logs, readiness checks and a clean stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { ROOT } from './db.ts';

const BIN = path.join(ROOT, 'node_modules/.bin');

export type Log = (line: string) => void;

export interface Service {
  name: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

const COLORS = [36, 35, 33, 32, 34, 31];
let colorIndex = 0;

/** A logger that prefixes each line with `[name]`, coloured on a TTY. */
export function prefixedLog(name: string, sink: NodeJS.WriteStream = process.stdout): Log {
  const color = COLORS[colorIndex++ % COLORS.length];
  const tag = sink.isTTY ? `\x1b[${color}m[${name.padEnd(5)}]\x1b[0m` : `[${name.padEnd(5)}]`;
  return (text) => {
    for (const line of text.split(/\r?\n/)) if (line.trim()) sink.write(`${tag} ${line}\n`);
  };
}

export function spawnService(
  name: string,
  command: string,
  args: string[],
  opts: { env?: Record<string, string>; log?: Log; cwd?: string },
): Service {
  const child = spawn(command, args, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group, so stop() takes grandchildren (e.g. esbuild) too.
    detached: true,
  });
  const log = opts.log ?? (() => {});
  child.stdout?.on('data', (d: Buffer) => log(d.toString()));
  child.stderr?.on('data', (d: Buffer) => log(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolve once `url` answers any HTTP status, or reject after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs = 30_000, service?: Service): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (service && service.child.exitCode !== null) {
      throw new Error(`${service.name} exited with code ${service.child.exitCode} before ${url} answered`);
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`Timed out waiting for ${url}: ${String(lastError)}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startMaildev(opts: { smtpPort: number; webPort: number; log?: Log }): Promise<Service> {
  const service = spawnService(
    'mail',
    path.join(BIN, 'maildev'),
    ['--smtp', String(opts.smtpPort), '--web', String(opts.webPort), '--ip', '127.0.0.1'],
    { log: opts.log },
  );
  await waitForHttp(`http://127.0.0.1:${opts.webPort}/email`, 30_000, service);
  return service;
}

/** The environment the API function reads (see .env.example). */
export interface ApiEnv {
  DATABASE_URL: string;
  JWT_SECRET: string;
  SMTP_HOST: string;
  SMTP_PORT: string;
  MAIL_FROM: string;
  APP_ORIGIN: string;
  ALLOWED_ORIGINS?: string;
  DATABASE_POOL_MODE?: 'session' | 'transaction';
  LIVE_STREAM_SECONDS?: string;
  LIVE_HEARTBEAT_SECONDS?: string;
  LIVE_POLL_SECONDS?: string;
  EXPOSE_MEMORY_STATS?: string;
  SMTP_SECURE?: string;
  SMTP_USER?: string;
  SMTP_PASS?: string;
}

/** Serve supabase/functions/api under Deno, as `/functions/v1/api/...` on `port`. */
export async function startApi(opts: {
  port: number;
  env: ApiEnv;
  watch?: boolean;
  log?: Log;
  /** Extra V8 flags (the live bench passes --expose-gc). */
  v8Flags?: string[];
}): Promise<Service> {
  const fnDir = path.join(ROOT, 'supabase/functions/api');
  const args = [
    'run',
    '--allow-net',
    '--allow-env',
    '--allow-read',
    '--allow-sys',
    '--no-prompt',
    '--config',
    path.join(fnDir, 'deno.json'),
    ...(opts.watch ? ['--watch'] : []),
    ...(opts.v8Flags?.length ? [`--v8-flags=${opts.v8Flags.join(',')}`] : []),
    path.join(fnDir, 'index.ts'),
  ];
  const service = spawnService('api', path.join(BIN, 'deno'), args, {
    env: { ...(opts.env as unknown as Record<string, string>), PORT: String(opts.port), DENO_NO_UPDATE_CHECK: '1' },
    log: opts.log,
  });
  await waitForHttp(`http://127.0.0.1:${opts.port}/functions/v1/api/health`, 60_000, service);
  return service;
}
