import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
    files: ['supabase/functions/**/*.ts', 'scripts/**/*.deno.ts'],
    languageOptions: { globals: { Deno: 'readonly' } },
  },
);
