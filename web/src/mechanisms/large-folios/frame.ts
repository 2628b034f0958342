/**
 * The large folios' frame provider (runs in the worker, with the engine).
 * From the core at the cursor: the folio in focus - each page's
 * _mapcount, its _large_mapcount, _entire_mapcount, _nr_pages_mapped and
 * refcount, both kernels' folio_likely_mapped_shared(), every mapping of
 * it (mmsim_folio_info, mmsim_folio_pages, mmsim_folio_maps) - and a
 * census of the large folios. From the operation's events: its rmap
 * operations and the atomics they cost, the remaps and deferred splits.
 *
 * The focus: inside an operation, the folio of the last rmap event so far
 * (it follows the batches one by one); at an operation's end, the first
 * folio the operation touched; otherwise the first large folio in memory.
 * No React here.
 */
import { EV, FolioRmapOp, PgtLevel } from '../../../../wasm-core/ts/abi.js';
import type { Sim } from '../../../../wasm-core/ts/core.js';
import { CAUSE, type Frame, type FrameContext, type FrameProvider } from '../../frames/types.js';
import type { SimEvent, SimEventOf } from '../../../../wasm-core/ts/events.js';
import { rmapAtomics } from '../../../../wasm-core/ts/describe/large-folios.js';
import { LARGE_FOLIOS } from './index.js';

export const ENTIRELY_MAPPED = 0x800000;

export interface FolioSummary {
  head: number;
  order: number;
  refcount: number;
  mapcount: number;
  /** _large_mapcount + 1, _entire_mapcount + 1, _nr_pages_mapped as stored (| ENTIRELY_MAPPED) */
  large: number;
  entire: number;
  nrPagesMapped: number;
  queued: boolean;
  sharedOld: boolean;
  sharedNew: boolean;
  anon: boolean;
}

export interface FolioMapRun {
  mm: number;
  addr: number;
  pmd: boolean;
  page: number;
  nr: number;
  writable: boolean;
}

export interface Atomics {
  page: number;
  large: number;
  entire: number;
  nr: number;
}

export interface FolioFocus extends FolioSummary {
  /** _mapcount + 1 of each page */
  pages: number[];
  maps: FolioMapRun[];
  /** pages this operation's rmap events touched so far (a mark per page) */
  touched: number[];
  /** this operation's rmap events on this folio, and their atomics */
  ops: number;
  atomics: Atomics;
  /** pointed: a tour's beat highlights it */
  why: 'now' | 'op' | 'first' | 'pointed';
}

export interface FoliosFrame {
  census: { large: number; pmdMapped: number; queued: number; pages: number };
  focus: FolioFocus | null;
  /** this operation, every folio: rmap operations by kind, their atomics, remaps, folios queued and split */
  op: {
    rmaps: number;
    kinds: Record<number, number>;
    atomics: Atomics;
    remaps: number;
    queued: number;
    splits: number;
    freed: number;
  };
  /** the kernel this run follows: 6.10 (large_mapcount true) or 6.9 */
  v610: boolean;
  /** the cursor stands just after the focus folio's birth (its new-folio rmap): its entries come next */
  fresh: boolean;
}

export function foliosOf(frame: Frame): FoliosFrame | null {
  return (frame.mech[LARGE_FOLIOS] as FoliosFrame | undefined) ?? null;
}

const zero = (): Atomics => ({ page: 0, large: 0, entire: 0, nr: 0 });
const add = (a: Atomics, e: SimEventOf<'mmsim_folio_rmap'>) => {
  const x = rmapAtomics(e);
  a.page += x.page;
  a.large += x.large;
  a.entire += x.entire;
  a.nr += x.nr;
};

function summary(sim: Sim, pfn: number): FolioSummary | null {
  const f = sim.query('mmsim_folio_info', 'folio_info', pfn);
  if (!f || f.order === 0) return null;
  return {
    head: f.head,
    order: f.order,
    refcount: f.refcount,
    mapcount: f.mapcount,
    large: f.large_mapcount,
    entire: f.entire_mapcount,
    nrPagesMapped: f.nr_pages_mapped,
    queued: f.queued !== 0,
    sharedOld: f.shared_old !== 0,
    sharedNew: f.shared_new !== 0,
    anon: (f.flags & (1 << 27)) !== 0,
  };
}

/** the folio an event names (its head), for the events that name one */
function folioOf(e: SimEvent): number | null {
  switch (e.type) {
    case EV.mmsim_folio_rmap:
    case EV.mmsim_split_huge_pmd:
    case EV.mmsim_set_pmd:
    case EV.mmsim_deferred_split:
      return e.head || null;
    default:
      return null;
  }
}

export function opSummary(ops: SimEvent[]): FoliosFrame['op'] {
  const op: FoliosFrame['op'] = { rmaps: 0, kinds: {}, atomics: zero(), remaps: 0, queued: 0, splits: 0, freed: 0 };
  for (const e of ops) {
    if (e.type === EV.mmsim_folio_rmap) {
      op.rmaps++;
      op.kinds[e.op] = (op.kinds[e.op] ?? 0) + 1;
      add(op.atomics, e);
    } else if (e.type === EV.mmsim_split_huge_pmd) op.remaps++;
    else if (e.type === EV.mmsim_deferred_split) op.queued++;
    else if (e.type === EV.mmsim_split_huge_page) {
      op.splits++;
      op.freed += e.freed;
    }
  }
  return op;
}

/** the folio a tour's beat points at: the one mapping page `page` of the mapping named `vma`, in the first process that maps it */
function pointedAt(sim: Sim, ctx: FrameContext): FolioSummary | null {
  const f = ctx.focus;
  const map = f ? ctx.program.maps.indexOf(f.vma) : -1;
  if (!f || map < 0) return null;
  for (const mm of ctx.mms) {
    const v = mm.alive ? mm.vmas.find((x) => x.map === map) : undefined;
    if (!v || v.start + f.page * 4096 >= v.end) continue;
    const addr = v.start + f.page * 4096;
    /* its PTE's frame, or its PMD's for a THP mapped whole */
    const { entries } = sim.pteTable(mm.id, BigInt(addr));
    let pfn = Number((entries[(addr / 4096) % 512] >> 12n) & 0xffffffffffn);
    if (!pfn) {
      const w = sim.walk(mm.id, BigInt(addr));
      const pmd = w.entry[2] ?? 0n;
      if (pmd & 0x80n) pfn = Number((pmd >> 12n) & 0xffffffffffn) + ((addr / 4096) % 512);
    }
    const s = pfn ? summary(sim, pfn) : null;
    if (s) return s;
  }
  return null;
}

function focusOf(sim: Sim, ctx: FrameContext): { f: FolioSummary; why: FolioFocus['why'] } | null {
  const pointed = pointedAt(sim, ctx);
  if (pointed) return { f: pointed, why: 'pointed' };
  if (ctx.partial.length) {
    for (let i = ctx.partial.length - 1; i >= 0; i--) {
      const h = folioOf(ctx.partial[i]);
      const f = h === null ? null : summary(sim, h);
      if (f) return { f, why: 'now' };
    }
  } else {
    for (const e of ctx.ops) {
      const h = folioOf(e);
      const f = h === null ? null : summary(sim, h);
      if (f) return { f, why: 'op' };
    }
  }
  /* the first large folio in memory */
  const [first] = sim.queryWords('mmsim_large_folios', 1);
  const f = first === undefined ? null : summary(sim, first);
  return f ? { f, why: 'first' } : null;
}

function frame(ctx: FrameContext): FoliosFrame {
  const { sim } = ctx;
  const c = sim.query('mmsim_folio_census', 'folio_census')!;
  const picked = focusOf(sim, ctx);
  let focus: FolioFocus | null = null;
  if (picked) {
    const { f, why } = picked;
    const nr = 2 ** f.order;
    const pages = [...sim.queryWords('mmsim_folio_pages', nr, f.head)];
    const maps = sim.queryMany('mmsim_folio_maps', 'folio_map', 64, f.head).map((m) => ({
      mm: m.mm,
      addr: Number(m.addr),
      pmd: m.level === PgtLevel.Pmd,
      page: m.page,
      nr: m.nr,
      writable: (m.bits & 2) !== 0,
    }));
    const touchedSet = new Set<number>();
    const atomics = zero();
    let ops = 0;
    for (const e of ctx.partial.length ? ctx.partial : ctx.ops) {
      if (e.type !== EV.mmsim_folio_rmap || e.head !== f.head) continue;
      ops++;
      add(atomics, e);
      const first = e.first_pfn - e.head;
      const n =
        e.op === FolioRmapOp.NewPmd || e.op === FolioRmapOp.RemovePmd || e.op === FolioRmapOp.DupPmd ? nr : e.nr;
      for (let i = 0; i < n && first + i < nr; i++) touchedSet.add(first + i);
    }
    focus = { ...f, pages, maps, touched: [...touchedSet].sort((a, b) => a - b), ops, atomics, why };
  }
  return {
    census: { large: c.large, pmdMapped: c.pmd_mapped, queued: c.queued, pages: c.pages },
    focus,
    op: opSummary(ctx.partial.length ? ctx.partial : ctx.ops),
    v610: ctx.program.scenario.kernel.large_mapcount !== false,
    fresh: (() => {
      const last = ctx.partial[ctx.partial.length - 1];
      return (
        !!focus &&
        !!last &&
        last.type === EV.mmsim_folio_rmap &&
        last.head === focus.head &&
        (last.op === FolioRmapOp.NewPtes || last.op === FolioRmapOp.NewPmd)
      );
    })(),
  };
}

export const frames: FrameProvider = {
  id: LARGE_FOLIOS,
  frame,
  /* a large folio's pages drawn as one block in the address space (mmsim_folio_joins: bit p, page p continues p - 1's folio) */
  pages: ({ sim, mm, vma }) => ({
    joins: sim.queryWords(
      'mmsim_folio_joins',
      Math.ceil((vma.end - vma.start) / 4096 / 32),
      mm,
      Math.floor(vma.start / 2 ** 32),
      vma.start % 2 ** 32,
      (vma.end - vma.start) / 4096,
    ),
  }),
  /* __split_huge_pmd: a PMD remapped by 512 PTEs, each page now a PTE of the THP (or of the huge zero page) */
  tableChanges: {
    mmsim_split_huge_pmd: (e) => ({
      mm: e.mm,
      address: e.address,
      pages: 512,
      cause: e.head ? CAUSE.anon : CAUSE.zero,
      remap: true,
    }),
  },
};
