/**
 * Compare: two runs of one scenario with different tunables stand at the
 * same operation (the same touch of the same step, or the same non-access
 * step) at any cursor, whatever their event counts.
 */
import { describe, expect, it } from 'vitest';
import { alignCursor, sameOperation } from '../ts/align.js';
import { Recorder } from '../ts/recorder.js';
import { loadCore, programOf } from './helpers.js';

async function pair(file: string, b: Record<string, string>) {
  const core = await loadCore();
  const A = new Recorder(core, programOf(file));
  const B = new Recorder(core, programOf(file, b));
  A.recordAll();
  B.recordAll();
  return { A, B, a: A.opIndex(), b: B.opIndex() };
}

/* a small deterministic PRNG: the test is the same every run */
function lcg(seed: number) {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('aligning two runs', () => {
  for (const [file, b] of [
    ['scenarios/fault-around/sequential.yaml', { fault_around_bytes: '4096' }],
    ['scenarios/fault-around/random.yaml', { fault_around_bytes: '4096' }],
    ['scenarios/fault-around/partly-cached.yaml', { fault_around_bytes: '2097152' }],
    ['scenarios/fault-around/readahead-in-flight.yaml', { fault_around_bytes: '16384' }],
  ] as const) {
    it(`${file} with ${JSON.stringify(b)}: 200 random cursors, a back step, both directions`, async () => {
      const { A, B, a, b: ib } = await pair(file, b);
      expect(A.timeline().nEvents).not.toBe(B.timeline().nEvents);
      const rnd = lcg(42);
      for (let n = 0; n < 200; n++) {
        const ca = Math.floor(rnd() * (a.nEvents + 1));
        const cb = alignCursor(a, ca, ib);
        expect(sameOperation(a, ca, ib, cb), `A at ${ca} -> B at ${cb}`).toBe(true);
        /* and back: from B's cursor to A lands on the same operation too */
        expect(sameOperation(ib, cb, a, alignCursor(ib, cb, a)), `B at ${cb} -> A`).toBe(true);
        /* one step back on A keeps B aligned */
        if (ca > 1) expect(sameOperation(a, ca - 1, ib, alignCursor(a, ca - 1, ib))).toBe(true);
      }
      /* the ends meet */
      expect(alignCursor(a, a.nEvents, ib)).toBe(ib.nEvents);
      A.destroy();
      B.destroy();
    });
  }

  it('a coalesced run of touches in A maps to the fault of its last touch in B', async () => {
    const { a, b } = await pair('scenarios/fault-around/sequential.yaml', { fault_around_bytes: '4096' });
    /* in A (64 KiB) touches 2..16 of the access step are one mmsim_access operation */
    const k = Array.from(a.touches).indexOf(15);
    const cb = alignCursor(a, k + 1 < a.start.length ? a.start[k + 1] : a.nEvents, b);
    const j = Array.from(b.start).findIndex((s, i) => s < cb && (i + 1 === b.start.length || b.start[i + 1] >= cb));
    expect(b.touchEnd[j]).toBe(a.touchEnd[k]);
    expect(b.touches[j]).toBe(1);
  });
});
