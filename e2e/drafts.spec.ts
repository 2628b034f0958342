/**
 * Nothing a user typed is lost: the editor's text not yet run, valid or not, is in the address
 * (`#draft=`, deflated), so a reload, Back and Forward, and a new tab on the copied link each bring it back
 * into the editor; an edited scenario keeps its group's views after a reload.
 */
import { expect, test } from '@playwright/test';
import { failOnPageProblems } from './problems.js';

failOnPageProblems();

const BROKEN = `name: my draft
files:
  data: { size: 1MiB, cached: all }
processes:
  app: {}
steps:
  - mmap: { task: app, name: m, file: data, prot: read }
  - access: { task: app, map: m, op: reed }
`;

test('an edit not yet run, even one with an error, survives a reload, Back and a new tab', async ({
  page,
  context,
}) => {
  await page.goto('/?scenario=fault-around/sequential');
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
  await page.getByTestId('open-editor').click();
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(BROKEN);
  await expect(page.getByTestId('editor-errors')).toContainText('line 8');
  await expect(page).toHaveURL(/#draft=/);
  const text = () => page.locator('.cm-content').innerText();
  /* a reload: the editor is open again, with the text and its error */
  await page.reload();
  await expect(page.locator('.cm-content')).toBeVisible();
  expect(await text()).toContain('op: reed }');
  await expect(page.getByTestId('editor-errors')).toContainText('line 8');
  /* Back to the gallery, then Forward: still there */
  const link = page.url();
  await page.goBack();
  await page.goForward();
  await expect(page.locator('.cm-content')).toBeVisible();
  expect(await text()).toContain('name: my draft');
  /* a new tab on the copied link */
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.locator('.cm-content')).toBeVisible();
  expect(await other.locator('.cm-content').innerText()).toContain('op: reed }');
  await other.close();
});

test("an edited scenario keeps its mechanism's views after a reload", async ({ page }) => {
  await page.goto('/?scenario=vma-cache/ebizzy');
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
  await page.getByTestId('open-editor').click();
  await page
    .locator('.cm-line', { hasText: /^name:/ })
    .first()
    .click();
  await page.keyboard.press('End');
  await page.keyboard.insertText(' (mine)');
  await page.getByTestId('run-edited').click();
  await expect(page.getByTestId('scenario-title')).toContainText('(mine)');
  await expect(page).toHaveURL(/scenario=vma-cache%2Febizzy.*#src=/);
  await page.reload();
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.locator('[data-view="vmacache"]')).toBeVisible();
});
