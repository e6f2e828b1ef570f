import { describe, expect, it, vi } from 'vitest';
import { HAS_FILE_MESSAGE, TAKE_OVER_MESSAGE } from '../service-worker/offline';
import { TAKE_OVER_GRACE_MS, watchForUpdates } from './app-update';

/** A worker of a build with these files: answers "is this file yours?" and records what it was told. */
class FakeWorker extends EventTarget {
  told: unknown[] = [];
  constructor(
    public state: ServiceWorkerState,
    private readonly files: string[],
  ) {
    super();
  }
  postMessage(data: unknown, ports: MessagePort[] = []) {
    if (typeof data === 'object' && data && (data as { type: string }).type === HAS_FILE_MESSAGE) {
      ports[0]!.postMessage(this.files.includes((data as { path: string }).path));
    } else this.told.push(data);
  }
  become(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

function setUp({ controlled = true, waiting }: { controlled?: boolean; waiting?: FakeWorker } = {}) {
  const container = Object.assign(new EventTarget(), { controller: controlled ? ({} as ServiceWorker) : null });
  const registration = Object.assign(new EventTarget(), { waiting: waiting ?? null, installing: null as FakeWorker | null });
  const reload = vi.fn();
  let busy = false;
  const updates = watchForUpdates(
    registration as unknown as ServiceWorkerRegistration,
    { container: container as unknown as ServiceWorkerContainer, entryScript: '/assets/index-old.js', reload },
    () => busy,
  );
  const install = (worker: FakeWorker) => {
    registration.installing = worker;
    registration.dispatchEvent(new Event('updatefound'));
  };
  const takeOver = () => container.dispatchEvent(new Event('controllerchange'));
  return { updates, reload, install, takeOver, setBusy: (b: boolean) => (busy = b) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('watchForUpdates', () => {
  it('a page of the old build waits for a change of screen with nothing on its way, then lets the new build take over and reloads', async () => {
    const { updates, reload, install, takeOver, setBusy } = setUp();
    const worker = new FakeWorker('installing', ['/', '/assets/index-new.js']);
    install(worker);
    worker.become('installed');
    await settle();
    expect(worker.told).toEqual([]);

    setBusy(true);
    updates.screenChanged();
    expect(worker.told).toEqual([]);
    setBusy(false);
    updates.screenChanged();
    expect(worker.told).toEqual([TAKE_OVER_MESSAGE]);
    expect(reload).not.toHaveBeenCalled();
    takeOver();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a page already of the new build lets it take over at once, with no reload', async () => {
    const { reload, takeOver } = setUp({ waiting: new FakeWorker('installed', ['/', '/assets/index-old.js']) });
    await settle();
    takeOver();
    expect(reload).not.toHaveBeenCalled();
  });

  it('tells a waiting worker of the new build to take over', async () => {
    const worker = new FakeWorker('installed', ['/assets/index-old.js']);
    setUp({ waiting: worker });
    await settle();
    expect(worker.told).toEqual([TAKE_OVER_MESSAGE]);
  });

  it('when another tab let the new build in, this one reloads at its next change of screen', async () => {
    const { updates, reload, install, takeOver } = setUp();
    const worker = new FakeWorker('installed', ['/assets/index-new.js']);
    install(worker);
    await settle();
    takeOver();
    expect(reload).not.toHaveBeenCalled();
    updates.screenChanged();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(worker.told).toEqual([]);
  });

  it("the browser's first worker is no update: it takes over by itself and nothing reloads", async () => {
    const { updates, reload, install, takeOver } = setUp({ controlled: false });
    const worker = new FakeWorker('installed', ['/assets/index-new.js']);
    install(worker);
    await settle();
    takeOver();
    updates.screenChanged();
    expect(reload).not.toHaveBeenCalled();
    expect(worker.told).toEqual([]);
  });
  it("a worker another tab let in while this page was asking it is no longer waiting: this page reloads at its next change of screen", async () => {
    const { updates, reload, install, takeOver } = setUp();
    /** Answers "is this file yours?" only when told to. */
    class SlowWorker extends FakeWorker {
      answer: (() => void) | null = null;
      override postMessage(data: unknown, ports: MessagePort[] = []) {
        if (typeof data === 'object' && data && (data as { type: string }).type === HAS_FILE_MESSAGE) this.answer = () => super.postMessage(data, ports);
        else super.postMessage(data, ports);
      }
    }
    const worker = new SlowWorker('installing', ['/', '/assets/index-new.js']);
    install(worker);
    worker.become('installed');
    // Before it answers, another tab lets it take over.
    worker.become('activated');
    takeOver();
    worker.answer!();
    await settle();

    updates.screenChanged();
    expect(worker.told).toEqual([]);
    expect(reload).toHaveBeenCalledTimes(1);
  });
  it('reloads anyway when the new worker has not taken over after a while (the browser may hold it back), but never while a write is on its way', async () => {
    vi.useFakeTimers();
    try {
      const worker = new FakeWorker('installed', ['/assets/index-new.js']);
      const { updates, reload, setBusy } = setUp({ waiting: worker });
      await vi.advanceTimersByTimeAsync(20);
      updates.screenChanged();
      expect(worker.told).toEqual([TAKE_OVER_MESSAGE]);
      setBusy(true);
      await vi.advanceTimersByTimeAsync(TAKE_OVER_GRACE_MS);
      expect(reload).not.toHaveBeenCalled();
      setBusy(false);
      await vi.advanceTimersByTimeAsync(TAKE_OVER_GRACE_MS);
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
