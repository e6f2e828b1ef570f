// The link-preview picture over HTTP (docs/api.md "Link previews";
// docs/decisions/0106-the-picture.md): GET /api/plans/slug/{slug}/preview.png
// is a PNG of 1200 x 630 under 300 KB, versioned by the plan (ETag, 304),
// public and embeddable (CORP cross-origin), the generic picture when the host
// turned details off, 404 "Plan not found" for any hostile slug, and drawn from
// the card's title, status line and host's first name only: the test draws the
// same inputs itself and gets the very same bytes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PLAN_NOT_FOUND } from '../../supabase/functions/_shared/contract/plans.ts';
import { type LinkPreview, PREVIEW_HEIGHT, PREVIEW_WIDTH } from '../../supabase/functions/_shared/contract/previews.ts';
import { drawPicture, pictureTree } from '../../supabase/functions/api/routes/previews/draw.ts';
import { GENERIC_PICTURE, pictureText } from '../../supabase/functions/api/routes/previews/picture-text.ts';
import { api, apiDatabaseAsOwner } from '../support/api.ts';
import { apiWorld } from '../support/api-world.ts';
import { day } from '../support/dates.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ASSETS = path.join(import.meta.dirname, '../../supabase/functions/api/routes/previews/assets');
const readAsset = (file: string) => readFile(path.join(ASSETS, file));

interface Picture {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
}

/**
 * The picture as a chat fetches it: by the card's URL, which names the plan's
 * version (`?v=`; a copy confirmed a moment ago answers a URL naming no newer one).
 */
async function picture(slug: string, headers: Record<string, string> = {}, version = '1'): Promise<Picture> {
  const res = await fetch(`${inject('apiUrl')}/api/plans/slug/${slug}/preview.png?v=${version}`, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: new TextDecoder().decode(bytes) };
}

/** A PNG's signature, then the IHDR chunk first: its width and height (big-endian). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(new TextDecoder().decode(bytes.subarray(12, 16))).toBe('IHDR');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const card = async (slug: string) => (await api<LinkPreview>('GET', `/api/plans/slug/${slug}/preview`)).json;

describe('GET /api/plans/slug/{slug}/preview.png', () => {
  it('a PNG of 1200 x 630 under 300 KB, public and embeddable, with the ETag of the plan version; 304 when it matches', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host, 'Ramen night 🍜 in Łódź, Αθήνα & Москва');
    const res = await picture(plan.slug!);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(pngSize(res.bytes)).toEqual({ width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT });
    expect(res.bytes.byteLength).toBeLessThan(300 * 1024);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
    const { version } = await card(plan.slug!);
    const etag = res.headers.get('etag')!;
    expect(etag).toBe(`"v${version}-p1"`);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await picture(plan.slug!, { 'if-none-match': ifNoneMatch });
      expect(again.status).toBe(304);
      expect(again.bytes.byteLength).toBe(0);
      expect(again.headers.get('etag')).toBe(etag);
    }
    // The plan moves on: a new version, a new picture.
    expect((await api('POST', `/api/plans/${plan.id}/location`, { body: { location: 'Kenji Ramen' }, token: host.token })).status).toBe(200);
    const moved = await picture(plan.slug!, { 'if-none-match': etag }, (await card(plan.slug!)).version);
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).not.toBe(etag);
    // Served again from the instance's copy: the same bytes.
    expect((await picture(plan.slug!)).bytes).toEqual(moved.bytes);
  });

  it('drawn from the card\'s title, status line and host\'s first name only: never a guest\'s name, an e-mail or a comment', async () => {
    const host = await world.newUser('Kenji', 'Watanabe');
    const plan = await world.newPlan(host, 'Karaoke');
    const member = await world.newMember(plan.id, 'Xanthippe');
    const guest = await world.newGuest(plan.id, 'Zephyrine Quillfeather');
    const date = await day(owner, 5);
    expect((await api('POST', `/api/plans/${plan.id}/lock-date`, { body: { date }, token: host.token })).status).toBe(200);
    for (const answer of [
      api('PUT', `/api/plans/${plan.id}/rsvp`, { body: { answer: 'going' }, token: member.token }),
      api('PUT', `/api/plans/${plan.id}/rsvp`, { body: { answer: 'going', guestId: guest.id }, headers: { 'x-guest-secret': guest.secret } }),
    ]) {
      expect((await answer).status).toBe(200);
    }
    const idea = await api<{ id: string }>('POST', `/api/plans/${plan.id}/ideas`, { body: { text: 'Karaoke Kan' }, token: member.token });
    expect(idea.status, idea.text).toBe(201);
    expect(
      (await api('POST', `/api/ideas/${idea.json.id}/comments`, { body: { text: 'Quokkasong please' }, token: member.token })).status,
    ).toBe(201);

    const res = await picture(plan.slug!);
    expect(res.status, res.text).toBe(200);
    const text = pictureText(await card(plan.slug!));
    expect(text).toEqual({ title: 'Karaoke', line: expect.stringContaining('2 going'), host: 'Kenji' });
    const inputs = JSON.stringify(pictureTree(text));
    for (const secret of ['Xanthippe', 'Zephyrine', 'Quillfeather', 'Watanabe', 'Quokkasong', '@', member.email]) {
      expect(inputs).not.toContain(secret);
    }
    // The served picture is exactly the drawing of these inputs.
    expect(Buffer.from(res.bytes).equals(Buffer.from(await drawPicture(text, readAsset)))).toBe(true);
  });

  it('details off: the generic picture, the same for every plan', async () => {
    const host = await world.newUser('Hana');
    const first = await world.newPlan(host, 'Secret birthday');
    const second = await world.newPlan(host, 'Another secret');
    const shown = await picture(first.slug!);
    for (const plan of [first, second]) {
      expect((await api('POST', `/api/plans/${plan.id}/preview-details`, { body: { previewDetails: false }, token: host.token })).status).toBe(200);
    }
    const [a, b] = [await picture(first.slug!, {}, (await card(first.slug!)).version), await picture(second.slug!, {}, (await card(second.slug!)).version)];
    expect(a.status).toBe(200);
    expect(pngSize(a.bytes)).toEqual({ width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT });
    expect(a.bytes).toEqual(b.bytes);
    expect(a.bytes).not.toEqual(shown.bytes);
    expect(pictureText(await card(first.slug!))).toBe(GENERIC_PICTURE);
    expect(Buffer.from(a.bytes).equals(Buffer.from(await drawPicture(GENERIC_PICTURE, readAsset)))).toBe(true);
  });

  it('404 "Plan not found" for an unknown, malformed or hostile slug, never a 5xx', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    const deleted = await world.newPlan(host);
    expect((await api('DELETE', `/api/plans/${deleted.id}`, { token: host.token })).status).toBe(204);
    const hostile = [deleted.slug!, 'unknownslug1', 'short', 'x'.repeat(65), '%2e%2e%2f%2e%2e', '%00abcdefgh', "a'or'1'='1", '%F0%9F%8E%89abcdefgh', `${plan.slug!}%0a`];
    for (const slug of hostile) {
      const res = await picture(slug);
      expect({ slug, status: res.status, text: res.text }).toEqual({ slug, status: 404, text: PLAN_NOT_FOUND });
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    }
  });
});
