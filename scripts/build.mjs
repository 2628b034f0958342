// npm run build: the core (wasm) and the playground's production bundle (web/dist).
import { spawnSync } from 'node:child_process';
import { root, setup } from './setup.mjs';

setup({ native: false });
const r = spawnSync(
  process.execPath,
  ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
  { cwd: root, stdio: 'inherit' },
);
if (r.status !== 0) process.exit(r.status ?? 1);
/* then the single file that opens from disk: web/dist/mmplay-offline.html */
const o = spawnSync(process.execPath, ['scripts/build-offline.mjs'], { cwd: root, stdio: 'inherit' });
if (o.status !== 0) process.exit(o.status ?? 1);
console.log('built web/dist (serve it with any static file server, e.g. npx vite preview --config web/vite.config.ts)');
