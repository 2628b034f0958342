/**
 * Kernel versions as a setting, in the browser: a seed scenario names its seed's kernel and offers today's
 * beside it in one click; the runs are labelled by their versions; a link can set the version; the end
 * state follows each version's rules (the VMA cache 3.15 added is gone from 6.1 on).
 */
import { expect, test } from '@playwright/test';
import { failOnPageProblems } from './problems.js';

failOnPageProblems();

const ready = '[data-testid=views][data-ready]';

test("a seed scenario beside today's kernel: one click, runs named by version, each by its own rules", async ({
  page,
}) => {
  await page.goto('/?scenario=vma-cache/ebizzy');
  await expect(page.locator(ready)).toHaveCount(1, { timeout: 60_000 });
  const today = page.getByTestId('compare-today');
  await expect(today).toHaveText('Today: 6.18');
  await today.click();
  await expect(page.getByTestId('run-label-a')).toHaveText('A 3.15');
  await expect(page.getByTestId('run-label-b')).toHaveText('B 6.18');
  await expect(page).toHaveURL(/compare=version%3D6\.18/);
  /* at the end: 3.15's per-thread cache hits, 6.18 has no cache to hit */
  await page.keyboard.press('End');
  const hits = page.locator('[data-counter=vmacache_find_hits]');
  await expect(hits.first()).toBeVisible();
  const value = async (run: string) =>
    Number(await page.locator(`[data-run=${run}][data-counter=vmacache_find_hits]`).first().getAttribute('data-value'));
  /* both runs at their end (the counters move from 0 while the cursor travels there) */
  await expect
    .poll(async () => ({ aHits: (await value('a')) > 1000, b: await value('b') }))
    .toEqual({
      aHits: true,
      b: 0,
    });
});

test('a link sets the version; a scenario already at 6.18 offers no "today"', async ({ page }) => {
  await page.goto('/?scenario=fault-around/sequential&set=version%3D6.18');
  await expect(page.locator(ready)).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('compare-today')).toHaveCount(0);
  await page.getByTestId('compare-natural').click();
  /* both runs 6.18: named by what differs, the fault-around window, not by a kernel */
  await expect(page.getByTestId('run-label-a')).toContainText('fault_around_bytes 64 KiB');
  await expect(page.getByTestId('run-label-b')).toContainText('fault_around_bytes 4 KiB');
});

test('a version the model does not have is refused, naming the key', async ({ page }) => {
  await page.goto('/?scenario=fault-around/sequential&set=version%3D5.4');
  await expect(page.getByTestId('toast').or(page.getByTestId('error-banner')).first()).toContainText('version');
});

test("a seed's own comparison is named by the kernel it stands for", async ({ page }) => {
  await page.goto('/?scenario=lru/backup');
  await expect(page.locator(ready)).toHaveCount(1, { timeout: 60_000 });
  /* fadvise_dontneed: invalidate-only is 2.6.38's rule: the button says so, its label says all */
  await expect(page.getByTestId('compare-natural')).toHaveText('Compare with 2.6.38');
  await expect(page.getByTestId('compare-natural')).toHaveAttribute(
    'aria-label',
    /2\.6\.38 · fadvise_dontneed invalidate-only/,
  );
  await expect(page.getByTestId('compare-today')).toHaveText('Today: 6.18');
});
