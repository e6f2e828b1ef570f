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

// docs/decisions/0081-deleting-an-account.md: the person leaves every plan
// (hosting handed over, or the plan deleted when no one else has an account),
// what they wrote stays signed "Deleted account", and everything else of
// theirs goes; every token of the account is 401 from then on.
describe('DELETE /api/auth/account', () => {
  const post = (path: string, token: string, body: unknown = {}) => api<{ id: string; slug: string }>('POST', path, { token, body });

  it('needs a live session', async () => {
    const res = await api('DELETE', '/api/auth/account');
    expect(res.status).toBe(401);
    expect(res.text).toBe('Not signed in');
    const { phone } = await twoDevices();
    await api('POST', '/api/auth/sign-out', { token: phone });
    expectExpired(await api('DELETE', '/api/auth/account', { token: phone }));
  });

  it('hands a hosted plan to the next member, keeps what the person wrote under "Deleted account", and ends every session', async () => {
    const { email, phone, laptop } = await twoDevices();
    const mia = await signIn(uniqueEmail('mia'));
    const plan = (await post('/api/plans', phone, { title: 'Board games' })).json;
    expect((await post(`/api/plans/${plan.id}/join`, mia.token)).status).toBe(200);
    expect((await api('POST', '/api/guest-session', { body: { name: 'Gus', planId: plan.id } })).status).toBe(201);
    const idea = (await post(`/api/plans/${plan.id}/ideas`, phone, { text: 'Catan' })).json;
    expect((await post(`/api/ideas/${idea.id}/comments`, laptop, { text: 'I bring snacks' })).status).toBe(201);
    expect((await post(`/api/ideas/${idea.id}/vote`, phone)).status).toBe(200);
    const feed = new URL((await api<{ url: string }>('GET', '/api/calendar/feed', { token: phone })).json.url).pathname;
    const alone = (await post('/api/plans', phone, { title: 'Just me' })).json;

    const res = await api('DELETE', '/api/auth/account', { token: laptop });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectExpired(await me(phone));
    expectExpired(await me(laptop));
    expectExpired(await api('DELETE', '/api/auth/account', { token: phone }));

    const [miaId] = await owner<{ id: string }[]>`select id from app.users where email = ${mia.email}`;
    expect((await api<{ hostId: string }>('GET', `/api/plans/${plan.id}`)).json.hostId).toBe(miaId.id);
    const people = (await api<{ name: string; isGuest: boolean }[]>('GET', `/api/plans/${plan.id}/participants`)).json;
    expect(people.map((p) => [p.name, p.isGuest])).toEqual([[expect.any(String), false], ['Gus', true]]);
    const ideas = (await api<{ id: string; authorName: string; userId: string | null; voteCount: number }[]>('GET', `/api/plans/${plan.id}/ideas`)).json;
    expect(ideas).toEqual([expect.objectContaining({ id: idea.id, authorName: 'Deleted account', userId: null, voteCount: 0 })]);
    const comments = (await api<{ authorName: string; userId: string | null }[]>('GET', `/api/ideas/${idea.id}/comments`)).json;
    expect(comments).toEqual([expect.objectContaining({ authorName: 'Deleted account', userId: null })]);
    expect((await api('GET', `/api/plans/${alone.id}`)).status).toBe(404);
    expect((await api('GET', feed)).status).toBe(404);

    // The address is free: signing in with it at once makes a new, empty account.
    const again = await signIn(email);
    const fresh = await api<{ id: string; firstName: string | null }>('GET', '/api/auth/me', { token: again.token });
    expect(fresh.status).toBe(200);
    expect((await api<unknown[]>('GET', '/api/plans', { token: again.token })).json).toEqual([]);
  });

  it('deletes a hosted plan in which no one else has an account, with its guests', async () => {
    const host = await signIn(uniqueEmail('solo-host'));
    const plan = (await post('/api/plans', host.token, { title: 'Guests only' })).json;
    const guest = await api<{ id: string; secret: string }>('POST', '/api/guest-session', { body: { name: 'Gia', planId: plan.id } });
    expect(guest.status).toBe(201);
    expect((await api('DELETE', '/api/auth/account', { token: host.token })).status).toBe(204);
    expect((await api('GET', `/api/plans/${plan.id}`)).status).toBe(404);
    expect((await api('GET', `/api/guest-session/${guest.json.id}`, { guestSecret: guest.json.secret })).status).toBe(404);
  });
});
