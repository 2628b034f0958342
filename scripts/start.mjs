// npm start: install what is missing, build the core, and serve the playground.
import { spawn } from 'node:child_process';
import { root, setup } from './setup.mjs';

setup({ native: false });
const port = process.env.PORT ?? '5173';
const vite = spawn(
  process.execPath,
  ['node_modules/vite/bin/vite.js', '--config', 'web/vite.config.ts', '--port', port, '--clearScreen', 'false'],
  {
    cwd: root,
    stdio: ['inherit', 'pipe', 'inherit'],
  },
);
let told = false;
vite.stdout.on('data', (d) => {
  process.stdout.write(d);
  const m = /(http:\/\/[\d.:a-z]+\/)/.exec(String(d));
  if (m && !told) {
    told = true;
    console.log(`\n  mmplay is running: open ${m[1]} in your browser (Ctrl+C to stop).\n`);
  }
});
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    vite.kill(sig);
    process.exit(0);
  });
vite.on('exit', (code) => process.exit(code ?? 0));
