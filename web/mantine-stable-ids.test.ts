import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isMantineRandomUseId, MANTINE_USE_ID, mantineStableIds } from './mantine-stable-ids';

// What the build resolves @mantine/hooks' useId to (the repository's node_modules).
const installed = fileURLToPath(new URL('../node_modules/@mantine/hooks/esm/use-id/use-id.mjs', import.meta.url));

type Load = (this: { error: (message: string) => never }, id: string) => string | null;
const load = (id: string) =>
  (mantineStableIds().load as unknown as Load).call(
    {
      error: (message: string) => {
        throw new Error(message);
      },
    },
    id,
  );

describe("Mantine's useId in the production build", () => {
  it('recognises the installed @mantine/hooks hook as the one it replaces (random id after mount)', () => {
    expect(MANTINE_USE_ID.test(installed)).toBe(true);
    expect(isMantineRandomUseId(readFileSync(installed, 'utf8'))).toBe(true);
  });

  it('serves web/src/lib/mantine-use-id.ts in its place, and leaves every other module alone', () => {
    expect(load(installed)).toMatch(/^export \{ useId \} from ".*[\\/]web[\\/]src[\\/]lib[\\/]mantine-use-id\.ts";\n$/);
    expect(load(installed.replace('use-id/use-id.mjs', 'use-idle/use-idle.mjs'))).toBeNull();
    expect(load('/work/web/src/app/main.tsx')).toBeNull();
  });

  it('fails the build when the hook has changed (an upgrade to look at again)', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'mantine-')), 'node_modules/@mantine/hooks/esm/use-id');
    mkdirSync(dir, { recursive: true });
    const changed = path.join(dir, 'use-id.mjs');
    writeFileSync(changed, 'import { useId as useReactId } from "react";\nexport function useId(staticId) { return staticId ?? useReactId(); }\n');
    expect(() => load(changed)).toThrow('is not the useId web/mantine-stable-ids.ts replaces');
  });
});
