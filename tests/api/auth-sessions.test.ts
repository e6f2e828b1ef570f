// Revocable sessions over HTTP: POST /api/auth/sign-out ends this device's
// session, POST /api/auth/sign-out-everywhere every session of the user; an
// ended session's token is refused (401) on the very next request, on any route.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { api, apiDatabaseAsOwner, signIn, testMailbox, uniqueEmail } from '../support/api.ts';

const owner = apiDatabaseAsOwner();
afterAll(() => owner.end());

const EXPIRED = 'Your session has expired, please sign in again';
const me = (token: string) => api('GET', '/api/auth/me', { token });
const sessionOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;

/** Sign in once more with an address that signed in before: waits for the NEW code's mail. */
async function signInAgain(email: string): Promise<string> {
  const mail = testMailbox();
  const before = (await mail.mailsTo(email)).length;
  await owner`update app.sign_in_codes set last_sent_at = now() - interval '31 seconds' where email = ${email}`;
  expect((await api('POST', '/api/auth/send-otp', { body: { email } })).status).toBe(204);
  const code = await mail.latestCodeFor(email, { count: before + 1 });
  const res = await api<{ token: string }>('POST', '/api/auth/verify-otp', { body: { email, code } });
  expect(res.status, res.text).toBe(200);
  return res.json.token;
}

/** Two devices of one account: two sign-ins of the same address. */
async function twoDevices() {
  const phone = await signIn(uniqueEmail('devices'));
  const laptop = await signInAgain(phone.email);
  return { email: phone.email, phone: phone.token, laptop };
}

function expectExpired(res: { status: number; text: string }) {
  expect(res.status).toBe(401);
  expect(res.text).toBe(EXPIRED);
}

describe('sign-in starts a session', () => {
  it('every sign-in is a session of its own, named by the token (sid)', async () => {
    const { phone, laptop } = await twoDevices();
    expect(sessionOf(phone)).not.toBe(sessionOf(laptop));
    const rows = await owner`select id from app.sessions where id in ${owner([sessionOf(phone), sessionOf(laptop)])}`;
    expect(rows).toHaveLength(2);
  });
});

describe('POST /api/auth/sign-out', () => {
  it('ends this session: 204, and its token is refused from the next request on; the other device stays signed in', async () => {
    const { phone, laptop } = await twoDevices();
    const res = await api('POST', '/api/auth/sign-out', { token: phone });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectExpired(await me(phone));
    expectExpired(await api('GET', '/api/plans', { token: phone }));
    expectExpired(await api('POST', '/api/plans', { token: phone, body: { title: 'After sign-out' } }));
    expectExpired(await api('POST', '/api/auth/sign-out', { token: phone }));
    expect((await me(laptop)).status).toBe(200);
    expect(await owner`select 1 from app.sessions where id = ${sessionOf(phone)}`).toHaveLength(0);
  });

  it('needs a token', async () => {
    const res = await api('POST', '/api/auth/sign-out');
    expect(res.status).toBe(401);
    expect(res.text).toBe('Not signed in');
  });

  it('signing in again starts a fresh session', async () => {
    const { email, phone } = await twoDevices();
    await api('POST', '/api/auth/sign-out', { token: phone });
    const again = await signInAgain(email);
    expect(sessionOf(again)).not.toBe(sessionOf(phone));
    expect((await me(again)).status).toBe(200);
  });
});

describe('POST /api/auth/sign-out-everywhere', () => {
  it('ends every session of the user, this one too; other users are untouched', async () => {
    const { phone, laptop } = await twoDevices();
    const someoneElse = await signIn();
    const res = await api('POST', '/api/auth/sign-out-everywhere', { token: laptop });
    expect(res.status).toBe(204);
    expectExpired(await me(laptop));
    expectExpired(await me(phone));
    expectExpired(await api('GET', '/api/plans', { token: phone }));
    expect((await me(someoneElse.token)).status).toBe(200);
  });

  it("forgets the devices the account signed in from: none keeps a sign-in budget of its own", async () => {
    const email = uniqueEmail('forget');
    const device = randomBytes(32).toString('base64url');
    const code = async () => {
      const before = (await testMailbox().mailsTo(email)).length;
      expect((await api('POST', '/api/auth/send-otp', { body: { email, device } })).status).toBe(204);
      return await testMailbox().latestCodeFor(email, { count: before + 1 });
    };
    const res = await api<{ token: string }>('POST', '/api/auth/verify-otp', { body: { email, code: await code(), device } });
    const known = () => owner`select 1 from app.sign_in_devices d join app.users u on u.id = d.user_id where u.email = ${email}`;
    expect(await known()).toHaveLength(1);
    expect((await api('POST', '/api/auth/sign-out-everywhere', { token: res.json.token })).status).toBe(204);
    expect(await known()).toHaveLength(0);
  });

  it('needs a live session', async () => {
    const { phone } = await twoDevices();
    await api('POST', '/api/auth/sign-out', { token: phone });
    expectExpired(await api('POST', '/api/auth/sign-out-everywhere', { token: phone }));
    expect((await api('POST', '/api/auth/sign-out-everywhere')).status).toBe(401);
  });
});

describe('a session ended while a request was on its way', () => {
  it('an expired session row is refused even though the token itself has not expired', async () => {
    const { phone } = await twoDevices();
    await owner`update app.sessions set created_at = now() - interval '31 days', expires_at = now() - interval '1 minute'
                 where id = ${sessionOf(phone)}`;
    expectExpired(await me(phone));
  });
});
