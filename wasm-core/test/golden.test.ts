/**
 * Golden summaries of every shipped scenario: all counters, per-task
 * counters and, for the interactive ones, the number of events of each kind
 * and a digest of the whole event stream. A change to the model that moves
 * any of these fails here; regenerate on purpose with
 *
 *     UPDATE_GOLDEN=1 npx vitest run --project core golden
 *
 * and say why in the commit. Every interactive scenario also runs on the
 * debug build (assertions on) with the invariant checker after every step,
 * and must give the very same summary.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENTS, EV_TYPE_MASK } from '../ts/abi.js';
import { runProgram } from '../ts/runner.js';
import { Digest, loadCore, programOf, repo, shippedScenarios } from './helpers.js';

async function summarise(file: string, variant: 'release' | 'debug', trace: boolean, debugVm: boolean) {
  const prog = programOf(file);
  const digest = new Digest();
  const byType: Record<string, number> = {};
  const res = runProgram(await loadCore(variant), prog, {
    trace, debugVm,
    onEvents: (b) => {
      digest.add(b);
      const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
      for (let o = 0; o < b.length; o += 32) {
        const t = EVENTS[v.getUint16(o, true) & EV_TYPE_MASK];
        byType[t] = (byType[t] ?? 0) + 1;
      }
    },
  });
  return {
    status: res.status,
    error: res.error?.message ?? null,
    steps: res.steps,
    counters: res.counters,
    model: res.model,
    tasks: res.tasks,
    ...(trace ? { events: { total: digest.n, digest: digest.hex(), byType: Object.fromEntries(Object.entries(byType).sort()) } } : {}),
  };
}

const update = process.env.UPDATE_GOLDEN === '1';

describe('golden summaries', () => {
  for (const file of shippedScenarios()) {
    const big = file.includes('/seed/');
    it(file, async () => {
      const got = await summarise(file, 'release', !big, false);
      expect(got.status).toBe('ok');
      const golden = `${repo}wasm-core/tests/golden/${file.replace(/^scenarios\//, '').replace(/\.(ya?ml|json)$/, '.json')}`;
      if (update || !existsSync(golden)) {
        if (!update) throw new Error(`no golden summary for ${file}: run UPDATE_GOLDEN=1 npx vitest run --project core golden`);
        mkdirSync(dirname(golden), { recursive: true });
        writeFileSync(golden, `${JSON.stringify(got, null, 2)}\n`);
      }
      expect(got).toEqual(JSON.parse(readFileSync(golden, 'utf8')));
      if (!big) {
        const debug = await summarise(file, 'debug', true, true);
        expect(debug).toEqual(got);
      }
    });
  }
});
