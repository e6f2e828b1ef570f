// public/shell.js on the templates the build puts into index.html (docs/web-app.md "First paint").
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import shellScript from '../../public/shell.js?raw';
import indexHtml from '../../index.html?raw';
import { COLOR_SCHEME_KEY, THEME_COLORS } from './color-scheme';
import { shellTemplates } from './shell-templates';
import { renderShells } from './shells';

const templates = shellTemplates(renderShells(), '');

function openPage(path: string, stored: Record<string, string> = {}) {
  window.history.replaceState(null, '', path);
  localStorage.clear();
  for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
  document.body.innerHTML = `${templates}<div id="root"></div>`;
  new Function(shellScript)();
}

const shell = () => document.querySelector<HTMLElement>('#root > #shell');
const plan = (fields: Record<string, unknown>) => ({ id: 'p1', slug: 'abc123', title: 'Friday bowling', description: 'Bring socks', status: 'planning', ...fields });

let answer: (response: Response) => void;
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>(() => new Promise((resolve) => (answer = resolve)));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  delete window.hangplanEarlyAnswer;
  document.body.innerHTML = '';
});

describe('public/shell.js on the join page, signed out', () => {
  it("shows 'Loading plan...' and asks for the plan once, handing the answer to the app", async () => {
    openPage('/l/abc123');
    expect(shell()?.hasAttribute('inert')).toBe(true);
    expect(shell()?.textContent).toContain('Loading plan...');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/api/plans/slug/abc123', { credentials: 'include' });
    expect(window.hangplanEarlyAnswer?.url).toBe('/api/plans/slug/abc123');

    const response = Response.json(plan({}));
    answer(response);
    // The app reads the answer itself: shell.js reads a copy.
    await expect((await window.hangplanEarlyAnswer!.response).json()).resolves.toMatchObject({ title: 'Friday bowling' });
  });

  it("becomes the join page with the plan's texts once the plan comes", async () => {
    openPage('/l/abc123');
    answer(Response.json(plan({ title: 'Friday <b>bowling</b>' })));
    await vi.waitFor(() => expect(shell()?.textContent).toContain('Join the Plan'));
    const page = shell()!;
    expect(page.hasAttribute('inert')).toBe(true);
    expect(page.querySelector('h1')?.textContent).toBe('Friday <b>bowling</b>');
    expect(page.querySelector('h1 b')).toBeNull();
    expect(page.textContent).toContain('Bring socks');
    expect(page.textContent).toContain('Planning phase');
    expect(page.textContent).toContain("What's your name?");
    expect(page.textContent).not.toContain('Loading plan...');
    expect(page.textContent).not.toContain('[[plan.');
    expect(page.querySelector('a[href^="/auth"]')?.getAttribute('href')).toBe('/auth?returnTo=/l/abc123');
  });

  it("shows the 'Active' badge once the plan is on, and no description element for a plan without one", async () => {
    openPage('/l/abc123');
    answer(Response.json(plan({ status: 'completed', description: null })));
    await vi.waitFor(() => expect(shell()?.textContent).toContain('Join the Plan'));
    const page = shell()!;
    expect(page.textContent).toContain('Active');
    expect(page.textContent).not.toContain('Planning phase');
    expect(page.textContent).not.toContain('[[plan.');
    const summary = page.querySelector('section[aria-labelledby="join-plan-title"]')!;
    expect([...summary.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Join the Plan']);
  });

  it('keeps loading on a missing plan (the app shows the not-found card)', async () => {
    openPage('/l/abc123');
    answer(new Response('Plan not found', { status: 404 }));
    const response = await window.hangplanEarlyAnswer!.response;
    expect(response.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(shell()?.textContent).toContain('Loading plan...');
    await expect(response.text()).resolves.toBe('Plan not found');
  });

  it('leaves the page alone when the app has replaced the shell before the plan came', async () => {
    openPage('/l/abc123');
    document.getElementById('root')!.innerHTML = '<p>The app</p>';
    answer(Response.json(plan({})));
    await window.hangplanEarlyAnswer!.response;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(document.getElementById('root')!.innerHTML).toBe('<p>The app</p>');
  });
});

describe('public/shell.js elsewhere', () => {
  it('asks for nothing with a stored token (the splash) or a stored guest session (its header)', () => {
    openPage('/l/abc123', { authToken: 'tok' });
    expect(shell()?.textContent).toContain('Loading Hangplan...');
    openPage('/l/abc123', { guestSession: JSON.stringify({ id: 'g1', name: 'Sam', planId: 'p1' }) });
    expect(shell()?.textContent).toContain('Loading plan...');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.hangplanEarlyAnswer).toBeUndefined();
  });

  it('paints the landing page at / and nothing on other pages, asking for nothing', () => {
    openPage('/');
    expect(shell()?.textContent).toContain('Start Planning');
    openPage('/l/abc123/dashboard');
    expect(shell()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('public/shell.js: light or dark before the first paint', () => {
  const html = document.documentElement;
  /** index.html's own theme-color metas, in this page's head. */
  function withIndexMetas() {
    const page = new DOMParser().parseFromString(indexHtml, 'text/html');
    document.head.replaceChildren(...page.querySelectorAll('meta[name="theme-color"]'));
  }
  function phone(scheme: 'light' | 'dark') {
    vi.stubGlobal('matchMedia', (query: string) => ({ media: query, matches: query === `(prefers-color-scheme: ${scheme})` }));
  }
  const barColors = () => Object.fromEntries([...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((meta) => [meta.getAttribute('media'), meta.content]));
  const ownColors = { '(prefers-color-scheme: light)': THEME_COLORS.light, '(prefers-color-scheme: dark)': THEME_COLORS.dark };

  beforeEach(withIndexMetas);
  afterEach(() => {
    document.head.innerHTML = '';
    html.removeAttribute('data-mantine-color-scheme');
  });

  it("index.html's metas hold the app's colours, one per scheme, and the page no fixed scheme", () => {
    expect(barColors()).toEqual(ownColors);
    expect(indexHtml).toMatch(/<html lang="en">/);
    expect(indexHtml).toContain('<meta name="color-scheme" content="light dark" />');
  });

  it("follows the phone when nothing is chosen, or System is: the metas stay each its own scheme's", () => {
    phone('dark');
    openPage('/');
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('dark');
    expect(barColors()).toEqual(ownColors);

    phone('light');
    openPage('/l/abc123', { [COLOR_SCHEME_KEY]: 'auto' });
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('light');
    expect(barColors()).toEqual(ownColors);
  });

  it("takes the choice stored on this device over the phone's, and both metas take its colour", () => {
    phone('light');
    openPage('/', { [COLOR_SCHEME_KEY]: 'dark' });
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('dark');
    expect(Object.values(barColors())).toEqual([THEME_COLORS.dark, THEME_COLORS.dark]);

    withIndexMetas();
    phone('dark');
    openPage('/', { [COLOR_SCHEME_KEY]: 'light' });
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('light');
    expect(Object.values(barColors())).toEqual([THEME_COLORS.light, THEME_COLORS.light]);
  });

  it('sets the scheme on pages without a shell and with a token too, and ignores a stored value it does not know', () => {
    phone('dark');
    openPage('/home', { [COLOR_SCHEME_KEY]: 'light' });
    expect(shell()).toBeNull();
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('light');

    openPage('/', { authToken: 'tok', [COLOR_SCHEME_KEY]: 'sepia' });
    expect(shell()?.textContent).toContain('Loading Hangplan...');
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('dark');
  });
});
