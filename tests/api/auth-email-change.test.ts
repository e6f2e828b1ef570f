// The verified e-mail change over HTTP: PATCH /api/auth/profile with a new
// address mails a code to that address and changes nothing yet (the same
// answer whether or not another account has it); POST /api/auth/confirm-email
// {code} completes it: wrong codes count (5 kill it), a right one moves the
// account (or 409 when the address is taken) and ends every other session.
import { afterAll, describe, expect, it } from 'vitest';
import { api, apiDatabaseAsOwner, signIn, testMailbox, uniqueEmail } from '../support/api.ts';

const owner = apiDatabaseAsOwner();
afterAll(() => owner.end());

const mail = testMailbox();
const EXPIRED = 'Your session has expired, please sign in again';
const INVALID = 'Invalid or expired code';
const TAKEN = 'That e-mail address is already used by another account';

const me = (token: string) => api('GET', '/api/auth/me', { token });
const patch = (token: string, body: unknown) => api('PATCH', '/api/auth/profile', { token, body });
const confirm = (token: string, code: unknown) => api('POST', '/api/auth/confirm-email', { token, body: { code } });
/** A six-digit code that is not `code`. */
const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

/** Ask to move the account of `token` to `to`; the code from the mail to that address. */
async function requestChange(token: string, to: string): Promise<string> {
  const before = (await mail.mailsTo(to)).length;
  const res = await patch(token, { email: to });
  expect(res.status, res.text).toBe(200);
  return mail.latestCodeFor(to, { count: before + 1 });
}

/** A (further) session of the account of `email`: a sign-in on another device, with the code of the NEW mail. */
async function secondDevice(email: string): Promise<string> {
  const before = (await mail.mailsTo(email)).length;
  await owner`update app.sign_in_codes set last_sent_at = now() - interval '31 seconds' where email = ${email}`;
  await api('POST', '/api/auth/send-otp', { body: { email } });
  const code = await mail.latestCodeFor(email, { count: before + 1 });
  return (await api<{ token: string }>('POST', '/api/auth/verify-otp', { body: { email, code } })).json.token;
}

describe('PATCH /api/auth/profile with a new e-mail', () => {
  it('mails a code to the new address (not the old one) and changes nothing yet', async () => {
    const { token, email } = await signIn();
    const to = uniqueEmail('new-home');
    const oldMails = (await mail.mailsTo(email)).length;
    const res = await patch(token, { email: `  ${to.toUpperCase()} ` });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: expect.any(String), email, firstName: null, lastName: null, pendingEmail: to });
    const message = await mail.latestMailTo(to);
    expect(message.subject).toMatch(/^Your Hangplan code is \d{6}$/);
    expect(message.text).toContain('To use this e-mail address for your Hangplan account');
    expect((await mail.mailsTo(email)).length).toBe(oldMails);
    expect((await me(token)).json.email).toBe(email);
    const [row] = await owner`select new_email, code_hash from app.email_changes where user_id = ${res.json.id}`;
    expect(row.new_email).toBe(to);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(/\d{6}/.exec(message.subject)![0]);
  });

  it('answers exactly the same for a free and a taken address, and mails both (no enumeration)', async () => {
    const owner1 = await signIn();
    const a = await signIn();
    const b = await signIn();
    const free = uniqueEmail('free');
    const taken = await patch(a.token, { email: owner1.email });
    const notTaken = await patch(b.token, { email: free });
    expect(taken.status).toBe(notTaken.status);
    expect(Object.keys(taken.json).sort()).toEqual(Object.keys(notTaken.json).sort());
    expect(taken.json.pendingEmail).toBe(owner1.email);
    expect(notTaken.json.pendingEmail).toBe(free);
    const takenMail = await mail.latestMailTo(owner1.email, { count: 2 });
    const freeMail = await mail.latestMailTo(free);
    expect(takenMail.text!.replace(/\d{6}/g, 'CODE')).toBe(freeMail.text!.replace(/\d{6}/g, 'CODE'));
  });

  it('its own address is no change: no code, pendingEmail null', async () => {
    const { token, email } = await signIn();
    const before = (await mail.mailsTo(email)).length;
    expect((await patch(token, { email: email.toUpperCase(), firstName: 'Same' })).json).toMatchObject({ email, firstName: 'Same', pendingEmail: null });
    expect((await mail.mailsTo(email)).length).toBe(before);
  });

  it('the send limits of sign-in codes: 429 within 30 s of the last code', async () => {
    const { token } = await signIn();
    await requestChange(token, uniqueEmail('first'));
    const res = await patch(token, { email: uniqueEmail('second'), firstName: 'Not saved' });
    expect(res.status).toBe(429);
    expect(res.text).toBe('Please wait 30 seconds before asking for another code');
    expect((await me(token)).json.firstName).toBeNull();
  });
});

describe('POST /api/auth/confirm-email', () => {
  it('a right code moves the account; every other session ends, this one stays; the new address signs in to it', async () => {
    const { token, email } = await signIn();
    const other = await secondDevice(email);
    expect((await me(other)).status).toBe(200);
    const to = uniqueEmail('moved');
    const code = await requestChange(token, to);

    const res = await confirm(token, code);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ email: to });
    expect((await me(token)).json.email).toBe(to);
    const gone = await me(other);
    expect(gone.status).toBe(401);
    expect(gone.text).toBe(EXPIRED);
    // Single use.
    expect((await confirm(token, code)).status).toBe(400);
    // Signing in with the new address lands in the same account.
    expect((await me(await secondDevice(to))).json.id).toBe(res.json.id);
  });

  it('a wrong code is 400 and counts; the 5th kills it, after which even the right one fails', async () => {
    const { token, email } = await signIn();
    const code = await requestChange(token, uniqueEmail('tries'));
    const first = await confirm(token, wrong(code));
    expect(first.status).toBe(400);
    expect(first.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(first.text).toBe(INVALID);
    const id = (await me(token)).json.id;
    expect((await owner`select failed_attempts from app.email_changes where user_id = ${id}`)[0].failed_attempts).toBe(1);
    for (let n = 2; n <= 5; n++) expect((await confirm(token, wrong(code, n))).text).toBe(INVALID);
    expect((await confirm(token, code)).text).toBe(INVALID);
    expect((await me(token)).json.email).toBe(email);
  });

  it('409 for an address another account has, only after the right code; nothing moves, no session ends', async () => {
    const victim = await signIn();
    const { token, email } = await signIn();
    const other = await secondDevice(email);
    const code = await requestChange(token, victim.email);
    const wrongTry = await confirm(token, wrong(code));
    expect(wrongTry.status).toBe(400);
    const res = await confirm(token, code);
    expect(res.status).toBe(409);
    expect(res.text).toBe(TAKEN);
    expect((await me(token)).json.email).toBe(email);
    expect((await me(other)).status).toBe(200);
    expect((await me(victim.token)).json.email).toBe(victim.email);
  });

  it('without a pending change 400; validates the code; needs a live session', async () => {
    const { token } = await signIn();
    expect((await confirm(token, '123456')).text).toBe(INVALID);
    for (const bad of ['12345', '1234567', 'abcdef', 123456, null]) {
      const res = await confirm(token, bad);
      expect(res.status).toBe(400);
      expect(res.text).toBe('Code must be 6 digits');
    }
    expect((await api('POST', '/api/auth/confirm-email', { token, body: {} })).text).toBe('Code is required');
    expect((await api('POST', '/api/auth/confirm-email', { body: { code: '123456' } })).status).toBe(401);
    await api('POST', '/api/auth/sign-out', { token });
    expect((await confirm(token, '123456')).text).toBe(EXPIRED);
  });

  it("someone else's code does nothing for me", async () => {
    const alice = await signIn();
    const mallory = await signIn();
    const to = uniqueEmail('alice-new');
    const code = await requestChange(alice.token, to);
    expect((await confirm(mallory.token, code)).text).toBe(INVALID);
    expect((await me(mallory.token)).json.email).toBe(mallory.email);
    expect((await confirm(alice.token, code)).status).toBe(200);
  });
});

describe('the old address is told, and can undo the change', () => {
  const undo = (token: unknown) => api<{ email: string }>('POST', '/api/auth/undo-email-change', { body: { token } });

  /** Move the account of `token` to a new address; the undo link's token from the mail to the OLD address. */
  async function moveAway(account: { token: string; email: string }, label: string): Promise<{ to: string; undoToken: string }> {
    const to = uniqueEmail(label);
    const before = (await mail.mailsTo(account.email)).length;
    expect((await confirm(account.token, await requestChange(account.token, to))).status).toBe(200);
    const notice = await mail.latestMailTo(account.email, { count: before + 1 });
    expect(notice.subject).toBe('Your Hangplan e-mail address was changed');
    expect(notice.text).toContain(`was changed from ${account.email} to ${to}.`);
    expect(notice.text).toContain('undo it within 7 days');
    const link = /(\S+\/account\/undo-email-change#token=([A-Za-z0-9_-]{43}))/.exec(notice.text!)!;
    expect(link, notice.text).toBeTruthy();
    // The token rides in the fragment: no server log, no Referer.
    expect(new URL(link[1]).search).toBe('');
    expect(notice.html).toContain(`href="${link[1]}"`);
    return { to, undoToken: link[2] };
  }

  it('a stolen session moves the account: the owner undoes it, the thief is signed out, the link works once', async () => {
    const owner1 = await signIn();
    const thiefDevice = owner1.token;
    const { undoToken } = await moveAway(owner1, 'thief');
    const res = await undo(undoToken);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ email: owner1.email });
    expect((await me(thiefDevice)).text).toBe(EXPIRED);
    // The owner signs in with the old address again: the same account, not an empty one.
    const back = await signIn(owner1.email);
    expect((await me(back.token)).json.email).toBe(owner1.email);
    const [{ n }] = await owner`select count(*)::int as n from app.users where email = ${owner1.email}`;
    expect(n).toBe(1);
    const again = await undo(undoToken);
    expect(again.status).toBe(400);
    expect(again.text).toBe('This link has expired or was already used');
  });

  it('a malformed token is refused before anything is looked up; a well-formed unknown one likewise', async () => {
    for (const bad of ['', 'short', 'x'.repeat(44), '!'.repeat(43), 42, null]) {
      const res = await undo(bad);
      expect(res.status, String(bad)).toBe(400);
      expect(res.text).toBe('This link has expired or was already used');
    }
    expect((await api('POST', '/api/auth/undo-email-change', { body: {} })).text).toBe('Token is required');
    expect((await undo('A'.repeat(43))).text).toBe('This link has expired or was already used');
  });

  it('409 when another account took the old address meanwhile; nothing moves', async () => {
    const first = await signIn();
    const { to, undoToken } = await moveAway(first, 'moved');
    await signIn(first.email); // someone signs up with the freed address
    const res = await undo(undoToken);
    expect(res.status).toBe(409);
    expect(res.text).toBe(TAKEN);
    const [row] = await owner`select email from app.users where email = ${to}`;
    expect(row.email).toBe(to);
  });
});
