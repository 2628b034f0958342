/**
 * The large folios' frame provider against the core: the folio in focus
 * at a THP's fault, fork, remap and partial munmap (thp.yaml), as the
 * page tables and the rmap say; an operation's atomics summed from its
 * rmap events agree with the model's counters (fork.yaml, both kernels);
 * both answers of folio_likely_mapped_shared (false-negative.yaml).
 */
import { describe, expect, it } from 'vitest';
import { EV, FolioRmapOp, SetHow, SplitPmdWhy } from '../../../../wasm-core/ts/abi.js';
import { COUNTERS } from '../../../../wasm-core/ts/gen/interface.js';
import { after, recorded } from '../testing.js';
import { ENTIRELY_MAPPED, frames as largeFolioFrames, foliosOf, type FoliosFrame } from './frame.js';

const ctr = (name: string) => COUNTERS.indexOf(name as (typeof COUNTERS)[number]);

describe('large folios frame provider', () => {
  it('a THP: one PMD at its fault, two after fork, 512 PTEs in the child after its COW, half mapped and queued after a partial munmap', async () => {
    const { eng, events } = await recorded('scenarios/large-folios/thp.yaml', largeFolioFrames);
    const at = (c: number): FoliosFrame => foliosOf(eng.frame(c))!;
    /* the fault's PMD */
    let c = after(events, 'mmsim_set_pmd', (e) => e.how === SetHow.Anon);
    let f = at(c).focus!;
    expect(f.order).toBe(9);
    expect(f.entire).toBe(1);
    expect(f.large).toBe(1);
    expect(f.nrPagesMapped).toBe(ENTIRELY_MAPPED);
    expect(f.pages.every((m) => m === 0)).toBe(true);
    expect(f.maps).toEqual([expect.objectContaining({ mm: 0, pmd: true, page: 0, nr: 512, writable: true })]);
    /* fork: the child's PMD, both read-only; one entire and one large atomic */
    c = after(events, 'mmsim_folio_rmap', (e) => e.op === FolioRmapOp.DupPmd);
    let fr = at(c);
    f = fr.focus!;
    expect(f.entire).toBe(2);
    expect(f.maps.map((m) => [m.mm, m.pmd, m.writable])).toEqual([
      [0, true, false],
      [1, true, false],
    ]);
    expect(f.atomics).toEqual({ page: 0, large: 1, entire: 1, nr: 0 });
    expect(f.why).toBe('now');
    /* the child's COW: its PMD remapped, then page 5 copied; the parent keeps its PMD */
    const remap = after(events, 'mmsim_split_huge_pmd', (e) => e.why === SplitPmdWhy.Cow);
    fr = at(remap);
    expect(fr.op.remaps).toBe(1);
    c = after(events, 'mm_fault_done', () => true, remap);
    f = at(c).focus!;
    expect(f.entire).toBe(1);
    expect(f.large).toBe(1 + 511);
    expect(f.pages[5]).toBe(0);
    expect(f.pages[4]).toBe(1);
    const child = f.maps.filter((m) => m.mm === 1);
    expect(child.every((m) => !m.pmd)).toBe(true);
    expect(child.reduce((s, m) => s + m.nr, 0)).toBe(511);
    expect(child).toHaveLength(2); /* pages 0-4 and 6-511: page 5 is the child's own copy now */
    /* the parent's partial munmap: half the folio mapped, queued for a deferred split */
    c = after(events, 'mmsim_deferred_split');
    fr = at(c);
    expect(fr.op.queued).toBe(1);
    f = fr.focus!;
    expect(f.queued).toBe(true);
    expect(f.nrPagesMapped).toBe(256);
    expect(fr.census).toEqual({ large: 1, pmdMapped: 0, queued: 1, pages: 512 });
    eng.destroy();
  });

  it("an operation's atomics, summed from its rmap events, are the model's counters: fork of 16 MiB of order-2 folios, 6.10 and 6.9", async () => {
    for (const lm of ['true', 'false']) {
      const { eng, events } = await recorded('scenarios/large-folios/fork.yaml', largeFolioFrames, {
        large_mapcount: lm,
      });
      const fork = events.findIndex((e) => e.type === EV.mmsim_folio_rmap && e.op === FolioRmapOp.DupPtes);
      const last =
        events.length -
        1 -
        [...events].reverse().findIndex((e) => e.type === EV.mmsim_folio_rmap && e.op === FolioRmapOp.DupPtes);
      const before = eng.frame(fork).counters,
        end = eng.frame(last + 1);
      const fr = foliosOf(end)!;
      expect(fr.op.rmaps).toBe(1024);
      expect(fr.op.kinds[FolioRmapOp.DupPtes]).toBe(1024);
      expect(fr.op.atomics.page).toBe(
        end.counters[ctr('rmap_atomic_page_mapcount')] - before[ctr('rmap_atomic_page_mapcount')],
      );
      expect(fr.op.atomics.large).toBe(
        end.counters[ctr('rmap_atomic_large_mapcount')] - before[ctr('rmap_atomic_large_mapcount')],
      );
      expect(fr.op.atomics).toEqual({ page: 4096, large: lm === 'true' ? 1024 : 0, entire: 0, nr: 0 });
      expect(fr.v610).toBe(lm === 'true');
      expect(fr.census.large).toBe(1024);
      /* the focus after the fork: the folio of its last batch, mapped by both, 2 per page */
      expect(fr.focus!.pages).toEqual([2, 2, 2, 2]);
      expect(new Set(fr.focus!.maps.map((m) => m.mm))).toEqual(new Set([0, 1]));
      eng.destroy();
    }
  });

  it('folio_likely_mapped_shared: 6.9 says not shared, 6.10 shared, whichever kernel the run follows', async () => {
    for (const lm of ['true', 'false']) {
      const { eng, tl } = await recorded('scenarios/large-folios/false-negative.yaml', largeFolioFrames, {
        large_mapcount: lm,
      });
      const f = foliosOf(eng.frame(tl.nEvents))!.focus!;
      expect(f.mapcount).toBe(7);
      expect(f.pages).toEqual([1, 2, 2, 2]);
      expect(f.sharedOld).toBe(false);
      expect(f.sharedNew).toBe(true);
      eng.destroy();
    }
  });
});
