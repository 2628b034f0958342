// npm run --silent sim -- FILE [--set key=value ...] [--json]
// Makes sure the core and the CLI bundle are built, then runs the CLI (wasm-core/cli/main.ts).
import { pathToFileURL } from 'node:url';
import { ensureCli, setup } from './setup.mjs';

setup({ native: false });
await import(pathToFileURL(ensureCli()).href); /* built by setup(); returns its path */
