/**
 * A scenario's letter (./letter.ts), run: one run of the scenario per
 * column, with the column's settings, then each row's figure from that
 * run's final counters. The CLI (--json's `reference`), the playground's
 * worker (the Seed vs model view) and the tests all come here.
 */
import { compile } from './compile.js';
import type { Core } from './core.js';
import { judgeLetter, type ReferenceCell } from './letter.js';
import type { Limits } from './limits.js';
import { changedTunables, withSettings } from './multirun.js';
import { runProgram, type RunResult } from './runner.js';
import type { Scenario } from './scenario.js';

export interface LetterRunOptions {
  limits?: Limits;
  /** the run of `s` itself, when already made: it serves every column that changes nothing */
  own?: RunResult;
  /** before each column's run: its index, label, and (during the run) its progress */
  onProgress?: (column: number, label: string, done: number, total: number) => void;
}

/** every column's counters (vmstat and the model's, by name), then the cells */
export function runLetter(core: Core, s: Scenario, opts: LetterRunOptions = {}): ReferenceCell[] {
  const letter = s.letter;
  if (!letter) return [];
  let own = opts.own;
  const counters = letter.columns.map((col, i) => {
    const run = withSettings(s, col.set);
    const same = !changedTunables(s, run).length;
    if (same && own) return { ...own.counters, ...own.model };
    opts.onProgress?.(i, col.label, 0, 1);
    const res = runProgram(core, compile(run, opts.limits), {
      onProgress: (d, t) => opts.onProgress?.(i, col.label, d, t),
    });
    if (res.error) throw new Error(`letter column ${col.label}: ${res.error.message}`);
    if (same) own = res;
    return { ...res.counters, ...res.model };
  });
  return judgeLetter(letter, counters);
}
