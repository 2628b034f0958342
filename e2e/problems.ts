/**
 * Every browser test fails on a console error, an uncaught exception or a
 * dialog (scenario text must never open one). Call once at the top of a spec.
 */
import { expect, test } from '@playwright/test';

export function failOnPageProblems(): void {
  let problems: string[] = [];
  test.beforeEach(async ({ page }) => {
    problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`a dialog opened: ${d.message()}`);
      void d.dismiss();
    });
  });
  test.afterEach(async () => {
    expect(problems, 'no console errors, exceptions or dialogs on the page').toEqual([]);
  });
}
