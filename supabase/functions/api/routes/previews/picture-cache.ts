// This instance's copies of the link-preview pictures (docs/decisions/0106-the-picture.md):
// a viral link is fetched by many crawlers at once, so each plan's picture is
// drawn once per plan version per instance and then served from here. Bounded
// (the least recently used go first); concurrent requests for a version not
// drawn yet wait for the one drawing under way (single flight). Per instance
// and best effort: whatever it forgets is drawn again.
import { RecentMap } from '../../../_shared/db/recent-map.ts';

export interface HeldPicture {
  version: string;
  png: Uint8Array;
}

export class PictureCache<T> {
  readonly #held: RecentMap<string, HeldPicture>;
  readonly #drawing = new Map<string, Promise<Uint8Array>>();
  /** How many drawings were started (tests: single flight, copies). */
  drawings = 0;

  constructor(
    readonly draw: (text: T) => Promise<Uint8Array>,
    max: number,
    maxBytes: number,
  ) {
    this.#held = new RecentMap(max, maxBytes);
  }

  /** The copy held for this slug, whatever its version (now the most recently used). */
  held(slug: string): HeldPicture | undefined {
    return this.#held.get(slug);
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
        if (!now || BigInt(now.version) <= BigInt(version)) this.#held.set(slug, { version, png }, png.byteLength);
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
