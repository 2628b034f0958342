/**
 * The anticipatory prefault's frame provider (runs in the worker, with the
 * engine). From the core at the cursor: each thread's prediction
 * (mmsim_prefault_state: the address it expects its next fault at, and
 * its order) and counters. From the operation's events: the batch of the
 * fault at the cursor. Over the whole run (series): the pages each fault
 * mapped, for every kind of fault (a prefault batch, a THP, an mTHP folio,
 * one page), sampled to at most MAX_POINTS buckets. No React here.
 */
import { EV, FaultKind } from '../../../../wasm-core/ts/abi.js';
import type { Program } from '../../../../wasm-core/ts/compile.js';
import type { FaultMark, FaultNote, Frame, FrameContext, FrameProvider, OfTypes } from '../../frames/types.js';
import { fmt, hex } from '../../lib/format.js';
import type { SimEvent, SimEventOf } from '../../../../wasm-core/ts/events.js';
import { PREFAULT } from './index.js';

export const MAX_POINTS = 1500;

export interface ThreadPrediction {
  task: number;
  name: string;
  alive: boolean;
  mm: number;
  next: number;
  order: number;
  hits: number;
  faults: number;
  ahead: number;
  /** the batch of this thread's fault in the operation at the cursor, if any */
  batch: { addr: number; hit: boolean; order: number; pages: number; planned: number; why: number } | null;
}

export interface PrefaultFrame {
  threads: ThreadPrediction[];
  mode: 'anticipatory' | 'off';
  cap: number;
}

/** pages mapped per fault over the run: per bucket of faults, the least, the most and the mean */
export interface PagesSeries {
  faults: number;
  x: number[];
  min: number[];
  max: number[];
  mean: number[];
  most: number;
}

export function prefaultOf(frame: Frame): PrefaultFrame | null {
  return (frame.mech[PREFAULT] as PrefaultFrame | undefined) ?? null;
}

function frame(ctx: FrameContext): PrefaultFrame {
  const { sim, program } = ctx;
  const batches = new Map<number, ThreadPrediction['batch']>();
  for (const e of ctx.ops)
    if (e.type === EV.mmsim_anon_prefault && e.task !== null)
      batches.set(e.task, {
        addr: e.address,
        hit: e.hit,
        order: e.order,
        pages: e.mapped,
        planned: e.planned,
        why: e.end,
      });
  const threads: ThreadPrediction[] = [];
  program.procs.forEach((pr, mm) => {
    for (let k = 0; k < pr.threads; k++) {
      const task = pr.firstTask + k;
      const st = sim.query('mmsim_prefault_state', 'prefault_state', task);
      const c = sim.taskInfo(task).counters;
      threads.push({
        task,
        name: program.tasks[task] ?? `task ${task}`,
        alive: !!st?.alive,
        mm,
        next: Number(st?.next_addr ?? 0),
        order: st?.order ?? 0,
        hits: c.prefault_hits ?? 0,
        faults: c.pgfault ?? 0,
        ahead: c.prefault_pages ?? 0,
        batch: batches.get(task) ?? null,
      });
    }
  });
  const k = program.scenario.kernel;
  return {
    threads,
    mode: k.anon_prefault === 'anticipatory' ? 'anticipatory' : 'off',
    cap: Number(k.anon_prefault_cap ?? 14),
  };
}

function series(_n: number, event: (i: number) => SimEvent, _program: Program, ofTypes: OfTypes): PagesSeries {
  const pages: number[] = [];
  const done = ofTypes([EV.mm_fault_done]);
  for (let k = 0; k < done.length; k++) {
    const e = event(done[k]);
    if (e.type === EV.mm_fault_done && e.kind !== FaultKind.Retry && e.kind !== FaultKind.Error) pages.push(e.mapped);
  }
  const per = Math.max(1, Math.ceil(pages.length / MAX_POINTS));
  let most = 1;
  for (const v of pages) if (v > most) most = v; /* a loop: spreading 262,144 values overflows the stack */
  const out: PagesSeries = { faults: pages.length, x: [], min: [], max: [], mean: [], most };
  for (let b = 0; b < pages.length; b += per) {
    const end = Math.min(pages.length, b + per);
    let lo = Infinity,
      hi = 0,
      sum = 0;
    for (let i = b; i < end; i++) {
      lo = Math.min(lo, pages[i]);
      hi = Math.max(hi, pages[i]);
      sum += pages[i];
    }
    out.x.push(end);
    out.min.push(lo);
    out.max.push(hi);
    out.mean.push(sum / (end - b));
  }
  return out;
}

/* the batch of the fault in progress (a bracket, as fault-around's window) and the page it predicts next (a dashed cell) */
function fault(
  ops: SimEvent[],
  at: { addr: number; vma: { start: number } | null },
): ReturnType<NonNullable<FrameProvider['fault']>> {
  const e = ops.find((x): x is SimEventOf<'mmsim_anon_prefault'> => x.type === EV.mmsim_anon_prefault);
  if (!e) return {};
  const next = e.address + e.planned * 4096;
  const page = at.vma ? fmt((next - at.vma.start) / 4096) : hex(next);
  const marks: FaultMark[] = [
    { kind: 'range', start: at.addr, end: at.addr + e.mapped * 4096, title: 'in the batch this fault mapped' },
    { kind: 'guess', start: next, end: next + 4096, title: 'the next predicted fault' },
  ];
  const notes: FaultNote[] = e.hit
    ? [
        {
          bold: 'predicted',
          text: `: a batch of ${e.mapped}${e.mapped < e.planned ? ` (of ${e.planned})` : ''}, next at page ${page}`,
        },
      ]
    : [{ text: `not predicted: one page, next guess page ${page}` }];
  return { marks, notes };
}

export const frames: FrameProvider = { id: PREFAULT, frame, series, fault };
