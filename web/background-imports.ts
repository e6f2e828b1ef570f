// Chunks the app loads in the background, not to show a screen: the toasts'
// code, fetched once the page is idle (app/providers.tsx). For a screen's
// chunk the build's preload helper adds a <link rel="modulepreload"> for
// each chunk it imports, so that they all download at once; for these it adds
// none, and the browser fetches their imports itself once the chunk is in.
// Adding those links is main-thread work in the idle task (on the join page
// six links, most of a 36 ms task in a Lighthouse trace on a phone profile:
// docs/performance.md), and a background chunk has no one waiting for it.
const BACKGROUND_CHUNK = /(^|\/)toaster-[\w-]+\.js$/;

/** build.modulePreload.resolveDependencies: what to preload with a dynamic import of `file`. */
export function preloadDependencies(file: string, deps: string[]): string[] {
  return BACKGROUND_CHUNK.test(file) ? [] : deps;
}
