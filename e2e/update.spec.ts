// A deploy never leaves a phone on a broken mix of two builds' files
// (docs/offline.md "Offline and updates"; lib/app-update.ts, the service
// worker web/src/service-worker/sw.ts). The spec deploys a new build into the
// folder its `vite preview` serves while a phone has the app open:
//   - every hashed file under a new name, as a real build's new hashes (the
//     new entry script also sets `globalThis.hangplanBuild`, so a page says
//     which build it runs), index.html and /sw.js naming them, a new version
//     in the worker's manifest;
//   - the old build's files gone from the host, as after an atomic deploy
//     (the preview then answers their paths with index.html, as a static
//     host's SPA fallback does): an old page can only go on with what its
//     worker stored.
// and puts the old build back after each test (afterEach, so also after a
// failure or a timeout).
//
// The site it deploys to is its own: a copy of the suite's build
// (E2E_WEB_DIR, set by e2e/global-setup.ts) served by a `vite preview` of
// its own, on its own port, with the same headers and the same API behind
// it. No other spec's page is served from it, so the suite's other specs run
// beside this one (playwright.config.ts runs two at a time), and no worker
// of a deploy is ever installed on the origin the other specs use.
// `mode: 'default'` keeps this file's two tests in order even under
// --fully-parallel: they deploy into the same folder.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ROOT } from '../scripts/lib/root.ts';
import { freePort, spawnService, waitForHttp } from '../scripts/lib/services.ts';
import { ACTIVE_BUILD_KEY, HAS_FILE_MESSAGE, META_CACHE, shellCacheName } from '../web/src/service-worker/offline.ts';
import { expect, test as suiteTest } from './fixtures.ts';
import { signInViaApi, uniqueEmail } from './support.ts';

/** The spec's own site: the folder its preview serves, and where. */
interface Site {
  url: string;
  dir: string;
}

/**
 * A copy of the suite's build served by a `vite preview` of this worker's
 * own (stopped, and the copy deleted, with the worker however it ends: its
 * guard, docs/stack-lifecycle.md), in front of the stack's API; the pages of
 * this spec open it (`baseURL`).
 */
const test = suiteTest.extend<object, { site: Site }>({
  site: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const built = process.env.E2E_WEB_DIR;
      if (!built || !existsSync(path.join(built, 'sw.js'))) throw new Error('E2E_WEB_DIR names no build: run the e2e tests through playwright.config.ts (e2e/global-setup.ts sets it)');
      const dir = mkdtempSync(path.join(tmpdir(), 'hangplan-e2e-deploy-'));
      cpSync(built, dir, { recursive: true });
      const port = await freePort();
      const env = {
        // The stack's API (e2e/global-setup.ts: web, db, api, mail, smtp from E2E_BASE_PORT).
        API_PROXY_TARGET: `http://127.0.0.1:${Number(process.env.E2E_BASE_PORT) + 2}/functions/v1`,
        WEB_PORT: String(port),
      };
      const vite = path.join(ROOT, 'node_modules/.bin/vite');
      const config = path.join(ROOT, 'web/vite.config.ts');
      const preview = spawnService('web', vite, ['preview', '--config', config, '--outDir', dir, '--port', String(port), '--strictPort'], { env, removeOnExit: [dir] });
      try {
        await waitForHttp(`http://localhost:${port}/`, 60_000, preview);
        await use({ url: `http://localhost:${port}`, dir });
      } finally {
        await preview.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ site }, use) => use(site.url),
});

test.describe.configure({ mode: 'default' });

/** What the new build's entry script sets, to tell it from the old one. */
const NEXT_BUILD = 'next';

interface Build {
  /** The manifest's version: the worker's shell is stored in hangplan-shell-{version}. */
  version: string;
  /** index.html's entry script, e.g. /assets/index-1a2b.js. */
  entry: string;
}

interface Deploy {
  old: Build & { files: Map<string, string> };
  next: Build;
}

let restoreBuild: (() => void) | null = null;

test.afterEach(() => {
  restoreBuild?.();
  restoreBuild = null;
});

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

/** Writes `content` beside `file`, then renames it over: a request never reads half a file. */
function replaceFile(file: string, content: string | Buffer) {
  writeFileSync(`${file}.deploying`, content);
  renameSync(`${file}.deploying`, file);
}

/**
 * Deploys a new build of the same code into the site's folder (see the top
 * of this file) and returns both builds; afterEach puts the old one back.
 * `old.files`: each old hashed file's path and its content's SHA-256.
 */
function deployNextBuild({ dir }: Site): Deploy {
  const assets = path.join(dir, 'assets');
  const indexHtml = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const worker = readFileSync(path.join(dir, 'sw.js'), 'utf8');
  // How service-worker-build.ts writes the manifest into the (minified) worker, and how index.html loads the app.
  const version = /\bversion:\s*(["'`])([0-9a-f]{16})\1/.exec(worker)?.[2];
  const entry = /<script\b[^>]*\btype="module"[^>]*\bsrc="\/assets\/([^"]+)"/.exec(indexHtml)?.[1];
  if (!version || !entry) throw new Error('No manifest version in sw.js or no entry script in index.html: has the build changed how it writes them?');

  // Every hashed file under a new name, and every mention of one (index.html,
  // the worker's shell list, the chunks' imports: all "/name") renamed with it.
  const names = readdirSync(assets);
  const renamed = new Map(names.map((name) => [name, name.replace(/(\.\w+)$/, `.${NEXT_BUILD}$1`)]));
  const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mention = new RegExp(`(?<=/)(?:${names.map(escape).join('|')})(?![\\w.-])`, 'g');
  const rewrite = (text: string) => text.replace(mention, (name) => renamed.get(name)!);
  const nextVersion = sha256(`${version} ${NEXT_BUILD}`).slice(0, 16);
  const oldFiles = new Map<string, string>();
  const nextFiles = names.map((name) => {
    const content = readFileSync(path.join(assets, name));
    oldFiles.set(`/assets/${name}`, sha256(content));
    if (!/\.(js|css)$/.test(name)) return { name: renamed.get(name)!, content };
    let text = rewrite(content.toString('utf8'));
    if (name === entry) text += `\nglobalThis.hangplanBuild = ${JSON.stringify(NEXT_BUILD)};\n`;
    return { name: renamed.get(name)!, content: text };
  });
  const nextIndex = rewrite(indexHtml);
  const nextWorker = rewrite(worker).replaceAll(version, nextVersion);
  // A mention the renaming missed would load an old file into the new build: refuse.
  for (const file of [...nextFiles, { name: 'index.html', content: nextIndex }, { name: 'sw.js', content: nextWorker }]) {
    const text = file.content.toString();
    const stale = names.find((name) => text.includes(name)) ?? (text.includes(version) ? version : undefined);
    if (stale) throw new Error(`The new build's ${file.name} still names ${stale}`);
  }

  // The deploy: the old hashed files out of the served folder (kept inside
  // it, where nothing asks for them, so the stack's cleanup deletes them
  // whatever happens), the new ones in, then index.html and the worker.
  // The way back is set first, so a deploy that fails halfway is undone too.
  const held = path.join(dir, '.before-deploy');
  rmSync(held, { recursive: true, force: true });
  mkdirSync(held);
  restoreBuild = () => {
    if (existsSync(path.join(held, 'assets'))) {
      rmSync(assets, { recursive: true, force: true });
      renameSync(path.join(held, 'assets'), assets);
    }
    replaceFile(path.join(dir, 'index.html'), indexHtml);
    replaceFile(path.join(dir, 'sw.js'), worker);
    rmSync(held, { recursive: true, force: true });
  };
  renameSync(assets, path.join(held, 'assets'));
  mkdirSync(assets);
  for (const file of nextFiles) writeFileSync(path.join(assets, file.name), file.content);
  replaceFile(path.join(dir, 'index.html'), nextIndex);
  replaceFile(path.join(dir, 'sw.js'), nextWorker);
  return {
    old: { version, entry: `/assets/${entry}`, files: oldFiles },
    next: { version: nextVersion, entry: `/assets/${renamed.get(entry)}` },
  };
}

/** Signs a member in on `page` and opens Home, with the app's worker serving it. */
async function memberOnHome(page: Page) {
  await signInViaApi(page, uniqueEmail('update'), { firstName: 'Una', lastName: 'Update' });
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Your Plans' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 20_000 }).toMatch(/\/sw\.js$/);
}

/** The build whose worker is active, as that worker wrote it down (sw.ts dropOldShells). */
const activeBuild = (page: Page) =>
  page.evaluate(
    async ({ cache, key }) => (await (await caches.open(cache)).match(key))?.text() ?? null,
    { cache: META_CACHE, key: ACTIVE_BUILD_KEY },
  );

/** The state of the registration's waiting worker, and whether the page is served by the active one. */
const workers = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const controller = navigator.serviceWorker.controller;
    return { waiting: registration?.waiting?.state ?? null, servedByActive: controller !== null && controller === registration?.active };
  });

/** What the page runs: its entry script, every hashed file it loaded, and the mark the new build's entry sets. */
const running = (page: Page) =>
  page.evaluate(() => ({
    entry: new URL(document.querySelector<HTMLScriptElement>('script[type="module"][src]')!.src).pathname,
    assets: performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((pathname) => pathname.startsWith('/assets/')),
    build: (globalThis as { hangplanBuild?: string }).hangplanBuild ?? null,
  }));

/** A mark on the page's window: gone once the page reloads. */
const mark = (page: Page) => page.evaluate(() => void ((window as { unreloaded?: boolean }).unreloaded = true));
const isMarked = (page: Page) => page.evaluate(() => (window as { unreloaded?: boolean }).unreloaded === true);

/** Asks the browser to look for a new /sw.js now (it does on each visit; the test does not wait for when). */
const checkForUpdate = (page: Page) => page.evaluate(async () => void (await (await navigator.serviceWorker.getRegistration())!.update()));

/** Asks the waiting worker, as app-update.ts does, whether `file` is of its build. */
const waitingHas = (page: Page, file: string) =>
  page.evaluate(
    ({ type, path }) =>
      navigator.serviceWorker.getRegistration().then(
        (registration) =>
          new Promise<boolean>((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = (event) => resolve(event.data === true);
            registration!.waiting!.postMessage({ type, path }, [channel.port2]);
          }),
      ),
    { type: HAS_FILE_MESSAGE, path: file },
  );

/**
 * Every hashed file of the old build is there for `page`, byte for byte,
 * through the worker that serves it: the host answers their paths no more.
 * `no-store` keeps the browser's HTTP cache out of it (it holds them,
 * `immutable`, and would hide a deleted shell): the answer can only be the
 * worker's.
 */
async function keepsOldFiles(page: Page, build: Deploy, site: Site) {
  const host = await fetch(`${site.url}${build.old.entry}`);
  expect(sha256(Buffer.from(await host.arrayBuffer()))).not.toBe(build.old.files.get(build.old.entry));
  const kept = await page.evaluate(
    (files) =>
      Promise.all(
        files.map(async (file) => {
          const digest = await crypto.subtle.digest('SHA-256', await (await fetch(file, { cache: 'no-store' })).arrayBuffer());
          return [file, [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')] as const;
        }),
      ),
    [...build.old.files.keys()],
  );
  expect(new Map(kept)).toEqual(build.old.files);
}

const profileTab = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' });

/** The page runs the old build's files only, and every one of them is still there for it. */
async function runsOldBuild(page: Page, build: Deploy, site: Site) {
  const files = await running(page);
  expect(files.build).toBeNull();
  expect(files.entry).toBe(build.old.entry);
  expect(files.assets.filter((file) => !build.old.files.has(file))).toEqual([]);
  await keepsOldFiles(page, build, site);
}

/** The next change of screen (to Profile) reloads the page, on the screen asked for. */
async function changeScreenReloading(page: Page) {
  const reloaded = page.waitForEvent('load', { timeout: 20_000 });
  await profileTab(page).click();
  await reloaded;
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  expect(await isMarked(page)).toBe(false);
}

test('an open page keeps its build while the new one waits, and at its next change of screen reloads onto the new build', async ({ page, site }) => {
  await memberOnHome(page);
  await mark(page);
  const build = deployNextBuild(site);
  expect(await activeBuild(page)).toBe(build.old.version);

  // The new build's worker installs beside the active one, and waits.
  await checkForUpdate(page);
  await expect.poll(() => workers(page), { timeout: 20_000 }).toEqual({ waiting: 'installed', servedByActive: true });
  // The page asked the same in its statechange handler, which ran before
  // this poll saw 'installed' (and the worker answers in turn): its entry
  // script is not of the new build, so the new build waits for it.
  expect(await waitingHas(page, build.old.entry)).toBe(false);
  expect(await waitingHas(page, build.next.entry)).toBe(true);
  expect(await activeBuild(page)).toBe(build.old.version);
  expect(await page.evaluate(() => caches.keys())).toEqual(expect.arrayContaining([shellCacheName(build.old.version), shellCacheName(build.next.version)]));

  // Nothing changed screen: the same page, on the old build's files only.
  expect(await isMarked(page)).toBe(true);
  await expect(page).toHaveURL(/\/home$/);
  // Every file of the old build is still there for it (its worker stored them), though the host has them no more.
  await runsOldBuild(page, build, site);

  // The next change of screen: the new build takes over and the page reloads, on the screen asked for.
  await changeScreenReloading(page);
  await expect.poll(() => workers(page)).toEqual({ waiting: null, servedByActive: true });
  expect(await activeBuild(page)).toBe(build.next.version);
  const after = await running(page);
  expect(after.build).toBe(NEXT_BUILD);
  expect(after.entry).toBe(build.next.entry);
  expect(after.assets.length).toBeGreaterThan(0);
  expect(after.assets.filter((file) => !file.includes(`.${NEXT_BUILD}.`))).toEqual([]);
  // The new worker kept the shell it replaced (a tab may still be on it).
  expect(await page.evaluate(() => caches.keys())).toEqual(expect.arrayContaining([shellCacheName(build.old.version), shellCacheName(build.next.version)]));
});

test('a page loaded after the deploy is of the new build: its worker takes over at once with no reload, and an older tab reloads at its next change of screen', async ({ page, context, site }) => {
  await memberOnHome(page);
  await mark(page);
  const build = deployNextBuild(site);

  // A second tab opened after the deploy gets the new build from the network.
  const fresh = await context.newPage();
  await fresh.goto('/home');
  await expect(fresh.getByRole('heading', { name: 'Your Plans' })).toBeVisible();
  expect((await running(fresh)).build).toBe(NEXT_BUILD);
  await mark(fresh);
  let freshLoads = 0;
  fresh.on('load', () => freshLoads++);

  // Its worker takes over as soon as it has installed, with no change of screen.
  await checkForUpdate(fresh);
  const servedByNext = { active: build.next.version, waiting: null, servedByActive: true };
  await expect.poll(async () => ({ active: await activeBuild(fresh), ...(await workers(fresh)) }), { timeout: 20_000 }).toEqual(servedByNext);
  const freshRuns = await running(fresh);
  expect(freshRuns.entry).toBe(build.next.entry);
  expect(freshRuns.assets.filter((file) => !file.includes(`.${NEXT_BUILD}.`))).toEqual([]);

  // The older tab is served by the new worker too, but keeps its page and
  // its build until it changes screen: the new worker kept the shell it
  // replaced, so every old file is still there for it.
  await expect.poll(async () => ({ active: await activeBuild(page), ...(await workers(page)) })).toEqual(servedByNext);
  expect(await isMarked(page)).toBe(true);
  await runsOldBuild(page, build, site);
  await changeScreenReloading(page);
  const after = await running(page);
  expect(after.build).toBe(NEXT_BUILD);
  expect(after.assets.filter((file) => !file.includes(`.${NEXT_BUILD}.`))).toEqual([]);

  // All along, the new build's tab never reloaded.
  expect(await isMarked(fresh)).toBe(true);
  expect(freshLoads).toBe(0);
  await expect(fresh).toHaveURL(/\/home$/);
});
