// A Map that holds at most `max` entries and lets the least recently used go
// first: the function instance's memory of things it has already worked out
// (plan read copies, verified tokens, guest-secret hashes). Per instance and
// best effort: whatever it forgets is worked out again.
export class RecentMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly max: number) {}

  /** The entry, now the most recently used; undefined when not held. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Hold `value` for `key` as the most recently used, letting the least recently used go past `max`. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
