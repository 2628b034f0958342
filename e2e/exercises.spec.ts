/**
 * Exercises as a student does them: ?tour=<group>/<exercise>&seed=2, beat by beat with PageDown; at each
 * question the page shows nothing that gives the answer away, the CLI's answer for that seed plus 1000 is
 * "not yet", the CLI's answer is right and the reveal plays to the question's moment. Then the score, the
 * progress kept across a reload, the teacher's view and the printed worksheet.
 */
import { expect, test, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { failOnPageProblems } from './problems.js';

failOnPageProblems();

interface CliQuestion {
  id: string;
  kind: 'number' | 'choice';
  prompt: string;
  options?: { id: string; label: string }[];
  answer: number | string;
}

/* the answers as the CLI computes them for this seed: the page must agree */
function cliAnswers(file: string, seed: number): CliQuestion[] {
  const r = spawnSync(
    process.execPath,
    ['scripts/sim.mjs', file, '--quiz', '--answers', '--seed', String(seed), '--json'],
    {
      encoding: 'utf8',
    },
  );
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout).questions;
}

const cursorOf = async (page: Page) =>
  Number((await page.getByTestId('cursor').textContent())!.match(/([\d,]+) \//)![1].replace(/,/g, ''));

/* one exercise per mechanism: each has number questions, two have a choice */
const PATHS = [
  'fault-around/window',
  'vma-cache/ebizzy-choice',
  'lru/second-touch',
  'large-folios/fork-atomics',
  'prefault/short-runs',
];

/* the first path's reveals play (three seconds each); the others ask for reduced motion, where a reveal
   shows its moment at once */
for (const [path, name] of PATHS.entries())
  test(`a student's path through ${name}, seed 2: nothing gives the answer away, wrong then right, the reveal ${path ? 'shows its moment (reduced motion)' : 'plays'}`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    if (path) await page.emulateMedia({ reducedMotion: 'reduce' });
    const file = `scenarios/${name}.tour.yaml`;
    const beats = (parse(readFileSync(file, 'utf8')) as { beats: { ask?: { id: string } }[] }).beats;
    const answers = cliAnswers(file, 2);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`/?tour=${name}&seed=2`);
    await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
    for (const [i, beat] of beats.entries()) {
      if (i > 0) {
        await page.keyboard.press('PageDown');
        await expect(page.getByTestId('beat-caption')).toBeVisible();
      }
      await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
      if (!beat.ask) continue;
      const q = answers.find((a) => a.id === beat.ask!.id)!;
      const card = page.locator(`[data-question="${q.id}"]`);
      await expect(card).toBeVisible();
      await expect(card.getByRole('button', { name: 'Check' })).toBeVisible();
      /* nothing on the page gives the answer away: no figure, no whole-run value, no event past the start */
      const text = await page.evaluate(() => document.body.innerText);
      if (q.kind === 'number' && Math.abs(q.answer as number) >= 100) {
        expect(text, `${q.id}: the answer on the page before the reveal`).not.toContain(
          (q.answer as number).toLocaleString('en-US'),
        );
        expect(text).not.toMatch(new RegExp(`\\b${q.answer}\\b`));
      }
      await expect(page.getByTestId('answer')).toHaveCount(0);
      const before = await cursorOf(page);
      if ((q.kind as string) === 'pick') {
        /* pages picked on the address space's grid, where the canvas says page p is drawn */
        const grid = page.locator('canvas[data-picking]');
        await expect(grid).toHaveAttribute('data-picking', q.id);
        const clickPage = async (p: number) => {
          const d = await grid.evaluate((c) => ({
            cell: Number(c.dataset.cell),
            x0: Number(c.dataset.x0),
            y0: Number(c.dataset.y0),
            cols: Number(c.dataset.cols),
          }));
          await grid.click({
            position: { x: d.x0 + ((p % d.cols) + 0.5) * d.cell, y: d.y0 + (Math.floor(p / d.cols) + 0.5) * d.cell },
          });
        };
        const want = String(q.answer)
          .split(',')
          .flatMap((r) => {
            const [a, b = a] = r.split('-').map(Number);
            return Array.from({ length: b - a + 1 }, (_, k) => a + k);
          });
        /* one page too many is not yet */
        for (const p of [...want, Math.max(...want) + 1]) await clickPage(p);
        await expect(grid).toHaveAttribute('data-picked', String(want.length + 1));
        await card.getByRole('button', { name: 'Check' }).click();
        await expect(card).toHaveAttribute('data-verdict', 'wrong');
        /* the view that explains it, shown and outlined on request */
        if (await card.getByTestId('q-explain').count()) {
          await card.getByTestId('q-explain').click();
          await expect(page.locator('section.panel.spot[data-view]')).toHaveCount(1);
        }
        await clickPage(Math.max(...want) + 1);
        await expect(card.getByTestId('q-picked')).toContainText(`${want.length} picked`);
      } else if (q.kind === 'number') {
        await card.locator('input').fill(String((q.answer as number) + 1000));
        await card.getByRole('button', { name: 'Check' }).click();
        await expect(card).toHaveAttribute('data-verdict', 'wrong');
        await expect(card).toContainText('Not yet');
        await card.locator('input').fill((q.answer as number).toLocaleString('en-US'));
      } else {
        const wrong = q.options!.find((o) => o.id !== q.answer)!;
        await card.getByLabel(wrong.label).check();
        await card.getByRole('button', { name: 'Check' }).click();
        await expect(card).toHaveAttribute('data-verdict', 'wrong');
        await card.getByLabel(q.options!.find((o) => o.id === q.answer)!.label).check();
      }
      /* every cursor the page shows from the right answer on */
      await page.getByTestId('cursor').evaluate((el) => {
        const w = window as unknown as { shown: string[]; watch?: MutationObserver };
        w.shown = [];
        /* one watch at a time: the last question's goes */
        w.watch?.disconnect();
        w.watch = new MutationObserver(() => w.shown.push(el.textContent ?? ''));
        w.watch.observe(el, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
      await card.getByRole('button', { name: 'Check' }).click();
      await expect(card).toHaveAttribute('data-verdict', 'right');
      await expect(page.getByTestId('answer')).toContainText('Right');
      /* the reveal plays from the question's start to its moment, then stops; with reduced motion it is
         there at once: the question's start, if it differs, then the moment, and nothing between */
      await expect(page.getByRole('button', { name: /^Play/ })).toBeVisible({ timeout: 30_000 });
      expect(await cursorOf(page)).toBeGreaterThan(before);
      const shown = new Set(await page.evaluate(() => (window as unknown as { shown: string[] }).shown));
      if (path) expect(shown.size, `${q.id}: cursors shown by the reveal`).toBeLessThanOrEqual(2);
      else expect(shown.size, `${q.id}: cursors shown by the reveal`).toBeGreaterThan(2);
      /* once answered, the key figures are back */
      await expect(page.getByText('The key figures are hidden until you answer.')).toHaveCount(0);
    }
    /* the last beat: the score, and a line to hand in */
    await expect(page.getByTestId('quiz-summary')).toContainText(`${answers.length} of ${answers.length} right`);
    await expect(page.getByTestId('quiz-summary')).toContainText(`mmplay ${name} seed 2`);
    /* the progress is kept in this browser: a reload shows the questions answered (once the link has caught up) */
    await expect(page).toHaveURL(new RegExp(`beat=${beats.length}`));
    await page.reload();
    await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
    await expect(page.getByTestId('quiz-summary')).toContainText(`${answers.length} of ${answers.length} right`);
  });

test('an order question: the events arranged with their buttons as the CLI orders them is right', async ({ page }) => {
  const name = 'fault-around/cold-readahead';
  const q = cliAnswers(`scenarios/${name}.tour.yaml`, 2).find((x) => x.kind === ('order' as string))!;
  const beat = (
    parse(readFileSync(`scenarios/${name}.tour.yaml`, 'utf8')) as { beats: { ask?: { id: string } }[] }
  ).beats.findIndex((b) => b.ask?.id === q.id);
  await page.goto(`/?tour=${name}&seed=2&beat=${beat + 1}`);
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
  const card = page.locator(`[data-question="${q.id}"]`);
  /* offered as the author wrote them, which is not the answer */
  const shown = () => card.locator('[data-event]').evaluateAll((els) => els.map((e) => e.getAttribute('data-event')!));
  const want = String(q.answer).split(',');
  expect(await shown()).not.toEqual(want);
  for (let i = 0; i < want.length; i++)
    for (let j = (await shown()).indexOf(want[i]); j > i; j--)
      await card.getByRole('button', { name: `Move ${want[i]} up` }).click();
  expect(await shown()).toEqual(want);
  await card.getByRole('button', { name: 'Check' }).click();
  await expect(card).toHaveAttribute('data-verdict', 'right');
  await expect(page.getByTestId('answer')).toContainText(want.join(' \u2192 '));
});

test('an exercise without a seed draws one and puts it in the link; a bad seed says so and draws one', async ({
  page,
}) => {
  await page.goto('/?tour=fault-around/window');
  await expect(page).toHaveURL(/[?&]seed=\d+/);
  await page.goto('/?tour=fault-around/window&seed=abc');
  await expect(page.getByTestId('toast')).toContainText('seed=abc');
  await expect(page).toHaveURL(/[?&]seed=\d+/);
});

test('the teacher sees every answer and the parameters; the worksheet prints the questions and the key', async ({
  page,
}) => {
  const name = 'prefault/short-runs';
  const answers = cliAnswers(`scenarios/${name}.tour.yaml`, 3);
  await page.goto(`/?tour=${name}&seed=3&beat=2&teacher=1`);
  await expect(page.locator('[data-testid=views][data-ready]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('teacher')).toContainText((answers[0].answer as number).toLocaleString('en-US'));
  await expect(page.getByTestId('teacher')).toContainText('cap = ');
  /* nothing is hidden from the teacher */
  await expect(page.getByText('The key figures are hidden until you answer.')).toHaveCount(0);
  await page.emulateMedia({ media: 'print' });
  const sheet = page.getByTestId('worksheet');
  await expect(sheet).toBeVisible();
  for (const q of answers) await expect(sheet).toContainText(q.prompt);
  await expect(sheet).toContainText('Answer key · seed 3');
  await expect(sheet).toContainText(`traps: ${(answers[0].answer as number).toLocaleString('en-US')}`);
  /* each question's picture: its view where the question starts, drawn (not an empty box); the second
     question starts where the first does, and says so rather than print it twice */
  const picture = sheet.locator(`[data-picture="${answers[0].id}"]`);
  await expect(picture).toBeVisible();
  await expect(picture).toContainText('where the question starts');
  const box = await picture.locator('.ws-picture-box > *').first().boundingBox();
  expect(box?.height ?? 0).toBeGreaterThan(100);
  await expect(sheet).toContainText("The picture is question 1's.");
  /* a student's sheet has no key */
  await page.goto(`/?tour=${name}&seed=3&beat=2`);
  await expect(page.getByTestId('worksheet')).toBeVisible();
  await expect(page.getByTestId('worksheet')).not.toContainText('Answer key');
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByTestId('worksheet')).toBeHidden();
});

test("the gallery lists each mechanism's talk and exercises", async ({ page }) => {
  await page.goto('/');
  for (const g of ['fault-around', 'vma-cache', 'lru', 'large-folios', 'prefault'])
    await expect(page.locator(`a.tour-link.exercise[data-tour^="${g}/"]`)).toHaveCount(3);
  await page.locator('a[data-tour="lru/second-touch"]').click();
  await expect(page.locator('[data-question]')).toHaveCount(0);
  await expect(page.getByTestId('beat-caption')).toBeVisible();
});
