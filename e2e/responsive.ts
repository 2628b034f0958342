/**
 * The page's responsiveness while a hostile or big scenario arrives: a 10 ms heartbeat on the page and
 * Chromium's long-task entries, reset after the first paint. watchResponsiveness() in a spec installs the
 * meters before each test; expectResponsive() judges them.
 */
import { expect, test, type Page } from '@playwright/test';

export function watchResponsiveness(): void {
  test.beforeEach(async ({ page }) => {
    /* the main thread's health: the longest gap between 10 ms heartbeats, and long tasks */
    await page.addInitScript(() => {
      const w = window as unknown as { __gap: number; __long: number; __last: number; __since: number };
      w.__gap = 0;
      w.__long = 0;
      w.__last = performance.now();
      w.__since = 0;
      setInterval(() => {
        const now = performance.now();
        if (document.visibilityState === 'visible') w.__gap = Math.max(w.__gap, now - w.__last);
        w.__last = now;
      }, 10);
      try {
        /* entries arrive late: count only tasks that started after the last reset */
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) if (e.startTime >= w.__since) w.__long = Math.max(w.__long, e.duration);
        }).observe({ type: 'longtask', buffered: true });
      } catch {
        /* no long-task API */
      }
    });
  });
}

/** the main thread's worst stall since load, ms: [heartbeat gap, longest task] */
async function health(page: Page): Promise<[number, number]> {
  return page.evaluate(() => {
    const w = window as unknown as { __gap: number; __long: number };
    return [Math.round(w.__gap), Math.round(w.__long)] as [number, number];
  });
}

/** reset the meters after the first paint (loading the bundle is not the link's doing) */
export async function resetHealth(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __gap: number; __long: number; __last: number; __since: number };
    w.__gap = 0;
    w.__long = 0;
    w.__last = performance.now();
    w.__since = performance.now();
  });
}

/**
 * The page answers within `answers` ms throughout: no task of the page's main thread (Chromium's
 * long-task entries, which count every task over 50 ms) lasts that long. The heartbeat is a cruder
 * check of any stall at all (GC, the renderer): on this 2-core machine it shows gaps of 50-120 ms
 * while no task runs over 50 ms (timer batching next to a busy worker), so it is bounded at 300 ms.
 */
export async function expectResponsive(page: Page, what: string, answers = 100) {
  const [gap, long] = await health(page);
  console.log(`responsiveness: ${what}: longest task ${long} ms, longest heartbeat gap ${gap} ms`);
  expect(long, `${what}: no main-thread task of ${answers} ms or more`).toBeLessThan(answers);
  expect(gap, `${what}: no stall of 300 ms`).toBeLessThan(300);
}
