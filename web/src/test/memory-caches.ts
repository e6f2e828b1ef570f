// Cache Storage in memory, as much of it as the app's service worker and the
// outbox's hand-over use (service-worker/background-sync.ts): entries by URL
// (query included, fragment not), relative URLs read against `origin`.
export class MemoryCaches {
  readonly stores = new Map<string, Map<string, Response>>();

  constructor(private readonly origin = 'https://hangplan.app') {}

  private url(key: string | Request): string {
    return new URL(typeof key === 'string' ? key : key.url, this.origin).href;
  }

  async open(name: string) {
    const store = this.stores.get(name) ?? new Map<string, Response>();
    this.stores.set(name, store);
    return {
      match: async (key: string | Request) => store.get(this.url(key))?.clone(),
      put: async (key: string | Request, response: Response) => void store.set(this.url(key), response.clone()),
      delete: async (key: string | Request) => store.delete(this.url(key)),
      keys: async () => [...store.keys()].map((url) => new Request(url)),
    };
  }

  async match(key: string | Request, options: { cacheName?: string } = {}) {
    const names = options.cacheName ? [options.cacheName] : [...this.stores.keys()];
    for (const name of names) {
      if (!this.stores.has(name)) continue;
      const found = await (await this.open(name)).match(key);
      if (found) return found;
    }
    return undefined;
  }

  async keys() {
    return [...this.stores.keys()];
  }

  async delete(name: string) {
    return this.stores.delete(name);
  }
}
