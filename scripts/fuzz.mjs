// npm run fuzz -- [--seeds N] [--from S]
// A longer run of the fuzz target (wasm-core/test/fuzz/fuzz.ts): random scenarios through the
// loader, the wasm core with the invariant checker and the native ASan/UBSan build, which must
// agree. Findings are written to wasm-core/test/fuzz/findings/ (regression scenarios for npm test).
import { spawnSync } from 'node:child_process';
import { root, setup } from './setup.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const seeds = Number(arg('--seeds', 5000)),
  from = Number(arg('--from', 1));
if (!Number.isInteger(seeds) || seeds < 1 || !Number.isInteger(from) || from < 0) {
  console.error('usage: npm run fuzz -- [--seeds N] [--from S]   (N > 0 executions starting at seed S)');
  process.exit(2);
}
setup({ native: true });
const make = spawnSync('make', ['-s', '-C', 'wasm-core', 'build/asan/mmsim-run'], { cwd: root, stdio: 'inherit' });
if (make.status !== 0) process.exit(1);
const r = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', 'wasm-core/test/fuzz.test.ts', '-t', 'seeds'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_SEEDS: String(seeds), FUZZ_FROM: String(from) },
  },
);
process.exit(r.status ?? 1);
