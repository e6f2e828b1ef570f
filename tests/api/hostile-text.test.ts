// Hostile text in every text field of every route (docs/security-and-limits.md
// "Text rules"): control characters and NUL are a 400 naming the field (never a
// 500), `\n` only in multi-line fields, invisible bidi and zero-width
// characters are removed, everything is stored NFC, and look-alike guest
// names are the same name.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type ApiResult } from '../support/api.ts';
import { addMember, cleanUp, newGuest, newPlan, newUser, owner, type User } from '../support/api-world.ts';
import { day } from '../support/dates.ts';

let host: User;
let planId: string;
let ideaId: string;
/** A plan of its own for the cancel message: a cancel that succeeds freezes its plan. */
let cancelPlanId: string;
beforeAll(async () => {
  host = await newUser('Hana', 'Host');
  planId = await newPlan(host, 'Hostile text');
  cancelPlanId = await newPlan(host, 'Hostile text: cancel');
  const [row] = await owner`
    insert into app.ideas (plan_id, text, author_name, user_id) values (${planId}, 'Bowling', '-', ${host.id}) returning id`;
  ideaId = row.id;
});
afterAll(cleanUp);

/** Control characters a form never sends: C0 (NUL, BEL, ESC, TAB, CR), DEL, C1 (NEL), the Unicode line separator. */
const CONTROLS = ['\u0000', '\u0007', '\u001B', '\t', '\r', '\u007F', '\u0085', '\u2028'];

function expectOneSentence(res: ApiResult, status: number, text: string) {
  expect(res.status, `${res.status} ${res.text}`).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(res.text).toBe(text);
}

interface Field {
  name: string;
  label: string;
  multiline: boolean;
  /** The status of a request that succeeds (201 unless said). */
  ok?: number;
  /** Sends `value` in the field; answers the response. */
  send: (value: string) => Promise<ApiResult>;
}

// Every text field of every route (ids, dates, times and e-mails are checked
// against strict shapes and tested below).
const fields = (): Field[] => [
  { name: 'plan title', label: 'Title', multiline: false, send: (title) => api('POST', '/api/plans', { body: { title }, token: host.token }) },
  {
    name: 'idea',
    label: 'Idea text',
    multiline: true,
    send: (text) => api('POST', `/api/plans/${planId}/ideas`, { body: { text }, token: host.token }),
  },
  {
    name: 'comment',
    label: 'Comment text',
    multiline: true,
    send: (text) => api('POST', `/api/ideas/${ideaId}/comments`, { body: { text }, token: host.token }),
  },
  { name: 'guest name', label: 'Name', multiline: false, send: (name) => api('POST', '/api/guest-session', { body: { name, planId } }) },
  { name: 'check-guest name', label: 'Name', multiline: false, send: (name) => api('POST', `/api/plans/${planId}/check-guest`, { body: { name } }) },
  {
    name: 'location',
    label: 'Location',
    multiline: false,
    send: (location) => api('POST', `/api/plans/${planId}/location`, { body: { location }, token: host.token }),
  },
  { name: 'first name', label: 'First name', multiline: false, send: (firstName) => api('PATCH', '/api/auth/profile', { body: { firstName }, token: host.token }) },
  { name: 'last name', label: 'Last name', multiline: false, send: (lastName) => api('PATCH', '/api/auth/profile', { body: { lastName }, token: host.token }) },
  {
    name: 'interest',
    label: 'Interest',
    multiline: false,
    send: (freeFormText) => api('POST', '/api/users/me/interests', { body: { freeFormText }, token: host.token }),
  },
  {
    name: 'cancel message',
    label: 'Message',
    multiline: true,
    ok: 200,
    send: (message) => api('POST', `/api/plans/${cancelPlanId}/cancel`, { body: { message }, token: host.token }),
  },
];

describe('control characters and NUL: 400 naming the field, never 500, nothing stored', () => {
  it.each(fields().map((f) => [f.name, f] as const))('%s', async (_, field) => {
    for (const ch of CONTROLS) {
      if (field.multiline && (ch === '\r' || ch === '\u2028')) continue; // line breaks there (below)
      expectOneSentence(await field.send(`Bowl${ch}ing ${randomUUID().slice(0, 4)}`), 400, `${field.label} must not contain control characters`);
    }
    expectOneSentence(await field.send(`Bowl\uD800ing`), 400, `${field.label} must be valid text`);
    const [{ n }] = await owner`
      select (select count(*) from app.ideas where text like 'Bowl%ing %')
           + (select count(*) from app.idea_comments where text like 'Bowl%ing %')
           + (select count(*) from app.plans where title like 'Bowl%ing %')
           + (select count(*) from app.guests where name like 'Bowl%ing %')
           + (select count(*) from app.plans where cancel_message like 'Bowl%ing %') as n`;
    expect(Number(n)).toBe(0);
  });

  it.each(fields().map((f) => [f.name, f] as const))('%s: \\n only in a multi-line field', async (_, field) => {
    const res = await field.send(`one\r\ntwo ${randomUUID().slice(0, 4)}`);
    if (field.multiline) expect(res.status, res.text).toBe(field.ok ?? 201);
    else expectOneSentence(res, 400, `${field.label} must not contain control characters`);
  });
});

describe('stored text: NFC, without bidi overrides and zero-width characters', () => {
  it('title, idea (multi-line), comment, location, names, interest', async () => {
    const tag = randomUUID().slice(0, 6);
    const plan = await api<{ id: string; title: string }>('POST', '/api/plans', { body: { title: `\u202ECafe\u0301 ${tag}\u200B` }, token: host.token });
    expect(plan.json.title).toBe(`Caf\u00e9 ${tag}`);
    const idea = await api<{ text: string }>('POST', `/api/plans/${planId}/ideas`, {
      body: { text: `Picnic 👨\u200D👩\u200D👧\r\nat the\u2066 park ${tag}` },
      token: host.token,
    });
    // ZWJ stays (the family emoji), CR LF is \n, the isolate goes.
    expect(idea.json.text).toBe(`Picnic 👨\u200D👩\u200D👧\nat the park ${tag}`);
    const comment = await api<{ text: string }>('POST', `/api/ideas/${ideaId}/comments`, { body: { text: `Ye\u0301s\uFEFF ${tag}` }, token: host.token });
    expect(comment.json.text).toBe(`Y\u00e9s ${tag}`);
    const located = await api<{ location: string }>('POST', `/api/plans/${planId}/location`, { body: { location: `Lanes\u202D ${tag}` }, token: host.token });
    expect(located.json.location).toBe(`Lanes ${tag}`);
    const profile = await api<{ firstName: string }>('PATCH', '/api/auth/profile', { body: { firstName: 'Zoe\u0308\u200B' }, token: host.token });
    expect(profile.json.firstName).toBe('Zo\u00eb');
    const interest = await api<{ freeFormText: string }>('POST', '/api/users/me/interests', { body: { freeFormText: `Po\u200Cttery ${tag}` }, token: host.token });
    expect(interest.json.freeFormText).toBe(`Pottery ${tag}`);
    // And the database holds exactly that.
    const [row] = await owner`select title from app.plans where id = ${plan.json.id}`;
    expect(row.title).toBe(`Caf\u00e9 ${tag}`);
  });
});

describe('the cancel message: stored as typed, returned as text, never interpreted', () => {
  it('cleaned like every multi-line text, kept verbatim otherwise, measured after cleaning', async () => {
    const tag = randomUUID().slice(0, 6);
    // Markup, template and format placeholders, SQL, an entity: text, nothing else.
    const typed = `<b>Rain</b> <script>alert(1)</script> {{title}} \${title} %s %n '; drop table app.plans; -- &amp; ${tag}`;
    const plan = await newPlan(host, 'Hostile cancel');
    const cancelled = await api<{ status: string; cancelMessage: string }>('POST', `/api/plans/${plan}/cancel`, {
      body: { message: `  \u202E${typed}\r\nSorry Cafe\u0301\u200B\uFEFF  ` },
      token: host.token,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.headers.get('content-type')).toMatch(/^application\/json/);
    // CR LF is \n, the override and the zero-width characters go, NFC, trimmed.
    const stored = `${typed}\nSorry Caf\u00e9`;
    expect(cancelled.json).toMatchObject({ status: 'cancelled', cancelMessage: stored });
    expect((await api<{ cancelMessage: string }>('GET', `/api/plans/${plan}`, { token: host.token })).json.cancelMessage).toBe(stored);
    const [row] = await owner`select cancel_message from app.plans where id = ${plan}`;
    expect(row.cancel_message).toBe(stored);

    // The same limit as the database's (500 characters), counted after cleaning:
    // 500 e + combining accent (1000 typed) are 500 characters, 501 are too many.
    const accents = (n: number) => 'e\u0301'.repeat(n);
    const fits = await newPlan(host, 'Hostile cancel: 500');
    const kept = await api<{ cancelMessage: string }>('POST', `/api/plans/${fits}/cancel`, { body: { message: accents(500) }, token: host.token });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.json.cancelMessage).toBe('\u00e9'.repeat(500));
    const over = await newPlan(host, 'Hostile cancel: 501');
    expectOneSentence(
      await api('POST', `/api/plans/${over}/cancel`, { body: { message: accents(501) }, token: host.token }),
      400,
      'Message must be at most 500 characters',
    );
    const [still] = await owner`select status, cancel_message from app.plans where id = ${over}`;
    expect(still).toEqual({ status: 'planning', cancel_message: null });
    // Invisible characters only: no message (cancelled without one).
    const blank = await newPlan(host, 'Hostile cancel: blank');
    const none = await api<{ cancelMessage: string | null }>('POST', `/api/plans/${blank}/cancel`, { body: { message: '\u200B\u2066\u2069 \r\n' }, token: host.token });
    expect(none.status, none.text).toBe(200);
    expect(none.json.cancelMessage).toBeNull();
  });
});

describe('look-alike guest names are the same name', () => {
  it('zero-width, bidi and odd spaces collide; "Is this you?" finds the guest', async () => {
    const plan = await newPlan(host, 'Look-alikes');
    const sam = await newGuest(plan, 'Sam Lee');
    for (const lookalike of ['Sam\u200B Lee', 'S\u200Dam Lee', '\u2066Sam Lee\u2069', 'Sam\u00A0Lee', 'Sam  Lee', '\u202ESam Lee', 'Sam Lee\uFEFF']) {
      expectOneSentence(
        await api('POST', '/api/guest-session', { body: { name: lookalike, planId: plan } }),
        409,
        'Someone named Sam Lee already joined this plan',
      );
      const check = await api<{ exists: boolean; guestId: string }>('POST', `/api/plans/${plan}/check-guest`, { body: { name: lookalike } });
      expect(check.json).toMatchObject({ exists: true, guestId: sam.id });
    }
    // NFC: the two ways of typing "José" are one name.
    await newGuest(plan, 'Jos\u00e9');
    expect((await api('POST', '/api/guest-session', { body: { name: 'Jose\u0301', planId: plan } })).status).toBe(409);
    // A name of invisible characters only is no name.
    expectOneSentence(await api('POST', '/api/guest-session', { body: { name: '\u200B\u2066\u2069', planId: plan } }), 400, 'Name must not be empty');
  });
});

describe('the other fields: strict shapes, 400 never 500', () => {
  it('e-mail, code, date, period, time, ids, userId and the guestId query', async () => {
    const member = await newUser('Mia');
    await addMember(planId, member);
    const date = await day(owner, 3);
    const cases: Array<[string, string, unknown, string?]> = [
      ['POST', '/api/auth/send-otp', { email: 'a\u0000@example.com' }],
      ['POST', '/api/auth/send-otp', { email: 'ann@exa\u202Emple.com' }],
      ['POST', '/api/auth/verify-otp', { email: 'a@example.com', code: '12\u000034' }],
      ['PATCH', '/api/auth/profile', { email: 'x\u0000@example.com' }, host.token],
      ['POST', `/api/plans/${planId}/vote-date`, { date: `${date}\u0000` }, member.token],
      ['POST', `/api/plans/${planId}/vote-date`, { date, period: 'Evening\u0000' }, member.token],
      ['POST', `/api/plans/${planId}/lock-date`, { date: `\u0000${date}` }, host.token],
      ['POST', `/api/plans/${planId}/set-event-time`, { time: '19:00\u0000' }, host.token],
      ['POST', `/api/plans/${planId}/pick-idea`, { ideaId: `${ideaId}\u0000` }, host.token],
      ['POST', `/api/plans/${planId}/ideas`, { text: 'Fine', guestId: '\u0000' }],
      ['POST', '/api/auth/transfer-guest-votes', { guestId: 'x\u0000' }, host.token],
      ['POST', '/api/users/me/interests', { catalogId: '\u0000' }, host.token],
      ['DELETE', `/api/plans/${planId}/leave`, { guestId: '\u0000' }],
    ];
    for (const [method, path, body, token] of cases) {
      const res = await api(method, path, { body, token });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`).toBe(400);
      expect(res.text).not.toMatch(/[\r\n]/);
    }
    // userId of join is only compared with the token's: a mismatch, not a crash.
    expect((await api('POST', `/api/plans/${planId}/join`, { body: { name: 'x', userId: '\u0000' }, token: member.token })).status).toBe(403);
    // NUL in the URL: ids and slugs that cannot exist.
    for (const path of [`/api/plans/%00`, `/api/plans/slug/abc%00defgh`, `/api/ideas/${ideaId}%00/comments`, `/api/plans/${planId}/ideas?guestId=%00`]) {
      const res = await api('GET', path);
      expect(res.status, `${path}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path}: ${res.text}`).toBeLessThan(500);
    }
  });
});
