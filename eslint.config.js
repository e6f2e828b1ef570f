import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import pluginQuery from '@tanstack/eslint-plugin-query';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The web app's floors (docs/web-app.md "Code layout"): a feature may import
// the features of the floors below it, never one of its own floor or above, so
// no two features import each other. app/ sits above every feature; lib/,
// components/ and config/ below them all.
const FEATURE_FLOORS = [
  ['auth', 'calendar', 'notifications', 'previews', 'rsvps'],
  ['plans'],
  ['guests'],
  ['ideas', 'availability', 'interests'],
  ['dashboard', 'landing', 'profile'],
];
const featureZones = FEATURE_FLOORS.flatMap((floor, level) =>
  floor.map((feature) => ({
    target: `./web/src/features/${feature}`,
    from: FEATURE_FLOORS.slice(level)
      .flat()
      .filter((other) => other !== feature)
      .map((other) => `./web/src/features/${other}`),
    message: `features/${feature} may import only the features of the floors below it (eslint.config.js FEATURE_FLOORS).`,
  })),
);

// A feature reaches another only through that feature's public entry (its
// index.ts): what the entry does not export is the feature's own business.
// (app/ is exempt: it loads each screen's own file, for code splitting.)
const FEATURES = FEATURE_FLOORS.flat();
const entryZones = FEATURES.map((feature) => ({
  target: FEATURES.filter((other) => other !== feature).map((other) => `./web/src/features/${other}`),
  from: `./web/src/features/${feature}`,
  except: ['./index.ts'],
  message: `Import features/${feature} through its public entry (features/${feature}/index.ts), not one of its files.`,
}));

// What the web app may take from the function's code: its contract, the one
// folder of pure files (no Deno, Hono, database or server helper in them) that
// both sides import. The second zone keeps that folder pure.
const CONTRACT = './_shared/contract';
const contractZones = [
  {
    target: './web',
    from: './supabase/functions',
    except: [CONTRACT],
    message: 'The web app imports from the function only its contract (supabase/functions/_shared/contract), never server code.',
  },
  {
    target: './supabase/functions/_shared/contract',
    from: './supabase/functions',
    except: [CONTRACT],
    message: 'The contract is pure: it imports only zod, ics and its own folder, never server code (the web app imports it).',
  },
];
// The packages a contract file may import besides its own folder.
const CONTRACT_PACKAGES = /^(?!(zod|zod\/mini|ics|vitest)$)[^./]/u;

export default tseslint.config(
  { ignores: ['node_modules', 'web/dist', '.data', 'test-results', 'playwright-report', 'supabase/.temp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Classic scripts the page loads as they are (public/shell.js).
    files: ['web/public/**/*.js'],
    languageOptions: { sourceType: 'script', globals: globals.browser },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...pluginQuery.configs['flat/recommended'].map((config) => ({ ...config, files: ['web/**/*.{ts,tsx}'] })),
  { ...jsxA11y.flatConfigs.recommended, files: ['web/**/*.tsx'] },
  {
    files: ['web/**/*.{ts,tsx}'],
    // Tests and their fixtures may cross floors and entries: they compose what they test.
    ignores: ['**/*.test.{ts,tsx}', '**/test-*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    // The app's imports leave out the .ts/.tsx extension, as Vite allows.
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureZones,
            ...entryZones,
            {
              target: './web/src/features',
              from: './web/src/app',
              message: 'Features never import app/: the app composes the features, not the other way round.',
            },
            {
              target: ['./web/src/lib', './web/src/components', './web/src/config'],
              from: ['./web/src/features', './web/src/app'],
              message: 'lib/, components/ and config/ sit below every feature and app/.',
            },
            ...contractZones,
          ],
        },
      ],
    },
  },
  {
    // Every spec runs under the suite's policy watch (e2e/fixtures.ts: fails on any CSP violation).
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message: "Import test and expect from './fixtures.ts': it fails a test on any Content-Security-Policy violation.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['supabase/functions/_shared/contract/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: contractZones }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: CONTRACT_PACKAGES.source, message: 'The contract is pure: zod, ics and its own folder only (the web app imports it).' }] },
      ],
    },
  },
  {
    files: ['supabase/functions/**/*.ts', 'scripts/**/*.deno.ts'],
    languageOptions: { globals: { Deno: 'readonly' } },
  },
);
