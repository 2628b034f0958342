/**
 * The work estimate against measurement. Each file in test/estimate/ does one
 * kind of work (faults, touches, zaps, forks, THPs and their splits, VMAs in a
 * loop, fault-around, reads, fadvise, a sparse file's page-cache tree); the
 * test runs each on the wasm core (untraced, median of three), and compares
 * the time the estimate implies (COST's units of ~100 ns) with the time it
 * took. Machines differ in speed, so each ratio is taken relative to their
 * geometric mean: a kind of work the estimate prices wrong stands out
 * whatever the machine. The memory estimate is an upper bound, checked as one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../ts/compile.js';
import { DEFAULT_LIMITS, estimate, type Limits } from '../ts/limits.js';
import { parseScenario } from '../ts/load/index.js';
import { runProgram } from '../ts/runner.js';
import { loadCore } from './helpers.js';

/** the estimate's time and the measured one may differ by this factor either way (docs/limits.md) */
const ESTIMATE_FACTOR = 4;
const UNIT_NS = 100;

const dir = join(import.meta.dirname, 'estimate');
const FILES = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const LIMITS: Limits = { ...DEFAULT_LIMITS, operations: 1e12 };

describe('the work estimate, measured', () => {
  it(`prices every kind of work within a factor of ${ESTIMATE_FACTOR} of its measured time, and bounds memory`, async () => {
    const core = await loadCore();
    const rows: { file: string; est: number; ms: number; ratio: number; memEst: number; peak: number }[] = [];
    /* the first runs pay for the wasm tiers' warm-up */
    const warm = compile(parseScenario(readFileSync(join(dir, FILES[0]), 'utf8'), FILES[0], LIMITS), LIMITS);
    for (let i = 0; i < 3; i++) runProgram(core, warm);
    for (const file of FILES) {
      const s = parseScenario(readFileSync(join(dir, file), 'utf8'), file, LIMITS);
      const e = estimate(s);
      const prog = compile(s, LIMITS);
      const times: number[] = [];
      let peak = 0;
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        const r = runProgram(core, prog);
        times.push(performance.now() - t);
        expect(r.status, `${file}: ${r.error?.message ?? ''}`).toBe('ok');
        peak = Math.max(peak, r.simPeakBytes);
      }
      const ms = times.sort((a, b) => a - b)[1];
      rows.push({ file, est: e.operations, ms, ratio: ms / ((e.operations * UNIT_NS) / 1e6), memEst: e.memory, peak });
    }
    const g = Math.exp(rows.reduce((a, r) => a + Math.log(r.ratio), 0) / rows.length);
    console.log(
      [
        `measured / estimated time (${UNIT_NS} ns per operation), relative to their geometric mean ${g.toFixed(2)}:`,
        ...rows.map(
          (r) =>
            `  ${r.file.padEnd(22)} ${r.est.toExponential(2)} ops ${r.ms.toFixed(1).padStart(7)} ms  ${(r.ratio / g).toFixed(2).padStart(5)}   memory: estimated ${(r.memEst / 2 ** 20).toFixed(0)} MiB, peak ${(r.peak / 2 ** 20).toFixed(0)} MiB`,
        ),
      ].join('\n'),
    );
    const off = rows
      .filter((r) => r.ratio / g > ESTIMATE_FACTOR || r.ratio / g < 1 / ESTIMATE_FACTOR)
      .map((r) => `${r.file}: measured/estimated ${(r.ratio / g).toFixed(2)} of the mean`);
    expect(off, 'kinds of work the estimate prices wrong').toEqual([]);
    const over = rows.filter((r) => r.peak > r.memEst).map((r) => `${r.file}: peak ${r.peak} > estimate ${r.memEst}`);
    expect(over, 'runs that used more memory than the estimate allows').toEqual([]);
  });
});
