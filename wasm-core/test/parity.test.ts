/**
 * Native and WebAssembly builds of the core give bit-identical results: the
 * same counters, per-task counters and event stream (digest), for the
 * interactive scenarios with events on and for seed reproductions with
 * events off.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COUNTERS, TASK_COUNTERS } from '../ts/abi.js';
import { runProgram } from '../ts/runner.js';
import { Digest, loadCore, programOf, repo, shippedScenarios } from './helpers.js';

const native = `${repo}wasm-core/build/native/mmsim-run`;
const dir = mkdtempSync(join(tmpdir(), 'mmplay-parity-'));

const cases = [
  ...shippedScenarios()
    .filter((f) => !f.includes('/seed/'))
    .map((f) => ({ file: f, trace: true })),
  ...[
    ['sequential-16g', {}],
    ['random-1g', { fault_around_bytes: '524288' }],
    ['one-per-page-table-16g', { fault_around_bytes: '4096' }],
  ].map(([n, sets]) => ({
    file: `scenarios/fault-around/seed/${n}.yaml`,
    trace: false,
    sets: sets as Record<string, string>,
  })),
];

describe('native == wasm', () => {
  for (const c of cases) {
    const { file, trace } = c;
    it(`${file}${trace ? ' (with events)' : ''}`, async () => {
      const prog = programOf(file, 'sets' in c ? (c.sets as Record<string, string>) : {});
      const bin = join(dir, 'prog.bin');
      writeFileSync(bin, prog.bytes);
      const n = JSON.parse(execFileSync(native, [...(trace ? ['--trace'] : []), bin], { encoding: 'utf8' }));
      const digest = new Digest();
      const w = runProgram(await loadCore('release'), prog, { trace, onEvents: (b) => digest.add(b) });
      const all = { ...w.counters, ...w.model };
      for (const c of COUNTERS) expect(all[c], c).toBe(n.counters[c]);
      prog.tasks.forEach((t, i) => {
        for (const c of TASK_COUNTERS) expect(w.tasks[t][c], `${t} ${c}`).toBe(n.tasks[i][c]);
      });
      expect(w.steps).toBe(n.steps);
      if (trace) {
        expect(digest.n).toBe(n.events);
        expect(digest.hex()).toBe(n.event_digest);
      }
    });
  }
});
