// Every shipped scenario from its link to its final state in headless
// Chromium (the production build, served on localhost): a fresh page at
// ?scenario=NAME&cursor=end, timed from navigation to the first view drawn and
// to the cursor at the run's end (the last event, or a big run's final state),
// by the page's own clock (watchBoot below).
// Used by npm run bench (scripts/bench.mjs); alone, with a server running:
//
//   node scripts/measure-scenarios.mjs [BASE_URL]      (default http://127.0.0.1:4179)
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './setup.mjs';

/** the shipped scenarios' route names (scenarios/<group>/.../<name>.yaml, tours left out) */
export function shippedScenarios() {
  const dir = join(root, 'scenarios');
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('.tour.yaml'))
    .map((f) => relative(dir, join(dir, f)).replace(/\.(ya?ml|json)$/, ''))
    .sort();
}

/*
 * Installed in the page before its own scripts: a MutationObserver that notes when the first view is in the
 * DOM and when the cursor first reads the run's end, each as the time of the next animation frame (the
 * frame that paints it), ms from navigation. Playwright's own waiting polls from outside the page and adds
 * its round trips: on this machine it saw the view 30-430 ms after the page had drawn it.
 */
function watchBoot() {
  const seen = { longest: 0, after: 0 };
  window.__mmplayMeasure = seen;
  /* the main thread's longest task until the final state (Long Tasks API: tasks of 50 ms and more) */
  try {
    new PerformanceObserver((list) => {
      if (typeof seen.final === 'number') return;
      for (const e of list.getEntries()) {
        seen.longest = Math.max(seen.longest, e.duration);
        /* a task that starts once a view is on screen: the page can be used then */
        if (seen.firstAt !== undefined && e.startTime >= seen.firstAt) seen.after = Math.max(seen.after, e.duration);
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    seen.longest = null;
    seen.after = null;
  }
  const atFrame = (k) => requestAnimationFrame(() => (seen[k] = performance.now()));
  const atEnd = () => {
    const t = document.querySelector('[data-testid="cursor"]')?.textContent ?? '';
    if (t.includes('final state')) return true;
    const m = /event ([\d,]+) \/ ([\d,]+)/.exec(t);
    return !!m && m[1] === m[2] && !t.includes('recording');
  };
  const mo = new MutationObserver(() => {
    if (!('first' in seen) && document.querySelector('[data-view]')) {
      atFrame('first');
      seen.first = null;
      seen.firstAt = performance.now();
    }
    /* after the first view: before the run is in, the cursor reads "event 0 / 0" */
    if ('first' in seen && !('final' in seen) && atEnd()) {
      atFrame('final');
      seen.final = null;
      mo.disconnect();
    }
  });
  document.addEventListener('DOMContentLoaded', () =>
    mo.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true }),
  );
}

/** each scenario's first view and final state, ms from navigation (null: not within the wait) */
export async function measureScenarios(browser, base, names = shippedScenarios()) {
  const out = [];
  for (const name of names) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await ctx.newPage();
    await page.addInitScript(watchBoot);
    let first = null,
      final = null,
      longest = null,
      after = null,
      error = null,
      marks = {};
    try {
      await page.goto(`${base}/?scenario=${name}&cursor=end`);
      await page.waitForFunction(() => typeof window.__mmplayMeasure?.final === 'number', null, {
        timeout: 60_000,
        polling: 100,
      });
      ({ first, final, longest, after } = await page.evaluate(() => window.__mmplayMeasure));
      /* the boot's marks (web/src/main.tsx, engine/client.ts): the page's modules, the worker, the run */
      marks = await page.evaluate(() =>
        Object.fromEntries(
          performance
            .getEntriesByType('mark')
            .filter((m) => m.name.startsWith('mmplay:'))
            .map((m) => [m.name.slice(7), m.startTime]),
        ),
      );
    } catch (e) {
      error = String(e.message ?? e).split('\n')[0];
    }
    out.push({ name, first, final, longest, after, error, marks });
    await ctx.close();
  }
  return out;
}

/** the main thread's longest task while each page loaded (how many over 100 ms, the median, the worst), then of those once a view showed: the report's lines */
function longestLines(rows) {
  const l = rows.filter((r) => typeof r.longest === 'number').sort((a, b) => a.longest - b.longest);
  if (!l.length) return ['    the longest main-thread task while loading: not measured (no Long Tasks API)'];
  const worst = l[l.length - 1];
  const a = rows.filter((r) => typeof r.after === 'number').sort((x, y) => x.after - y.after);
  return [
    `    the longest main-thread task while loading (to the final state): over 100 ms in ${l.filter((r) => r.longest > 100).length} of ${l.length}; median ${Math.round(l[l.length >> 1].longest)} ms, worst ${Math.round(worst.longest)} ms (${worst.name})`,
    `      of those starting once a view was on screen (the page in use): over 100 ms in ${a.filter((r) => r.after > 100).length} of ${a.length}; worst ${Math.round(a[a.length - 1]?.after ?? 0)} ms (${a[a.length - 1]?.name ?? '-'})`,
  ];
}

/** the report's lines: how many within 1 s, and the slowest */
export function scenarioReport(rows, slowest = 8) {
  const done = rows.filter((r) => r.final !== null);
  const within = done.filter((r) => r.final < 1000).length;
  const firstWithin = rows.filter((r) => r.first !== null && r.first < 300).length;
  const lines = [
    `  every shipped scenario from its link (?scenario=NAME&cursor=end), a fresh page each: ${rows.length} scenarios`,
    `    final state within 1 s: ${within} of ${rows.length}; first view within 300 ms: ${firstWithin} of ${rows.length}`,
  ];
  const med = (k) => {
    const v = rows
      .map((r) => r.marks?.[k])
      .filter((x) => typeof x === 'number')
      .sort((a, b) => a - b);
    return v.length ? `${Math.round(v[v.length >> 1])} ms` : '-';
  };
  lines.push(
    ...longestLines(rows),
    `    where the time goes (medians, ms from navigation): the page's modules evaluated ${med('boot')}, the worker asked for ${med('worker-start')}, its wasm ready ${med('ready')}, the scenario compiled ${med('prepared')}, recorded ${med('loaded')}, its first frame ${med('frame')}`,
    `    the slowest to the final state (first view, final state, ms from navigation):`,
  );
  for (const r of [...rows].sort((a, b) => (b.final ?? Infinity) - (a.final ?? Infinity)).slice(0, slowest))
    lines.push(
      `      ${r.name.padEnd(44)} ${String(r.first === null ? '-' : Math.round(r.first)).padStart(6)} ${String(r.final === null ? `- (${r.error})` : Math.round(r.final)).padStart(6)}`,
    );
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const base = process.argv[2] ?? 'http://127.0.0.1:4179';
  const { chromium } = await import('@playwright/test');
  const { execSync } = await import('node:child_process');
  const browser = await chromium.launch({
    executablePath: execSync('command -v chromium', { encoding: 'utf8' }).trim(),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const l of scenarioReport(await measureScenarios(browser, base), 100)) console.log(l);
  } finally {
    await browser.close();
  }
}
