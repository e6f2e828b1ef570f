// The web app's import boundaries are enforced by ESLint (eslint.config.js:
// the feature floors, each feature reached through its public entry, app/ above the features, lib/ below them, and only the
// function's contract folder, which itself stays pure). This runs the real
// configuration on small sources placed where the rules look, so a rule that
// stopped firing (a moved folder, a typo in a zone) fails here.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });

/** The messages of the boundary rule for `source` as if it were the file `file`. */
async function boundaryErrors(file: string, source: string, rule = 'import-x/no-restricted-paths'): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

const use = (specifier: string) => `import * as mod from '${specifier}';\nexport const used = mod;\n`;

describe('import boundaries of the web app (ESLint)', () => {
  it('a feature imports the features of the floors below it', async () => {
    expect(await boundaryErrors('web/src/features/ideas/example.ts', use('../guests'))).toEqual([]);
    expect(await boundaryErrors('web/src/features/guests/example.ts', use('../plans'))).toEqual([]);
    expect(await boundaryErrors('web/src/features/dashboard/example.ts', use('../ideas/index.ts'))).toEqual([]);
  });

  it("only through that feature's public entry (index.ts), never one of its files", async () => {
    expect(await boundaryErrors('web/src/features/guests/example.ts', use('../plans/queries'))).toEqual([
      expect.stringContaining('Import features/plans through its public entry'),
    ]);
    expect(await boundaryErrors('web/src/features/dashboard/components/example.tsx', use('../../ideas/components/dashboard-ideas-tab'))).toHaveLength(1);
    // Inside a feature, its own files import each other freely.
    expect(await boundaryErrors('web/src/features/plans/components/example.tsx', use('../queries'))).toEqual([]);
  });

  it('never one of its own floor or above: no two features import each other', async () => {
    expect(await boundaryErrors('web/src/features/guests/example.ts', use('../ideas'))).toEqual([
      expect.stringContaining('features/guests may import only the features of the floors below it'),
    ]);
    expect(await boundaryErrors('web/src/features/auth/example.ts', use('../plans'))).toHaveLength(1);
    expect(await boundaryErrors('web/src/features/calendar/example.ts', use('../plans'))).toHaveLength(1);
    expect(await boundaryErrors('web/src/features/ideas/example.ts', use('../availability'))).toHaveLength(1);
  });

  it('features never import app/, and lib/ imports no feature', async () => {
    expect(await boundaryErrors('web/src/features/plans/example.ts', use('../../app/lazy-screens'))).toEqual([
      expect.stringContaining('Features never import app/'),
    ]);
    expect(await boundaryErrors('web/src/lib/example.ts', use('../features/plans/queries'))).toEqual([
      expect.stringContaining('lib/, components/ and config/ sit below every feature'),
    ]);
  });

  it('from the function, only its contract folder', async () => {
    const shared = '../../../../supabase/functions/_shared';
    for (const file of ['contract/common', 'contract/plans.ts', 'contract/periods.ts', 'contract/calendar.ts']) {
      expect(await boundaryErrors('web/src/features/ideas/example.ts', use(`${shared}/${file}`))).toEqual([]);
    }
    expect(await boundaryErrors('web/src/features/ideas/example.ts', use(`${shared}/db/client.ts`))).toEqual([
      expect.stringContaining('only its contract'),
    ]);
    expect(await boundaryErrors('web/src/features/ideas/example.ts', use(`${shared}/http/validation.ts`))).toHaveLength(1);
    expect(await boundaryErrors('web/src/lib/example.ts', use('../../../supabase/functions/api/routes/plans/index.ts'))).toHaveLength(1);
  });
});

describe('the contract folder stays pure (ESLint)', () => {
  const file = 'supabase/functions/_shared/contract/example.ts';
  it('imports its own folder, zod and ics', async () => {
    for (const specifier of ['./common.ts', './text.ts', 'zod', 'zod/mini', 'ics']) {
      expect(await boundaryErrors(file, use(specifier))).toEqual([]);
      expect(await boundaryErrors(file, use(specifier), 'no-restricted-imports')).toEqual([]);
    }
  });

  it('never server code of the function, nor another package', async () => {
    expect(await boundaryErrors(file, use('../http/errors.ts'))).toEqual([expect.stringContaining('The contract is pure')]);
    expect(await boundaryErrors(file, use('../http/validation.ts'))).toHaveLength(1);
    expect(await boundaryErrors(file, use('../../api/routes/plans/index.ts'))).toHaveLength(1);
    expect(await boundaryErrors(file, use('hono'), 'no-restricted-imports')).toEqual([expect.stringContaining('The contract is pure')]);
    expect(await boundaryErrors(file, use('postgres'), 'no-restricted-imports')).toHaveLength(1);
  });
});
