// Serves web/src/lib/mantine-use-id.ts in place of @mantine/hooks' useId in
// the production build: the same ids for the same components, without the
// random id Mantine sets in a layout effect after mount, which made React
// render and commit every input, label and popover a second time right after
// the first commit (on the join page most of one long task on a phone;
// docs/performance.md). The build fails if Mantine's hook no longer looks
// like the one this replaces, so that an upgrade is looked at again.
// (In `vite` dev, Mantine comes pre-bundled and keeps its own hook.)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

export const MANTINE_USE_ID = /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;

const STABLE_USE_ID = fileURLToPath(new URL('./src/lib/mantine-use-id.ts', import.meta.url));

/**
 * Whether `source` is the hook this replaces: React's id first, then a
 * random one set in an effect, `staticId` winning over both.
 */
export function isMantineRandomUseId(source: string): boolean {
  return /useState\(`mantine-\$\{reactId/.test(source) && /setUuid\(randomId\(\)\)/.test(source) && /typeof staticId === "string"\) return staticId/.test(source);
}

export function mantineStableIds(): Plugin {
  return {
    name: 'hangplan:mantine-stable-ids',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      const file = id.replace(/\?.*$/, '');
      if (!MANTINE_USE_ID.test(file)) return null;
      const source = readFileSync(file, 'utf8');
      if (!isMantineRandomUseId(source)) {
        this.error(`${id} is not the useId web/mantine-stable-ids.ts replaces (random id set after mount); check that the replacement still fits this version of @mantine/hooks`);
      }
      return `export { useId } from ${JSON.stringify(STABLE_USE_ID)};\n`;
    },
  };
}
