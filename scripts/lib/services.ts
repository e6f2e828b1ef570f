// The services of the local stack (maildev, the API under Deno), when each is
// ready, and the settings the API runs with in tests and benches. Starting a
// process under its guard is spawn.ts's; its names are exported here too, so
// one import serves whoever starts a stack (docs/stack-lifecycle.md).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { ensurePreviewAssets } from '../preview-assets.mjs';
import { ROOT } from './root.ts';
import { describeHolder, listensOn } from './ports.ts';
import { serviceFailure, spawnService, type Log, type Service } from './spawn.ts';

export {
  prefixedLog,
  serviceFailure,
  spawnService,
  stopAllServices,
  type Log,
  type Service,
  type ServiceExit,
  type SpawnOptions,
} from './spawn.ts';

const BIN = path.join(ROOT, 'node_modules/.bin');

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
  // The link-preview picture's wasm and fonts (npm's postinstall copies them; again here if missing).
  ensurePreviewAssets();
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
