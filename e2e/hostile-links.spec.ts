/**
 * Hostile share links in Chromium, the light ones: each is refused or runs at once, says what is wrong,
 * never renders scenario text as HTML, and the page runs no task of 100 ms meanwhile. They run beside the
 * one other browser: their longest task 0 ms and their heartbeat gaps 10-113 ms (27 measurements, four
 * whole runs; with three browsers on the two cores one task stretched to 158 ms). The heavy ones, whose
 * figures sit near their bounds, run alone in hostile.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { compressSource } from '../web/src/store/compress.js';
import { failOnPageProblems } from './problems.js';
import { expectResponsive, resetHealth, watchResponsiveness } from './responsive.js';

failOnPageProblems();
watchResponsiveness();

const hostile = (f: string) => readFileSync(`wasm-core/test/hostile/${f}`, 'utf8');

const LINKS: { what: string; url: () => string; expect: RegExp; ask?: boolean }[] = [
  {
    what: 'empty repeats nested to 10¹⁸',
    url: () => `/#src=${compressSource(hostile('repeats-nested-empty.yaml'))}`,
    expect: /needs about 1 × 10¹⁸ operations/,
    ask: true,
  },
  {
    what: 'a 16 TiB mapping touched at both ends',
    url: () => `/#src=${compressSource(hostile('sizes-16tib-anon.yaml'))}`,
    expect: /./,
  },
  {
    what: 'kernel: {constructor: 1}',
    url: () => `/#src=${compressSource('name: x\nkernel: {constructor: 1}\nprocesses: {app: {}}\nsteps: []\n')}`,
    expect: /unknown key 'constructor'/,
  },
  {
    what: 'set=constructor=1',
    url: () => '/?scenario=fault-around/sequential&set=constructor=1',
    expect: /unknown tunable 'constructor'/,
  },
  {
    what: 'set=__proto__=1',
    url: () => '/?scenario=fault-around/sequential&set=__proto__=1',
    expect: /unknown tunable '__proto__'/,
  },
  {
    what: '999 forks of a 1 GiB process',
    url: () => `/#src=${compressSource(hostile('scale-forks.yaml'))}`,
    expect: /999 fork steps/,
    ask: true,
  },
  {
    what: 'nesting that overflowed the parser',
    url: () => `/#src=${compressSource(hostile('yaml-deep-flow.yaml'))}`,
    expect: /nested more than 64 deep/,
  },
  {
    what: 'a billion laughs',
    url: () => `/#src=${compressSource(hostile('yaml-billion-laughs.yaml'))}`,
    expect: /YAML aliases/,
  },
];

for (const l of LINKS)
  test(`hostile link: ${l.what}`, async ({ page }) => {
    await page.goto(l.url());
    /* from the first paint of the player on (starting the app is not the link's doing) */
    await expect(page.locator('[data-testid="scenario-title"], [data-testid="error-banner"]').first()).toBeVisible();
    await resetHealth(page);
    const shown = page
      .locator('[data-testid="error-banner"], [data-view="address"], [data-testid="run-error"]')
      .first();
    await expect(shown).toBeVisible();
    if (l.expect.source !== '.') await expect(page.getByTestId('error-banner')).toContainText(l.expect);
    if (l.ask) await expect(page.getByTestId('limit-ask').getByRole('button', { name: 'Run anyway' })).toBeVisible();
    await page.waitForTimeout(300);
    await expectResponsive(page, l.what);
  });

test('a link that inflates past the limit is refused without inflating it', async ({ page }) => {
  const bomb = compressSource(`name: bomb\nsteps: []\n# ${'x'.repeat(200 * 2 ** 20)}\n`);
  expect(bomb.length).toBeLessThan(400_000);
  await page.goto(`/#src=${bomb}`);
  await expect(
    page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'more than 16 MiB' }).first(),
  ).toBeVisible();
  await resetHealth(page);
  await page.waitForTimeout(300);
  await expectResponsive(page, 'the bomb');
});

test('scenario text is never HTML', async ({ page }) => {
  await page.goto(`/#src=${compressSource(hostile('text-html.yaml'))}`);
  await expect(page.getByTestId('scenario-title')).toContainText('<img src=x onerror=alert(1)>');
  const injected = await page
    .locator('img[src="x"], iframe, body script')
    .evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 120)));
  expect(injected).toEqual([]);
  await page.keyboard.press('End');
  await expect(page.locator('body')).toContainText('<iframe src=javascript:alert(1)></iframe>');
  expect(await page.locator('iframe').count()).toBe(0);
});
