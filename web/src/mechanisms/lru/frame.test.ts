/**
 * The LRU's frame provider against the core: a long list drawn as head,
 * bands and tail agrees with the list page by page (mmsim_lru_bands against
 * mmsim_lru_head and mmsim_page_info); the operation's moves and reclaim as
 * the events tell them; the pagevecs; the residency series over a run.
 */
import { describe, expect, it } from 'vitest';
import { LruList, LruMove, PG, Pagevec, RunStatus, ShrinkVerdict } from '../../../../wasm-core/ts/abi.js';
import { loadCore, programOf } from '../../../../wasm-core/test/helpers.js';
import { after, recorded } from '../testing.js';
import { BANDS, HEAD_PAGES, frames as lruFrames, lruOf, SMALL_LIST, TAIL_PAGES, type LruSeries } from './frame.js';

const BACKUP = 'scenarios/lru/backup.yaml';

const engineOf = (file: string, sets: Record<string, string> = {}) => recorded(file, lruFrames, sets);

describe('lru frame provider', () => {
  it("a long list as bands: every page counted once, flags summed as the pages say, head and tail the list's own", async () => {
    const core = await loadCore();
    const sim = core.createSim({ trace: false });
    sim.load(programOf(BACKUP).bytes);
    while (sim.run(1 << 16) === RunStatus.Work);
    for (const list of [LruList.InactiveFile, LruList.ActiveFile]) {
      const info = sim.query('mmsim_lru_info', 'lru_info')!;
      const nr = info.nr[list];
      expect(nr).toBeGreaterThan(SMALL_LIST);
      const pages = [...sim.lruHead(list, nr)];
      expect(pages).toHaveLength(nr);
      const bands = sim.queryMany('mmsim_lru_bands', 'lru_band', BANDS, list, BANDS);
      expect(bands).toHaveLength(BANDS);
      expect(bands.reduce((a, b) => a + b.pages, 0)).toBe(nr);
      /* band k holds pages [k * nr / BANDS, (k + 1) * nr / BANDS): its counts are those pages' flags */
      let i = 0;
      for (const b of bands) {
        const mine = pages.slice(i, i + b.pages).map((p) => sim.pageInfo(p)!);
        i += b.pages;
        const bit = (f: number) => mine.filter((p) => (p.flags & (1 << f)) !== 0).length;
        expect(b.dirty).toBe(bit(PG.dirty));
        expect(b.writeback).toBe(bit(PG.writeback));
        expect(b.referenced).toBe(bit(PG.referenced));
        expect(b.reclaim).toBe(bit(PG.reclaim));
        expect(b.mapped).toBe(mine.filter((p) => p.mapcount > 0).length);
        const files = new Set(mine.map((p) => p.mapping));
        expect(b.mixed).toBe(files.size > 1 ? 1 : 0);
        if (files.size === 1) expect(b.file).toBe(mine[0].mapping);
      }
      /* the tail query: the last pages, tail first */
      expect([...sim.queryWords('mmsim_lru_tail', TAIL_PAGES, list)]).toEqual(pages.slice(-TAIL_PAGES).reverse());
    }
    sim.destroy();
  });

  it('backup: the first deactivation is drawn as a move from the active list with PG_reclaim; the pagevec holds the rest', async () => {
    const { eng, events } = await engineOf(BACKUP);
    const at = after(events, 'mmsim_lru_move', (e) => e.why === LruMove.DeactivateFile);
    const lru = lruOf(eng.frame(at))!;
    const g = lru.moves.find((m) => m.why === 'DeactivateFile')!;
    expect(g).toBeTruthy();
    expect(g.to).toBe(LruList.InactiveFile);
    expect(g.pfns).toHaveLength(1);
    /* the moved page is at the inactive head, PG_reclaim set, as the frame's cells say */
    const head = lru.lists[LruList.InactiveFile].head[0];
    expect(head.pfn).toBe(g.pfns[0]);
    expect(head.flags & (1 << PG.reclaim)).not.toBe(0);
    /* a long list keeps HEAD_PAGES + TAIL_PAGES cells and bands for the rest */
    const active = lru.lists[LruList.ActiveFile];
    expect(active.head).toHaveLength(HEAD_PAGES);
    expect(active.tail).toHaveLength(TAIL_PAGES);
    expect(active.bands.reduce((a, b) => a + b.pages, 0)).toBe(active.nr);
    /* 2.6.39's deactivate_page() queues a page that stays on its list (PG_lru) until the pagevec drains */
    expect(lru.pvecs[Pagevec.Deactivate].length).toBeGreaterThan(0);
    for (const p of lru.pvecs[Pagevec.Deactivate]) expect(p.flags & (1 << PG.lru)).not.toBe(0);
    eng.destroy();
  });

  it('backup: a reclaim step is told with its scan, its verdicts and the pages it freed', async () => {
    const { eng, events } = await engineOf(BACKUP);
    const at = after(events, 'mmsim_shrink_page', (e) => e.verdict === ShrinkVerdict.Reclaimed);
    const op = eng.frame(at);
    const lru = lruOf(op)!;
    expect(lru.reclaim).not.toBeNull();
    expect(lru.reclaim!.verdicts[ShrinkVerdict.Reclaimed]).toBeGreaterThanOrEqual(1);
    const freed = lru.moves.filter((m) => m.to === 'freed' && m.why === 'evicted');
    expect(freed.reduce((a, m) => a + m.pfns.length, 0)).toBe(lru.reclaim!.verdicts[ShrinkVerdict.Reclaimed]);
    /* reclaim takes from the inactive file list */
    expect(freed.every((m) => m.from === LruList.InactiveFile)).toBe(true);
    eng.destroy();
  });

  it('backup: the residency series ends with what each file has in the page cache; 2.6.38 loses the working set on the way', async () => {
    for (const [mode, dbMin] of [
      ['deactivate', 1536],
      ['invalidate-only', 0],
    ] as const) {
      const { eng, tl, events } = await engineOf(BACKUP, { fadvise_dontneed: mode });
      const s = lruFrames.series!(
        tl.nEvents,
        (i) => events[i],
        eng.program,
        (t) => eng.ofTypes(t),
      ) as LruSeries;
      const db = s.files.find((f) => f.name === 'db')!;
      expect(db.y.at(-1)).toBe(1536);
      if (mode === 'deactivate') expect(Math.min(...db.y.slice(db.y.indexOf(1536)))).toBe(dbMin);
      else expect(Math.min(...db.y.slice(db.y.indexOf(1536)))).toBeLessThan(1536);
      expect(s.kswapd.length).toBeGreaterThan(0);
      expect(s.files.every((f) => f.x.length <= 502)).toBe(true);
      eng.destroy();
    }
  });
});
