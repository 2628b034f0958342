/**
 * The player on stage: panels that never move while stepping or playing, a
 * keyboard that works after any control was used, Ctrl+Enter in the editor,
 * zero axe-core violations, presenter mode, embeds, exports, and a reload
 * while playing. Screenshots of presenter mode and of an embed go to
 * test-results/screenshots/ (the README shows the presenter one).
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { axeViolations, brokenLayout, failOnPageProblems, smallText } from './problems.js';

const SHOTS = 'test-results/screenshots';
mkdirSync(SHOTS, { recursive: true });
failOnPageProblems();

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
];

async function shot(page: Page, info: TestInfo, name: string) {
  const path = `${SHOTS}/${name}.png`;
  await page.screenshot({ path });
  await info.attach(name, { path, contentType: 'image/png' });
}

async function open(page: Page, query: string, theme: 'light' | 'dark' = 'light') {
  await page.goto(`/?${query}&theme=${theme}`);
  await expect(page.locator('[data-view="address"]').first()).toBeVisible();
  await expect(page.getByTestId('cursor')).toHaveText(/^event /);
}

const cursorOf = async (page: Page) =>
  Number((await page.getByTestId('cursor').textContent())!.match(/event ([\d,]+)/)![1].replace(/,/g, ''));

/** where every panel and bar is, to the pixel */
function boxes(page: Page): Promise<Record<string, [number, number, number, number]>> {
  return page.evaluate(() => {
    const out: Record<string, [number, number, number, number]> = {};
    const sel =
      '.caption, .transport, .figures, .quick, .comparebar, [data-view], [data-view] .panel-body, .as-canvas-wrap, .legend, .as-foot';
    /* keyed by what the element is (its view, its class), not by its place in the document */
    const seen = new Map<string, number>();
    document.querySelectorAll(sel).forEach((el) => {
      const r = el.getBoundingClientRect();
      const scroller = document.querySelector('.app');
      const y = r.y + (scroller?.scrollTop ?? 0);
      const name = `${(el.closest('[data-view]') as HTMLElement | null)?.dataset.view ?? ''}:${el.className}`;
      const n = seen.get(name) ?? 0;
      seen.set(name, n + 1);
      out[`${name}#${n}`] = [Math.round(r.x), Math.round(y), Math.round(r.width), Math.round(r.height)];
    });
    return out;
  });
}

/** what moved by more than 2 px; a panel, bar or caption may not appear or disappear either (what is drawn inside a view may) */
function moved(a: Record<string, number[]>, b: Record<string, number[]>): string[] {
  const out: string[] = [];
  const fixed = (k: string) => /:(panel|caption|transport|figures|quick|comparebar)\b/.test(k);
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!a[k] || !b[k]) {
      if (fixed(k)) out.push(`${k} ${a[k] ? 'disappeared' : 'appeared'}`);
      continue;
    }
    if (a[k].some((v, i) => Math.abs(v - b[k][i]) > 2)) out.push(`${k}: ${a[k].join(',')} -> ${b[k].join(',')}`);
  }
  return out;
}

/*
 * One test per window, both themes in it: 30 steps in the light one, the switch (D), 30 steps in the dark
 * one, then 300 events of play. The themes share their DOM and sizes, so that a test per theme loaded and
 * recorded the same page twice to look at the same boxes.
 */
for (const size of SIZES)
  test(`no panel moves in 60 steps, a theme switch and 300 events of play, ${size.width}x${size.height}`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await open(page, 'scenario=fault-around/sequential', 'light');
    const first = await boxes(page);
    for (let i = 1; i <= 60; i++) {
      if (i === 31) {
        await page.keyboard.press('d');
        await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
        expect(moved(first, await boxes(page)), 'after the switch to the dark theme').toEqual([]);
      }
      await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('cursor')).toHaveText(new RegExp(`^event ${i} /`));
      expect(moved(first, await boxes(page)), `after step ${i}`).toEqual([]);
    }
    /* events 60 to 360 played (what 10 s at the default 30 events/s play), at 100 events/s, every 50 ms looked at */
    await page.locator('#speed').selectOption('100');
    await page.keyboard.press(' ');
    await expect(page.getByTestId('play')).toContainText('Pause');
    const until = Date.now() + 30_000;
    let at = await cursorOf(page);
    while (at < 360 && Date.now() < until) {
      expect(moved(first, await boxes(page)), `while playing, at event ${at}`).toEqual([]);
      await page.waitForTimeout(50);
      at = await cursorOf(page);
    }
    await page.keyboard.press(' ');
    expect(at).toBeGreaterThanOrEqual(360);
  });

/**
 * A mechanism's views on stage: open the scenario at a size and theme, step 40 events, then press its
 * jump keys; no panel may move at any point. Returns the first boxes, for a caller's further checks.
 */
async function holdsStill(
  page: Page,
  size: { width: number; height: number },
  theme: 'light' | 'dark',
  scenario: string,
  view: string,
  keys: string[],
  more: string[] = [],
) {
  await page.setViewportSize(size);
  /* a short window shows two views unless they are chosen: choose the mechanism's, the address space and more */
  const chosen = [view, 'address', ...more].join(',');
  await open(page, `scenario=${scenario}${size.height <= 800 ? `&views=${chosen}` : ''}`, theme);
  await expect(page.locator(`[data-view="${view}"]`)).toBeVisible();
  const first = await boxes(page);
  for (let i = 1; i <= 40; i++) {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('cursor')).toHaveText(new RegExp(`^event ${i} /`));
    expect(moved(first, await boxes(page)), `after step ${i}`).toEqual([]);
  }
  for (const k of keys) {
    const c0 = await cursorOf(page);
    await page.keyboard.press(k);
    await expect.poll(() => cursorOf(page), { message: k }).not.toBe(c0);
    expect(moved(first, await boxes(page)), `after ${k}`).toEqual([]);
  }
  /* the address space's foot is whole: its legend ends inside the panel, not under the clip */
  const panel = (await page.locator('[data-view="address"]').boundingBox())!;
  const legend = (await page.locator('[data-view="address"] .legend').boundingBox())!;
  expect(legend.y + legend.height, `${scenario}: the address space's legend inside its panel`).toBeLessThanOrEqual(
    panel.y + panel.height,
  );
  return first;
}

for (const [size, theme] of [
  [SIZES[0], 'light'],
  [SIZES[SIZES.length - 1], 'dark'],
] as const)
  test(`the VMA cache's views do not move either: ebizzy, 40 steps and its jumps, ${size.width}x${size.height} ${theme}`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    /* a miss, the end of its fault, the first flush (after the first munmap), back to a miss */
    await holdsStill(page, size, theme, 'vma-cache/ebizzy', 'vmacache', ['c', 'j', 'h', 'j', 'Shift+C']);
    await axe(page, `the VMA cache (${theme})`);
  });

for (const [size, theme] of [
  [SIZES[0], 'dark'],
  [SIZES[SIZES.length - 1], 'light'],
] as const)
  test(`the LRU's views do not move either: the backup, 40 steps and its jumps, ${size.width}x${size.height} ${theme}`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    /* activation, deactivation (the trays fill), reclaim (kswapd runs), back to an activation; the chart switched */
    const first = await holdsStill(
      page,
      size,
      theme,
      'lru/backup',
      'lru',
      ['u', 'n', 'n', 'r', 'r', 'Shift+U'],
      ['lru-residency'],
    );
    await page.getByTestId('lru-chart-counters').click();
    expect(moved(first, await boxes(page)), 'after charting the counters').toEqual([]);
    await keysWork(page, 'the LRU chart switch');
    await axe(page, `the LRU (${theme})`);
  });

for (const [size, theme] of [
  [SIZES[0], 'light'],
  [SIZES[SIZES.length - 1], 'dark'],
] as const)
  test(`the folio view does not move either: a THP's life, 40 steps and its jumps, ${size.width}x${size.height} ${theme}`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    /* rmap batches, the remaps, the deferred split, back */
    await holdsStill(page, size, theme, 'large-folios/thp', 'folio', ['o', 'o', 'v', 'v', 'q', 'Shift+V']);
    await keysWork(page, 'the folio jumps');
    await axe(page, `the large folios (${theme})`);
  });

for (const [size, theme] of [
  [SIZES[0], 'dark'],
  [SIZES[SIZES.length - 1], 'light'],
] as const)
  test(`the prefault's views do not move either: the threads, 40 steps and its jumps, ${size.width}x${size.height} ${theme}`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    /* hits, back a hit, back to a miss (the four first faults are the only misses) */
    await holdsStill(page, size, theme, 'prefault/threads', 'prefault', ['k', 'k', 'Shift+K', 'Shift+I']);
    await keysWork(page, 'the prefault jumps');
    await axe(page, `the prefault (${theme})`);
  });

/** the player's keys, checked: → steps, F jumps to a fault, Space plays and pauses */
async function keysWork(page: Page, after: string) {
  const c0 = await cursorOf(page);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('cursor'), `→ after ${after}`).toHaveText(
    new RegExp(`^event ${(c0 + 1).toLocaleString('en-US')} /`),
  );
  await page.keyboard.press('f');
  await expect.poll(() => cursorOf(page), { message: `F after ${after}` }).toBeGreaterThan(c0 + 1);
  /* where the focus is when Space goes in: a failure says which element kept it */
  const focused = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el
      ? `${el.tagName.toLowerCase()}${el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ''} ${el.getAttribute('aria-label') ?? ''}`
      : 'none';
  });
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play'), `Space after ${after} (focus on ${focused})`).toContainText('Pause');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play'), `Space after ${after}`).toContainText('Play');
  expect(await page.evaluate(() => document.activeElement?.tagName), `focus after ${after}`).not.toBe('SELECT');
}

/*
 * One page per mechanism, at a moment with something to show (and the prefault with four runs), on a desk and
 * on stage: no view squeezed to nothing, no control off the window, no labels drawn over each other. Each of
 * these was found broken by a look at the screenshots: the folio view at 0 px under the address space at
 * 1280x720, the event log at 0-13 px a run in a comparison at 1920x1080, Exit off a 1280 px stage, the LRU's
 * "deactivate 0" over "rotate 0".
 */
const WHOLE_PAGES = [
  'scenario=fault-around/sequential&cursor=300&compare=fault_around_bytes=4096',
  'scenario=vma-cache/ebizzy&cursor=s6:0.01&compare=vmacache=mm-wide',
  'scenario=lru/backup&cursor=s12:0.5&compare=fadvise_dontneed=invalidate-only',
  'scenario=large-folios/cow-byte&cursor=end',
  /* two runs whose differences are long: at 1280x720 they once took three lines and the page scrolled */
  'scenario=prefault/sequential&cursor=end&compare=anon_prefault=off',
  /* a big run with its letter's actions beside the tunables: its note once scrolled the page at 1280x720 */
  'scenario=fault-around/seed/sequential-16g',
  'scenario=prefault/sequential&cursor=end&compare=anon_prefault=off&c=thp=always&d=mthp=[65536]',
  /* a tunable other than the scenario's own: its expect checks as notes once pushed the views 124 px down */
  'scenario=prefault/sequential&cursor=500&set=anon_prefault=off',
];
/* the four looks every page is checked in: window, theme, presenter mode */
const LOOKS = [
  [SIZES[1], 'light', false],
  [SIZES[1], 'dark', true],
  [SIZES[0], 'dark', false],
  [SIZES[0], 'light', true],
] as const;
type Look = (typeof LOOKS)[number];
const lookName = ([size, theme, present]: Look) =>
  `${size.width}x${size.height} ${theme}${present ? ', presenter' : ''}`;

/** the theme and presenter mode as a user changes them on an open page: the keys D and P */
async function takeLook(page: Page, [size, theme, present]: Look) {
  await page.setViewportSize(size);
  if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.keyboard.press('d');
  if ((await page.locator('.topbar').count()) === (present ? 1 : 0)) await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  await expect(page.locator('.topbar')).toHaveCount(present ? 0 : 1);
}

/** the page's layout problems once they stop changing (a new window size or mode redraws over a frame or two) */
async function settledLayout(page: Page): Promise<string[]> {
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await frames();
  let last = JSON.stringify(await brokenLayout(page));
  for (let i = 0; i < 10; i++) {
    await frames();
    const now = JSON.stringify(await brokenLayout(page));
    if (now === last) break;
    last = now;
  }
  return JSON.parse(last);
}

/*
 * Each page in all four looks, loaded once: opened by its link in one look (a different one from page to
 * page, so that each look is also met fresh), then set to the other three with the window's size and the
 * keys D and P, as a speaker would. Seven tests, so that both workers share them; each page's recordings
 * are made once instead of four times.
 */
WHOLE_PAGES.forEach((q, n) => {
  test(`every view whole, every control on screen, no labels overlapping, in four looks: ${q}`, async ({ page }) => {
    test.setTimeout(120_000);
    const looks = [...LOOKS.slice(n % LOOKS.length), ...LOOKS.slice(0, n % LOOKS.length)];
    const [[size, theme, present]] = looks;
    await page.setViewportSize(size);
    await page.goto(`/?${q}&theme=${theme}${present ? '&present=1' : ''}`);
    const found: string[] = [];
    for (const [k, look] of looks.entries()) {
      /* the first look is the link's (the page sets it as it starts: keys pressed before would undo it) */
      if (k > 0) await takeLook(page, look);
      await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
      /* every run's figures are in (data-ready waits for B, C and D too) */
      await expect(page.locator('[data-counter][data-run]').filter({ hasText: '–' })).toHaveCount(0);
      found.push(...(await settledLayout(page)).map((p) => `${lookName(look)}: ${p}`));
      /* the document, and the player's own box (.app scrolls inside a 100vh window) */
      expect(
        await page.evaluate(() =>
          Math.max(
            document.documentElement.scrollHeight - innerHeight,
            document.querySelector('.app')!.scrollHeight - innerHeight,
          ),
        ),
        `${lookName(look)}: the page scrolls`,
      ).toBeLessThanOrEqual(0);
    }
    expect(found).toEqual([]);
  });
});

test('nothing scrolls while a run is prepared and recorded, 1280x720', async ({ page }) => {
  /* the page's worst overflow, sampled at every DOM change and animation frame until the views are ready */
  await page.addInitScript(() => {
    const w = window as unknown as { worstScroll: number };
    w.worstScroll = 0;
    const sample = () => {
      const app = document.querySelector('.app');
      if (app) w.worstScroll = Math.max(w.worstScroll, app.scrollHeight - innerHeight);
      if (!document.querySelector('[data-testid=views][data-ready]')) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const q of [
    /* "Preparing the machine" once stood 560 px high here: the page scrolled by 180 px until the views came */
    'scenario=lru/backup&cursor=end',
    /* four runs: their progress, once beside their labels, wrapped the bar onto three rows (60 px) */
    'scenario=prefault/sequential&cursor=end&compare=anon_prefault=off&c=thp=always&d=mthp=[65536]',
  ]) {
    await page.goto(`/?${q}`);
    await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
    expect(
      await page.evaluate(() => (window as unknown as { worstScroll: number }).worstScroll),
      q,
    ).toBeLessThanOrEqual(0);
  }
});

test('every shortcut works after using each control', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await open(page, 'scenario=fault-around/sequential&cursor=20');
  const controls: [string, () => Promise<void>][] = [
    [
      'the speed select',
      async () => {
        await page.locator('#speed').selectOption('100');
      },
    ],
    [
      'the tunable select',
      async () => {
        await page.getByTestId('tunable-readahead_kb').selectOption({ index: 2 });
        await expect(page.getByTestId('cursor')).toHaveText(/^event /);
        await expect(page.locator('[data-view="address"]')).toBeVisible();
      },
    ],
    ['the scrubber', () => page.getByTestId('scrubber').click()],
    ['the Fault button', () => page.getByTestId('jump-fault').click()],
    ['the Fault end button', () => page.getByTestId('jump-fault-end').click()],
    ['the step button', () => page.getByTestId('step').click()],
    [
      'the play button',
      async () => {
        await page.getByTestId('play').click();
        await page.getByTestId('play').click();
      },
    ],
    ['a counter row', () => page.locator('.ctr-table tr', { hasText: 'pgactivate' }).click()],
    ['the counters checkbox', () => page.locator('.ctr-all input').click()],
    ['an event-log row', () => page.locator('[data-view="log"] li').nth(3).click()],
    ['a step row', () => page.locator('[data-view="steps"] li').nth(2).click()],
    [
      'the enlarge button',
      async () => {
        await page.getByRole('button', { name: 'Enlarge Counters' }).click();
        await page.getByRole('button', { name: 'Restore Counters' }).click();
      },
    ],
    [
      'the About drawer',
      async () => {
        await page.getByTestId('open-about').click();
        await page.keyboard.press('Escape');
      },
    ],
    ['the zoom buttons', () => page.getByRole('button', { name: 'Zoom in (+)' }).click()],
  ];
  for (const [name, use] of controls) {
    await use();
    await keysWork(page, name);
  }
});

test('Space plays while a button holds a pointer focus, and does not press it', async ({ page }) => {
  await open(page, 'scenario=fault-around/sequential&cursor=20');
  /* pressed on the button, released off it: no click, so nothing hands the focus back */
  const box = (await page.getByTestId('jump-fault').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + 300);
  await page.mouse.up();
  expect(
    await page.evaluate(() => document.activeElement?.matches('[data-testid=jump-fault]:not(:focus-visible)')),
  ).toBe(true);
  const c0 = await cursorOf(page);
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toContainText('Pause');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toContainText('Play');
  /* Space did not also press the button (a jump would have stopped the play at the next fault) */
  expect(await cursorOf(page)).toBeLessThan(c0 + 200);
  /* the same button focused with the keyboard keeps Space: it is pressed (a jump), nothing plays */
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('jump-fault');
  const c1 = await cursorOf(page);
  await page.keyboard.press(' ');
  await expect.poll(() => cursorOf(page)).toBeGreaterThan(c1);
  await expect(page.getByTestId('play')).toContainText('Play');
});

test('Ctrl+Enter runs the editor, Esc closes it', async ({ page }) => {
  await open(page, 'scenario=fault-around/sequential');
  await page.keyboard.press('e');
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+Home');
  const first = page.locator('.cm-line').first();
  await expect(first).toContainText('name:');
  await page.keyboard.press('End');
  await page.keyboard.insertText(' (mine)');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('scenario-title')).toContainText('(mine)');
  await expect(page.locator('.cm-line', { hasText: '(mine)' })).toHaveCount(1);
  await page.locator('.cm-content').click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('drawer-editor')).toHaveCount(0);
  await keysWork(page, 'the editor');
});

/* the rules whose verdict depends on colours: all a second theme can change, since its DOM is the first's */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function axe(page: Page, what: string, coloursOnly = false) {
  const found = await axeViolations(
    page,
    coloursOnly ? { rules: COLOUR_RULES } : { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  );
  expect(found, `axe-core on ${what}`).toEqual([]);
}

/* axe-core over every layout, in both themes */
const AXE_LAYOUTS: [
  string,
  (page: Page, theme: 'light' | 'dark', axe: (page: Page, what: string) => Promise<void>) => Promise<void>,
][] = [
  [
    'gallery, scenario, editor',
    async (page, theme, axe) => {
      await page.addInitScript((t) => localStorage.setItem('mmplay.theme', t), theme);
      await page.goto('/');
      await expect(page.locator('.card').first()).toBeVisible();
      await axe(page, 'the gallery');
      await open(page, 'scenario=fault-around/sequential&cursor=40', theme);
      await axe(page, 'a scenario');
      await page.keyboard.press('e');
      await expect(page.locator('.cm-content')).toBeVisible();
      await axe(page, 'the editor');
      await page.keyboard.press('Escape');
    },
  ],
  [
    'compare, presenter',
    async (page, theme, axe) => {
      await open(page, 'scenario=fault-around/sequential&cursor=40&compare=fault_around_bytes=4096', theme);
      await expect(page.locator('[data-run-view="b"] .as').first()).toBeVisible();
      await axe(page, 'compare');
      await open(page, 'scenario=fault-around/sequential&cursor=40&present=1', theme);
      await axe(page, 'presenter mode');
    },
  ],
  [
    'the VMA cache, compared and on stage',
    async (page, theme, axe) => {
      await open(page, 'scenario=vma-cache/ebizzy&cursor=s6:0.01&compare=vmacache=mm-wide', theme);
      await expect(page.locator('[data-run-view="b"] .vc').first()).toBeVisible();
      await axe(page, 'the VMA cache, compared');
      /* on stage this group shows its own two views, not the address space */
      await page.goto(`/?scenario=vma-cache/ebizzy&cursor=s6:0.01&present=1&theme=${theme}`);
      await expect(page.locator('[data-view="vmacache"]')).toBeVisible();
      await expect(page.locator('[data-view="vma-tree"]')).toBeVisible();
      await expect(page.getByTestId('cursor')).toHaveText(/^event /);
      await axe(page, 'the VMA cache on stage');
    },
  ],
  [
    'the LRU, compared and on stage',
    async (page, theme, axe) => {
      await open(page, 'scenario=lru/backup&cursor=s12:0.5&compare=fadvise_dontneed=invalidate-only', theme);
      await expect(
        page.locator('[data-view="lru"] [data-run-view="b"]').getByTestId('lru-row-active_file'),
      ).toBeVisible();
      await axe(page, 'the LRU, compared');
      await page.goto(`/?scenario=lru/backup&cursor=s12:0.5&present=1&theme=${theme}`);
      await expect(page.locator('[data-view="lru"]')).toBeVisible();
      await expect(page.locator('[data-view="lru-memory"]')).toBeVisible();
      await axe(page, 'the LRU on stage');
    },
  ],
];
/** the theme switched by the topbar's button (with the editor open, D would type), or D on stage */
async function switchTheme(page: Page, theme: 'light' | 'dark') {
  if ((await page.locator('html').getAttribute('data-theme')) === theme) return;
  const button = page.getByRole('button', { name: /theme \(D\)$/ });
  /* a click event on the button itself: the editor's drawer covers the topbar */
  if (await button.count()) await button.dispatchEvent('click');
  else await page.keyboard.press('d');
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

for (const [what, check] of AXE_LAYOUTS)
  test(`axe-core finds nothing: ${what} (light, then dark)`, async ({ page }) => {
    test.setTimeout(120_000);
    /* the light theme under every rule; then, on the same page, the dark one under the colour rules (its
       DOM is the light one's: only the colours differ), and back */
    await check(page, 'light', async (p, what) => {
      await axe(p, what);
      await switchTheme(p, 'dark');
      await axe(p, `${what} (dark)`, true);
      await switchTheme(p, 'light');
    });
  });

for (const size of SIZES)
  test(`presenter mode fills the screen and steps with PageDown, ${size.width}x${size.height}`, async ({
    page,
  }, info) => {
    await page.setViewportSize(size);
    await open(page, 'scenario=fault-around/sequential&present=1&cursor=30', 'dark');
    await expect(page.locator('.topbar')).toHaveCount(0);
    await expect(page.locator('[data-view]')).toHaveCount(2);
    const views = (await page.getByTestId('views').boundingBox())!;
    expect(views.height).toBeGreaterThan(size.height * 0.6);
    expect(views.width).toBeGreaterThan(size.width * 0.95);
    const grid = (await page.locator('.as-canvas-wrap').boundingBox())!;
    /* (0.78: the legend under it is 18 px type on stage, two lines at 1280 px) */
    expect(grid.y + grid.height).toBeGreaterThan(size.height * 0.78);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true);
    /* nothing cut at the edges: the legend under the grid and the transport's last button are on screen */
    const legend = (await page.locator('[data-view="address"] .legend').boundingBox())!;
    expect(legend.y + legend.height).toBeLessThanOrEqual(size.height);
    const exit = (await page.getByTestId('leave-present').boundingBox())!;
    expect(exit.x + exit.width).toBeLessThanOrEqual(size.width);
    const caption = await page.getByTestId('caption').textContent();
    const c0 = await cursorOf(page);
    await page.keyboard.press('PageDown');
    await expect.poll(() => cursorOf(page)).toBeGreaterThan(c0);
    await expect(page.getByTestId('caption')).not.toHaveText(caption!);
    await page.keyboard.press('PageUp');
    await expect.poll(() => cursorOf(page)).toBeLessThanOrEqual(c0);
    await page.keyboard.press('f');
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
    await shot(page, info, `presenter-${size.width}x${size.height}`);
    /* a room reads it: no text under 18 px; A+ makes everything larger, the smallest text included */
    expect(await smallText(page), 'text under 18 px on stage').toEqual([]);
    const h2 = () =>
      page.locator('[data-view="walk"] h2').evaluate((e) => Number.parseFloat(getComputedStyle(e).fontSize));
    const before = await h2();
    await page.keyboard.press('+');
    await expect.poll(h2).toBeCloseTo(before * 1.15, 0);
    expect(await smallText(page, 18 * 1.15), 'text under 18 px x 1.15 after A+').toEqual([]);
    await page.keyboard.press('-');
    await expect.poll(h2).toBeCloseTo(before, 0);
    await page.keyboard.press('b');
    await expect(page.getByTestId('blank')).toBeVisible();
    await page.keyboard.press('b');
    await expect(page.getByTestId('blank')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(page.locator('.topbar')).toBeVisible();
  });

for (const size of SIZES)
  test(`an embed shows one view and a minimal transport, ${size.width}x${size.height}`, async ({ page }, info) => {
    await page.setViewportSize(size);
    await open(page, 'scenario=fault-around/sequential&embed=1&views=address&cursor=60');
    await expect(page.locator('[data-view]')).toHaveCount(1);
    await expect(page.locator('.topbar')).toHaveCount(0);
    await expect(page.locator('.transport.thin')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('cursor')).toHaveText(/^event 61 \//);
    await shot(page, info, `embed-${size.width}x${size.height}`);
  });

/** no element of the views area overlaps another panel, and nothing is wider than the window */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const app = document.querySelector('.app')!;
    if (document.scrollingElement!.scrollWidth > innerWidth)
      out.push(`the page is ${document.scrollingElement!.scrollWidth} px wide`);
    if (app.scrollWidth > app.clientWidth) out.push(`the player is ${app.scrollWidth} px wide`);
    const panels = [...document.querySelectorAll<HTMLElement>('[data-view]')].map((el) => ({
      id: el.dataset.view!,
      r: el.getBoundingClientRect(),
    }));
    for (const a of panels)
      for (const b of panels)
        if (
          a.id < b.id &&
          a.r.left < b.r.right - 1 &&
          b.r.left < a.r.right - 1 &&
          a.r.top < b.r.bottom - 1 &&
          b.r.top < a.r.bottom - 1
        )
          out.push(`${a.id} overlaps ${b.id}`);
    /* a panel's drawing stays inside its panel */
    for (const { id, r } of panels) {
      const body = document.querySelector(`[data-view="${id}"] .panel-body`)!;
      const c = body.getBoundingClientRect();
      if (c.bottom > r.bottom + 1 || c.right > r.right + 1) out.push(`${id}'s body spills out of its panel`);
    }
    return out;
  });
}

test('narrow windows: no horizontal scroll from 1280 down, read-only stepping at 768 and 375', async ({ page }) => {
  for (const [width, height] of [
    [1280, 720],
    [1024, 768],
    [800, 600],
    [768, 1024],
    [375, 812],
  ]) {
    await page.setViewportSize({ width, height });
    await open(page, 'scenario=fault-around/sequential&cursor=30');
    expect(await layoutProblems(page), `${width}x${height}`).toEqual([]);
    /* the transport fits: its last control is on screen */
    const where = (await page.getByTestId('cursor').boundingBox())!;
    expect(where.x + where.width, `the event counter at ${width}`).toBeLessThanOrEqual(width);
    await page.getByTestId('step').click();
    await expect(page.getByTestId('cursor')).toHaveText(/^event 31 \//);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('cursor')).toHaveText(/^event 32 \//);
    expect(await layoutProblems(page), `${width}x${height} after stepping`).toEqual([]);
  }
});

test('between faults the walk keeps the last fault, marked as such, and leads back to it', async ({ page }) => {
  await open(page, 'scenario=fault-around/sequential&cursor=s5:0.5');
  const walk = page.locator('[data-view="walk"]');
  await expect(walk.locator('.walk-head')).toContainText('last fault');
  await expect(walk.locator('.walk-wrap.stale')).toHaveCount(1);
  /* the same walk as at its fault, the tables read now */
  await expect(walk.locator('.walk [role="row"]')).toHaveCount(4);
  const at = Number((await walk.locator('.walk-head').textContent())!.match(/event ([\d,]+)/)![1].replace(/,/g, ''));
  await walk.getByRole('button', { name: 'Go to it' }).click();
  await expect(page.getByTestId('cursor')).toHaveText(new RegExp(`^event ${at.toLocaleString('en-US')} /`));
  await expect(walk.locator('.walk-head')).toContainText('this fault');
  await expect(walk.locator('.walk-wrap.stale')).toHaveCount(0);
});

test('the exports download what they say', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await open(page, 'scenario=fault-around/sequential&cursor=40');
  await page.keyboard.press('x');
  await expect(page.getByTestId('export')).toBeVisible();
  const get = async (testid: string) => {
    const failed = page
      .locator('.export-status', { hasText: ':' })
      .waitFor({ timeout: 30_000 })
      .then(
        async () => {
          throw new Error(`${testid}: ${await page.locator('.export-status').textContent()}`);
        },
        () => undefined,
      );
    const [d] = await Promise.all([
      Promise.race([page.waitForEvent('download', { timeout: 30_000 }), failed as Promise<never>]),
      page.getByTestId(testid).click(),
    ]);
    return { name: d.suggestedFilename(), bytes: readFileSync((await d.path())!) };
  };
  const csv = await get('export-counters-csv');
  expect(csv.name).toBe('mmplay-fault-around-sequential-event-40.csv');
  const lines = csv.bytes.toString().trim().split('\n');
  expect(lines[0]).toBe('counter,value');
  expect(lines).toContain('pgfault,1');
  const json = JSON.parse((await get('export-counters-json')).bytes.toString());
  expect(json.event).toBe(40);
  expect(json.counters.pgfault).toBe(1);
  const steps = JSON.parse((await get('export-steps-json')).bytes.toString());
  expect(steps.map((s: { kind: string }) => s.kind)).toContain('access');
  expect(steps[steps.length - 1].counters.pgfault).toBe(256);
  const stepsCsv = (await get('export-steps-csv')).bytes.toString().split('\n');
  expect(stepsCsv[0].startsWith('step,line,kind,summary,event,pgfault')).toBe(true);
  const log = (await get('export-log')).bytes
    .toString()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(log.length).toBeGreaterThan(5000);
  expect(log.filter((e: { event: string }) => e.event === 'page_fault_user')).toHaveLength(256);
  expect(typeof log[0].text).toBe('string');
  const png = await get('export-png-address');
  expect(png.name).toMatch(/@2x\.png$/);
  expect(png.bytes.subarray(1, 4).toString()).toBe('PNG');
  expect(png.bytes.readUInt32BE(16)).toBeGreaterThan(1000); /* width at 2x */
  const walk = await get('export-png-walk');
  expect(walk.bytes.subarray(1, 4).toString()).toBe('PNG');
  const svg = (await get('export-svg-counters')).bytes.toString();
  expect(svg).toContain('<svg');
  expect(svg).toContain('pgfault');
  expect(svg).not.toContain('var(--');
  /* its caption line: the scenario and the cursor */
  expect(svg).toMatch(/mmplay · [^<]+ · event 40 \/ [\d,]+</);
});

test('exports of a comparison carry every run; a view exports whole, with its caption line', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(
    page,
    'scenario=fault-around/sequential&cursor=300&compare=fault_around_bytes=4096&views=address,log,counters&chart=pgfault',
  );
  await expect(page.locator('[data-run-view="b"] .log')).toBeVisible();
  const onScreen = (await page.locator('[data-view="log"] .panel-body').boundingBox())!;
  await page.keyboard.press('x');
  const get = async (testid: string) => {
    const [d] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.getByTestId(testid).click(),
    ]);
    return readFileSync((await d.path())!);
  };
  const csv = (await get('export-counters-csv')).toString().trim().split('\n');
  expect(csv[0]).toBe('counter,A,B');
  const steps = JSON.parse((await get('export-steps-json')).toString()) as {
    run: string;
    counters: { pgfault: number };
  }[];
  const last = (run: string) => steps.filter((x) => x.run === run).at(-1)!.counters.pgfault;
  expect(last('b') / last('a')).toBe(16);
  expect((await get('export-steps-csv')).toString().split('\n')[0].startsWith('run,step,line')).toBe(true);
  const log = (await get('export-log'))
    .toString()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { run: string; event: string });
  const faults = (run: string) => log.filter((e) => e.run === run && e.event === 'page_fault_user').length;
  expect([faults('a'), faults('b')]).toEqual([last('a'), last('b')]);
  /* the event log's PNG: both runs' rows around the cursor at full height, taller than the box on screen */
  const png = await get('export-png-log');
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.readUInt32BE(20) / 2).toBeGreaterThan(onScreen.height + 20);
  /* the counters keep their chart in a comparison: each run's line, exported as SVG with the caption */
  const svg = (await get('export-svg-counters')).toString();
  expect(svg).toContain('data-run-line="a"');
  expect(svg).toContain('data-run-line="b"');
  expect(svg).toMatch(/A: 3\.15 · fault_around_bytes 64 KiB · B: 3\.14 · fault_around_bytes 4 KiB/);
});

test('a reload while playing comes back to the same event', async ({ page }) => {
  await open(page, 'scenario=fault-around/sequential');
  await page.locator('#speed').selectOption('3');
  await page.keyboard.press(' ');
  await expect.poll(() => cursorOf(page), { timeout: 10_000 }).toBeGreaterThan(4);
  const before = await cursorOf(page);
  await page.waitForTimeout(400);
  const at = await cursorOf(page);
  expect(at).toBeGreaterThanOrEqual(before);
  await page.reload();
  await expect(page.locator('[data-view="address"]')).toBeVisible();
  const after = await cursorOf(page);
  expect(Math.abs(after - at)).toBeLessThanOrEqual(2);
  expect(after).toBeGreaterThan(0);
});

test('a bad tunable in a link names the tunable and offers to reset; views=foo shows every view', async ({ page }) => {
  await page.goto('/?scenario=fault-around/sequential&set=fault_around_bytes=banana');
  await expect(page.getByTestId('error-banner')).toContainText('fault_around_bytes');
  await expect(page.getByTestId('error-banner')).toContainText('tunables');
  await page.getByTestId('reset-tunables').click();
  await expect(page.locator('[data-view="address"]')).toBeVisible();
  await expect(page).not.toHaveURL(/banana/);
  await page.goto('/?scenario=fault-around/sequential&views=foo');
  await expect(page.locator('[data-view]')).toHaveCount(5);
  await expect(page.getByTestId('toast')).toContainText('views=foo');
});
