import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Projects: `web` (React, jsdom), `unit` (pure server/shared code, node),
// `db` (policies and SQL rules on a real, migrated PostgreSQL), `api` (HTTP
// against the function served by Deno, real PostgreSQL, real SMTP into maildev)
// and `stack` (`npm start` for real, ended every way a terminal ends it).
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/src/test/setup.ts'],
          css: false,
        },
      },
      {
        test: {
          name: 'unit',
          include: ['supabase/functions/**/*.test.ts', 'scripts/**/*.test.ts', 'web/*.test.ts', 'web/link-preview/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'db',
          include: ['tests/db/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/db.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/api.ts'],
          testTimeout: 30_000,
          hookTimeout: 90_000,
        },
      },
      {
        test: {
          name: 'stack',
          include: ['tests/stack/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
