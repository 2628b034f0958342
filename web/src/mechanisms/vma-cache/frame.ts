/**
 * The VMA cache's frame provider (runs in the worker, with the engine):
 * every task's four slots and seqnum and its mm's seqnum and mmap_cache,
 * straight from the core (mmsim_vmacache_info), the top of each mm's VMA
 * rb-tree (mmsim_vma_tree), and the lookup of the operation at the cursor,
 * told by its events (mmsim_vmacache_find, the walk's mmsim_find_vma_walk,
 * mmsim_vmacache_update). Over the whole run (series): each thread's hit
 * rate after each of its lookups, for the chart. No React here.
 */
import { COUNTERS, EV } from '../../../../wasm-core/ts/abi.js';
import type { Program } from '../../../../wasm-core/ts/compile.js';
import type { Frame, FrameContext, FrameProvider, OfTypes } from '../../frames/types.js';
import type { SimEvent, SimEventOf } from '../../../../wasm-core/ts/events.js';
import { VMA_CACHE } from './index.js';

export interface TaskCache {
  task: number;
  name: string;
  mm: number;
  alive: boolean;
  /** the task's vmacache_seqnum and four slots (vma ids, 0 empty) */
  seqnum: number;
  slots: number[];
  calls: number;
  hits: number;
}

export interface TreeNode {
  id: number;
  left: number;
  right: number;
  depth: number;
  red: boolean;
}

export interface MmCache {
  mm: number;
  seqnum: number;
  /** 3.14's mm->mmap_cache (vma id, 0 none) */
  mmapCache: number;
  /** the rb-tree, breadth first, down to TREE_DEPTH */
  tree: TreeNode[];
}

export interface WalkStep {
  vma: number;
  depth: number;
  above: boolean;
}

/** the operation's find_vma(), as far as the cursor has got */
export interface Lookup {
  task: number;
  mm: number;
  addr: number;
  /** the VMA the cache answered with (0 on a miss), the slot it was in, why it missed (1 not cached, 2 seqnum flush) */
  hit: number;
  slot: number | null;
  reason: 0 | 1 | 2;
  /** a miss's rb-tree walk, node by node, and what the cache stored after it */
  walk: WalkStep[];
  update: { slot: number; vma: number; old: number } | null;
  /** the lookup has finished (a hit, or a miss whose walk and update are past) */
  done: boolean;
  /** a later find_vma in this operation exists (munmap looks up its start and end) */
  of: { n: number; i: number };
}

export interface VmaCacheFrame {
  /** off: no cache at all, every find_vma() walks the tree (Linux 6.1 on, and the letter's baseline) */
  mode: 'per-thread' | 'mm-wide' | 'off';
  tasks: TaskCache[];
  mms: MmCache[];
  lookup: Lookup | null;
  /** this operation invalidated: the mm, its seqnum after (mm-wide: mmap_cache after), wrapped, threads flushed by flush_all */
  invalidate: { mm: number; value: number; wrapped: boolean; mmWide: boolean; flushed: number | null } | null;
}

/** one thread's hit rate over the run: after its k-th lookup (x: the run's lookups so far) */
export interface RateSeries {
  task: number;
  name: string;
  x: number[];
  rate: number[];
  calls: number;
  hits: number;
}
export interface VmaCacheSeries {
  lookups: number;
  threads: RateSeries[];
}

/** tree levels drawn: 63 nodes, more than the scenarios' trees and the top of any other */
export const TREE_DEPTH = 5;
const MAX_POINTS = 400;

export function vmaCacheOf(frame: Frame): VmaCacheFrame | null {
  return (frame.mech[VMA_CACHE] as VmaCacheFrame | undefined) ?? null;
}

/** the last lookup in the operation's events, with its walk and update */
export function lookupIn(ops: SimEvent[]): { lookup: Lookup | null; invalidate: VmaCacheFrame['invalidate'] } {
  let lookup: Lookup | null = null,
    invalidate: VmaCacheFrame['invalidate'] = null;
  const finds = ops.filter((e) => e.type === EV.mmsim_vmacache_find).length;
  let i = 0;
  for (const e of ops) {
    if (e.type === EV.mmsim_vmacache_find) {
      const hit = e.vma;
      lookup = {
        task: e.task ?? 0,
        mm: e.mm,
        addr: e.address,
        hit,
        slot: hit ? e.slot : null,
        reason: hit ? 0 : e.miss === 2 ? 2 : 1,
        walk: [],
        update: null,
        done: hit !== 0,
        of: { n: finds, i: i++ },
      };
    } else if (e.type === EV.mmsim_find_vma_walk && lookup) {
      lookup.walk.push({ vma: e.vma, depth: e.depth, above: e.candidate });
    } else if (e.type === EV.mmsim_vmacache_update && lookup) {
      lookup.update = { slot: e.slot, vma: e.vma, old: e.old };
      lookup.done = true;
    } else if (lookup && !lookup.done) {
      /* a miss with nothing found (no VMA above the address): the walk ended without an update */
      lookup.done = true;
    }
    if (e.type === EV.mmsim_vmacache_invalidate)
      invalidate = { mm: e.mm, value: e.seqnum, wrapped: e.wrap === 1, mmWide: e.wrap === 2, flushed: null };
    if (e.type === EV.mmsim_vmacache_flush_all && invalidate) invalidate.flushed = e.threads;
  }
  return { lookup, invalidate };
}

function frame(ctx: FrameContext): VmaCacheFrame {
  const { sim, program } = ctx;
  const tasks: TaskCache[] = [];
  const byMm = new Map<number, MmCache>();
  for (let t = 0; t < program.tasks.length; t++) {
    const r = sim.query('mmsim_vmacache_info', 'vmacache_info', t);
    const info = sim.taskInfo(t);
    if (!r) continue;
    tasks.push({
      task: t,
      name: program.tasks[t],
      mm: r.mm,
      alive: info.alive,
      seqnum: r.seqnum,
      slots: r.slot,
      calls: info.counters.vmacache_find_calls ?? 0,
      hits: info.counters.vmacache_find_hits ?? 0,
    });
    if (!byMm.has(r.mm)) byMm.set(r.mm, { mm: r.mm, seqnum: r.mm_seqnum, mmapCache: r.mmap_cache, tree: [] });
  }
  for (const m of byMm.values())
    m.tree = sim
      .queryMany('mmsim_vma_tree', 'vma_node', 2 ** (TREE_DEPTH + 1), m.mm, TREE_DEPTH)
      .map((n) => ({ id: n.id, left: n.left, right: n.right, depth: n.depth, red: n.red !== 0 }));
  /* the scenario as run: its kernel tunables with any override applied */
  const mode = program.scenario.kernel.vmacache;
  return { mode, tasks, mms: [...byMm.values()], ...lookupIn(ctx.ops) };
}

/** each thread's cumulative hit rate, sampled to at most MAX_POINTS points per thread */
function series(_n: number, event: (i: number) => SimEvent, program: Program, ofTypes: OfTypes): VmaCacheSeries {
  const total = new Map<number, number>();
  const finds: number[] = [];
  const all = ofTypes([EV.mmsim_vmacache_find]);
  for (let k = 0; k < all.length; k++) {
    const i = all[k];
    const e = event(i);
    if (e.type !== EV.mmsim_vmacache_find || e.task === null) continue;
    finds.push(i);
    total.set(e.task, (total.get(e.task) ?? 0) + 1);
  }
  const out = new Map<number, RateSeries>();
  const every = new Map([...total].map(([t, n]) => [t, Math.max(1, Math.ceil(n / MAX_POINTS))]));
  finds.forEach((i, k) => {
    const e = event(i) as SimEventOf<'mmsim_vmacache_find'>;
    const t = e.task!;
    let s = out.get(t);
    if (!s) out.set(t, (s = { task: t, name: program.tasks[t] ?? `task ${t}`, x: [], rate: [], calls: 0, hits: 0 }));
    s.calls++;
    if (e.vma) s.hits++;
    if (s.calls % every.get(t)! === 0 || s.calls === total.get(t) || s.calls === 1) {
      s.x.push(k + 1);
      s.rate.push(s.hits / s.calls);
    }
  });
  return { lookups: finds.length, threads: [...out.values()].sort((a, b) => a.task - b.task) };
}

export const frames: FrameProvider = { id: VMA_CACHE, frame, series };

/** the run's lookups so far, at the cursor (x of the chart) */
export const lookupsAt = (counters: number[]): number => counters[COUNTERS.indexOf('vmacache_find_calls')] ?? 0;
