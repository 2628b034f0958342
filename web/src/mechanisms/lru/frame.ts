/**
 * The LRU's frame provider (runs in the worker, with the engine). From the
 * core at the cursor: the five lists (a short list page by page, a long one
 * as the pages at its head and tail and proportional bands between,
 * mmsim_lru_bands), the pagevecs, free memory and the watermarks, kswapd,
 * dirty pages and the writeback requests in flight (mmsim_lru_info,
 * mmsim_writeback_queue). From the operation's events: what moved where and
 * why (mm_lru_insertion, mm_lru_activate, mmsim_lru_move, reclaim's
 * verdicts, fadvise's), for the view to draw as arrows. Over the whole run
 * (series): each file's pages in the page cache, and when kswapd ran.
 * No React here.
 */
import { EV, LRU_TAIL, LruMove, PG, ShrinkVerdict, InvalResult } from '../../../../wasm-core/ts/abi.js';
import type { Program } from '../../../../wasm-core/ts/compile.js';
import type { Sim } from '../../../../wasm-core/ts/core.js';
import type { Frame, FrameContext, FrameProvider, OfTypes } from '../../frames/types.js';
import type { SimEvent } from '../../../../wasm-core/ts/events.js';
import { LRU } from './index.js';

/** one page as a cell: its file (null anonymous), index and flags (PG_* bits) */
export interface LruPage {
  pfn: number;
  file: number | null;
  index: number;
  flags: number;
  mapped: boolean;
}

export interface LruBand {
  file: number | null;
  pages: number;
  dirty: number;
  writeback: number;
  referenced: number;
  mapped: number;
  reclaim: number;
  mixed: boolean;
}

export interface LruListView {
  list: number;
  nr: number;
  /** every page, head first (a short list), or the first pages (a long one) */
  head: LruPage[];
  /** a long list: the pages at its tail, head first (the last is the tail) */
  tail: LruPage[];
  /** a long list: the pages between, as bands of equal length */
  bands: LruBand[];
}

export interface LruWb {
  file: number;
  first: number;
  nr: number;
  reason: number;
  submitted: number;
  completeAt: number;
}

/** the operation's moves, grouped: from a list (or off every list) to a list (or reclaimed, dropped) and why */
export interface LruMoveGroup {
  from: number | null;
  to: number | 'freed' | null;
  tail: boolean;
  why: 'added' | 'activated' | 'evicted' | 'dropped' | keyof typeof LruMove;
  pfns: number[];
}

export interface LruFrame {
  clock: number;
  free: number;
  wmark: [number, number, number];
  kswapd: boolean;
  kswapdPriority: number;
  allUnreclaimable: boolean;
  dirty: number;
  writeback: number;
  bgThresh: number;
  dirtyThresh: number;
  congested: boolean;
  lists: LruListView[];
  /** the pagevecs (enum mmsim_pagevec order) */
  pvecs: LruPage[][];
  wb: LruWb[];
  /** this operation */
  moves: LruMoveGroup[];
  reclaim: {
    direct: boolean;
    kswapd: boolean;
    scanned: number;
    reclaimed: number;
    verdicts: Record<number, number>;
  } | null;
  refaults: number;
}

/** a list of up to this many pages is drawn page by page */
export const SMALL_LIST = 96;
export const HEAD_PAGES = 8,
  TAIL_PAGES = 20,
  BANDS = 48;

export function lruOf(frame: Frame): LruFrame | null {
  return (frame.mech[LRU] as LruFrame | undefined) ?? null;
}

function pageView(sim: Sim, pfn: number): LruPage {
  const p = sim.pageInfo(pfn);
  const anon = !p || (p.flags & (1 << PG.anon)) !== 0 || !p.mapping;
  return {
    pfn,
    file: anon ? null : p!.mapping - 1,
    index: p?.index ?? 0,
    flags: p?.flags ?? 0,
    mapped: (p?.mapcount ?? 0) > 0,
  };
}

function listView(sim: Sim, list: number, nr: number): LruListView {
  if (nr <= SMALL_LIST) {
    return { list, nr, head: [...sim.lruHead(list, nr)].map((p) => pageView(sim, p)), tail: [], bands: [] };
  }
  const tail = [...sim.queryWords('mmsim_lru_tail', TAIL_PAGES, list)].reverse();
  const bands = sim.queryMany('mmsim_lru_bands', 'lru_band', BANDS, list, BANDS).map((b) => ({
    file: b.file ? b.file - 1 : null,
    pages: b.pages,
    dirty: b.dirty,
    writeback: b.writeback,
    referenced: b.referenced,
    mapped: b.mapped,
    reclaim: b.reclaim,
    mixed: b.mixed !== 0,
  }));
  return {
    list,
    nr,
    head: [...sim.lruHead(list, HEAD_PAGES)].map((p) => pageView(sim, p)),
    tail: tail.map((p) => pageView(sim, p)),
    bands,
  };
}

/** the operation's page moves, grouped by where from, where to and why */
export function movesIn(ops: SimEvent[]): { moves: LruMoveGroup[]; reclaim: LruFrame['reclaim']; refaults: number } {
  const groups = new Map<string, LruMoveGroup>();
  /* where each isolated page came from (a scan takes it off, then decides) */
  const isolatedFrom = new Map<number, number>();
  let reclaim: LruFrame['reclaim'] = null,
    refaults = 0;
  const add = (from: number | null, to: LruMoveGroup['to'], tail: boolean, why: LruMoveGroup['why'], pfn: number) => {
    const key = `${from}|${to}|${tail}|${why}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { from, to, tail, why, pfns: [] }));
    g.pfns.push(pfn);
  };
  const rc = () => (reclaim ??= { direct: false, kswapd: false, scanned: 0, reclaimed: 0, verdicts: {} });
  for (const e of ops) {
    switch (e.type) {
      case EV.mm_lru_insertion:
        add(null, e.lru, false, 'added', e.pfn);
        break;
      case EV.mm_lru_activate:
        add(e.from, e.lru, false, 'activated', e.pfn);
        break;
      case EV.mmsim_lru_move:
        if (e.why === LruMove.Isolate) isolatedFrom.set(e.pfn, e.from);
        else if (e.why !== LruMove.Putback)
          add(e.from, e.to & 0xff, (e.to & LRU_TAIL) !== 0, LruMove[e.why] as keyof typeof LruMove, e.pfn);
        break;
      case EV.mmsim_shrink_page: {
        const r = rc();
        r.verdicts[e.verdict] = (r.verdicts[e.verdict] ?? 0) + 1;
        if (e.verdict === ShrinkVerdict.Reclaimed)
          add(isolatedFrom.get(e.pfn) ?? null, 'freed', false, 'evicted', e.pfn);
        break;
      }
      case EV.mmsim_invalidate_page:
        if (e.result === InvalResult.Removed) add(null, 'freed', false, 'dropped', e.pfn);
        break;
      case EV.mm_vmscan_lru_shrink_inactive: {
        const r = rc();
        r.scanned += e.scanned;
        r.reclaimed += e.reclaimed;
        break;
      }
      case EV.mm_vmscan_direct_reclaim_begin:
        rc().direct = true;
        break;
      case EV.mmsim_kswapd_pass:
        rc().kswapd = true;
        break;
      case EV.mmsim_workingset_refault:
        refaults++;
        break;
    }
  }
  return { moves: [...groups.values()], reclaim, refaults };
}

function frame(ctx: FrameContext): LruFrame {
  const { sim } = ctx;
  const info = sim.query('mmsim_lru_info', 'lru_info')!;
  const lists = [0, 1, 2, 3, 4].map((l) => listView(sim, l, info.nr[l]));
  const pvecs = info.pvec.map((n, v) =>
    n ? [...sim.queryWords('mmsim_pagevec', n, v)].map((p) => pageView(sim, p)) : [],
  );
  const wb = sim.queryMany('mmsim_writeback_queue', 'wb_request', 64).map((r) => ({
    file: r.file,
    first: r.first,
    nr: r.nr,
    reason: r.reason,
    submitted: Number(r.submitted),
    completeAt: Number(r.complete_at),
  }));
  return {
    clock: Number(info.clock),
    free: info.free,
    wmark: [info.wmark_min, info.wmark_low, info.wmark_high],
    kswapd: info.kswapd !== 0,
    kswapdPriority: info.kswapd_priority,
    allUnreclaimable: info.all_unreclaimable !== 0,
    dirty: info.dirty,
    writeback: info.writeback,
    bgThresh: info.bg_thresh,
    dirtyThresh: info.dirty_thresh,
    congested: info.congested !== 0,
    lists,
    pvecs,
    wb,
    ...movesIn(ctx.ops),
  };
}

/** one file's pages in the page cache over the run, and the stretches kswapd ran */
export interface ResidencySeries {
  file: number;
  name: string;
  x: number[];
  y: number[];
}
export interface LruSeries {
  nEvents: number;
  files: ResidencySeries[];
  kswapd: [number, number][];
  refaults: number[];
}

const MAX_POINTS = 500;

function series(nEvents: number, event: (i: number) => SimEvent, program: Program, ofTypes: OfTypes): LruSeries {
  const n = program.scenario.files.length;
  const count = new Array<number>(n).fill(0);
  const out: ResidencySeries[] = program.scenario.files.map((f, i) => ({ file: i, name: f.name, x: [0], y: [0] }));
  const every = Math.max(1, Math.ceil(nEvents / MAX_POINTS));
  const kswapd: [number, number][] = [];
  const refaults: number[] = [];
  let woke = -1;
  const read = ofTypes([
    EV.mm_filemap_add_to_page_cache,
    EV.mm_filemap_delete_from_page_cache,
    EV.mmsim_file_preload,
    EV.mm_vmscan_kswapd_wake,
    EV.mm_vmscan_kswapd_sleep,
    EV.mmsim_workingset_refault,
  ]);
  for (let k = 0; k < read.length; k++) {
    const i = read[k];
    const e = event(i);
    let f = -1;
    if (e.type === EV.mm_filemap_add_to_page_cache) {
      f = e.file;
      count[f] += 1 << e.order;
    } else if (e.type === EV.mm_filemap_delete_from_page_cache) {
      f = e.file;
      count[f] -= 1 << e.order;
    } else if (e.type === EV.mmsim_file_preload) {
      f = e.file;
      count[f] += e.nr;
    } else if (e.type === EV.mm_vmscan_kswapd_wake) woke = i;
    else if (e.type === EV.mm_vmscan_kswapd_sleep && woke >= 0) {
      kswapd.push([woke, i]);
      woke = -1;
    } else if (e.type === EV.mmsim_workingset_refault) refaults.push(i);
    /* a point at each change, thinned to one per `every` events (and the last) */
    if (f >= 0) {
      const s = out[f];
      if (i - s.x[s.x.length - 1] >= every) {
        s.x.push(i);
        s.y.push(count[f]);
      } else {
        s.y[s.y.length - 1] = count[f];
        s.x[s.x.length - 1] = i;
      }
    }
  }
  if (woke >= 0) kswapd.push([woke, nEvents]);
  for (const s of out) {
    s.x.push(nEvents);
    s.y.push(s.y[s.y.length - 1]);
  }
  return { nEvents, files: out, kswapd, refaults };
}

export const frames: FrameProvider = { id: LRU, frame, series };
