import { chromium } from 'playwright';
import { copyFileSync } from 'node:fs';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const p = await b.newPage({ viewport: { width: 1280, height: 720 }, acceptDownloads: true });
await p.goto(
  'http://localhost:4180/?scenario=lru/backup&cursor=s12:0.5&compare=fadvise_dontneed=invalidate-only&views=lru,log,counters',
);
await p.waitForSelector('[data-testid=views][data-ready]', { timeout: 60000 });
await p.waitForTimeout(1000);
await p.keyboard.press('x');
for (const id of ['log', 'counters', 'lru']) {
  const [d] = await Promise.all([p.waitForEvent('download'), p.getByTestId(`export-png-${id}`).click()]);
  copyFileSync(await d.path(), `/tmp/exp-${id}.png`);
}
await b.close();
