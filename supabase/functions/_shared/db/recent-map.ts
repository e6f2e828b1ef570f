// A Map that holds at most `max` entries (and, when given, at most `maxBytes`
// of their sizes) and lets the least recently used go first: the function
// instance's memory of things it has already worked out (plan read copies,
// verified tokens, guest-secret hashes). Per instance and best effort:
// whatever it forgets is worked out again.
export class RecentMap<K, V> {
  readonly #entries = new Map<K, { value: V; bytes: number }>();
  #bytes = 0;

  constructor(
    readonly max: number,
    readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** The entry, now the most recently used; undefined when not held. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * Hold `value` (about `bytes` large) for `key` as the most recently used,
   * letting the least recently used go past `max` entries or `maxBytes`.
   */
  set(key: K, value: V, bytes = 0): void {
    this.delete(key);
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.max || (this.#bytes > this.maxBytes && this.#entries.size > 0)) {
      this.delete(this.#entries.keys().next().value!);
    }
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The sum of the held entries' sizes. */
  get bytes(): number {
    return this.#bytes;
  }
}
