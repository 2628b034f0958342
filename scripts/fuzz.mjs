// npm run fuzz -- [--minutes M] [--seeds N] [--from S]
// A longer run of the fuzz target (wasm-core/test/fuzz/fuzz.ts, run by fuzz/run.ts): random scenarios
// through the loader, the wasm core with the invariant checker and the native ASan/UBSan build, which
// must agree, for M minutes (default 10) or N seeds. Findings are written to
// wasm-core/test/fuzz/findings/ (regression scenarios for npm test). npm test runs 250 seeds.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, setup } from './setup.mjs';

setup({ native: true });
const make = spawnSync('make', ['-s', '-C', 'wasm-core', 'build/asan/mmsim-run'], { cwd: root, stdio: 'inherit' });
if (make.status !== 0) process.exit(1);
const { register } = await import('tsx/esm/api');
register();
/* the runner reads its own arguments (--minutes, --seeds, --from) and exits with its verdict */
await import(pathToFileURL(join(root, 'wasm-core/test/fuzz/run.ts')).href);
