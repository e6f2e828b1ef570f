import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Three projects: `web` (React, jsdom), `unit` (pure server/shared code, node)
// and `integration` (real PostgreSQL, the API under Deno, real SMTP to maildev).
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
          include: ['supabase/functions/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
