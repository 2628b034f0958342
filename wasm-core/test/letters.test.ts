/**
 * The seeds' own tables beside the model's (a scenario's `letter:`). For
 * every shipped scenario with a letter: its cells are computed as the CLI
 * computes them (one run per column), every row that gives no reason for a
 * difference agrees with the letter, and the model's figures equal those in
 * wasm-core/test/golden/letters.json. A failure names the scenario, the row
 * and the column. Regenerate the golden file, on purpose, with
 * UPDATE_GOLDEN=1 npx vitest run --project cli letters, and say why.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unexplained, type ReferenceCell } from '../ts/letter.js';
import { runLetter } from '../ts/letter-run.js';
import { parseScenario } from '../ts/load/index.js';
import { loadCore, repo } from './helpers.js';

const GOLDEN = join(repo, 'wasm-core/test/golden/letters.json');
/* the fault-around seed rows' model faults per order, worked by hand (scripts/gen-seed-scenarios.mjs) */
const handWorked: Record<string, Record<string, number>> = JSON.parse(
  readFileSync(join(repo, 'wasm-core/test/seed-model.json'), 'utf8'),
);

function shipped(dir = join(repo, 'scenarios'), rel = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? shipped(join(dir, e.name), `${rel}${e.name}/`)
      : e.name.endsWith('.yaml') && !e.name.endsWith('.tour.yaml')
        ? [`scenarios/${rel}${e.name}`]
        : [],
  );
}

const withLetters = shipped().filter((f) => /^letter:/m.test(readFileSync(join(repo, f), 'utf8')));
const golden: Record<string, ReferenceCell[]> = existsSync(GOLDEN) ? JSON.parse(readFileSync(GOLDEN, 'utf8')) : {};
const computed: Record<string, ReferenceCell[]> = {};

describe('the letters beside the model', () => {
  it('every mechanism has a scenario with its letter', () => {
    const groups = new Set(withLetters.map((f) => f.split('/')[1]));
    expect([...groups].sort()).toEqual(['fault-around', 'large-folios', 'lru', 'prefault', 'vma-cache']);
  });

  it.each(withLetters)(
    '%s: the rows agree where they give no reason, and the figures are the golden ones',
    async (f) => {
      const s = parseScenario(readFileSync(join(repo, f), 'utf8'), f);
      const cells = runLetter(await loadCore(), s);
      computed[f] = cells;
      expect(
        unexplained(cells).map((c) => `${c.row}, ${c.column}: the letter ${c.seed}, the model ${c.model}`),
        `${f}: rows that differ from the letter without a why:`,
      ).toEqual([]);
      /* the fault-around rows: the model's faults per order are the arithmetic worked by hand in the generator */
      const row = /^scenarios\/fault-around\/seed\/(.*)\.yaml$/.exec(f)?.[1];
      if (row) {
        const want = Object.values(handWorked[row]);
        expect(
          cells.filter((c) => c.row.endsWith('minor-faults')).map((c) => c.model),
          `${f}: the model's faults per order`,
        ).toEqual(want);
      }
      if (process.env.UPDATE_GOLDEN) return;
      const want = golden[f];
      expect(want, `${f} has no golden cells: UPDATE_GOLDEN=1 npx vitest run --project cli letters`).toBeDefined();
      for (const [i, c] of cells.entries())
        expect({ model: c.model, agrees: c.agrees }, `${f}: ${c.row}, ${c.column}`).toEqual({
          model: want[i]?.model,
          agrees: want[i]?.agrees,
        });
      expect(cells.length, `${f}: the number of cells`).toBe(want.length);
    },
  );

  it.runIf(!!process.env.UPDATE_GOLDEN)('writes the golden cells', () => {
    writeFileSync(GOLDEN, `${JSON.stringify(computed, null, 1)}\n`);
  });
});
