// npm test: every test, each layer in turn, installing what is missing first.
//   1. type check            tsc
//   2. the C core, native    ASan/UBSan unit tests with the invariant checker
//   3. TypeScript            vitest: loader, CLI, golden traces, parity, engine, store, URL, replay
//   4. the browser           production build (and the offline single file), then Playwright in Debian's Chromium
import { spawnSync } from 'node:child_process';
import { root, setup } from './setup.mjs';

const t0 = Date.now();
setup({ browser: true, native: true });
const node = process.execPath;
const stages = [
  ['type check', node, ['node_modules/typescript/bin/tsc', '-p', '.']],
  ['core: native tests (ASan, UBSan)', 'make', ['-s', '-C', 'wasm-core', 'test']],
  ['TypeScript tests (vitest)', node, ['node_modules/vitest/vitest.mjs', 'run']],
  [
    'production build',
    node,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
  ],
  ['production build: the offline single file', node, ['scripts/build-offline.mjs']],
  ['browser tests (Playwright, Chromium)', node, ['node_modules/@playwright/test/cli.js', 'test']],
];
const only = process.argv[2];
for (const [name, cmd, args] of stages) {
  if (only && !name.startsWith(only)) continue;
  const t = Date.now();
  console.log(`\n=== ${name}`);
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' },
  });
  if (r.status !== 0) {
    console.error(`\n=== FAILED: ${name} (exit ${r.status}) after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    process.exit(1);
  }
  console.log(`=== ${name}: ok (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}
console.log(`\nall tests passed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
