import { defineConfig } from 'vitest/config';
import { galleryPlugin } from './web/gallery-plugin.js';

// One command runs every TypeScript test; each project can run alone (npx vitest run --project NAME):
//   core   the loader, compiler, engine, golden traces, native/wasm parity       (npm test -- quick)
//   web    the store, reducer, URL, frame providers, replay                        (npm test -- quick)
//   cli    the CLI end to end (in the test's process, and as a process: cli-run.ts), the hostile inputs,
//          the seeds' big runs, the estimate's timing
//   fuzz   random scenarios through the loader, wasm and native ASan (npm run fuzz runs more)
const CLI = [
  'wasm-core/test/cli.test.ts',
  'wasm-core/test/hostile.test.ts',
  'wasm-core/test/toy-mechanism.test.ts',
  'wasm-core/test/letters.test.ts',
  'wasm-core/test/exercises.test.ts',
  'wasm-core/test/estimate.test.ts',
];
const FUZZ = ['wasm-core/test/fuzz.test.ts'];
export default defineConfig({
  test: {
    /* two files at a time, on this machine kind's two cores (the hostile inputs' two batch processes share them) */
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'core',
          include: ['wasm-core/test/**/*.test.ts'],
          exclude: [...CLI, ...FUZZ],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        /* the gallery's scenario files arrive with their card's facts, as in the app */
        plugins: [galleryPlugin()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: { name: 'cli', include: CLI, environment: 'node', testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        test: { name: 'fuzz', include: FUZZ, environment: 'node', testTimeout: 600_000 },
      },
    ],
  },
});
