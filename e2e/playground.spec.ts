/**
 * The playground in real Chromium, against the production build. Every test
 * fails on any console error or uncaught exception; screenshots of the views
 * go to test-results/screenshots/.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compressSource } from '../web/src/store/compress.js';
import { failOnPageProblems } from './problems.js';

const SHOTS = 'test-results/screenshots';
mkdirSync(SHOTS, { recursive: true });

failOnPageProblems();

async function shot(page: Page, info: TestInfo, name: string, selector?: string) {
  const path = `${SHOTS}/${name}.png`;
  if (selector) await page.locator(selector).screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

async function open(page: Page, name: string, query = '') {
  await page.goto(`/?scenario=${name}${query}`);
  await expect(page.locator('[data-view="address"], [data-testid="error-banner"]').first()).toBeVisible();
}

const cursorText = (page: Page) => page.getByTestId('cursor').textContent();

/** the figures are drawn from the worker's frame, which follows the cursor a moment later: wait for it */
async function settled(page: Page) {
  const at = (await cursorText(page))!.match(/event ([\d,]+)/)![1].replace(/,/g, '');
  await expect(page.locator('.figures')).toHaveAttribute('data-at', at);
}

/* the shipped scenarios, from the folder the gallery bundles */
const shipped = (sub: string) =>
  readdirSync(join('scenarios', sub)).filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('.tour.yaml'));

/** the page's boot marks (web/src/main.tsx, engine/client.ts), ms from navigation */
const bootMarks = (page: Page): Promise<Record<string, number | undefined>> =>
  page.evaluate(() =>
    Object.fromEntries(
      performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('mmplay:'))
        .map((m) => [m.name.slice(7), m.startTime]),
    ),
  );

test('the gallery lists every scenario, grouped by mechanism', async ({ page }, info) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Fault-around' })).toBeVisible();
  expect(shipped('fault-around').length).toBeGreaterThanOrEqual(12);
  await expect(page.getByRole('heading', { name: 'VMA cache' })).toBeVisible();
  expect(shipped('vma-cache').length).toBeGreaterThanOrEqual(6);
  await expect(page.getByRole('heading', { name: 'LRU and fadvise' })).toBeVisible();
  expect(shipped('lru').length).toBeGreaterThanOrEqual(7);
  await expect(page.getByRole('heading', { name: 'Large folios' })).toBeVisible();
  expect(shipped('large-folios').length).toBeGreaterThanOrEqual(7);
  await expect(page.getByRole('heading', { name: 'Anticipatory prefault' })).toBeVisible();
  expect(shipped('prefault').length).toBeGreaterThanOrEqual(5);
  await expect(page.locator('.card')).toHaveCount(
    shipped('fault-around').length +
      shipped('vma-cache').length +
      shipped('lru').length +
      shipped('large-folios').length +
      shipped('prefault').length,
  );
  await expect(page.locator('.seed-table a[data-scenario]')).toHaveCount(shipped('fault-around/seed').length);
  await expect(page.locator('.seed-table a[data-sweep]')).toHaveCount(shipped('fault-around/seed').length);
  await expect(page.locator('.card').first()).toContainText('Sequential read of a cached file');
  /* the gallery alone starts no worker early: the page warms one once it is idle */
  const marks = await bootMarks(page);
  if (marks['worker-start'] !== undefined) expect(marks['worker-start']).toBeGreaterThan(marks.boot!);
  await shot(page, info, 'gallery');
});

test('opens a scenario by route, steps forward and back, jumps to faults', async ({ page }, info) => {
  /* a link to a scenario never draws the gallery on its way to the player (it once did, for ~250 ms) */
  await page.addInitScript(() => {
    const w = window as unknown as { galleryCards: number };
    w.galleryCards = 0;
    document.addEventListener('DOMContentLoaded', () =>
      new MutationObserver(() => {
        w.galleryCards = Math.max(w.galleryCards, document.querySelectorAll('#root .card').length);
      }).observe(document.body, { subtree: true, childList: true }),
    );
  });
  await open(page, 'fault-around/sequential');
  expect(await page.evaluate(() => (window as unknown as { galleryCards: number }).galleryCards)).toBe(0);
  /* index.html's own script started the worker before the page's modules were evaluated, and the page
     adopted it: one worker (web/boot-plugin.ts) */
  const marks = await bootMarks(page);
  expect(marks['worker-start']).toBeLessThan(marks.boot!);
  expect(page.workers()).toHaveLength(1);
  await expect(page.getByTestId('scenario-title')).toHaveText('Sequential read of a cached file');
  expect(await cursorText(page)).toMatch(/^event 0 \/ /);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('cursor')).toHaveText(/^event 3 \//);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('cursor')).toHaveText(/^event 2 \//);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('cursor')).toHaveText(/^event 3 \//);
  await page.getByTestId('jump-fault').click();
  await page.getByTestId('jump-fault').click();
  await expect(page.locator('.fault-line')).toContainText('Read fault at page 16');
  /* into the window: a few set-PTE events */
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
  await expect(page.locator('[data-view="walk"]')).toContainText('set by this fault');
  await expect(page.locator('[data-view="log"] li.cur')).toContainText('by fault-around');
  await expect(page.locator('[data-view="log"] li.cur a')).toHaveAttribute(
    'href',
    /elixir\.bootlin\.com\/linux\/v6\.19\/A\/ident\//,
  );
  await shot(page, info, 'player');
  for (const v of ['address', 'walk', 'counters', 'log', 'steps'])
    await shot(page, info, `view-${v}`, `[data-view="${v}"]`);
  /* step back within the fault: fewer pages mapped */
  const mapped = async () => Number((await page.getByTestId('value-nr_mapped').textContent())!.replace(/,/g, ''));
  await page.keyboard.press('End');
  await expect(page.getByTestId('value-pgfault')).toHaveText('256');
  expect(await mapped()).toBe(4096);
  await page.keyboard.press('Home');
  await expect(page.getByTestId('value-pgfault')).toHaveText('0');
});

/* the engine fails to start (the index.html script starts it before the page can listen): the link says why */
for (const [what, glob, says] of [
  ['the core', '**/mmsim-*.wasm', /The simulator \(WebAssembly\) could not start/],
  ["the worker's script", '**/serve-*.js', /The simulation worker could not load/],
] as const)
  test(`a scenario link whose engine cannot start says why: ${what} missing`, async ({ page, context }) => {
    await context.route(glob, (r) => r.fulfill({ status: 404, body: 'gone' }));
    await page.goto('/?scenario=fault-around/sequential');
    await expect(page.getByTestId('error-banner')).toContainText(says);
  });

test('plays and pauses', async ({ page }) => {
  await open(page, 'fault-around/sequential');
  await page.locator('#speed').selectOption('300');
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toContainText('Pause');
  await page.waitForTimeout(1200);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toContainText('Play');
  const at = await cursorText(page);
  expect(Number(at!.match(/event ([\d,]+)/)![1].replace(/,/g, ''))).toBeGreaterThan(50);
  await page.waitForTimeout(500);
  expect(await cursorText(page)).toBe(at);
  /* space toggles too */
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toContainText('Pause');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toContainText('Play');
});

test('turning fault-around off raises the fault count 16-fold', async ({ page }, info) => {
  await open(page, 'fault-around/sequential');
  await page.keyboard.press('End');
  await expect(page.getByTestId('value-pgfault')).toHaveText('256');
  await page.getByTestId('tunable-fault_around_bytes').selectOption('4096');
  await expect(page.getByTestId('value-pgfault')).toHaveText('4,096');
  await expect(page.getByTestId('figure-pgfault')).toContainText('before 256 (×16)');
  /* the invited experiment is a comparison, not a failure */
  await expect(page.getByTestId('expect-failures')).toHaveCount(0);
  /* one line beside the views' menu, opening to the list */
  const notes = page.getByTestId('expect-notes');
  await expect(notes.locator('summary')).toBeVisible();
  await expect(notes.locator('summary')).toContainText('a comparison, not a test');
  await expect(notes.locator('li').first()).toBeHidden();
  await notes.locator('summary').click();
  await expect(notes.locator('li').first()).toBeVisible();
  await expect(notes).toContainText('256');
  await expect(notes).toContainText('4,096');
  await expect(page).toHaveURL(/set=fault_around_bytes%3D4096/);
  await shot(page, info, 'fault-around-off');
});

test('an edited scenario with an error shows the error at its line', async ({ page }, info) => {
  await open(page, 'fault-around/sequential');
  await page.getByTestId('open-editor').click();
  const editor = page.locator('.cm-content');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(`name: broken
files:
  data: { size: 1MiB, cached: all }
processes:
  app: {}
steps:
  - mmap: { task: app, name: m, file: data, prot: read }
  - access: { task: app, map: m, op: reed }
`);
  const errs = page.getByTestId('editor-errors');
  await expect(errs).toContainText('line 8');
  await expect(errs).toContainText("must be one of read, write; got 'reed' (did you mean 'read'?)");
  await expect(page.locator('.cm-lint-marker-error')).toBeVisible();
  await expect(page.getByTestId('run-edited')).toBeDisabled();
  await shot(page, info, 'editor-error');
  /* fix it and run it */
  await page.locator('.cm-line', { hasText: 'reed' }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText('read }');
  await expect(errs).toHaveCount(0);
  await page.getByTestId('run-edited').click();
  await expect(page.getByTestId('scenario-title')).toContainText('broken');
  await expect(page.getByTestId('scenario-title')).toContainText('edited');
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
  await expect(page.getByTestId('value-pgfault')).toHaveText('16');
  /* the edited text travels in the fragment, which servers never see */
  await expect(page).toHaveURL(/#src=/);
});

test('a copied link reopens the same state', async ({ page, context }) => {
  /* capture what the app writes to the clipboard: reading the real one needs a focused
     window, which a busy machine running two browsers does not always give us */
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: {
        writeText: async (t: string) => {
          (window as unknown as { copied: string }).copied = t;
        },
      },
    });
  });
  await open(page, 'fault-around/random');
  await page.getByTestId('tunable-fault_around_bytes').selectOption('32768');
  /* a choice hands the keyboard back: the keys below step, they do not change the choice */
  await expect(page.getByTestId('tunable-fault_around_bytes')).not.toBeFocused();
  /* the re-run is compiled and recorded in the worker: wait for it before stepping (keys move no cursor
     until it is in; the old run's frame or the new one's first, on screen meanwhile, can look the same) */
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.locator('[data-view="address"]')).toBeVisible();
  await expect(page.getByTestId('value-pgfault')).toHaveText('0');
  await page.keyboard.press('f');
  await page.keyboard.press('f');
  await page.keyboard.press('f');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tunable-fault_around_bytes')).toHaveValue('32768');
  await page.locator('[data-view="steps"] button[aria-label="Hide Steps"]').click();
  const cursor = await cursorText(page);
  expect(cursor).not.toMatch(/^event 0 /);
  await settled(page);
  const faults = await page.getByTestId('value-pgfault').textContent();
  /* read before a second page hides this one (a hidden page may not draw again until it is shown) */
  const line = await page.locator('.fault-line').textContent();
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('toast')).toContainText('Link copied');
  const link = await page.evaluate(() => (window as unknown as { copied: string }).copied);
  expect(link).toContain('set=fault_around_bytes%3D32768');
  const again = await context.newPage();
  await again.goto(link);
  await expect(again.locator('[data-view="address"]')).toBeVisible();
  await expect(again.getByTestId('cursor')).toHaveText(cursor!);
  await expect(again.getByTestId('value-pgfault')).toHaveText(faults!);
  await expect(again.getByTestId('tunable-fault_around_bytes')).toHaveValue('32768');
  await expect(again.locator('[data-view="steps"]')).toHaveCount(0);
  await expect(again.locator('.fault-line')).toHaveText(line!);
  /* and the first page, hidden behind the second meanwhile, is where it was */
  await expect(page.getByTestId('cursor')).toHaveText(cursor!);
  await again.close();
});

test('the 16 GiB scenario runs to completion in the worker', async ({ page }, info) => {
  await page.goto('/?scenario=fault-around/seed/sequential-16g&set=fault_around_bytes=4096');
  await expect(page.getByTestId('value-pgfault')).toHaveText('4,194,304', { timeout: 60_000 });
  /* the seed scenario expects 262,144 with its own 64 KiB: with 4 KiB that is a comparison, not a failure */
  await expect(page.getByTestId('expect-notes')).toContainText('262,144');
  await expect(page.getByTestId('expect-failures')).toHaveCount(0);
  await expect(page.getByTestId('cursor')).toHaveText('big run: final state');
  await expect(page.locator('.fault-line')).toContainText('too large to draw page by page');
  await shot(page, info, 'big-run-16g');
});

/* the seed's 16 GiB scenario looped as its benchmark (will-it-scale) loops it: at full speed one
   pass takes the worker a fraction of a second, faster than anyone can press cancel; a thousand
   passes are long enough to watch progress and cancel, deterministically */
const LONG = `name: The seed's 16 GiB file, read in a loop
kernel: { fault_around_bytes: 4096 }
machine: { memory: 17GiB }
files:
  data: { size: 16GiB, cached: all }
processes:
  bench: {}
steps:
  - repeat:
      times: 1000
      stride: 0
      steps:
        - mmap: { task: bench, name: m, file: data, prot: read, shared: true }
        - access: { task: bench, map: m, op: read, pattern: sequential }
        - munmap: { task: bench, map: m }
`;

test('the 16 GiB scenario in a loop asks first, then shows progress, keeps the page responsive, and can be cancelled', async ({
  page,
}, info) => {
  await page.goto(`/#src=${compressSource(LONG)}`);
  /* 1,000 passes over 16 GiB is over the operations limit: the page asks before any work */
  const ask = page.getByTestId('limit-ask');
  await expect(page.getByTestId('error-banner')).toContainText('this scenario needs about 7.6 × 10⁹ operations');
  await expect(ask).toContainText('The run can take about 13 minutes');
  await ask.getByRole('button', { name: 'Run anyway' }).click();
  const progress = page.getByTestId('progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText('Running a big scenario');
  /* what runs is named, with its tunables, while it runs */
  await expect(page.getByTestId('scenario-title')).toContainText("The seed's 16 GiB file, read in a loop");
  await expect(page.getByTestId('tunable-fault_around_bytes')).toHaveValue('4096');
  const bar = progress.getByRole('progressbar');
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 })
    .toBeGreaterThan(0);
  /* the page answers while the worker runs */
  const before = await page.locator('html').getAttribute('data-theme');
  await page.keyboard.press('d');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', before!);
  await shot(page, info, 'big-run-progress');
  await page.getByTestId('cancel').click({ timeout: 5_000 });
  await expect(progress).toHaveCount(0);
  await expect(page.getByText('The run was cancelled.')).toBeVisible();
});

test('a page cache too big for the simulator is refused at once, at its line', async ({ page }, info) => {
  const HUGE = `name: A page cache too big for a tab
machine: { memory: 300GiB }
files:
  data: { size: 256GiB, cached: all }
processes:
  app: {}
steps:
  - mmap: { task: app, name: m, file: data, prot: read, shared: true }
  - access: { task: app, map: m, op: read }
`;
  const t0 = Date.now();
  await page.goto(`/?src=${compressSource(HUGE)}`); /* an old-style link still opens */
  const banner = page.getByTestId('error-banner');
  await expect(banner).toContainText('of simulator memory', { timeout: 10_000 });
  await expect(banner).toContainText('the most it can be is 3.5 GiB');
  await expect(banner).toContainText(':4 files.data.cached:');
  /* memory cannot be raised that far: no Run anyway */
  await expect(page.getByTestId('limit-ask')).toHaveCount(0);
  expect(Date.now() - t0, 'refused before filling the page cache').toBeLessThan(10_000);
  await expect(page.getByTestId('progress')).toHaveCount(0);
  await shot(page, info, 'too-big');
});

test('a big run shows aggregates when it completes', async ({ page }, info) => {
  await page.goto('/?scenario=fault-around/seed/one-per-page-table-16g');
  await expect(page.getByTestId('value-pgfault')).toHaveText('8,192', { timeout: 60_000 });
  await expect(page.getByText('A big run:')).toBeVisible();
  await expect(page.getByTestId('cursor')).toHaveText('big run: final state');
  await expect(page.locator('.fault-line')).toContainText('too large to draw page by page');
  await shot(page, info, 'big-run-done');
});

/** a shipped scenario's title: its YAML's name */
const titleOf = (name: string) => {
  const m = /^name: (.*)$/m.exec(readFileSync(join('scenarios', `${name}.yaml`), 'utf8'));
  return m ? m[1].replace(/^(['"])(.*)\1$/, '$2') : name;
};

/* the gallery's groups and the scenario folders they show */
const GROUPS: [string, string[]][] = [
  ['Fault-around', ['fault-around', 'fault-around/seed']],
  ['VMA cache', ['vma-cache']],
  ['LRU and fadvise', ['lru']],
  ['Large folios', ['large-folios']],
  ['Anticipatory prefault', ['prefault']],
];

test('the gallery offers every shipped scenario', async ({ page }) => {
  await page.goto('/');
  /* the page renders once its modules are in, which may be after the load event (main.tsx imports them) */
  await expect(page.locator('[data-scenario]').first()).toBeVisible();
  const names = await page
    .locator('[data-scenario]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-scenario')!));
  expect(new Set(names).size).toBe(GROUPS.flatMap(([, dirs]) => dirs.flatMap(shipped)).length);
});

/**
 * Each group's scenarios, opened one after another in one page as a visitor does: the first from its
 * link, the rest from the gallery's cards (G goes back to it), so the page and its engine worker are
 * loaded once per group.
 */
for (const [title, dirs] of GROUPS)
  test(`every shipped scenario opens and steps without errors: ${title}`, async ({ page }) => {
    test.setTimeout(180_000);
    const names = dirs.flatMap((d) => shipped(d).map((f) => `${d}/${f.replace(/\.(ya?ml|json)$/, '')}`));
    expect(names.length).toBeGreaterThan(0);
    for (const [i, name] of names.entries()) {
      if (i === 0) await page.goto(`/?scenario=${name}`);
      else {
        await page.keyboard.press('g');
        await page.locator(`[data-scenario="${name}"]`).first().click();
      }
      await expect.poll(() => new URL(page.url()).searchParams.get('scenario'), name).toBe(name);
      /* its own title (the previous scenario's figures are gone since the click) */
      await expect(page.getByTestId('scenario-title'), name).toHaveText(titleOf(name));
      const big = name.includes('/seed/');
      /* every group's first key figure has a value once the run is recorded */
      await expect(page.locator('.figure .v').first(), name).not.toHaveText('–', { timeout: 60_000 });
      await expect(page.locator('[data-view="address"]'), name).toBeVisible({ timeout: 60_000 });
      if (!big || (await page.getByTestId('cursor').textContent()) !== 'big run: final state') {
        await page.keyboard.press('f');
        for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('End');
      }
      await expect(page.getByTestId('expect-failures'), name).toHaveCount(0);
      await expect(page.getByTestId('run-error'), name).toHaveCount(0);
      await expect(page.getByTestId('error-banner'), name).toHaveCount(0);
    }
  });

test('compare: run A and run B side by side, stepped together', async ({ page }, info) => {
  await page.goto('/?scenario=fault-around/sequential&compare=fault_around_bytes=4096');
  const a = page.locator('[data-run="a"][data-counter="pgfault"]'),
    b = page.locator('[data-run="b"][data-counter="pgfault"]');
  await expect(b).not.toHaveText('–', { timeout: 30_000 });
  await expect(page.getByTestId('run-label-a')).toContainText('fault_around_bytes 64 KiB');
  await expect(page.getByTestId('run-label-b')).toContainText('fault_around_bytes 4 KiB');
  await page.keyboard.press('End');
  await expect(a).toHaveText('256');
  await expect(b).toHaveText('4,096');
  await expect(a).toHaveAttribute('data-value', '256');
  await expect(b).toHaveAttribute('data-value', '4096');
  await expect(page.getByTestId('diff-pgfault')).toContainText('+3,840');
  await expect(page.locator('[data-run-view="b"]').first()).toBeVisible();
  await shot(page, info, 'compare-end');
  /* a back step moves both: back to the last fault of A, B stands at the same touch */
  await page.keyboard.press('Shift+F');
  await expect(a).toHaveText('255');
  /* B's frame comes from its own worker request: poll until it has moved back */
  await expect.poll(async () => Number(await b.getAttribute('data-value'))).toBeLessThan(4096);
  expect(Number(await b.getAttribute('data-value'))).toBeGreaterThanOrEqual(4080);
  /* and to the start */
  await page.keyboard.press('Home');
  await expect(a).toHaveText('0');
  await expect(b).toHaveText('0');
  /* stop comparing, then the scenario's own comparison in one click */
  await page.getByTestId('stop-compare').click();
  await expect(page.locator('[data-run="b"]')).toHaveCount(0);
  await page.getByTestId('compare-natural').click();
  await expect(page).toHaveURL(/compare=fault_around_bytes%3D4096/);
  await expect(page.locator('[data-run="b"][data-counter="pgfault"]')).toHaveText('0', { timeout: 30_000 });
});

test('sweep: fault_around_bytes from 4 KiB to 2 MiB, charted, exported', async ({ page }, info) => {
  await page.goto('/?scenario=fault-around/sequential&sweep=fault_around_bytes');
  const points = page.locator('[data-sweep-point]');
  await expect(points).toHaveCount(10, { timeout: 60_000 });
  await expect(page.getByTestId('sweep-status')).toContainText('Done: 10 runs', { timeout: 60_000 });
  await expect(page.locator('[data-sweep-point][data-x="4096"]')).toHaveAttribute('data-y', '4096');
  await expect(page.locator('[data-sweep-point][data-x="65536"]')).toHaveAttribute('data-y', '256');
  const xs = await points.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-x'))));
  expect(xs).toEqual([4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152]);
  await shot(page, info, 'sweep-sequential');
  /* CSV and SVG exports: what the app hands the browser to download */
  const csv = await download(page, 'CSV');
  expect(csv.split('\n')[0]).toContain('fault_around_bytes');
  expect(csv).toContain('4096,4096');
  expect(csv).toContain('65536,256');
  const svg = await download(page, 'SVG');
  expect(svg).toContain('<svg');
  expect(svg).toContain('data-x="65536"');
  expect(svg).not.toContain('var(--');
  /* back to the player */
  await page.getByTestId('close-sweep').click();
  await expect(page.locator('[data-view="address"]')).toBeVisible();
});

test('a sweep over its total work asks first, and Run anyway starts it', async ({ page }) => {
  /* ten runs of 3.7 × 10⁷ operations each: every run is under the limit, the sweep is not */
  const src = readFileSync('wasm-core/test/hostile/sweep-total-work.yaml', 'utf8');
  await page.goto(`/?sweep=fault_around_bytes#src=${compressSource(src)}`);
  const err = page.getByTestId('sweep-error');
  await expect(err).toContainText('this sweep of fault_around_bytes needs about 3.7 × 10⁸ operations in all');
  await expect(err).not.toContainText('--limit');
  await err.getByRole('button', { name: 'Run anyway' }).click();
  await expect(page.getByTestId('sweep-status')).toContainText(/Running \d+ of 10/);
  /* closing the sweep cancels it */
  await page.getByTestId('close-sweep').click();
  await expect(page.getByTestId('sweep-panel')).toHaveCount(0);
});

test("the seed row: one click from the gallery to its sweep beside the seed's numbers", async ({ page }, info) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.locator('.seed-table a[data-sweep="fault-around/seed/sequential-16g"]').click();
  await expect(page.getByTestId('sweep-panel')).toBeVisible();
  await expect(page.getByTestId('sweep-status')).toContainText('Running', { timeout: 30_000 });
  await expect(page.locator('[data-reference-point]')).toHaveCount(7);
  await expect(page.locator('[data-reference-point][data-x="65536"]')).toHaveAttribute('data-y', '262251');
  await expect(page.getByTestId('sweep-status')).toContainText('Done: 10 runs', { timeout: 200_000 });
  await expect(page.locator('[data-sweep-point]')).toHaveCount(10);
  await expect(page.locator('[data-sweep-point][data-x="65536"]')).toHaveAttribute('data-y', '262144');
  await expect(page.locator('[data-sweep-point][data-x="4096"]')).toHaveAttribute('data-y', '4194304');
  await shot(page, info, 'sweep-seed-sequential-16g');
});

for (const [width, height] of [
  [1280, 720],
  [1920, 1080],
] as const)
  test(`the sweep chart is at least 300 px tall and all in the window, ${width}x${height}`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/?scenario=fault-around/sequential&sweep=fault_around_bytes');
    await expect(page.getByTestId('sweep-status')).toContainText('Done: 10 runs', { timeout: 60_000 });
    const box = (await page.locator('.swc-svg').boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(300);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollHeight - innerHeight)).toBeLessThanOrEqual(0);
  });

test("a comparison at 1280x720: nothing scrolls, and each run's event log shows its current event", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?scenario=fault-around/sequential&compare=fault_around_bytes%3D4096&cursor=56&views=address,log');
  const current = page.locator('[data-view="log"] [aria-current]');
  await expect(current).toHaveCount(2, { timeout: 30_000 });
  for (const when of ['event 56', 'event 57 after a step']) {
    for (const row of await current.all()) {
      const r = (await row.boundingBox())!;
      const box = (await row.locator('xpath=ancestor::*[contains(@class, "log")][1]').boundingBox())!;
      /* within its log's box and the window (a row's outline may cross the edge by a few px) */
      expect(r.y, when).toBeGreaterThanOrEqual(box.y - 4);
      expect(r.y + r.height, when).toBeLessThanOrEqual(Math.min(box.y + box.height, 720) + 4);
    }
    const scroll = await page.evaluate(() => [
      document.documentElement.scrollHeight - innerHeight,
      document.querySelector('.app')!.scrollHeight - innerHeight,
    ]);
    expect(scroll, when).toEqual([0, 0]);
    await page.keyboard.press('ArrowRight');
  }
  /* both runs' key figures, labels whole */
  await expect(page.locator('[data-run=b][data-counter=pgfault]').first()).toBeVisible();
  /* the views stay put from event 0 (no ratio yet) to a ratio on two lines */
  const top = async () => (await page.getByTestId('views').boundingBox())!.y;
  const at57 = await top();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('cursor')).toHaveText(/^event 0 \//);
  expect(await top()).toBe(at57);
});

test('four runs on one page: off, the 2004 prefault, THP and a 64 KiB mTHP, at 1280x720 and on stage', async ({
  page,
}, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const q = 'scenario=prefault/sequential&compare=anon_prefault=off&c=thp=always&d=mthp=[65536]&cursor=end';
  await page.goto(`/?${q}`);
  /* its first frame shows while it records (a big run): the figures are the run's once it is recorded */
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 90_000 });
  const value = async (run: string) => {
    const el = page.locator(`[data-run=${run}][data-counter=pgfault]`).first();
    await expect(el).toHaveText(/^[\d,]+$/, { timeout: 90_000 });
    return Number((await el.textContent())!.replace(/,/g, ''));
  };
  const [a, b, c, d] = [await value('a'), await value('b'), await value('c'), await value('d')];
  /* one trap per page without prefault; fewer with the guess (batches up to 14); fewer still with a 16-page
     mTHP; fewest with 512-page THPs */
  expect(b).toBeGreaterThan(a);
  expect(a).toBeGreaterThan(d);
  expect(d).toBeGreaterThan(c);
  expect(b / c).toBe(512);
  expect(b / d).toBe(16);
  /* each run named, by the kernel where its key has one */
  await expect(page.getByTestId('run-label-a')).toContainText('2004 prefault');
  await expect(page.getByTestId('run-label-b')).toContainText('anon_prefault off');
  await expect(page.getByTestId('run-label-c')).toContainText('thp always');
  await expect(page.getByTestId('run-label-d')).toContainText('mthp [64 KiB]');
  /* the chart draws every run; the counters table has a column each */
  await expect(page.locator('[data-view="prefault-pages"] .pf-run')).toHaveCount(4);
  const scroll = () => page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  expect(await scroll()).toBeLessThanOrEqual(0);
  /* the link keeps every run */
  await expect.poll(() => new URL(page.url()).searchParams.getAll('d')).toEqual(['mthp=[65536]']);
  await shot(page, info, 'four-runs-1280');
  /* on stage: every run's figure in the thin transport */
  await page.goto(`/?${q}&present=1`);
  for (const run of ['a', 'b', 'c', 'd'])
    await expect(page.locator(`.transport [data-run=${run}][data-counter=pgfault]`)).toBeVisible({ timeout: 90_000 });
  expect(await scroll()).toBeLessThanOrEqual(0);
  /* a run C needs a run B: the link says so */
  await page.goto('/?scenario=prefault/sequential&c=thp=always');
  await expect(page.getByTestId('toast')).toContainText('give compare= too');
});

test('a big run draws its first frame while it records; a tunable change keeps the frame on screen', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  /* what the page showed, frame by frame (changes only): the views (none, recording or ready), the
     transport, pgfault; read after the fact, so that no check races the recording */
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    const t0 = performance.now();
    let last = '';
    const look = () => {
      const v = document.querySelector<HTMLElement>('[data-testid=views]');
      const state = v ? (v.dataset.ready !== undefined ? 'ready' : 'recording') : 'none';
      const line = `${state} | ${document.querySelector('[data-testid=cursor]')?.textContent} | ${document.querySelector('[data-testid=value-pgfault]')?.textContent}`;
      if (line !== last) seen.push(`${line} @ ${Math.round(performance.now() - t0)}`);
      last = line;
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  await page.goto('/?scenario=prefault/sequential');
  await expect(page.locator('[data-testid=views][data-ready]')).toBeVisible({ timeout: 60_000 });
  const opening = await seen();
  /* before the run: the machine at event 0, with the recording's progress in the transport */
  const first = opening.find((l) => l.startsWith('recording'));
  expect(first, opening.join('\n')).toMatch(/^recording \| recording\u2026 \d+% \| 0 @ \d+$/);
  expect(opening.findIndex((l) => l.startsWith('recording'))).toBeLessThan(
    opening.findIndex((l) => l.startsWith('ready')),
  );
  info.annotations.push({ type: 'timing', description: opening.join('; ') });
  await page.keyboard.press('End');
  await expect(page.getByTestId('cursor')).toHaveText(/^event ([\d,]+) \/ \1$/);
  await expect(page.getByTestId('value-pgfault')).not.toHaveText('0');
  await settled(page);
  const end = (await page.getByTestId('value-pgfault').textContent())!;
  const before = (await seen()).length;
  /* a tunable change: the frame stays on screen (never "Preparing the machine"), dimmed, until the new
     run's comes */
  await page.getByRole('group', { name: 'Kernel tunables' }).getByRole('combobox').first().selectOption('off');
  await expect(page.getByTestId('value-pgfault')).not.toHaveText(end, { timeout: 60_000 });
  await expect(page.locator('[data-testid=views][data-ready]')).toBeVisible({ timeout: 60_000 });
  const change = (await seen()).slice(before);
  expect(
    change.filter((l) => l.startsWith('none')),
    change.join('\n'),
  ).toEqual([]);
  expect(
    change.some((l) => l.startsWith(`recording | recording\u2026`) && l.includes(`| ${end} @`)),
    change.join('\n'),
  ).toBe(true);
  await expect(page.getByTestId('cursor')).toHaveText(/^event ([\d,]+) \/ \1$/);
});

test("a tunable change early in a big run draws the new run's moment while the rest records", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/?scenario=prefault/sequential&cursor=500');
  await expect(page.locator('[data-testid=views][data-ready]')).toBeVisible({ timeout: 60_000 });
  await settled(page);
  /* from the change on, frame by frame: when the figure first changed, and when the run was in */
  await page.evaluate(() => {
    const w = window as unknown as { seen: { drawn: number | null; ready: number | null } };
    const pgfault = () => document.querySelector('[data-testid=value-pgfault]')?.textContent;
    const before = pgfault();
    const t0 = performance.now();
    w.seen = { drawn: null, ready: null };
    let left = false;
    const look = () => {
      const now = performance.now() - t0;
      const ready = !!document.querySelector('[data-testid=views][data-ready]');
      if (!ready) left = true;
      if (w.seen.drawn === null && pgfault() !== before) w.seen.drawn = now;
      if (left && ready) w.seen.ready = now;
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  const before = (await page.getByTestId('value-pgfault').textContent())!;
  /* event 500 of the 2004 prefault's 1.2 M events, then of the 1.9 M with none */
  await page.getByRole('group', { name: 'Kernel tunables' }).getByRole('combobox').first().selectOption('off');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { seen: { ready: number | null } }).seen.ready), {
      timeout: 60_000,
    })
    .not.toBeNull();
  const seen = await page.evaluate(() => (window as unknown as { seen: { drawn: number; ready: number } }).seen);
  /* the new run's figure came while it still recorded, not with the whole run */
  expect(seen.drawn, JSON.stringify(seen)).not.toBeNull();
  expect(seen.drawn, JSON.stringify(seen)).toBeLessThan(seen.ready);
  /* and once it is in, the cursor is where the old one stood in its step, the figure the new run's */
  await settled(page);
  await expect(page.getByTestId('value-pgfault')).not.toHaveText(before);
});

test('a short window shows two views until others are asked for, then keeps the choice', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?scenario=fault-around/sequential');
  await expect(page.locator('[data-view]')).toHaveCount(2, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Show Event log' }).click();
  await expect(page.locator('[data-view]')).toHaveCount(3);
  await expect(page.locator('[data-view="log"]')).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get('views')).toContain('log');
  /* a tall window shows every view, as before */
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/?scenario=fault-around/sequential');
  await expect(page.locator('[data-view]')).toHaveCount(5, { timeout: 30_000 });
});

test('a choice swept is a bar per value, exported with its names; x labels never overlap; log y', async ({ page }) => {
  await page.goto('/?scenario=vma-cache/ebizzy-arena&sweep=vmacache&y=vmacache_find_hits');
  await expect(page.getByTestId('sweep-status')).toContainText('Done: 3 runs', { timeout: 60_000 });
  const bars = page.locator('rect[data-sweep-point]');
  await expect(bars).toHaveCount(3);
  const csv = await download(page, 'CSV');
  expect(
    csv
      .split('\n')
      .slice(1, 4)
      .map((l) => l.split(',')[0]),
  ).toEqual(['per-thread', 'mm-wide', 'off']);
  /* the model's own numbers: per-thread hits more than mm-wide, off none */
  const hits = await bars.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-y'))));
  expect(hits[0]).toBeGreaterThan(hits[1]);
  expect(hits[2]).toBe(0);
  /* values not evenly spaced on a linear axis: labels kept only where they clear each other */
  await page.goto('/?scenario=fault-around/cold-sequential&sweep=readahead_kb');
  await expect(page.getByTestId('sweep-status')).toContainText('Done:', { timeout: 60_000 });
  const boxes = await page
    .locator('.swc-x-axis .tick text')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
  expect(boxes.length).toBeGreaterThanOrEqual(3);
  for (let i = 1; i < boxes.length; i++) expect(boxes[i][0], `label ${i}`).toBeGreaterThan(boxes[i - 1][1]);
  /* the y axis switched to log and back */
  const logy = page.getByRole('button', { name: 'log y' });
  await expect(logy).toHaveAttribute('aria-pressed', 'false');
  await logy.click();
  await expect(logy).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.swc-axis-label').nth(1)).toContainText('log');
  await logy.click();
  await expect(logy).toHaveAttribute('aria-pressed', 'false');
});

/** click an export button and return the text of the file the app offers */
async function download(page: Page, label: string): Promise<string> {
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: label, exact: true }).click(),
  ]);
  const path = await dl.path();
  const { readFileSync } = await import('node:fs');
  return readFileSync(path!, 'utf8');
}

test('VMA cache: a miss walks the tree; ebizzy per-thread near 100% against mm-wide near 0%', async ({
  page,
}, info) => {
  await page.goto('/?scenario=vma-cache/ebizzy');
  await expect(page.locator('[data-view="vmacache"]')).toBeVisible({ timeout: 30_000 });
  /* the views come with the run's first frame while it records (its 260,952 events can take longer than
     the preview's 250 ms on a loaded machine): the jump keys move once it is in */
  await expect(page.locator('[data-testid=views][data-ready]')).toBeVisible({ timeout: 30_000 });
  /* the walk is hidden in this group, the cache's views shown */
  await expect(page.locator('[data-view="walk"]')).toHaveCount(0);
  await expect(page.locator('[data-view="vma-tree"]')).toBeVisible();
  await expect(page.locator('[data-view="vmacache-rate"]')).toBeVisible();
  /* the group's tunable beside the key figures (it was missing: the description lacked quick: true) */
  await expect(
    page.getByRole('group', { name: 'Kernel tunables' }).getByText('vmacache', { exact: true }),
  ).toBeVisible();
  /* the first miss (C), then the end of its fault (J): the walk is drawn, node by node */
  await page.keyboard.press('c');
  await expect(page.getByTestId('vc-outcome')).toContainText('miss');
  await page.keyboard.press('j');
  await expect(page.getByTestId('vc-tree-caption')).toContainText(/a miss walked \d+ nodes? and found c0/);
  expect(await page.getByTestId('vc-walked').count()).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('vc-thread-ebizzy.0').locator('.vc-slot.written')).toHaveCount(1);
  await shot(page, info, 'vmacache-miss');
  /* the next hit of the same thread: no walk */
  for (let i = 0; i < 4; i++) await page.keyboard.press('f');
  await page.keyboard.press('j');
  await expect(page.getByTestId('vc-tree-caption')).toContainText('the cache answered');
  /* the scenario's own comparison, one click: mm-wide */
  await page.getByTestId('compare-natural').click();
  await expect(page.getByTestId('run-label-b')).toContainText('mm-wide');
  const b = page.locator('[data-run="b"][data-counter="vmacache_find_hits"]');
  await expect(b).not.toHaveText('–', { timeout: 30_000 });
  await page.keyboard.press('End');
  await expect(page.locator('[data-run-view="a"]').getByTestId('vc-total')).toContainText(
    '28,648 hits in 28,736 lookups · 99.69%',
  );
  await expect(page.locator('[data-run-view="b"]').getByTestId('vc-total')).toContainText(
    '0 hits in 28,736 lookups · 0.00%',
  );
  /* the chart overlays both runs; its legend reads each thread's rate in A and B */
  await expect(page.locator('[data-view="vmacache-rate"] .vc-rate-legend')).toContainText('ebizzy.1 99.67% / 0.00%');
  await shot(page, info, 'vmacache-compare');
});

test('LRU: the backup deactivates what fadvise cannot drop; 2.6.38 loses the working set', async ({ page }, info) => {
  await page.goto('/?scenario=lru/backup');
  await expect(page.locator('[data-view="lru"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-view="walk"]')).toHaveCount(0);
  await expect(page.locator('[data-view="lru-memory"]')).toBeVisible();
  await expect(page.locator('[data-view="lru-residency"]')).toBeVisible();
  await expect(
    page.getByRole('group', { name: 'Kernel tunables' }).getByText('fadvise_dontneed', { exact: true }),
  ).toBeVisible();
  /* the first deactivation (N): fadvise hands a dirty copy page to the inactive list with PG_reclaim */
  await page.keyboard.press('n');
  await expect(page.getByTestId('caption')).toContainText('fadvise');
  /* the backup process only reads and writes: its address space says so, not "yet" */
  await page.locator('[data-view="address"]').getByRole('tab', { name: 'backup' }).click();
  await expect(page.locator('[data-view="address"] .placeholder')).toHaveText(
    'Process backup maps nothing in this scenario.',
  );
  await expect(page.locator('[data-view="lru"] svg[role="img"]')).toHaveAttribute(
    'aria-label',
    /fadvise: dirty, PG_reclaim/,
  );
  await expect(page.getByTestId('lru-row-inactive_file')).toBeVisible();
  await shot(page, info, 'lru-deactivation');
  /* the next reclaim (R): kswapd frees pages from the inactive tail */
  await page.keyboard.press('r');
  await expect(page.getByTestId('lru-kswapd')).toContainText(/kswapd|direct reclaim/);
  /* the scenario's own comparison, one click: 2.6.38's invalidate-only */
  await page.getByTestId('compare-natural').click();
  await expect(page.getByTestId('run-label-b')).toContainText('invalidate-only');
  const a = page.locator('[data-run="a"][data-counter="pgmajfault"]'),
    b = page.locator('[data-run="b"][data-counter="pgmajfault"]');
  await expect(b).not.toHaveText('–', { timeout: 60_000 });
  await page.keyboard.press('End');
  /* the working set read again: from the page cache with 2.6.39, from disk with 2.6.38 */
  await expect(a).toHaveText('0');
  await expect(b).toHaveText('1,536');
  await expect(page.locator('[data-view="lru"] [data-run-view="b"]').getByTestId('lru-row-active_file')).toBeVisible();
  await expect(page.locator('[data-view="lru-residency"] svg[role="img"]')).toHaveAttribute(
    'aria-label',
    /2\.6\.39 \u00b7 fadvise_dontneed deactivate solid against 2\.6\.38 \u00b7 fadvise_dontneed invalidate-only dashed/,
  );
  await shot(page, info, 'lru-compare');
});

test("large folios: step through fork and the child's munmap, and watch the mapcounts change; 6.9 beside 6.10", async ({
  page,
}, info) => {
  await page.goto('/?scenario=large-folios/walkthrough');
  await expect(page.locator('[data-view="folio"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-view="walk"]')).toBeVisible();
  /* before the fork the child is not there yet (not an exited process) */
  const childTab = page.locator('[data-view="address"]').getByRole('tab', { name: /^child/ });
  await expect(childTab).toHaveText('child (not forked yet)');
  await expect(page.locator('[data-view="address"] .placeholder')).toHaveText(
    'Nothing is mapped yet. Step forward to parent\u2019s first mmap.',
  );
  /* rmap operation by rmap operation (O): the two faults' new folios, then fork's first batch */
  const op = page.getByTestId('lf-op');
  for (let i = 0; i < 3; i++) await page.keyboard.press('o');
  await expect(op).toContainText('1 × PTEs copied by fork');
  await expect(childTab).toHaveText('child');
  await expect(op).toContainText('4 _mapcount + 1 _large_mapcount');
  await expect(page.getByTestId('lf-large')).toHaveText('8');
  await expect(page.getByTestId('lf-pages')).toHaveText('2222');
  await expect(page.getByTestId('lf-map-parent')).toContainText('4 PTEs');
  await expect(page.getByTestId('lf-map-child')).toContainText('4 PTEs');
  await expect(page.getByTestId('lf-shared-new')).toContainText('shared');
  await shot(page, info, 'folio-fork');
  /* b's batch, then the child's munmap of a: one batch removed, the child's row gone */
  await page.keyboard.press('o');
  await page.keyboard.press('o');
  await expect(op).toContainText('PTEs removed');
  await expect(page.getByTestId('lf-large')).toHaveText('4');
  await expect(page.getByTestId('lf-pages')).toHaveText('1111');
  /* the THP's PMD remap, further on (V): 512 PTEs where the PMD was, in the walk as well */
  await page.keyboard.press('v');
  await expect(page.getByTestId('lf-nrmapped')).toHaveText('512');
  await expect(page.getByTestId('lf-entire')).toHaveText('0');
  await expect(page.getByTestId('walk-caption')).toContainText('Remapped');
  await expect(page.getByTestId('walk-remapped')).toContainText('remapped: PTE table');
  /* the THP's fault itself (the fault before, to its end): a PMD leaf in the walk */
  await page.keyboard.press('Shift+F');
  await page.keyboard.press('j');
  await expect(page.getByTestId('walk-leaf')).toContainText('leaf: 2 MiB THP, new');
  await expect(page.getByTestId('lf-nrmapped')).toHaveText('ENTIRELY_MAPPED + 0');
  await expect(page.getByTestId('lf-pmd')).toBeVisible();
  await shot(page, info, 'folio-thp');
  /* 6.9 beside it, one click: no _large_mapcount atomics there */
  await page.getByTestId('compare-natural').click();
  await expect(page.getByTestId('run-label-b')).toContainText('large_mapcount false');
  await page.keyboard.press('End');
  await expect(page.locator('[data-run-view="b"]').getByTestId('lf-shared-old')).toContainText('this run');
  await expect(page.locator('[data-run-view="a"]').getByTestId('lf-shared-new')).toContainText('this run');
  await expect(page.locator('[data-run="a"][data-counter="rmap_atomic_large_mapcount"]')).toHaveText('7');
  await expect(page.locator('[data-run="b"][data-counter="rmap_atomic_large_mapcount"]')).toHaveText('0');
  await shot(page, info, 'folio-compare');
});

test("Seed vs model: the letter's stress runs beside the model's, NRS against PRS, each row judged", async ({
  page,
}, info) => {
  /* the LRU group's first scenario is the letter's own experiment */
  await page.goto('/');
  const lru = page.locator('[data-scenario^="lru/"]');
  await expect(lru.first()).toHaveAttribute('data-scenario', 'lru/backup-stress');
  await lru.first().click();
  await expect(page.getByTestId('open-letter')).toBeVisible({ timeout: 30_000 });
  /* its one-click comparison: the same kernel, without the fadvise calls */
  await page.getByTestId('compare-natural').click();
  await expect(page.getByTestId('run-label-a')).toContainText('with fadvise');
  await expect(page.getByTestId('run-label-b')).toContainText('without fadvise');
  await page.getByTestId('stop-compare').click();
  /* Y opens the letter's table; the worker runs one scenario per column */
  await page.keyboard.press('y');
  const table = page.getByTestId('letter-table');
  await expect(table).toBeVisible({ timeout: 60_000 });
  const scan = table.locator('tbody', { hasText: 'pgscan_kswapd_normal + pgscan_kswapd_high' });
  await expect(scan.locator('.verdict')).toHaveText('✓ agrees');
  await expect(scan).toContainText('NRS → PRS');
  await expect(scan).toContainText('-45.77%');
  /* a row that differs says why; one the model cannot compute says what it counts instead */
  await expect(table.locator('tbody', { hasText: 'nr_vmscan_write' })).toContainText('never meets a dirty page');
  await expect(table.locator('tbody', { hasText: 'Elapsed time' })).toContainText('The model counts instead');
  await shot(page, info, 'letter-lru');
  await page.keyboard.press('y');
  await expect(table).toHaveCount(0);
});

test('large folios: one click sweeps the folio order and charts the rmap atomics of 6.10 beside 6.9', async ({
  page,
}, info) => {
  await page.goto('/?scenario=large-folios/fork');
  await expect(page.getByTestId('open-sweep')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('open-sweep').click();
  await expect(page).toHaveURL(/sweep=mthp/);
  await expect(page).toHaveURL(/versus=large_mapcount%3Dfalse|versus=large_mapcount=false/);
  await expect(page.getByTestId('sweep-status')).toContainText('Done: 7 runs', { timeout: 60_000 });
  await expect(page.getByTestId('sweep-y')).toHaveValue('rmap_atomics');
  /* two model series, named by the tunable they differ in: 14 points drawn */
  await expect(page.locator('[data-testid="sweep-panel"] [data-sweep-point]')).toHaveCount(14);
  await expect(page.getByTestId('sweep-panel')).toContainText('large_mapcount false');
  await expect(page.getByTestId('sweep-letter')).toContainText('fork(), order 2');
  await shot(page, info, 'folio-sweep');
});

test('anticipatory prefault: turn it on, step, and watch the batch grow 1, 2, 4, 8, 14', async ({ page }, info) => {
  /* the sequential scenario with prefault off, turned on from its quick tunable */
  await page.goto('/?scenario=prefault/sequential&set=anon_prefault=off');
  await expect(page.locator('[data-view="prefault"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('pf')).toContainText('Prefault off');
  await page.getByRole('group', { name: 'Kernel tunables' }).getByRole('combobox').first().selectOption('anticipatory');
  await expect(page.getByTestId('pf')).toContainText('Prefault on', { timeout: 30_000 });
  /* the last run's frame stays on screen, dimmed and still, while the new one records */
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 30_000 });
  /* the first fault is a miss (I), then each hit (K) maps a bigger batch */
  await page.keyboard.press('i');
  await expect(page.getByTestId('pf-batch-app.0')).toContainText('missed');
  for (const [pages, next] of [
    [2, 3],
    [4, 7],
    [8, 15],
    [14, 29],
    [14, 43],
  ]) {
    await page.keyboard.press('k');
    await expect(page.getByTestId('pf-batch-app.0')).toContainText(`${pages} pages at heap page`);
    await expect(page.getByTestId('pf-next-app.0')).toHaveText(`heap page ${next}`);
  }
  await expect(page.getByTestId('pf-batch-app.0')).toContainText('ended by the cap');
  await page.keyboard.press('j');
  await expect(page.locator('[data-view="address"]')).toContainText('predicted: a batch of 14, next at page 43');
  await shot(page, info, 'prefault-batch');
  /* the whole run: 18,947 traps */
  await page.keyboard.press('End');
  await expect(page.getByTestId('value-pgfault')).toHaveText('18,947');
  /* compared with THP: 512 faults of 512 pages */
  await page.goto('/?scenario=prefault/today-thp');
  await expect(page.locator('[data-view="prefault-pages"]')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('compare-natural').click();
  await expect(page.locator('[data-run="b"][data-counter="pgfault"]')).not.toHaveText('–', { timeout: 60_000 });
  await page.keyboard.press('End');
  await expect(page.locator('[data-run="a"][data-counter="pgfault"]')).toHaveText('18,947');
  await expect(page.locator('[data-run="b"][data-counter="pgfault"]')).toHaveText('512');
  await expect(page.locator('[data-view="prefault-pages"] .pf-legend')).toContainText(
    '512 faults, up to 512 pages each',
  );
  await shot(page, info, 'prefault-thp');
});
