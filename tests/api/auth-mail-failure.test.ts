// When the code e-mail cannot be sent: 502, and nothing of that attempt stays
// (no new code, no rate-limit count), because the mail is sent before COMMIT.
// Uses a second function instance whose SMTP port has nobody listening.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiDatabaseAsOwner, testMailbox, uniqueEmail, startApiWithDeadSmtp } from '../support/api.ts';

const owner = apiDatabaseAsOwner();
const mail = testMailbox();
let brokenApi: Awaited<ReturnType<typeof startApiWithDeadSmtp>>;
let brokenUrl: string;

beforeAll(async () => {
  brokenApi = await startApiWithDeadSmtp();
  brokenUrl = brokenApi.url;
});

afterAll(async () => {
  await brokenApi?.stop();
  await owner.end();
});

const sendCode = (email: string, baseUrl?: string) => api('POST', '/api/auth/send-otp', { body: { email }, baseUrl });

describe('send-otp when SMTP fails', () => {
  it('answers 502 and keeps neither the code nor the rate-limit count', async () => {
    const email = uniqueEmail('smtp-down');
    const res = await sendCode(email, brokenUrl);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('We could not send the e-mail, please try again');
    expect(await owner`select 1 from app.sign_in_codes where email = ${email}`).toHaveLength(0);
    // Retrying at once works (not "wait 30 seconds").
    expect((await sendCode(email)).status).toBe(204);
  });

  it('leaves the previously sent code valid', async () => {
    const email = uniqueEmail('smtp-down-prev');
    await sendCode(email);
    const code = await mail.latestCodeFor(email);
    await owner`update app.sign_in_codes set last_sent_at = now() - interval '31 seconds' where email = ${email}`;
    expect((await sendCode(email, brokenUrl)).status).toBe(502);
    const [row] = await owner`select sends_this_hour from app.sign_in_codes where email = ${email}`;
    expect(row.sends_this_hour).toBe(1);
    expect((await api('POST', '/api/auth/verify-otp', { body: { email, code } })).status).toBe(200);
  });
});

describe('confirm-email when the old address cannot be told', () => {
  it('answers 502 and moves nothing: the code still works once SMTP is back', async () => {
    const email = uniqueEmail('told');
    await sendCode(email);
    const signedIn = await api<{ token: string }>('POST', '/api/auth/verify-otp', { body: { email, code: await mail.latestCodeFor(email) } });
    const token = signedIn.json.token;
    const to = uniqueEmail('told-new');
    expect((await api('PATCH', '/api/auth/profile', { token, body: { email: to } })).status).toBe(200);
    const code = await mail.latestCodeFor(to);
    const res = await api('POST', '/api/auth/confirm-email', { token, body: { code }, baseUrl: brokenUrl });
    expect(res.status).toBe(502);
    expect(res.text).toBe('We could not send the e-mail, please try again');
    expect((await api<{ email: string }>('GET', '/api/auth/me', { token })).json.email).toBe(email);
    expect(await owner`select 1 from app.email_change_undos u join app.users us on us.id = u.user_id where us.email = ${email}`).toHaveLength(0);
    const retried = await api<{ email: string }>('POST', '/api/auth/confirm-email', { token, body: { code } });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json.email).toBe(to);
  });
});
