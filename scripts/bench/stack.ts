// What every bench runs against: a throwaway PostgreSQL with `npm start`'s
// settings (fsync on, so a write pays for being durable as it does in the
// product), the migrations, and the `api` function under Deno, on free ports.
import postgres from 'postgres';
import { randomUUID } from 'node:crypto';
import { signSessionToken } from '../../supabase/functions/_shared/auth/tokens.ts';
import { prepareDatabase, startEmbeddedPostgres, tempDataDir } from '../lib/db.ts';
import { API_TEST_RATE_LIMITS, TEST_LIVE_STREAMS_PER_NETWORK, freePort, startApi, type ApiEnv, type Service } from '../lib/services.ts';

export interface BenchStack {
  dbUrl: string;
  /** The function's base URL, `.../functions/v1/api`. */
  api: string;
  apiService: Service;
  /** The database's owner, for what a person does outside the API (signing in). */
  owner: postgres.Sql;
  /** A signed-in user, as verify-otp leaves one: their session token. */
  signIn: (email: string, firstName: string, lastName?: string) => Promise<string>;
}

export interface BenchStackOptions {
  label: string;
  /** More PostgreSQL settings (`name=value`). */
  dbSettings?: string[];
  apiEnv?: Partial<ApiEnv>;
  v8Flags?: string[];
}

/** Start a bench stack, run `body` with it, and stop it however `body` ends. */
export async function withBenchStack<T>(opts: BenchStackOptions, body: (stack: BenchStack) => Promise<T>): Promise<T> {
  const jwtSecret = randomUUID() + randomUUID();
  const db = await startEmbeddedPostgres({
    dir: tempDataDir(opts.label),
    port: await freePort(),
    persistent: false,
    fsync: true,
    settings: opts.dbSettings,
  });
  let apiService: Service | undefined;
  let owner: postgres.Sql | undefined;
  try {
    await prepareDatabase(db.url);
    const port = await freePort();
    apiService = await startApi({
      port,
      env: {
        DATABASE_URL: db.url,
        JWT_SECRET: jwtSecret,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(await freePort()),
        MAIL_FROM: 'Hangplan <bench@hangplan.local>',
        APP_ORIGIN: 'http://localhost:5173',
        // Every request comes from 127.0.0.1, and the fixture is built faster
        // than people write: the bench's stack is configured for that, the
        // product's defaults stay as they are. The limits are still counted
        // on every write, so the rows pay what a real write pays.
        RATE_LIMITS: API_TEST_RATE_LIMITS,
        LIVE_STREAMS_PER_NETWORK: TEST_LIVE_STREAMS_PER_NETWORK,
        ...opts.apiEnv,
      },
      v8Flags: opts.v8Flags,
    });
    const sql = postgres(db.url, { max: 2, onnotice: () => {} });
    owner = sql;
    const signIn = async (email: string, firstName: string, lastName?: string) => {
      const [{ id: userId }] = await sql<{ id: string }[]>`
        insert into app.users (email, first_name, last_name) values (${email}, ${firstName}, ${lastName ?? null}) returning id`;
      const [{ id: sessionId }] = await sql<{ id: string }[]>`insert into app.sessions (user_id) values (${userId}) returning id`;
      return signSessionToken(userId, sessionId, { secret: jwtSecret });
    };
    return await body({ dbUrl: db.url, api: `http://127.0.0.1:${port}/functions/v1/api`, apiService, owner: sql, signIn });
  } finally {
    await owner?.end();
    await apiService?.stop();
    await db.stop();
  }
}
