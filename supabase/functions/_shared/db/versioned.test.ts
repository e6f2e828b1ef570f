import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { prepareIdeas, renderIdeas } from '../../api/routes/ideas/idea-json.ts';
import { forgetCopies, knownVersion, LARGEST_COPY_CHARS, planEtag, versionedRead, type VersionedRow } from './versioned.ts';

/** A fake plan whose read the statement "builds" only when asked: counts how often it does. */
function fakePlan() {
  const plan = { version: '7', visible: true, built: 0, asked: [] as Array<string | null>, padding: '' };
  const query = async (known: string | null): Promise<(VersionedRow & { mine: string[] }) | undefined> => {
    plan.asked.push(known);
    if (!plan.visible) return undefined;
    if (known === plan.version) return { version: plan.version, body: null, mine: [] };
    plan.built += 1;
    return { version: plan.version, body: JSON.stringify({ v: plan.version, ...(plan.padding ? { padding: plan.padding } : {}) }), mine: [] };
  };
  const app = new Hono().get('/read', async (c) => (await versionedRead(c, { key: 'plan:p', query })) ?? c.text('Plan not found', 404));
  return { plan, app };
}

beforeEach(() => forgetCopies());

describe('versionedRead', () => {
  it('builds the body once per version and answers later readers from the copy', async () => {
    const { plan, app } = fakePlan();
    const first = await app.request('/read');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ v: '7' });
    expect(first.headers.get('etag')).toBe('W/"v7"');
    expect(first.headers.get('cache-control')).toBe('no-store');
    const second = await app.request('/read');
    expect(await second.json()).toEqual({ v: '7' });
    expect(plan.built).toBe(1);
    expect(plan.asked).toEqual([null, '7']); // the second only checked the version
  });

  it('keeps no copy of a body over 256 KB: every reader of it is built anew', async () => {
    const { plan, app } = fakePlan();
    plan.padding = 'x'.repeat(LARGEST_COPY_CHARS);
    expect((await app.request('/read')).status).toBe(200);
    expect((await app.request('/read')).status).toBe(200);
    expect(plan.built).toBe(2);
    expect(plan.asked).toEqual([null, null]);
  });

  it('builds again once the version moved', async () => {
    const { plan, app } = fakePlan();
    await app.request('/read');
    plan.version = '8';
    expect(await (await app.request('/read')).json()).toEqual({ v: '8' });
    expect(plan.built).toBe(2);
  });

  it('304 for a client that holds the current version, with or without a copy here', async () => {
    const { plan, app } = fakePlan();
    const fresh = await app.request('/read', { headers: { 'if-none-match': 'W/"v7"' } });
    expect([fresh.status, await fresh.text()]).toEqual([304, '']);
    expect(plan.built).toBe(0);
    await app.request('/read');
    const again = await app.request('/read', { headers: { 'if-none-match': 'W/"v7"' } });
    expect(again.status).toBe(304);
    const stale = await app.request('/read', { headers: { 'if-none-match': 'W/"v6"' } });
    expect(stale.status).toBe(200);
  });

  it('nothing for a plan the caller cannot read, even with a copy here', async () => {
    const { plan, app } = fakePlan();
    await app.request('/read');
    plan.visible = false;
    expect((await app.request('/read')).status).toBe(404);
  });
});

describe('the ideas list for one viewer', () => {
  it('adds hasUserVoted to the shared list per viewer', () => {
    const shared = prepareIdeas(JSON.stringify([{ id: 'a', text: 'Bowling' }, { id: 'b', text: 'Zoo "trip"' }]));
    expect(JSON.parse(renderIdeas(shared, ['b']))).toEqual([
      { id: 'a', text: 'Bowling', hasUserVoted: false },
      { id: 'b', text: 'Zoo "trip"', hasUserVoted: true },
    ]);
    expect(renderIdeas(prepareIdeas('[]'), ['x'])).toBe('[]');
  });

  it("one viewer's ETag is not another's", async () => {
    const app = new Hono().get('/v', (c) => c.text(String(knownVersion(c, 'u:1'))));
    const tag = planEtag('3', 'u:1');
    expect(await (await app.request('/v', { headers: { 'if-none-match': tag } })).text()).toBe('3');
    expect(await (await app.request('/v', { headers: { 'if-none-match': planEtag('3', 'g:2') } })).text()).toBe('null');
  });
});
