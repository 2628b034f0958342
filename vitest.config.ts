import { defineConfig } from 'vitest/config';

// One command runs every TypeScript test; each layer can run alone:
//   npx vitest run --project core     (loader, compiler, CLI, golden traces, parity)
//   npx vitest run --project web      (store, reducer, URL, snapshots/replay)
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'core',
          include: ['wasm-core/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
    ],
  },
});
