// The story the screenshots show, seeded through the API as people would
// write it: Hana plans a birthday dinner with Milo (an account) and Gail (a
// guest); a stranger joined and was removed by the host.

export interface Guest {
  id: string;
  name: string;
  secret: string;
}

export interface Story {
  hana: string;
  plan: { id: string; slug: string };
  gail: Guest;
  ideas: { ramen: string; tacos: string };
}

/** 'YYYY-MM-DD' of the local day `days` from today. */
export function localDate(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The API through the web app's origin, as the app calls it. */
export function apiClient(web: string, mailUrl: string) {
  // The secrets of the guests made here (POST /api/guest-session answers one),
  // sent as X-Guest-Secret with the calls that name that guest, as the app does.
  const guestSecrets = new Map<string, string>();

  async function call<T>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
    const guestId = (body as { guestId?: unknown } | undefined)?.guestId;
    const secret = typeof guestId === 'string' ? guestSecrets.get(guestId) : undefined;
    const res = await fetch(`${web}${route}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(secret ? { 'x-guest-secret': secret } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
    const answer = (res.status === 204 ? null : await res.json()) as T;
    const guest = answer as { id?: unknown; secret?: unknown } | null;
    if (typeof guest?.id === 'string' && typeof guest.secret === 'string') guestSecrets.set(guest.id, guest.secret);
    return answer;
  }
  const post = <T = unknown>(route: string, body: unknown, token?: string) => call<T>('POST', route, body, token);

  /** The newest sign-in code maildev caught for `email`. */
  async function codeFor(email: string): Promise<string> {
    for (let i = 0; i < 120; i++) {
      const mails = (await (await fetch(`${mailUrl}/email`)).json()) as Array<{ to: Array<{ address: string }>; text?: string; date: string }>;
      const mine = mails
        .filter((m) => m.to.some((t) => t.address.toLowerCase() === email))
        .sort((a, b) => new Date(b.date).getTime() - new Date(a.date).getTime());
      const code = mine[0]?.text?.match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
      // The mail is on its way over SMTP: ask maildev again in a moment.
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`no sign-in code for ${email} in maildev`);
  }

  async function signIn(email: string, firstName: string, lastName: string): Promise<string> {
    await post('/api/auth/send-otp', { email });
    const { token } = await post<{ token: string }>('/api/auth/verify-otp', { email, code: await codeFor(email) });
    await call('PATCH', '/api/auth/profile', { firstName, lastName, email }, token);
    return token;
  }

  return { call, post, signIn };
}

export type Api = ReturnType<typeof apiClient>;

export async function seedStory(api: Api): Promise<Story> {
  const { call, post, signIn } = api;
  const hana = await signIn('hana@example.com', 'Hana', 'Host');
  const milo = await signIn('milo@example.com', 'Milo', 'Martins');
  for (const text of ['Sushi', 'Board games', 'Hiking']) await post('/api/users/me/interests', { freeFormText: text }, hana);
  await post('/api/plans', { title: 'Climbing after work', isOpenInvite: true }, hana);
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: "Mia's birthday dinner", isOpenInvite: true }, hana);
  await post(`/api/plans/${plan.id}/join`, { name: 'Milo Martins' }, milo);
  const gail = await post<Guest>('/api/guest-session', { name: 'Gail Green', planId: plan.id });
  const ramen = await post<{ id: string }>(`/api/plans/${plan.id}/ideas`, { text: 'Ramen at Kenji' }, hana);
  const tacos = await post<{ id: string }>(`/api/plans/${plan.id}/ideas`, { text: 'Tacos on the pier' }, milo);
  await post(`/api/plans/${plan.id}/ideas`, { text: 'Rooftop pizza', guestId: gail.id, authorName: gail.name });
  await post(`/api/ideas/${ramen.id}/vote`, {}, hana);
  await post(`/api/ideas/${ramen.id}/vote`, {}, milo);
  await post(`/api/ideas/${ramen.id}/vote`, { guestId: gail.id });
  await post(`/api/ideas/${tacos.id}/vote`, {}, milo);
  await post(`/api/ideas/${ramen.id}/comments`, { text: 'They do a great birthday dessert!' }, milo);
  for (const [days, voter] of [[2, hana], [2, milo], [3, milo], [5, hana]] as const) {
    await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(days) }, voter);
  }
  await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(2), guestId: gail.id });
  await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(3), guestId: gail.id });

  // A stranger with the link, whom the host removed (docs/decisions/0065-moderation.md).
  const sam = await post<Guest>('/api/guest-session', { name: 'Spammy Sam', planId: plan.id });
  const people = await call<Array<{ id: string; name: string }>>('GET', `/api/plans/${plan.id}/participants`, undefined, hana);
  const samId = people.find((p) => p.name === sam.name)?.id;
  if (!samId) throw new Error(`${sam.name} is not among the participants`);
  await call('DELETE', `/api/plans/${plan.id}/participants/${samId}`, undefined, hana);

  return { hana, plan, gail, ideas: { ramen: ramen.id, tacos: tacos.id } };
}

/** What the host decides before the last pictures: the ramen, the first date, 7:30 PM. */
export async function decide(api: Api, story: Story): Promise<void> {
  const { plan, hana } = story;
  await api.post(`/api/plans/${plan.id}/pick-idea`, { ideaId: story.ideas.ramen }, hana);
  await api.post(`/api/plans/${plan.id}/lock-date`, { date: localDate(2) }, hana);
  await api.post(`/api/plans/${plan.id}/set-event-time`, { time: '19:30' }, hana);
}

/** A phone's calendar file with busy times in the next days (what 15-calendar-import shows). */
export function calendarFile(): string {
  const compact = (iso: string) => iso.replaceAll('-', '');
  const event = (uid: string, start: string, end: string, summary: string) =>
    ['BEGIN:VEVENT', `UID:${uid}@screenshots.hangplan`, 'DTSTAMP:20260101T000000Z', start, end, `SUMMARY:${summary}`, 'END:VEVENT'];
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Hangplan screenshots//EN',
    ...event('work', `DTSTART:${compact(localDate(3))}T090000`, `DTEND:${compact(localDate(3))}T170000`, 'Work'),
    ...event('trip', `DTSTART;VALUE=DATE:${compact(localDate(6))}`, `DTEND;VALUE=DATE:${compact(localDate(8))}`, 'Weekend away'),
    ...event('gym', `DTSTART:${compact(localDate(10))}T180000`, `DTEND:${compact(localDate(10))}T193000`, 'Gym'),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
