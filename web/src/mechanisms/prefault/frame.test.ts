/**
 * The prefault's frame provider against the core: each thread's
 * prediction after each batch of the threads scenario (the four threads
 * ramp on their own, turn by turn); the batch told from the operation's
 * events; the pages-per-fault series against the faults the run counted.
 */
import { describe, expect, it } from 'vitest';
import { EV } from '../../../../wasm-core/ts/abi.js';
import { after, recorded } from '../testing.js';
import { frames as prefaultFrames, prefaultOf, type PagesSeries } from './frame.js';

describe('prefault frame provider', () => {
  it('four threads, four predictions: each ramps 1, 2, 4, 8, 14 on its own, turn by turn', async () => {
    const { eng, events } = await recorded('scenarios/prefault/threads.yaml', prefaultFrames);
    const batches = events.filter((e) => e.type === EV.mmsim_anon_prefault);
    /* the first batch of each thread a miss, then each thread's own ramp */
    for (let t = 0; t < 4; t++) {
      const mine = batches.filter((e) => e.task === t).slice(0, 6);
      expect(
        mine.map((e) => e.mapped),
        `thread ${t}`,
      ).toEqual([1, 2, 4, 8, 14, 14]);
      expect(mine.map((e) => e.hit)).toEqual([false, true, true, true, true, true]);
    }
    /* after thread 2's third batch (4 pages at its page 3): its next guess is page 7, order 2; the others as they stand */
    const third = batches.filter((e) => e.task === 2)[2];
    const c = after(events, 'mmsim_anon_prefault', (e) => e === third);
    const pf = prefaultOf(eng.frame(c))!;
    const t2 = pf.threads.find((t) => t.task === 2)!;
    expect(t2.batch).toEqual({ addr: third.address, hit: true, order: 2, pages: 4, planned: 4, why: 1 });
    expect(t2.next).toBe(third.address + 4 * 4096);
    expect(t2.order).toBe(2);
    expect(t2.hits).toBe(2);
    expect(pf.threads.filter((t) => t.task !== 2).every((t) => t.batch === null)).toBe(true);
    expect(pf.mode).toBe('anticipatory');
    expect(pf.cap).toBe(14);
    eng.destroy();
  });

  it('pages per fault over the run: as many faults as pgfault counted, each at most the cap (or 512 with THP)', async () => {
    for (const [sets, faults, most] of [
      [{}, 604, 14],
      [{ anon_prefault: 'off' }, 8192, 1],
      [{ anon_prefault: 'off', thp: 'always' }, 16, 512],
    ] as const) {
      const { eng, tl, events } = await recorded(
        'scenarios/prefault/threads.yaml',
        prefaultFrames,
        sets as Record<string, string>,
      );
      const s = prefaultFrames.series!(
        tl.nEvents,
        (i) => events[i],
        eng.program,
        (t) => eng.ofTypes(t),
      ) as PagesSeries;
      expect(s.faults).toBe(faults);
      expect(eng.frame(tl.nEvents).counters[0]).toBe(faults); /* pgfault */
      expect(s.most).toBe(most);
      expect(s.x[s.x.length - 1]).toBe(faults);
      eng.destroy();
    }
  });
});
