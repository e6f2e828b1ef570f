import { createElement, lazy, type ComponentType } from 'react';

interface Preloadable<P extends object> {
  (props: P): ReturnType<typeof createElement>;
  /** Starts loading the component's code (once); resolves when it is there. */
  preload: () => Promise<unknown>;
}

/**
 * React.lazy that can be loaded ahead of rendering: once `preload()` has
 * resolved, the component renders at once, without suspending (so a screen
 * whose code was fetched before the first render never shows a fallback).
 * Rendered before that, it suspends like React.lazy; the module is known by
 * the time React retries, so the lazy wrapper is never committed and the
 * element keeps one component type.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined; // a failed download is tried again on next use
        throw error;
      },
    ));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  const Component = (props: P) => createElement((loaded ?? Lazy) as ComponentType<P>, props);
  return Object.assign(Component, { preload });
}
