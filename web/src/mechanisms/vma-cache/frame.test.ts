/**
 * The VMA cache's frame provider against the core: the slots and seqnums it
 * reads, the lookup it tells from the events (hit, miss, the walk, the
 * update), the tree, and the hit-rate series over a whole run.
 */
import { describe, expect, it } from 'vitest';
import { after, recorded } from '../testing.js';
import { frames as vmaCacheFrames, vmaCacheOf, type VmaCacheSeries } from './frame.js';

const engineOf = (file: string, sets: Record<string, string> = {}) => recorded(file, vmaCacheFrames, sets);

describe('vma-cache frame provider', () => {
  it('ebizzy: the first fault misses, walks the tree and stores the chunk in slot 0; the next one hits', async () => {
    const { eng, events } = await engineOf('scenarios/vma-cache/ebizzy.yaml');
    const miss = after(events, 'mmsim_vmacache_find');
    let vc = vmaCacheOf(eng.frame(miss))!;
    expect(vc.mode).toBe('per-thread');
    expect(vc.lookup).toMatchObject({ task: 0, hit: 0, reason: 1, done: false, update: null });
    /* the whole fault: the walk and the update are told, and the core's slot agrees */
    const upd = after(events, 'mmsim_vmacache_update');
    vc = vmaCacheOf(eng.frame(upd))!;
    expect(vc.lookup!.walk.length).toBeGreaterThanOrEqual(1);
    expect(vc.lookup!.walk.at(-1)!.above).toBe(true);
    expect(vc.lookup!.update!.slot).toBe(0);
    expect(vc.lookup!.done).toBe(true);
    const c0 = vc.lookup!.update!.vma;
    expect(vc.tasks[0].slots).toEqual([c0, 0, 0, 0]);
    expect(vc.tasks[0]).toMatchObject({ name: 'ebizzy.0', seqnum: 0, calls: 1, hits: 0 });
    /* the tree holds the four chunks, root first; the found node is among them */
    const tree = vc.mms[0].tree;
    expect(tree).toHaveLength(4);
    expect(tree[0].depth).toBe(0);
    expect(tree.map((n) => n.id)).toContain(c0);
    /* thread 0's second fault: a hit in slot 0, no walk */
    const hit = after(events, 'mmsim_vmacache_find', (e) => e.vma === c0, upd);
    vc = vmaCacheOf(eng.frame(hit))!;
    expect(vc.lookup).toMatchObject({ task: 0, hit: c0, slot: 0, reason: 0, walk: [], done: true });
    eng.destroy();
  });

  it('ebizzy: a munmap bumps the mm seqnum; mm-wide mode shows the single shared slot', async () => {
    const { eng, events } = await engineOf('scenarios/vma-cache/ebizzy.yaml');
    const inv = after(events, 'mmsim_vmacache_invalidate');
    const vc = vmaCacheOf(eng.frame(inv))!;
    expect(vc.invalidate).toMatchObject({ value: 1, wrapped: false, mmWide: false });
    expect(vc.mms[0].seqnum).toBe(1);
    /* no thread's slots changed yet: they flush at their next lookup */
    expect(vc.tasks.every((t) => t.seqnum === 0 && t.slots[0] !== 0)).toBe(true);
    eng.destroy();
    const b = await engineOf('scenarios/vma-cache/ebizzy.yaml', { vmacache: 'mm-wide' });
    const upd = after(b.events, 'mmsim_vmacache_update');
    const vb = vmaCacheOf(b.eng.frame(upd))!;
    expect(vb.mode).toBe('mm-wide');
    expect(vb.mms[0].mmapCache).toBe(vb.lookup!.update!.vma);
    expect(vb.tasks[0].slots).toEqual([0, 0, 0, 0]);
    b.eng.destroy();
  });

  it('the seqnum wrap: flush_all empties every thread, and the frame says so', async () => {
    const { eng, events } = await engineOf('scenarios/vma-cache/seqnum-wrap.yaml');
    const at = after(events, 'mmsim_vmacache_flush_all');
    const vc = vmaCacheOf(eng.frame(at))!;
    expect(vc.invalidate).toMatchObject({ value: 0, wrapped: true, flushed: 3 });
    expect(vc.tasks.map((t) => t.slots)).toEqual([
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(vc.mms[0].seqnum).toBe(0);
    eng.destroy();
  });

  it("the series: each thread's hit rate over the run, ending at the counters' rate", async () => {
    const { eng, tl, events } = await engineOf('scenarios/vma-cache/ebizzy.yaml');
    const s = vmaCacheFrames.series!(
      tl.nEvents,
      (i) => events[i],
      eng.program,
      (t) => eng.ofTypes(t),
    ) as VmaCacheSeries;
    expect(s.lookups).toBe(28736);
    expect(s.threads.map((t) => t.name)).toEqual(['ebizzy.0', 'ebizzy.1', 'ebizzy.2', 'ebizzy.3']);
    for (const t of s.threads) {
      expect(t.calls).toBe(7184);
      expect(t.x.length).toBeLessThanOrEqual(402);
      expect(t.rate.at(-1)).toBeCloseTo(t.hits / t.calls, 9);
      expect(t.x.every((x, i) => i === 0 || x > t.x[i - 1])).toBe(true);
    }
    expect(s.threads[0].hits).toBe(7168);
    eng.destroy();
  });
});
