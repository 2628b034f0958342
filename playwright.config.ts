import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/*
 * Debian's Chromium; Playwright's own download is not used. Its headless shell (the package
 * chromium-headless-shell, which scripts/setup.mjs installs) where present: the same Blink without the
 * browser's own UI (whose WebUI renderers and browser-process work came with every window). Here the
 * playground and tours specs took 76.8 s in it against 104.3 s in the browser, one run each, back to
 * back. The binary itself, not /usr/bin's wrapper (a shell script that does not exec). MMPLAY_CHROMIUM
 * names another (an A/B run).
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const chromium = (() => {
  if (process.env.MMPLAY_CHROMIUM) return process.env.MMPLAY_CHROMIUM;
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  try {
    return execSync('command -v chromium', { encoding: 'utf8' }).trim();
  } catch {
    return '/usr/bin/chromium';
  }
})();

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  /*
   * Every test stands alone: both workers share each file's tests. Three workers were tried: the suite
   * alone, three rounds interleaved, 165.8/170.7/177.7 s against 177.8/176.1/181.3 s with two, but in
   * npm test's A/B only 184.8/202.4 s against 189.1/203.3 s, and a light hostile link (which times the
   * page beside the other tests) then met a 158 ms main-thread task, its bound 100 ms: the tasks stretch
   * when three browsers share two cores.
   */
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:4173/',
    viewport: { width: 1600, height: 1000 },
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
  },
  /*
   * The heavy hostile links measure the page's responsiveness (a 10 ms heartbeat) near its bounds: they
   * run after the rest, alone, so that another browser's work on this 2-core machine does not stall the
   * heartbeat. The light ones (hostile-links.spec.ts: their longest task 0 ms) run with the rest.
   */
  projects: [
    { name: 'playground', testIgnore: /hostile\.spec/ },
    { name: 'hostile', testMatch: /hostile\.spec/, dependencies: ['playground'], fullyParallel: false },
  ],
  webServer: {
    command: 'node node_modules/vite/bin/vite.js preview --config web/vite.config.ts --port 4173 --strictPort',
    url: 'http://127.0.0.1:4173/',
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
