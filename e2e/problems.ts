/**
 * Every browser test fails on a console error, an uncaught exception or a
 * dialog (scenario text must never open one). Call once at the top of a spec.
 */
import { expect, test, type Page } from '@playwright/test';

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

/**
 * Text on screen smaller than 18 px (what a room reads on a 1280x720 projector), as "13px text.vc-axis
 * 'heap2'": every text node in the window, an SVG label at its size on screen (its font size times the
 * drawing's scale). Canvas labels are drawn at the same size by the code (AddressSpace's labelPx).
 */
export async function smallText(page: Page, min = 18): Promise<string[]> {
  return page.evaluate((min) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.trim()) continue;
      const el = n.parentElement!;
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height || r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth)
        continue;
      if (getComputedStyle(el).visibility === 'hidden' || el.closest('.visually-hidden')) continue;
      let px = Number.parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGGraphicsElement) px *= el.getScreenCTM()?.a ?? 1;
      if (px < min - 0.05)
        out.push(
          `${px.toFixed(1)}px ${el.tagName.toLowerCase()}.${[...el.classList].join('.')} '${n.textContent.trim().slice(0, 24)}'`,
        );
    }
    return out;
  }, min);
}
