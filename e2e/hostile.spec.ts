/**
 * Hostile share links in Chromium, the heavy ones: a link is untrusted and
 * may be huge. The page must answer within 100 ms throughout (no main-thread
 * task that long; 200 ms while a legitimately big scenario of 16,000 steps
 * arrives) and a run after a cancel must work. These run alone, after the
 * other browser tests (playwright.config.ts): their figures sit near their
 * bounds. The light links are in hostile-links.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { compressSource } from '../web/src/store/compress.js';
import { failOnPageProblems } from './problems.js';
import { expectResponsive, resetHealth, watchResponsiveness } from './responsive.js';

test.describe.configure({ mode: 'serial' }); /* one at a time: the heartbeat measures the page, not the machine */

failOnPageProblems();
watchResponsiveness();

test('a big link is read in the worker: the page answers, Cancel stops it, and the next run works', async ({
  page,
}) => {
  /* about 760 KB of YAML, 16,000 steps */
  const lines = ['name: Eight thousand mappings', 'processes: {app: {}}', 'steps:'];
  for (let i = 0; i < 8000; i++) lines.push(`  - mmap: {task: app, name: m${i}, length: 4KiB, prot: read}`);
  for (let i = 0; i < 8000; i++) lines.push(`  - munmap: {task: app, map: m${i}}`);
  const big = `${lines.join('\n')}\n`;
  /*
   * How long the worker reads this link depends on the machine: 0.5 s here, which the dialog
   * (shown after 350 ms) may or may not catch, and a clean CI machine once finished reading
   * before the test looked. So the worker is held first, as a slow machine or a parse that never
   * ends would hold it: the page is open on the gallery, its engine worker sits in a synchronous
   * request that this test answers only at the end, and the link is opened behind it. The page
   * then waits on the worker's reading, every time, and Cancel must replace the stuck worker with
   * a fresh one. (A 7 s busy loop held it before: a core spun, and the test waited for the loop's
   * end, 4-5 s after Cancel, because Chromium ends a terminated worker's loop only when the test's
   * own evaluation of it returns.)
   */
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect.poll(() => page.workers().length).toBe(1);
  const worker = page.workers()[0];
  await worker.evaluate(() => 0);
  const started: string[] = [];
  page.on('worker', (w) => started.push(w.url()));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let holding!: () => void;
  const holds = new Promise<void>((r) => (holding = r));
  await page.route('**/__test-hold', async (route) => {
    holding();
    await released;
    await route.fulfill({ body: '' }).catch(() => undefined);
  });
  const held = worker
    .evaluate(() => {
      const x = new XMLHttpRequest();
      x.open('GET', '/__test-hold', false);
      x.send();
    })
    .catch(() => undefined);
  /* the request has reached the test: the worker is inside it, and the link's message waits behind it */
  await holds;
  await page.evaluate(
    (h) => {
      location.hash = h;
    },
    `src=${compressSource(big)}`,
  );
  const progress = page.getByTestId('progress');
  await expect(progress).toContainText('Reading the scenario');
  await resetHealth(page);
  /* the page answers while the worker reads: the theme toggles at once */
  const before = await page.locator('html').getAttribute('data-theme');
  await page.keyboard.press('d');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', before!, { timeout: 1000 });
  await page.getByTestId('cancel').click();
  await expect(page.getByText('The run was cancelled.')).toBeVisible();
  /* the stuck worker was not waited for: a fresh one was started (after CANCEL_GRACE_MS, 400 ms;
     the bound leaves room for a loaded machine) */
  await expect.poll(() => started.length, { timeout: 5000 }).toBe(1);
  await expectResponsive(page, 'reading a big link');
  /* the old worker's request answered: nothing of it is left waiting */
  release();
  await held;
  /* a fresh worker reads the link for real, off the page (0.5 s of parsing here: on the page it
     would be one long task); receiving and drawing 16,000 steps stays under the 200 ms bound
     (no task over 50 ms here) */
  await resetHealth(page);
  await page.getByRole('button', { name: 'Run it again' }).click();
  await expect(page.locator('[data-view="address"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('scenario-title')).toContainText('Eight thousand mappings');
  await expectResponsive(page, 'running a big link', 200);
  /* and another scenario after it */
  await page.goto('/?scenario=fault-around/sequential');
  await expect(page.locator('[data-view="address"]')).toBeVisible();
});

/*
 * Big legitimate scenarios (issue 25's measurements: 1,024 prefaulting threads drew 18,538 DOM nodes with
 * a 1.2 s task on load; 30,000 VMAs 0.75 s; a 100,000-step link 0.37-0.64 s): recorded, drawn and stepped,
 * the page's main thread never runs a task of 100 ms from its first paint on.
 */
const BIG: { what: string; text: () => string; ask?: boolean }[] = [
  {
    what: '1,024 prefaulting threads',
    text: () =>
      [
        'name: A thousand and twenty-four threads',
        'kernel: {anon_prefault: anticipatory}',
        'processes: {app: {threads: 1024}}',
        'steps:',
        '  - mmap: {task: app, name: m, length: 64MiB, prot: read-write}',
        ...Array.from(
          { length: 1024 },
          (_, i) => `  - access: {task: app.${i}, map: m, op: write, offset: ${i * 64}KiB, length: 64KiB}`,
        ),
      ].join('\n'),
  },
  {
    what: '30,000 VMAs',
    text: () =>
      [
        'name: Thirty thousand VMAs',
        'kernel: {version: "3.15"}',
        'processes: {app: {}}',
        'steps:',
        '  - mmap: {task: app, name: m, length: 240000KiB, prot: read-write}',
        '  - repeat: {times: 30000, stride: 8KiB, steps: [{munmap: {task: app, map: m, offset: 4KiB, length: 4KiB}}]}',
        '  - access: {task: app, map: m, op: read, stride: 8KiB}',
      ].join('\n'),
  },
  {
    what: 'a link of 100,000 steps (7.5 MB of YAML, over source_bytes: Run anyway)',
    ask: true,
    text: () =>
      [
        'name: A hundred thousand steps',
        'processes: {a: {}}',
        'steps:',
        '  - mmap: {task: a, name: m, length: 400MiB, prot: read-write}',
        ...Array.from(
          { length: 99_999 },
          (_, i) => `  - access: {task: a, map: m, op: write, offset: ${i * 4}KiB, length: 4KiB}`,
        ),
      ].join('\n'),
  },
];

for (const b of BIG)
  test(`a big scenario stays responsive: ${b.what}`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`/#src=${compressSource(`${b.text()}\n`)}`);
    await expect(page.getByTestId('scenario-title')).toBeVisible({ timeout: 30_000 });
    await resetHealth(page);
    if (b.ask) await page.getByTestId('limit-ask').getByRole('button', { name: 'Run anyway' }).click();
    await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 90_000 });
    for (let i = 1; i <= 10; i++) {
      await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('cursor')).toHaveText(new RegExp(`^event ${i} /`));
    }
    await page.keyboard.press('End');
    await expect(page.getByTestId('cursor')).not.toHaveText(/^event 10 \//);
    await page.keyboard.press('Home');
    await expect(page.getByTestId('cursor')).toHaveText(/^event 0 \//);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.querySelectorAll('*').length), 'DOM nodes').toBeLessThan(4000);
    await expectResponsive(page, b.what);
  });
