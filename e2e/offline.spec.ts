/**
 * The offline playground: web/dist/mmplay-offline.html (scripts/build-offline.mjs,
 * built by npm run build and by npm test's production build stage; this spec
 * builds nothing) opened from disk, as a double click does: a file:// page
 * (origin null), the browser offline. The page, the engine worker (a Blob URL)
 * and the wasm all come from the one file: nothing may go to the network.
 */
import { expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { failOnPageProblems } from './problems.js';

const OFFLINE = new URL('../web/dist/mmplay-offline.html', import.meta.url);

failOnPageProblems();

test.describe('opened from disk', () => {
  test.use({ offline: true });

  test('the single-file build works from file:// with no network', async ({ page }) => {
    expect(existsSync(fileURLToPath(OFFLINE)), `${fileURLToPath(OFFLINE)} exists (npm run build makes it)`).toBe(true);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));

    await page.goto(OFFLINE.href);
    await expect(page.getByRole('heading', { name: 'Fault-around' })).toBeVisible();
    await expect(page.locator('.card').first()).toContainText('Sequential read of a cached file');

    await page.locator('[data-scenario="fault-around/sequential"]').click();
    await expect(page.locator('[data-view="address"]')).toBeVisible();
    await expect(page.getByTestId('scenario-title')).toHaveText('Sequential read of a cached file');
    await expect(page.getByTestId('cursor')).toHaveText(/^event 0 \/ [1-9]/);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('cursor')).toHaveText(/^event 3 \//);
    await page.keyboard.press('End');
    await expect(page.getByTestId('value-pgfault')).toHaveText('256');
    expect(page.url()).toMatch(/^file:\/\/.*\/mmplay-offline\.html/);

    /* the editor, a lazy chunk in the served build, is inline here */
    await page.getByTestId('open-editor').click();
    await expect(page.locator('.cm-content')).toBeVisible();

    expect(requests.length).toBeGreaterThan(0);
    expect(
      requests.filter((u) => !/^(file|data|blob):/.test(u)),
      'requests other than file:, data: and blob:',
    ).toEqual([]);
  });
});

test('the same file works from a static server', async ({ page }) => {
  await page.goto('/mmplay-offline.html?scenario=fault-around/sequential');
  await expect(page.locator('[data-view="address"]')).toBeVisible();
  await expect(page.getByTestId('cursor')).toHaveText(/^event 0 \/ [1-9]/);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('cursor')).toHaveText(/^event 1 \//);
});
