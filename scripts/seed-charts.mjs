// Regenerate the seed-vs-model charts of docs/mechanisms/fault-around.md with the app's own PNG export:
// opens each seed row's sweep in the production build (Debian's Chromium),
// waits for the ten runs, clicks PNG and saves the download in docs/images/.
//   npm run build && node scripts/seed-charts.mjs
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumPath, root } from './setup.mjs';

const rows = ['sequential-16g', 'random-1g', 'one-per-page-table-16g'];
const port = 4188;
const server = spawn(
  process.execPath,
  [
    'node_modules/vite/bin/vite.js',
    'preview',
    '--config',
    'web/vite.config.ts',
    '--port',
    String(port),
    '--strictPort',
  ],
  { cwd: root, stdio: 'ignore' },
);
await new Promise((r) => setTimeout(r, 1500));
const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
try {
  mkdirSync(`${root}/docs/images`, { recursive: true });
  for (const row of rows) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await page.goto(`http://127.0.0.1:${port}/?scenario=fault-around/seed/${row}&sweep=fault_around_bytes`);
    await page.getByTestId('sweep-status').filter({ hasText: 'Done' }).waitFor({ timeout: 300_000 });
    const [dl] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'PNG', exact: true }).click(),
    ]);
    copyFileSync(await dl.path(), `${root}/docs/images/sweep-${row}.png`);
    console.log(`docs/images/sweep-${row}.png`);
    await page.close();
  }
} finally {
  await browser.close();
  server.kill();
}
