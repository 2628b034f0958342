/**
 * Tours on stage, as a speaker walks them with a clicker: ?tour=<group>/talk&present=1, PageDown through
 * every beat and PageUp back. After each press the caption is that beat's (its figures the model's), the
 * beat number on the root is right, the cursor is where a link to that beat puts it, and the page does not
 * scroll. Screenshots of each tour's beats go to test-results/screenshots/.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { axeViolations, failOnPageProblems, smallText } from './problems.js';

const SHOTS = 'test-results/screenshots';
mkdirSync(SHOTS, { recursive: true });
failOnPageProblems();

const GROUPS = readdirSync('scenarios').filter((g) => readdirSync(`scenarios/${g}`).includes('talk.tour.yaml'));
const LAYOUTS = [
  { width: 1280, height: 720, theme: 'light' },
  { width: 1920, height: 1080, theme: 'dark' },
  { width: 1280, height: 720, theme: 'dark' },
  { width: 1920, height: 1080, theme: 'light' },
] as const;

/** a caption as a pattern: its {figures} are numbers the page fills in */
const captionPattern = (c: string) =>
  new RegExp(
    `^${c
      .split(/\{[^}]*\}/)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\d,.%\u2013]+')}$`,
  );

/** the beat on screen, once its runs are recorded: its number, caption and cursor */
async function beatOnScreen(page: Page, n: number, caption: string) {
  await expect(page.locator('.app')).toHaveAttribute('data-beat', String(n));
  await expect(page.getByTestId('beat-caption')).toHaveText(captionPattern(caption));
  await expect(page.locator('[data-testid=views][data-ready]'), `beat ${n}: its runs are recorded`).toHaveCount(1, {
    timeout: 60_000,
  });
  await expect(page.getByTestId('cursor')).toHaveText(/^(event [\d,]+ \/ [\d,]+|big run: final state)$/);
  /* a figure of run B is filled in once B is recorded */
  await expect(page.getByTestId('beat-caption')).not.toContainText('\u2013');
  const scroll = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  expect(scroll, `beat ${n}: the page scrolls`).toBeLessThanOrEqual(0);
  expect(await smallText(page), `beat ${n}: text under 18 px on stage`).toEqual([]);
  return (await page.getByTestId('cursor').textContent())!;
}

GROUPS.forEach((group, i) => {
  const layout = LAYOUTS[i % LAYOUTS.length];
  test(`the ${group} talk walks with PageDown and back with PageUp, ${layout.width}x${layout.height} ${layout.theme}`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const tour = parse(readFileSync(`scenarios/${group}/talk.tour.yaml`, 'utf8')) as { beats: { caption: string }[] };
    const n = tour.beats.length;
    expect(n, 'a talk of 6 to 12 beats').toBeGreaterThanOrEqual(6);
    expect(n).toBeLessThanOrEqual(12);
    await page.setViewportSize({ width: layout.width, height: layout.height });
    await page.goto(`/?tour=${group}/talk&present=1&theme=${layout.theme}`);
    const cursors: string[] = [];
    for (let b = 1; b <= n; b++) {
      if (b > 1) await page.keyboard.press('PageDown');
      cursors.push(await beatOnScreen(page, b, tour.beats[b - 1].caption));
      await page.screenshot({ path: `${SHOTS}/tour-${group}-${b}.png` });
      if (b === 1) {
        expect(await axeViolations(page), `axe-core on beat 1 of the ${group} talk`).toEqual([]);
      }
    }
    /* past the last beat the tour stays on it */
    await page.keyboard.press('PageDown');
    await expect(page.locator('.app')).toHaveAttribute('data-beat', String(n));
    /* a beat's position is in the URL */
    await expect.poll(() => new URL(page.url()).searchParams.get('beat')).toBe(String(n));
    for (let b = n - 1; b >= 1; b--) {
      await page.keyboard.press('PageUp');
      expect(await beatOnScreen(page, b, tour.beats[b - 1].caption), `beat ${b} again`).toBe(cursors[b - 1]);
    }
    /* a link to a beat shows it as walking there did */
    await page.goto(`/?tour=${group}/talk&beat=2&present=1&theme=${layout.theme}`);
    expect(await beatOnScreen(page, 2, tour.beats[1].caption), 'beat 2 from a link').toBe(cursors[1]);
  });
});

test("a comparison beat shows both runs' key figures on stage, 1280x720", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?tour=fault-around/talk&beat=6&present=1');
  await expect(page.locator('[data-testid=views][data-ready]'), "the beat's runs are recorded").toHaveCount(1, {
    timeout: 60_000,
  });
  for (const run of ['a', 'b'])
    await expect(page.locator(`[data-run=${run}][data-counter=pgfault]`).first()).toBeVisible();
  /* the caption's figures are the runs' own */
  const a = await page.locator('[data-run=a][data-counter=pgfault]').first().textContent();
  const b = await page.locator('[data-run=b][data-counter=pgfault]').first().textContent();
  await expect(page.getByTestId('beat-caption')).toContainText(`${a} faults instead of ${b}`);
});

test('a tour that does not exist says which tours there are', async ({ page }) => {
  await page.goto('/?tour=fault-around/nope');
  await expect(page.getByTestId('toast')).toContainText("There is no tour 'fault-around/nope'");
  await expect(page.getByTestId('toast')).toContainText('fault-around/talk');
});

test("the speaker's notes window follows the presenter and moves it", async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?tour=fault-around/talk&present=1');
  await expect(page.locator('.app')).toHaveAttribute('data-beat', '1');
  /* Z opens it; the window it opens is the one a speaker drags to the laptop's screen */
  const [opened] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('z')]);
  await opened.waitForLoadState();
  expect(new URL(opened.url()).searchParams.get('notes')).toBe('1');
  await opened.close();
  const notes = await context.newPage();
  await notes.setViewportSize({ width: 1024, height: 700 });
  await notes.goto('/?tour=fault-around/talk&notes=1');
  await expect(notes.getByTestId('notes-beat')).toHaveText('1');
  await expect(notes.getByTestId('notes')).toContainText('fault_around_bytes is 4 KiB here');
  await expect(notes.getByTestId('notes-next')).toContainText('Each read of a new page traps');
  /* the notes window's clicker moves the presenter */
  await notes.keyboard.press('PageDown');
  await expect(page.locator('.app')).toHaveAttribute('data-beat', '2');
  await expect(notes.getByTestId('notes-beat')).toHaveText('2');
  /* and the presenter's moves the notes */
  await page.keyboard.press('PageDown');
  await expect(notes.getByTestId('notes-beat')).toHaveText('3');
  await notes.getByRole('button', { name: /Previous/ }).click();
  await expect(page.locator('.app')).toHaveAttribute('data-beat', '2');
  expect(await axeViolations(notes), 'axe-core on the notes window').toEqual([]);
  /* notes are text, never HTML */
  expect(await notes.locator('.notes-window script, .notes-window img').count()).toBe(0);
});

test('an embedded part of a talk: its caption, its own beat count, only its beats', async ({ page }) => {
  await page.setViewportSize({ width: 960, height: 600 });
  await page.goto('/?tour=fault-around/talk&embed=1&beats=4-6');
  await expect(page.locator('.app')).toHaveAttribute('data-beat', '4');
  await expect(page.getByTestId('caption')).toContainText('1 / 3');
  await expect(page.getByTestId('beat-caption')).toContainText('do_fault_around()');
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
  for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
  await expect(page.locator('.app')).toHaveAttribute('data-beat', '6');
  await expect(page.getByTestId('caption')).toContainText('3 / 3');
  for (let i = 0; i < 3; i++) await page.keyboard.press('PageUp');
  await expect(page.locator('.app')).toHaveAttribute('data-beat', '4');
  await expect.poll(() => new URL(page.url()).searchParams.get('beats')).toBe('4-6');
  /* a click inside a view does not take the stepping keys */
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
  await page
    .locator('[data-view="address"] canvas')
    .first()
    .click({ position: { x: 40, y: 10 } });
  const at = async () =>
    Number((await page.getByTestId('cursor').textContent())!.replace(/^\D*([\d,]+) \/.*$/, '$1').replace(/,/g, ''));
  const before = await at();
  await page.keyboard.press('ArrowRight');
  await expect.poll(at).toBe(before + 1);
  /* a range that is not one is said, and the whole tour is walked */
  await page.goto('/?tour=fault-around/talk&beats=9-2');
  await expect(page.getByTestId('toast')).toContainText('beats=9-2');
  await expect(page.locator('.app')).toHaveAttribute('data-beat', '1');
});

test('presenter mode on a scenario: each press a caption, never an expect clause or an operator hint', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?scenario=lru/backup&present=1');
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
  const cursor = () => page.getByTestId('cursor').textContent();
  let presses = 0;
  for (;;) {
    const before = await cursor();
    await page.keyboard.press('PageDown');
    presses++;
    if (presses > 1) await expect.poll(cursor).not.toBe(before);
    const text = (await page.locator('[data-testid=caption] .text').textContent())!.trim();
    expect(text, `press ${presses}`).not.toBe('');
    expect(text, `press ${presses}`).not.toMatch(/^expect|· expect/);
    if (/^event ([\d,]+) \/ \1$/.test((await cursor())!)) break;
    expect(presses, 'a scenario of 11 top-level steps walks in a few presses').toBeLessThan(15);
  }
  /* the address space's "scroll or pinch to zoom" is there (nothing moves) but not shown */
  await page.goto('/?scenario=fault-around/sequential&present=1&views=address&cursor=8');
  await expect(page.locator('.operator-hint')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.locator('.operator-hint')).toBeHidden();
});

test('the editor edits a tour: checked at its line, run at the same beat, shared by its link', async ({ page }) => {
  const source = readFileSync('scenarios/fault-around/talk.tour.yaml', 'utf8');
  await page.goto('/?tour=fault-around/talk&beat=2');
  await expect(page.locator('.app')).toHaveAttribute('data-beat', '2');
  await page.keyboard.press('e');
  const editor = page.getByRole('textbox', { name: 'Tour YAML' });
  await expect(editor).toBeVisible();
  await expect(page.getByTestId('drawer-editor')).toContainText('Tour (YAML)');
  /* a moment that names no jump: refused at its line, with the jumps there are */
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(source.replace('at: { jump: fault, nth: 3 }', 'at: { jump: faults, nth: 3 }'));
  const line = source.split('\n').findIndex((l) => l.includes('at: { jump: fault, nth: 3 }')) + 1;
  const errs = page.getByTestId('editor-errors');
  await expect(errs).toContainText(`line ${line}`);
  await expect(errs).toContainText("there is no jump 'faults'");
  await expect(page.getByTestId('run-edited')).toBeDisabled();
  /* a caption rewritten: run, and the beat on screen says it */
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(
    source.replace(
      'Each read of a new page traps. The kernel finds the page in the page cache and maps that one page.',
      'Every new page read is a trap.',
    ),
  );
  await expect(page.getByTestId('run-edited')).toBeEnabled();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('beat-caption')).toHaveText('Every new page read is a trap.');
  await expect(page.locator('.app')).toHaveAttribute('data-beat', '2');
  /* the link carries the edited text: a reload (or a colleague) gets the same tour */
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#tour-src=/);
  await page.reload();
  await expect(page.getByTestId('beat-caption')).toHaveText('Every new page read is a trap.');
});

test("the gallery takes a link's theme", async ({ page }) => {
  await page.goto('/?theme=dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.goto('/?theme=light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});
