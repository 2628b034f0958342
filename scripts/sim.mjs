// npm run --silent sim -- FILE [--set key=value ...] [--json]
// Makes sure the core is built, then runs the TypeScript CLI (wasm-core/cli/sim.ts).
import { setup, root } from './setup.mjs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

setup({ native: false });
const { register } = await import('tsx/esm/api');
register();
await import(pathToFileURL(join(root, 'wasm-core/cli/sim.ts')).href);
