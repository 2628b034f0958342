import { chromium } from 'playwright';
const [, , url] = process.argv;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const p = await b.newPage({ viewport: { width: 1920, height: 1080 } });
const t0 = Date.now();
await p.goto('http://localhost:4180/' + url);
await p.waitForSelector('[data-view]', { timeout: 60000 });
const t1 = Date.now() - t0;
await p.waitForFunction(() => /\d/.test(document.querySelector('[data-testid=cursor]')?.textContent ?? ''), null, {
  timeout: 60000,
});
console.log(
  'first view',
  t1,
  'ms; cursor',
  Date.now() - t0,
  'ms',
  await p.locator('[data-testid=cursor]').textContent(),
);
await b.close();
