// This instance's copies of the link-preview pictures (docs/decisions/0106-the-picture.md):
// a viral link is fetched by many crawlers at once, so each plan's picture is
// drawn once per plan version per instance and then served from here. Bounded
// (the least recently used go first); concurrent requests for a version not
// drawn yet wait for the one drawing under way (single flight). Per instance
// and best effort: whatever it forgets is drawn again. A copy the database
// confirmed as current a moment ago (RECHECK_MS) is served without asking
// again, unless the request names a version it is not: a stampede of
// crawlers costs the database one read per slug per moment, not one each.
import { RecentMap } from '../../../_shared/db/recent-map.ts';

export interface HeldPicture {
  version: string;
  png: Uint8Array;
  /** When the database last said `version` is the plan's (the clock of the cache). */
  checkedAt: number;
}

/** How long a confirmed copy is served without asking the database again. */
export const RECHECK_MS = 2000;

export class PictureCache<T> {
  readonly #held: RecentMap<string, HeldPicture>;
  readonly #drawing = new Map<string, Promise<Uint8Array>>();
  /** How many drawings were started (tests: single flight, copies). */
  drawings = 0;

  constructor(
    readonly draw: (text: T) => Promise<Uint8Array>,
    max: number,
    maxBytes: number,
    readonly now: () => number = () => performance.now(),
  ) {
    this.#held = new RecentMap(max, maxBytes);
  }

  /** The copy held for this slug, whatever its version (now the most recently used). */
  held(slug: string): HeldPicture | undefined {
    return this.#held.get(slug);
  }

  /**
   * The copy to serve without asking the database: confirmed within
   * RECHECK_MS, unless the request names (`?v=`) a newer version than the
   * copy's (a plan that just moved: its new card's URL must not get the old
   * picture, which caches would keep under the new URL).
   */
  fresh(slug: string, wanted: string | undefined): HeldPicture | undefined {
    const held = this.#held.get(slug);
    if (!held || this.now() - held.checkedAt >= RECHECK_MS) return undefined;
    const newer = wanted !== undefined && /^\d{1,18}$/.test(wanted) && BigInt(wanted) > BigInt(held.version);
    return newer ? undefined : held;
  }

  /** The database just said the held copy's version is current. */
  confirm(held: HeldPicture): void {
    held.checkedAt = this.now();
  }

  /** The picture of this slug at this version: the copy, the drawing under way, or a new drawing. */
  picture(slug: string, version: string, text: T): Promise<Uint8Array> {
    const held = this.#held.get(slug);
    if (held?.version === version) return Promise.resolve(held.png);
    const key = `${slug}\n${version}`;
    const under = this.#drawing.get(key);
    if (under) return under;
    this.drawings++;
    const drawing = this.draw(text).then(
      (png) => {
        this.#drawing.delete(key);
        // A slower drawing of an older version never replaces a newer copy.
        const now = this.#held.get(slug);
        if (!now || BigInt(now.version) <= BigInt(version)) {
          this.#held.set(slug, { version, png, checkedAt: this.now() }, png.byteLength);
        }
        return png;
      },
      (error: unknown) => {
        this.#drawing.delete(key);
        throw error;
      },
    );
    this.#drawing.set(key, drawing);
    return drawing;
  }

  clear(): void {
    this.#held.clear();
  }
}
