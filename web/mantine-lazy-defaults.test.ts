import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lazyDefaultVariables, MANTINE_REMOVE_DEFAULT_VARIABLES, mantineLazyDefaults } from './mantine-lazy-defaults';

// What the build resolves it to (the repository's node_modules).
const installed = fileURLToPath(
  new URL('../node_modules/@mantine/core/esm/core/MantineProvider/MantineCssVariables/remove-default-variables.mjs', import.meta.url),
);

type Transform = (this: { error: (message: string) => never }, code: string, id: string) => { code: string } | null;
const transform = (code: string, id: string) =>
  (mantineLazyDefaults().transform as unknown as Transform).call(
    {
      error: (message: string) => {
        throw new Error(message);
      },
    },
    code,
    id,
  );

/** Evaluates the module's text with its imports given, counting the resolver's calls. */
function evaluate(source: string) {
  const calls: unknown[] = [];
  const body = source
    .replace(/^"use client";/, '')
    .replace(/^import .*$/gm, '')
    .replace(/^export \{ removeDefaultVariables \};$/m, 'return removeDefaultVariables;');
  const resolver = (theme: unknown) => {
    calls.push(theme);
    return { variables: { '--a': '1' }, light: { '--l': 'x' }, dark: { '--d': 'y' } };
  };
  const keys = (object: object) => Object.keys(object);
  // The installed module's own text, under test.
  const removeDefaultVariables = new Function('keys', 'DEFAULT_THEME', 'defaultCssVariablesResolver', body)(keys, 'default theme', resolver) as (
    input: Record<'variables' | 'light' | 'dark', Record<string, string>>,
  ) => unknown;
  return { calls, removeDefaultVariables };
}

const input = { variables: { '--a': '1', '--b': '2' }, light: { '--l': 'x' }, dark: { '--d': 'z' } };
const cleaned = { variables: { '--b': '2' }, light: {}, dark: { '--d': 'z' } };

describe("Mantine's default CSS variables in the production build", () => {
  const source = readFileSync(installed, 'utf8');

  it('are computed when the installed module is evaluated, before the rewrite', () => {
    expect(MANTINE_REMOVE_DEFAULT_VARIABLES.test(installed)).toBe(true);
    const { calls, removeDefaultVariables } = evaluate(source);
    expect(calls).toEqual(['default theme']);
    expect(removeDefaultVariables(input)).toEqual(cleaned);
  });

  it('are computed on first use after it, once, with the same result, on the same lines', () => {
    const lazy = transform(source, installed)!.code;
    expect(lazy.split('\n')).toHaveLength(source.split('\n').length);
    const { calls, removeDefaultVariables } = evaluate(lazy);
    expect(calls).toEqual([]);
    expect(removeDefaultVariables(input)).toEqual(cleaned);
    expect(removeDefaultVariables(input)).toEqual(cleaned);
    expect(calls).toEqual(['default theme']);
  });

  it('leave every other module alone', () => {
    expect(transform(source, installed.replace('remove-default-variables', 'get-merged-variables'))).toBeNull();
    expect(transform('const a = 1;', '/work/web/src/app/main.tsx')).toBeNull();
  });

  it('fail the build when the module has changed (an upgrade to look at again)', () => {
    expect(lazyDefaultVariables('export function removeDefaultVariables(input) { return input; }')).toBeNull();
    expect(() => transform('export const x = 1;', installed)).toThrow('does not compute Mantine');
  });
});
