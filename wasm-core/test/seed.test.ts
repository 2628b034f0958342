/**
 * The seed's tables, one scenario per row: a sweep over fault_around_bytes
 * (the same plan as `--sweep` and the browser's sweep) gives the model
 * values of docs/kernel.md, "Fault-around" at each of the seed's seven orders,
 * and the scenario's reference data holds the seed's seven numbers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../ts/compile.js';
import { planSweep } from '../ts/plan.js';
import { runProgram } from '../ts/runner.js';
import { parseScenario } from '../ts/load/index.js';
import { loadCore, repo } from './helpers.js';

const model = JSON.parse(readFileSync(`${repo}wasm-core/test/seed-model.json`, 'utf8')) as Record<
  string,
  Record<string, number>
>;

describe('the seed tables, swept', () => {
  for (const [row, expected] of Object.entries(model)) {
    it(`${row}: the model's seven numbers, and the seed's as reference`, async () => {
      const file = `scenarios/fault-around/seed/${row}.yaml`;
      const s = parseScenario(readFileSync(`${repo}${file}`, 'utf8'), file);
      const ref = (s as unknown as { reference?: { x: string; y: string; points: { x: number; y: number }[] } })
        .reference;
      expect(ref?.x).toBe('fault_around_bytes');
      expect(ref?.y).toBe('pgfault');
      expect(ref?.points.map((p) => p.x)).toEqual(Object.keys(expected).map(Number));
      const core = await loadCore();
      const runs = planSweep(s, 'fault_around_bytes', Object.keys(expected));
      const got: Record<string, number> = {};
      for (const r of runs) got[r.raw] = runProgram(core, compile(r.scenario), { trace: false }).counters.pgfault;
      expect(got).toEqual(Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, v])));
    }, 120_000);
  }
});
