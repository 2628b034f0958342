/**
 * Every browser test fails on a console error, an uncaught exception or a
 * dialog (scenario text must never open one). Call once at the top of a spec.
 */
import AxeBuilder from '@axe-core/playwright';
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

/**
 * What a projector would show broken, as sentences: a panel's content squeezed to nothing (a list or a view
 * under 24 px high with more to show), a button or a figure off the window, two SVG labels drawn over each
 * other (more than 3 px both ways). Read from the page as it stands; [] when it looks whole.
 */
export async function brokenLayout(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const name = (el: Element) =>
      `${el.closest('[data-view]')?.getAttribute('data-view') ?? ''} ${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`.trim();
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    };
    /* squeezed: a view's own box (a list, a drawing) under 24 px with content to show */
    for (const el of document.querySelectorAll('.panel-body, .panel-body > *, .ab-run > *')) {
      if (!shown(el) && !(el instanceof HTMLElement && el.offsetWidth > 0)) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 40 && r.height < 24 && el.scrollHeight > 40 && el.textContent?.trim())
        out.push(`squeezed: ${name(el)} is ${Math.round(r.height)} px high for ${el.scrollHeight} px of content`);
    }
    /* an ancestor inside the page that scrolls its content (a view's body or list) and stands in the window:
       what it scrolls away is reached there */
    const inScroller = (el: Element) => {
      for (let a = el.parentElement; a && !a.classList.contains('app'); a = a.parentElement) {
        const o = getComputedStyle(a).overflowY;
        if ((o !== 'auto' && o !== 'scroll') || a.scrollHeight <= a.clientHeight) continue;
        const box = a.getBoundingClientRect();
        if (box.bottom <= innerHeight + 1 && box.right <= innerWidth + 1 && box.left >= -1) return true;
      }
      return false;
    };
    /* off the window: a control or a figure the audience or the speaker cannot see whole (a control scrolled
       away inside a view's list is not: the list is on screen, and scrolls) */
    for (const el of document.querySelectorAll('button, select, input, [data-counter]')) {
      if (!shown(el) || el.closest('.visually-hidden, [hidden], dialog:not([open])')) continue;
      if (inScroller(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.right > innerWidth + 1 || r.bottom > innerHeight + 1 || r.left < -1)
        out.push(
          `off the window: ${name(el)} '${(el.textContent ?? '').trim().slice(0, 20)}' at ${Math.round(r.left)}–${Math.round(r.right)} × ${Math.round(r.top)}–${Math.round(r.bottom)}`,
        );
    }
    /* a VMA strip's chips and gaps side by side, never over each other */
    for (const strip of document.querySelectorAll('.as-strip')) {
      const kids = [...strip.children].flatMap((c) =>
        getComputedStyle(c).display === 'contents' ? [...c.children] : [c],
      );
      const boxes = kids.filter(shown).map((k) => ({ k, r: k.getBoundingClientRect() }));
      for (let i = 1; i < boxes.length; i++)
        if (boxes[i].r.left < boxes[i - 1].r.right - 2)
          out.push(
            `over each other in the VMA strip: '${(boxes[i - 1].k.textContent ?? '').trim().slice(0, 16)}' and '${(boxes[i].k.textContent ?? '').trim().slice(0, 16)}'`,
          );
      /* and each one's text inside it */
      for (const { k } of boxes)
        if (
          k instanceof HTMLElement &&
          k.scrollWidth > k.clientWidth + 2 &&
          getComputedStyle(k).overflowX === 'visible'
        )
          out.push(`text out of its box in the VMA strip: '${(k.textContent ?? '').trim().slice(0, 24)}'`);
    }
    /* SVG labels over each other, within one drawing */
    for (const svg of document.querySelectorAll('svg')) {
      if (!shown(svg)) continue;
      const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent?.trim() && shown(t));
      const boxes = texts.map((t) => t.getBoundingClientRect());
      for (let i = 0; i < texts.length; i++)
        for (let j = i + 1; j < texts.length; j++) {
          const a = boxes[i],
            b = boxes[j];
          const ox = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (ox > 3 && oy > 3)
            out.push(
              `labels over each other in ${name(svg)}: '${texts[i].textContent!.trim().slice(0, 16)}' and '${texts[j].textContent!.trim().slice(0, 16)}'`,
            );
        }
    }
    return [...new Set(out)];
  });
}

/**
 * axe-core's violations on the page, as "rule (nodes): the first three targets": under the given rules, or
 * the given tags, or every rule. Only violations are worked out in full (resultTypes): the passes' node
 * details, which no test reads, took a quarter of a run (2.5 s -> 2.0 s on a comparison of 2,800 nodes).
 */
export async function axeViolations(page: Page, only: { tags?: string[]; rules?: string[] } = {}): Promise<string[]> {
  const runOnly = only.rules
    ? { type: 'rule' as const, values: only.rules }
    : only.tags
      ? { type: 'tag' as const, values: only.tags }
      : undefined;
  const r = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'], ...(runOnly ? { runOnly } : {}) })
    .analyze();
  return r.violations.map(
    (v) =>
      `${v.id} (${v.nodes.length}): ${v.help}: ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
}
