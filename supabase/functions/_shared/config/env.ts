// Configuration from the environment. The same files run under Deno (the Edge
// Function) and under Node (vitest), so read whichever the runtime offers.
// Values are read on use, not at import, so tests can set them and a missing
// secret fails the request that needs it rather than the health check.

type Runtime = {
  Deno?: { env: { get(name: string): string | undefined } };
  process?: { env: Record<string, string | undefined> };
};
const runtime = globalThis as unknown as Runtime;

/** The trimmed value, or undefined when unset or blank. */
export function readEnv(name: string): string | undefined {
  const value = runtime.Deno ? runtime.Deno.env.get(name) : runtime.process?.env[name];
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function requireEnv(name: string): string {
  const value = readEnv(name);
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

/** Hosted Supabase provides SUPABASE_DB_URL; locally we pass DATABASE_URL. */
export function databaseUrl(): string {
  const url = readEnv('SUPABASE_DB_URL') ?? readEnv('DATABASE_URL');
  if (!url) throw new Error('Missing environment variable SUPABASE_DB_URL or DATABASE_URL');
  return url;
}

/** HS256 needs a key of at least 256 bits; refuse a short one rather than sign weakly. */
export function jwtSecret(): string {
  const secret = requireEnv('JWT_SECRET');
  if (secret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  return secret;
}

/** Origins allowed to call the API from a browser (comma-separated); APP_ORIGIN when unset. */
export function allowedOrigins(): string[] {
  const list = readEnv('ALLOWED_ORIGINS') ?? readEnv('APP_ORIGIN') ?? '';
  return list
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
}

/** SMTPS (465, implicit TLS) by default in production: Supabase blocks ports 25 and 587. */
export function smtpSettings(): SmtpSettings {
  const secureFlag = readEnv('SMTP_SECURE')?.toLowerCase();
  const port = Number(readEnv('SMTP_PORT') ?? (secureFlag === 'false' ? 587 : 465));
  return {
    host: requireEnv('SMTP_HOST'),
    port,
    secure: secureFlag === undefined ? port === 465 : secureFlag === 'true' || secureFlag === '1',
    user: readEnv('SMTP_USER'),
    pass: readEnv('SMTP_PASS'),
    from: readEnv('MAIL_FROM') ?? 'Hangplan <no-reply@hangplan.app>',
  };
}

/**
 * How the database URL pools connections. Behind a transaction pooler
 * (Supavisor on port 6543) a session is not kept between transactions, so
 * LISTEN cannot work there (and named prepared statements neither).
 * DATABASE_POOL_MODE=transaction|session overrides the guess from the port.
 */
export function databasePoolMode(): 'session' | 'transaction' {
  const mode = readEnv('DATABASE_POOL_MODE')?.toLowerCase();
  if (mode === 'transaction' || mode === 'session') return mode;
  try {
    return new URL(databaseUrl()).port === '6543' ? 'transaction' : 'session';
  } catch {
    return 'session';
  }
}

/** A positive number of seconds from the environment, else the default. */
function seconds(name: string, fallback: number): number {
  const value = Number(readEnv(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * Live streams (GET /api/plans/{id}/events): how long one stream lives before
 * the server ends it (clients reconnect at once; Supabase's free plan cuts a
 * request at 150 s), and how often a heartbeat comment keeps proxies from
 * closing an idle connection.
 */
export function liveStreamTiming(): { lifetimeMs: number; heartbeatMs: number; pollMs: number } {
  return {
    lifetimeMs: seconds('LIVE_STREAM_SECONDS', 120) * 1000,
    heartbeatMs: seconds('LIVE_HEARTBEAT_SECONDS', 20) * 1000,
    pollMs: seconds('LIVE_POLL_SECONDS', 2) * 1000,
  };
}

/**
 * How many live streams one instance keeps open: per client network (a
 * household's phones and tabs fit easily) and in all. Counted in the
 * instance, not the database: what they protect is this instance's memory
 * and connections, and an open stream's count must not outlive a crash.
 */
export function liveStreamLimits(): { perNetwork: number; perInstance: number } {
  const count = (name: string, fallback: number) => {
    const value = Number(readEnv(name) ?? '');
    return Number.isInteger(value) && value >= 1 ? value : fallback;
  };
  return { perNetwork: count('LIVE_STREAMS_PER_NETWORK', 30), perInstance: count('LIVE_STREAMS_PER_INSTANCE', 2000) };
}
