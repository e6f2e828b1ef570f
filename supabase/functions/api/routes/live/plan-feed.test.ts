import { describe, expect, it, vi } from 'vitest';
import { fullChange, parseChange } from '../../../_shared/contract/live.ts';
import { type FeedEvent, type FeedSource, PlanFeed } from './plan-feed.ts';

function fakeSource() {
  let emit: (event: FeedEvent) => void = () => {};
  const source: FeedSource & { emit: (event: FeedEvent) => void; watched: string[][]; starts: number } = {
    starts: 0,
    watched: [],
    start: (onEvent) => {
      source.starts += 1;
      emit = onEvent;
      return Promise.resolve();
    },
    stop: () => Promise.resolve(),
    watch: (ids) => void source.watched.push([...ids].sort()),
    emit: (event) => emit(event),
  };
  return source;
}

const change = (planId: string, version: number) => ({ kind: 'change', change: { planId, version, parts: ['ideas'] } }) as FeedEvent;

describe('PlanFeed', () => {
  it('starts its one source on the first subscription only', async () => {
    const source = fakeSource();
    const feed = new PlanFeed(source);
    await feed.subscribe(['a'], () => {});
    await feed.subscribe(['b'], () => {});
    expect(source.starts).toBe(1);
  });

  it("hands a plan's change to that plan's listeners only", async () => {
    const source = fakeSource();
    const feed = new PlanFeed(source);
    const a = vi.fn();
    const b = vi.fn();
    await feed.subscribe(['a'], a);
    await feed.subscribe(['b'], b);
    source.emit(change('a', 2));
    expect(a).toHaveBeenCalledWith(change('a', 2));
    expect(b).not.toHaveBeenCalled();
  });

  it('a multi-plan listener hears each of its plans, and a resync once', async () => {
    const source = fakeSource();
    const feed = new PlanFeed(source);
    const home = vi.fn();
    await feed.subscribe(['a', 'b'], home);
    source.emit(change('a', 2));
    source.emit(change('b', 5));
    source.emit({ kind: 'resync' });
    expect(home.mock.calls.map(([e]) => e)).toEqual([change('a', 2), change('b', 5), { kind: 'resync' }]);
  });

  it('unsubscribing stops delivery and tells a polling source what is still watched', async () => {
    const source = fakeSource();
    const feed = new PlanFeed(source);
    const a = vi.fn();
    const off = await feed.subscribe(['a'], a);
    const offB = await feed.subscribe(['b'], () => {});
    expect(feed.size).toBe(2);
    off();
    source.emit(change('a', 3));
    expect(a).not.toHaveBeenCalled();
    offB();
    expect(feed.size).toBe(0);
    expect(source.watched).toEqual([['a'], ['a', 'b'], ['b'], []]);
  });

  it('a source that fails to start fails the subscription, and the next one tries again', async () => {
    const source = fakeSource();
    let fail = true;
    const start = source.start;
    source.start = (onEvent) => (fail ? Promise.reject(new Error('no database')) : start(onEvent));
    const feed = new PlanFeed(source);
    await expect(feed.subscribe(['a'], () => {})).rejects.toThrow('no database');
    expect(feed.size).toBe(0);
    fail = false;
    await feed.subscribe(['a'], () => {});
    expect(source.starts).toBe(1);
  });
});

describe('parseChange and fullChange', () => {
  it('accepts our payloads and refuses anything else', () => {
    expect(parseChange('{"planId":"p","version":3,"parts":["plan"]}')).toEqual({ planId: 'p', version: 3, parts: ['plan'] });
    expect(parseChange({ planId: 'p', version: 4, parts: ['ideas'], ideaIds: null })).toEqual({
      planId: 'p',
      version: 4,
      parts: ['ideas'],
      ideaIds: null,
    });
    for (const bad of [
      '',
      'null',
      '{}',
      'not json',
      '{"planId":1,"version":1,"parts":[]}',
      '{"planId":"p","version":1,"parts":["everything"]}',
      '{"planId":"p","version":1,"parts":["ideas"],"ideaIds":[1]}',
      // A version is a count from 0.
      '{"planId":"p","version":"1","parts":["plan"]}',
      '{"planId":"p","version":-1,"parts":["plan"]}',
      '{"planId":"p","version":1.5,"parts":["plan"]}',
      '{"planId":"p","version":1e300,"parts":["plan"]}',
    ]) {
      expect(parseChange(bad), bad).toBeNull();
    }
  });

  it('a full change names every part and every idea and slot', () => {
    expect(fullChange('p', 9)).toEqual({
      planId: 'p',
      version: 9,
      parts: ['plan', 'participants', 'ideas', 'comments', 'dates', 'rsvps'],
      ideaIds: null,
      slotIds: null,
    });
  });
});
