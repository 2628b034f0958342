// The playground's size and load time: bundle sizes (gzip), the wasm, and the
// time to an interactive gallery and to a ready scenario in headless Chromium
// against the production build on localhost (median of 7 cold page loads),
// and a cold page load of the seed's 16 GiB scenario run to its final state
// (median of BENCH_REPEAT, default 5, each in a fresh browser context).
import { spawn, spawnSync, execSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { measureScenarios } from './measure-scenarios.mjs';
import { root } from './setup.mjs';

export async function measureWeb() {
  const b = spawnSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'],
    { cwd: root, stdio: 'inherit' },
  );
  if (b.status !== 0) throw new Error('vite build failed');
  const dir = join(root, 'web/dist/assets');
  const files = readdirSync(dir).filter((f) => !f.endsWith('.map'));
  const sizes = files.map((f) => {
    const buf = readFileSync(join(dir, f));
    return { file: f, bytes: statSync(join(dir, f)).size, gzip: gzipSync(buf, { level: 9 }).length };
  });
  const server = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'preview', '--config', 'web/vite.config.ts', '--port', '4179', '--strictPort'],
    { cwd: root, stdio: 'ignore' },
  );
  await new Promise((r) => setTimeout(r, 1500));
  const { chromium } = await import('@playwright/test');
  const exe = execSync('command -v chromium', { encoding: 'utf8' }).trim();
  const browser = await chromium.launch({
    executablePath: exe,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const gallery = [],
    ready = [],
    frames = [],
    big = [];
  /* the scripts a page fetched (its own, the worker's), by file name */
  const scripts = () =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name.split('/').pop().split('?')[0])
      .filter((f) => f.endsWith('.js'));
  /* the worker's own imports (its script past the entry) are in the worker's timeline, not the page's */
  const fetched = async (page) => [
    ...new Set([
      ...(await page.evaluate(scripts)),
      ...(await Promise.all(page.workers().map((w) => w.evaluate(scripts)))).flat(),
    ]),
  ];
  /* the gallery's first load: the scripts index.html loads (its module and modulepreloads); the worker
     follows when the browser is idle, the rest when first used */
  const html = readFileSync(join(root, 'web/dist/index.html'), 'utf8');
  const galleryJs = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="[^"]*\/([^"/]+\.js)"/g)].map((m) => m[1]);
  let scenarioJs = [],
    scenarios = [];
  try {
    for (let i = 0; i < 7; i++) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto('http://127.0.0.1:4179/');
      await page.locator('.card').first().waitFor();
      gallery.push(await page.evaluate(() => performance.now()));

      const t0 = await page.evaluate(() => performance.now());
      await page.locator('[data-scenario="fault-around/sequential"]').click();
      await page.locator('[data-view="address"]').waitFor();
      ready.push((await page.evaluate(() => performance.now())) - t0);
      /* a step forward: key press to the new frame on screen */
      const t1 = await page.evaluate(() => performance.now());
      await page.keyboard.press('End');
      await page.getByTestId('value-pgfault').filter({ hasText: '256' }).waitFor();
      frames.push((await page.evaluate(() => performance.now())) - t1);
      await ctx.close();
    }
    const runs = Math.max(3, Number(process.env.BENCH_REPEAT ?? 5));
    for (let i = 0; i < runs; i++) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto('http://127.0.0.1:4179/?scenario=fault-around/seed/sequential-16g');
      await page.getByTestId('value-pgfault').filter({ hasText: '262,144' }).waitFor({ timeout: 120_000 });
      await page.getByTestId('cursor').filter({ hasText: 'final state' }).waitFor();
      big.push(await page.evaluate(() => performance.now()));
      if (i === 0) scenarioJs = await fetched(page);
      await ctx.close();
    }
    scenarios = await measureScenarios(browser, 'http://127.0.0.1:4179');
  } finally {
    await browser.close();
    server.kill();
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const gz = (names) => names.reduce((a, f) => a + (sizes.find((s) => s.file === f)?.gzip ?? 0), 0);
  return {
    scenarios,
    sizes,
    /* what a first visit downloads: the gallery, and a scenario's link (with the worker) */
    firstLoad: { gallery: gz(galleryJs), galleryFiles: galleryJs, scenario: gz(scenarioJs), scenarioFiles: scenarioJs },
    galleryMs: med(gallery),
    readyMs: med(ready),
    seekMs: med(frames),
    bigMs: { median: med(big), min: Math.min(...big), max: Math.max(...big), runs: big.length },
  };
}
