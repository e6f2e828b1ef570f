// public/shell.js on the templates the build puts into index.html (docs/web-app.md "First paint").
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import shellScript from '../../public/shell.js?raw';
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
