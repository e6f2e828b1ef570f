// Child processes of the local stack (PostgreSQL, maildev, the API under Deno,
// Vite), with prefixed logs, readiness checks and a clean stop.
//
// Every service runs under a guard (guard.mjs, plain node) that holds a pipe
// from this process: when this process ends, however it ends (Ctrl-C, a hang-up,
// a crash, SIGKILL), the pipe closes and the guard takes the service's whole
// process group down. See docs/stack-lifecycle.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { ROOT } from './root.ts';
import { describeHolder, listensOn } from './ports.ts';

const BIN = path.join(ROOT, 'node_modules/.bin');
const GUARD = path.join(ROOT, 'scripts/lib/guard.mjs');

export type Log = (line: string) => void;

export interface ServiceExit {
  code: number | null;
  signal: string | null;
}

export interface Service {
  name: string;
  /** The guard: parent of the service, holding its lifeline. */
  guard: ChildProcess;
  /** The service's pid, which is also its process group id. */
  spawned: Promise<number>;
  pid: () => number | undefined;
  /** Resolves once the service (and its guard) have ended. */
  exited: Promise<ServiceExit>;
  hasExited: () => boolean;
  /** The last lines the service printed, for error messages. */
  recentOutput: () => string;
  /** "exited with code 1" / "was killed by SIGKILL". */
  describeExit: () => string;
  stop: () => Promise<void>;
}

/** Services of this process that have not ended yet, in the order they started. */
const live = new Set<Service>();

/**
 * Stop every service this process started that is still running, the newest
 * first (for a stop in the middle of a start, before a stack exists to stop).
 */
export async function stopAllServices(): Promise<void> {
  for (const service of [...live].reverse()) await service.stop();
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

export interface SpawnOptions {
  env?: Record<string, string>;
  log?: Log;
  cwd?: string;
  /** Run as this user (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /** What asks the service to stop: SIGTERM by default, SIGINT for PostgreSQL's fast shutdown. */
  stopSignal?: 'SIGTERM' | 'SIGINT';
  /** Send stopSignal to the whole process group (default) or only to the service's own process. */
  signalGroup?: boolean;
  /** How long the service may take to stop before its group is killed (ms). */
  graceMs?: number;
  /** Folders the guard deletes once the service has ended (throwaway data). */
  removeOnExit?: string[];
}

/** Start `command` under a guard, in a process group of its own. */
export function spawnService(name: string, command: string, args: string[], opts: SpawnOptions = {}): Service {
  const graceMs = opts.graceMs ?? 5000;
  const spec = {
    command,
    args,
    cwd: opts.cwd ?? ROOT,
    uid: opts.uid,
    gid: opts.gid,
    stopSignal: opts.stopSignal ?? 'SIGTERM',
    signalGroup: opts.signalGroup ?? true,
    graceMs,
    removeOnExit: opts.removeOnExit ?? [],
  };
  const guard = spawn(process.execPath, [GUARD, JSON.stringify(spec)], {
    cwd: spec.cwd,
    env: { ...process.env, ...opts.env },
    // stdin: the lifeline; stdout: the guard's events; stderr: the service's output.
    stdio: ['pipe', 'pipe', 'pipe'],
    // A session of its own: a terminal's Ctrl-C or hang-up reaches this
    // process, which stops the services in order; the guards only follow it.
    detached: true,
  });
  guard.stdin?.on('error', () => {});

  const log = opts.log ?? (() => {});
  const tail: string[] = [];
  let partial = '';
  guard.stderr?.on('data', (d: Buffer) => {
    const text = partial + d.toString();
    const lines = text.split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 20) tail.shift();
      log(line);
    }
  });
  guard.stderr?.on('end', () => {
    if (partial.trim()) {
      tail.push(partial);
      log(partial);
    }
    partial = '';
  });

  let pid: number | undefined;
  let reported: ServiceExit | undefined;
  let resolveSpawned: (pid: number) => void = () => {};
  let rejectSpawned: (error: Error) => void = () => {};
  const spawned = new Promise<number>((resolve, reject) => {
    resolveSpawned = resolve;
    rejectSpawned = reject;
  });
  spawned.catch(() => {});
  let events = '';
  guard.stdout?.on('data', (d: Buffer) => {
    events += d.toString();
    let cut;
    while ((cut = events.indexOf('\n')) >= 0) {
      const line = events.slice(0, cut);
      events = events.slice(cut + 1);
      try {
        const event = JSON.parse(line) as { event: string; pid?: number; code?: number | null; signal?: string | null };
        if (event.event === 'spawned' && event.pid) {
          pid = event.pid;
          resolveSpawned(pid);
        } else if (event.event === 'exit') {
          reported = { code: event.code ?? null, signal: event.signal ?? null };
        }
      } catch {
        /* not an event */
      }
    }
  });

  // The guard's stdout is held by the guard alone: once it has closed, every
  // event the guard sent has been read, so the exit is the service's own.
  const eventsRead = new Promise<void>((resolve) => {
    if (!guard.stdout) return resolve();
    guard.stdout.once('close', resolve);
    guard.stdout.once('error', () => resolve());
  });
  let done = false;
  const exited = new Promise<ServiceExit>((resolve) => {
    guard.once('exit', (code, signal) => {
      void eventsRead.then(() => {
        done = true;
        const exit = reported ?? { code, signal };
        rejectSpawned(new Error(`${name} ${describe(exit)} before it started`));
        resolve(exit);
      });
    });
    guard.once('error', (error) => {
      done = true;
      rejectSpawned(error);
      resolve({ code: 127, signal: null });
    });
  });
  const describe = (exit: ServiceExit) =>
    exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;

  let stopping: Promise<void> | undefined;
  const service: Service = {
    name,
    guard,
    spawned,
    pid: () => pid,
    exited,
    hasExited: () => done,
    recentOutput: () => tail.join('\n'),
    describeExit: () => (reported || done ? describe(reported ?? { code: guard.exitCode, signal: guard.signalCode }) : 'is running'),
    stop: () => {
      stopping ??= (async () => {
        if (done) return;
        // Closing the lifeline is the one way to stop a service: the guard
        // does the rest (stop signal, then SIGKILL after graceMs).
        guard.stdin?.destroy();
        const timer = setTimeout(() => {
          // The guard itself is stuck: take the group down from here.
          for (const target of [pid ? -pid : 0, guard.pid ? -guard.pid : 0]) {
            if (!target) continue;
            try {
              process.kill(target, 'SIGKILL');
            } catch {
              /* gone */
            }
          }
        }, graceMs + 3000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
  live.add(service);
  void exited.then(() => live.delete(service));
  return service;
}

/** Throws with what the service printed last, for a failed start. */
export function serviceFailure(service: Service, what: string): Error {
  const output = service.recentOutput();
  return new Error(`${service.name} ${service.describeExit()} ${what}${output ? `; its last output:\n${output}` : ''}`);
}

/**
 * Resolve once `url` answers any HTTP status, or reject after `timeoutMs`.
 * With `accept`, a response it refuses (another program on the port) fails at once.
 */
export async function waitForHttp(
  url: string,
  timeoutMs = 30_000,
  service?: Service,
  accept?: (res: Response) => string | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (service?.hasExited()) throw serviceFailure(service, `before ${url} answered`);
    let res: Response | undefined;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.body?.cancel();
    } catch (error) {
      lastError = error;
    }
    if (res) {
      const refusal = accept?.(res);
      if (!refusal) return;
      throw new Error(refusal);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`Timed out waiting for ${url}: ${String(lastError)}`);
}

/**
 * Wait until the service's own process listens on `port`; fail if another
 * process answers there instead (where /proc tells; elsewhere only that the
 * service is still alive).
 */
export async function waitForOwnPort(service: Service, port: number, timeoutMs = 10_000): Promise<void> {
  const pid = await service.spawned;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service.hasExited()) throw serviceFailure(service, `before it listened on port ${port}`);
    const own = listensOn(pid, port);
    if (own !== false) return;
    if (Date.now() > deadline) {
      const holder = describeHolder(port);
      throw new Error(
        `port ${port} is not served by this run's ${service.name} (pid ${pid})${holder ? `: it is held by ${holder}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
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
  try {
    await waitForHttp(`http://127.0.0.1:${opts.webPort}/email`, 30_000, service);
    await waitForOwnPort(service, opts.webPort);
    await waitForOwnPort(service, opts.smtpPort);
  } catch (error) {
    await service.stop();
    throw error;
  }
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
  /** Open live streams per client network / per instance (supabase/functions/_shared/config/env.ts). */
  LIVE_STREAMS_PER_NETWORK?: string;
  LIVE_STREAMS_PER_INSTANCE?: string;
  EXPOSE_MEMORY_STATS?: string;
  SMTP_SECURE?: string;
  SMTP_USER?: string;
  SMTP_PASS?: string;
  /** Abuse limits, e.g. `idea=2/60,otp-ip=1000/1h` (supabase/functions/_shared/db/limits.ts). */
  RATE_LIMITS?: string;
  RATE_LIMIT_SCOPE?: string;
  CLIENT_IP_HEADER?: string;
  TRUSTED_PROXY_HOPS?: string;
  /** Web Push (docs/notifications.md): the VAPID key pair and its contact. */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  /** More push service origins the server may send to (the tests' stand-in). */
  PUSH_SERVICE_ORIGINS?: string;
  /** The bearer secret of POST /api/scheduler/run. */
  SCHEDULER_SECRET?: string;
}

/**
 * For servers that tests drive from one machine: every request comes from
 * 127.0.0.1, so the per-network limits would be shared by the whole suite.
 * The per-address, per-participant, per-plan and per-user ones stay as they are.
 */
export const TEST_RATE_LIMITS =
  'otp-ip=100000/1h,otp-site=100000/1h,otp-guess-ip=100000/1h,otp-guess-site=100000/1h,guest-ip=100000/1h,guest-name=100000/1h,calendar-feed-miss=100000/1h';

/**
 * The API tests' shared server also lets one account write faster than a
 * person can: a test file reuses one host for dozens of cases within seconds
 * (and the bench polls one calendar feed thousands of times).
 * The limits themselves are tested on a second instance with tiny numbers
 * (tests/api/limits.test.ts); the e2e suite runs with the real per-person ones.
 */
export const API_TEST_RATE_LIMITS = `${TEST_RATE_LIMITS},idea=100000/60,comment=100000/60,vote=100000/60,calendar-feed=100000000/60`;

/** Likewise for open live streams: every test's streams come from 127.0.0.1. */
export const TEST_LIVE_STREAMS_PER_NETWORK = '100000';

/**
 * Serve supabase/functions/api under Deno, as `/functions/v1/api/...` on `port`.
 * Ready only once the health route answers with this start's own instance id
 * (HANGPLAN_INSTANCE, echoed in the `x-hangplan-instance` header), so an API
 * left over from another run can never pass for this one.
 */
export async function startApi(opts: {
  port: number;
  env: ApiEnv;
  watch?: boolean;
  log?: Log;
  /** Extra V8 flags (the live bench passes --expose-gc). */
  v8Flags?: string[];
}): Promise<Service> {
  const fnDir = path.join(ROOT, 'supabase/functions/api');
  const instance = randomUUID();
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
    env: {
      ...(opts.env as unknown as Record<string, string>),
      PORT: String(opts.port),
      DENO_NO_UPDATE_CHECK: '1',
      HANGPLAN_INSTANCE: instance,
    },
    log: opts.log,
  });
  try {
    await waitForHttp(`http://127.0.0.1:${opts.port}/functions/v1/api/health`, 60_000, service, (res) => {
      if (res.headers.get('x-hangplan-instance') === instance) return undefined;
      const holder = describeHolder(opts.port);
      return `port ${opts.port} answered, but not as this run's API (another program${holder ? `, ${holder},` : ''} holds it)`;
    });
  } catch (error) {
    await service.stop();
    throw error;
  }
  return service;
}
