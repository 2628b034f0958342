// npm run bench: the core's speed and memory, native and wasm side by side.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, setup } from './setup.mjs';

setup({ native: true });
const { register } = await import('tsx/esm/api');
register();
await import(pathToFileURL(join(root, 'wasm-core/bench/bench.ts')).href);
