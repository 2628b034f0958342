/**
 * The engine behind the playground: runs a program once, records its event
 * stream, and answers "what is on screen at event k?" for any k, fast.
 *
 * Time travel. The core can stop only between two operations (a touch with
 * its fault, or a step), and its whole state is a snapshot. While recording,
 * the engine keeps a snapshot every `interval` events (at an operation
 * boundary) within a memory budget, halving their number and doubling the
 * interval when the budget is exceeded. To show event k it seeks the core to
 * the boundary before the operation that contains event k - 1 (restore the
 * nearest snapshot, replay forward; or just run forward when that is short)
 * and overlays the events of that operation up to k. The views are a
 * function of (core state at that boundary, those events): pixels out.
 *
 * Cursor convention: cursor c means "events 0 .. c-1 have happened"; the
 * current event is events[c - 1]; c ranges over [0, nEvents].
 *
 * Big runs (millions of touches, the 16 GiB seed scenarios) record no events:
 * the engine runs the core with tracing off, in slices for progress and
 * cancel, and the views show aggregates (heat strips) of the final state.
 */
import {
  COUNTERS, EV, EVF_OP_START, EV_TYPE_MASK, FaultKind, MM_COUNTERS, PC, PC_READAHEAD, PC_STATE_MASK, RunStatus, SetHow,
} from './abi.js';
import { buildOpIndex, type OpIndex } from './align.js';
import type { Core, Sim } from './core.js';
import type { Program, StepInfo } from './compile.js';
import { decodeEvent, describeEvent, type SimEvent } from './events.js';
import { collectCounters, explainError, explainFailure, startProgram, type RunIssue } from './runner.js';

export interface EngineOptions {
  /** bytes of snapshots to keep at most */
  snapshotBudget?: number;
  /** programs with more operations than this run as big runs (no events) */
  bigRunWork?: number;
  /** an interactive run stops recording beyond this many events and becomes a big run */
  maxEvents?: number;
  /** the core may not hold more host memory than this */
  maxBytes?: number;
  /** start with a snapshot every this many events */
  interval?: number;
  /** a counter sample every this many events (interactive) */
  sampleEvery?: number;
}

export interface Samples {
  /** x: event index (interactive) or operations done (big run) */
  x: number[];
  /** per counter (COUNTERS order), one value per x */
  values: number[][];
}

export interface TimelineInfo {
  big: boolean;
  nEvents: number;
  work: number;
  status: 'ok' | 'expect-failed' | 'error';
  error: RunIssue | null;
  expectFailures: RunIssue[];
  /** event index of every mmsim_step event */
  stepEvents: number[];
  /** the program step each of stepEvents executes */
  stepOf: number[];
  /** event index of every fault (first attempt) */
  faultEvents: number[];
  /** event index of every major fault (->fault found no page) */
  majorEvents: number[];
  /** event index of every say */
  sayEvents: number[];
  samples: Samples;
  snapshots: number;
  snapshotBytes: number;
  interval: number;
  recordSeconds: number;
}

export type PageCause = 0 | 1 | 2 | 3 | 4 | 5 | 6;
/** per page: how it came to be mapped (0 unknown, e.g. inherited at fork) */
export const CAUSE = { unknown: 0, fault: 1, around: 2, major: 3, anon: 4, zero: 5, cow: 6 } as const;
export const CAUSE_NAMES = ['mapped', 'faulting access', 'fault-around', 'major fault', 'anonymous page', 'zero page', 'private copy'];

export interface VmaView {
  id: number; start: number; end: number; pgoff: number; flags: number; file: number | null; map: number | null;
  /** per page: bit 0 present, bit 1 writable, bit 2 anon, bit 3 zero page; then cause in bits 4..6;
   *  undefined when the VMA is too large (see heat) */
  pages?: Uint8Array;
  /** present PTEs per bucket, for large VMAs */
  heat?: Uint32Array;
  /** for a file VMA drawn page by page: the page cache behind each page, PC.* | PC_READAHEAD (abi.ts) */
  cache?: Uint8Array;
}

/** a file's readahead state (struct file_ra_state): the last window, its last `async` pages ahead of the reader */
export interface FileView {
  id: number; nrpages: number; mmapMiss: number;
  ra: { start: number; size: number; async: number } | null;
}

export interface MmView {
  id: number; name: string; alive: boolean; vmas: VmaView[]; counters: Record<string, number>;
}

export interface FaultView {
  addr: number; write: boolean; task: number | null; major: boolean; retried: boolean; done: boolean;
  kind: number | null;
  window: { start: number; end: number; startPgoff: number; endPgoff: number } | null;
  skips: { addr: number; pgoff: number; reason: number }[];
  mapped: { addr: number; how: number }[];
}

export interface WalkView {
  addr: number;
  entry: string[];       /* hex, per level */
  present: boolean[];
  allocated: boolean[];  /* the table below this entry was allocated by the current operation */
  tablePfn: number[];
  index: number[];
  /** the PTE page: per slot 0 none, 1 read-only, 2 writable; +4 set by this operation, +8 the current address */
  pte: Uint8Array;
  ptePfn: number;
  pteBase: number;
}

export interface LogLine { index: number; type: number; text: string; fn: string | null; label: string; task: number | null; opStart: boolean }

export interface Frame {
  cursor: number;
  nEvents: number;
  big: boolean;
  /** the operation shown: events [opStart, opEnd), of which [opStart, cursor) have happened */
  opStart: number;
  opEnd: number;
  event: LogLine | null;
  step: number | null;
  say: string | null;
  counters: number[];
  tasks: { name: string; alive: boolean; counters: Record<string, number> }[];
  focusMm: number;
  mms: MmView[];
  fault: FaultView | null;
  walk: WalkView | null;
  files: FileView[];
  log: LogLine[];
}

const DEFAULTS: Required<Omit<EngineOptions, 'maxBytes'>> & { maxBytes: number } = {
  snapshotBudget: 192 * 2 ** 20,
  bigRunWork: 1_500_000,
  maxEvents: 3_000_000,
  maxBytes: 1.5 * 2 ** 30,
  interval: 2048,
  sampleEvery: 256,
};

/** the largest mapping drawn page by page; larger ones are heat strips */
export const MAX_CELLS = 1 << 18;
export const HEAT_BUCKETS = 2048;

interface Interval { from: number; to: number; cause: number }

/**
 * Every page's mapping history, flattened: keys (mm * 2^36 + page number)
 * sorted, and for key i its intervals at [start[i], start[i + 1]) of
 * from/to/cause. A frame walks the keys of one VMA in order: no per-page
 * hash lookups (80,000 of them took 17 ms a frame).
 */
interface FlatHistory {
  keys: Float64Array; start: Uint32Array; from: Float64Array; to: Float64Array; cause: Uint8Array;
}

function flatten(h: Map<number, Interval[]>): FlatHistory {
  const keys = Float64Array.from(h.keys()).sort();
  const start = new Uint32Array(keys.length + 1);
  let total = 0;
  keys.forEach((k, i) => { start[i] = total; total += h.get(k)!.length; });
  start[keys.length] = total;
  const from = new Float64Array(total), to = new Float64Array(total), cause = new Uint8Array(total);
  keys.forEach((k, i) => h.get(k)!.forEach((iv, j) => {
    from[start[i] + j] = iv.from; to[start[i] + j] = iv.to; cause[start[i] + j] = iv.cause;
  }));
  return { keys, start, from, to, cause };
}

/** the index of the first key >= k */
function lowerBound(keys: Float64Array, k: number): number {
  let lo = 0, hi = keys.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (keys[m] < k) lo = m + 1; else hi = m;
  }
  return lo;
}

/**
 * In a sorted list of event indexes, the cursor just after the next (dir 1)
 * or the previous (dir -1) one relative to cursor `from`; null if none.
 */
export function findInIndex(list: readonly number[], from: number, dir: 1 | -1): number | null {
  if (dir > 0) {
    for (const i of list) if (i + 1 > from) return i + 1;
  } else {
    for (let k = list.length - 1; k >= 0; k--) if (list[k] + 1 < from) return list[k] + 1;
  }
  return null;
}

/** how a mm_set_pte mapped its page, for colouring (CAUSE) */
function causeOf(how: number, major: boolean): number {
  return how === SetHow.Around ? CAUSE.around
    : how === SetHow.AroundSelf || how === SetHow.Fault ? (major ? CAUSE.major : CAUSE.fault)
      : how === SetHow.Zero ? CAUSE.zero : how === SetHow.Anon ? CAUSE.anon : how === SetHow.Cow ? CAUSE.cow : CAUSE.unknown;
}

export class Engine {
  readonly opts: typeof DEFAULTS;
  readonly program: Program;
  private sim: Sim;
  private events = new Uint8Array(0);
  private nEvents = 0;
  private opStarts: number[] = [];
  /**
   * Snapshots of the core at operation boundaries. `event`: the boundary
   * (events before it); `work`: the core's work done there; `pinned`: taken
   * because much work passed without events (filling the page cache emits
   * one event for millions of pages), so thinning keeps it.
   */
  private snaps: { event: number; work: number; pinned: boolean; bytes: Uint8Array }[] = [];
  private interval: number;
  private snapBytes = 0;
  private samples: Samples = { x: [], values: COUNTERS.map(() => []) };
  private nextSample = 0;
  private big = false;
  private done = false;
  private cancelled = false;
  private t0 = performance.now();
  private recordSeconds = 0;
  private history: FlatHistory | null = null;
  /** the sim stands at this event boundary */
  private at = 0;
  private info: TimelineInfo | null = null;

  constructor(
    readonly core: Core,
    program: Program,
    opts: EngineOptions = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
    this.program = program;
    this.interval = this.opts.interval;
    this.big = this.estimateBig();
    this.sim = this.start();
  }

  private estimateBig(): boolean {
    const probe = startProgram(this.core, this.program, { trace: false, maxBytes: this.opts.maxBytes });
    const work = probe.workTotal;
    probe.destroy();
    return work > this.opts.bigRunWork;
  }

  private start(): Sim {
    const sim = startProgram(this.core, this.program, {
      trace: !this.big, maxBytes: this.opts.maxBytes, eventCapacity: 8192,
    });
    if (!this.big) {
      this.snaps = [{ event: 0, work: 0, pinned: true, bytes: sim.snapshot() }];
      this.snapBytes = this.snaps[0].bytes.length;
    }
    this.sample(sim, 0);
    return sim;
  }

  get isBig(): boolean { return this.big; }
  get progress(): { done: number; total: number } { return { done: this.sim.workDone, total: this.sim.workTotal }; }

  cancel(): void { this.cancelled = true; }

  private sample(sim: Sim, x: number): void {
    const c = sim.counters();
    this.samples.x.push(x);
    c.forEach((v, i) => this.samples.values[i].push(v));
    if (this.samples.x.length > 4000) {
      /* thin: keep every other sample (and the first) */
      const keep = (_: number, i: number) => i % 2 === 0;
      this.samples.x = this.samples.x.filter(keep);
      this.samples.values = this.samples.values.map((v) => v.filter(keep));
    }
  }

  private appendEvents(batch: Uint8Array): void {
    if (!batch.length) return;
    if (this.nEvents * 32 + batch.length > this.events.length) {
      const grown = new Uint8Array(Math.max(this.events.length * 2, this.nEvents * 32 + batch.length, 1 << 16));
      grown.set(this.events.subarray(0, this.nEvents * 32));
      this.events = grown;
    }
    this.events.set(batch, this.nEvents * 32);
    const v = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
    for (let o = 0; o < batch.length; o += 32)
      if (v.getUint16(o, true) & EVF_OP_START) this.opStarts.push(this.nEvents + o / 32);
    this.nEvents += batch.length / 32;
  }

  private takeSnapshot(pinned: boolean): void {
    const bytes = this.sim.snapshot();
    this.snaps.push({ event: this.sim.eventsTotal, work: this.sim.workDone, pinned, bytes });
    this.snapBytes += bytes.length;
    if (this.snapBytes > this.opts.snapshotBudget && this.snaps.length > 2) {
      /* over budget: keep every other snapshot (and the pinned ones), snapshot half as often */
      let odd = false;
      this.snaps = this.snaps.filter((s) => s.pinned || (odd = !odd));
      this.snapBytes = this.snaps.reduce((a, s) => a + s.bytes.length, 0);
      this.interval *= 2;
    }
  }

  /**
   * Record for about `budgetMs` milliseconds. Returns true when the run is
   * complete (or cancelled); call again otherwise. Safe to interleave with
   * message handling (a worker posts progress and checks cancel between calls).
   */
  recordSome(budgetMs = 25): boolean {
    if (this.done) return true;
    const tEnd = performance.now() + budgetMs;
    const sim = this.sim;
    while (performance.now() < tEnd) {
      if (this.cancelled) return this.finish();
      if (this.big) {
        const st = sim.run(200_000);
        this.sample(sim, sim.workDone);
        if (st !== RunStatus.Work) return this.finish();
        continue;
      }
      const last = this.snaps[this.snaps.length - 1];
      const nextSnap = last.event + this.interval;
      /*
       * Much work without events since the last snapshot (a page cache
       * being filled): snapshot at the next boundary after the next event,
       * where a seek would stop too, so that no step back replays it.
       */
      const heavy = sim.workDone - last.work >= this.interval;
      const target = Math.min(nextSnap, this.nextSample + this.opts.sampleEvery, heavy ? sim.eventsTotal + 1 : Infinity);
      const st = sim.run(heavy ? Infinity : this.interval, target);
      this.appendEvents(sim.drainEvents());
      if (st === RunStatus.EventsFull || st === RunStatus.Work) continue;
      if (st === RunStatus.StopEvent) {
        if (sim.eventsTotal >= this.nextSample + this.opts.sampleEvery) {
          this.sample(sim, sim.eventsTotal);
          this.nextSample = sim.eventsTotal;
        }
        if (sim.eventsTotal >= nextSnap) this.takeSnapshot(false);
        else if (heavy && sim.eventsTotal > last.event) this.takeSnapshot(true);
        if (this.nEvents > this.opts.maxEvents) {
          /* too many events to keep: start over as a big run */
          this.sim.destroy();
          this.big = true;
          this.events = new Uint8Array(0);
          this.nEvents = 0;
          this.opStarts = [];
          this.snaps = [];
          this.snapBytes = 0;
          this.samples = { x: [], values: COUNTERS.map(() => []) };
          this.sim = this.start();
          return this.recordSome(Math.max(1, tEnd - performance.now()));
        }
        continue;
      }
      return this.finish();
    }
    return false;
  }

  /** Record everything at once (tests, the CLI, the benchmark). */
  recordAll(): TimelineInfo {
    while (!this.recordSome(1000)) { /* keep going */ }
    return this.timeline();
  }

  private finish(): true {
    this.done = true;
    this.recordSeconds = (performance.now() - this.t0) / 1000;
    if (!this.big) {
      this.sample(this.sim, this.nEvents);
      this.at = this.nEvents;
    }
    return true;
  }

  get finished(): boolean { return this.done; }
  get wasCancelled(): boolean { return this.cancelled; }

  timeline(): TimelineInfo {
    if (this.info) return this.info;
    const stepEvents: number[] = [], stepOf: number[] = [], faultEvents: number[] = [], majorEvents: number[] = [], sayEvents: number[] = [];
    const v = new DataView(this.events.buffer, 0, this.nEvents * 32);
    for (let i = 0; i < this.nEvents; i++) {
      const o = i * 32;
      const t = v.getUint16(o, true) & EV_TYPE_MASK;
      if (t === EV.mmsim_step) {
        stepEvents.push(i);
        stepOf.push(v.getUint32(o + 20, true));
      }
      else if (t === EV.page_fault_user && v.getUint32(o + 28, true) === 0) faultEvents.push(i); /* not a retry */
      else if (t === EV.mm_filemap_fault && v.getUint32(o + 24, true) === 0) majorEvents.push(i);
      else if (t === EV.mmsim_say) sayEvents.push(i);
    }
    const code = this.sim.lastError().code;
    const error = code ? explainError(this.program, this.sim) : null;
    const expectFailures = this.sim.expectFailures().map((f) => explainFailure(this.program, f));
    const info: TimelineInfo = {
      big: this.big, nEvents: this.nEvents, work: this.sim.workDone,
      status: error ? 'error' : expectFailures.length ? 'expect-failed' : 'ok', error, expectFailures,
      stepEvents, stepOf, faultEvents, majorEvents, sayEvents, samples: this.samples,
      snapshots: this.snaps.length, snapshotBytes: this.snapBytes, interval: this.interval,
      recordSeconds: this.recordSeconds,
    };
    if (this.done) this.info = info;
    return info;
  }

  destroy(): void {
    this.sim.destroy();
    this.snaps = [];
    this.events = new Uint8Array(0);
  }

  private ops: OpIndex | null = null;

  /** the operations of the recorded run, for aligning two runs (align.ts) */
  opIndex(): OpIndex {
    if (!this.ops || this.ops.nEvents !== this.nEvents) this.ops = buildOpIndex(this.events, this.nEvents);
    return this.ops;
  }

  /* ------------------------------------------------------------- seeking */

  event(i: number): SimEvent {
    return decodeEvent(this.events, i * 32, i);
  }

  /** the operation containing event i: [start, end) */
  opOf(i: number): [number, number] {
    const s = this.opStarts;
    let lo = 0, hi = s.length - 1, k = -1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (s[m] <= i) { k = m; lo = m + 1; } else hi = m - 1;
    }
    const start = k < 0 ? 0 : s[k];
    const end = k + 1 < s.length ? s[k + 1] : this.nEvents;
    return [start, end];
  }

  /** is event index b an operation boundary (an op starts there, or it is the end)? */
  private isBoundary(b: number): boolean {
    if (b === 0 || b === this.nEvents) return true;
    return (this.events[b * 32 + 1] & 0x80) !== 0;
  }

  /** put the core at boundary b (state after events 0 .. b-1) */
  seek(b: number): void {
    if (this.big) return;
    if (!this.isBoundary(b)) throw new Error(`event ${b} is not an operation boundary`);
    if (b === this.at) return;
    if (b < this.at || b - this.at > this.interval) {
      let k = this.snaps.length - 1;
      while (k > 0 && this.snaps[k].event > b) k--;
      if (this.snaps[k].event > this.at || b < this.at) {
        this.sim.restore(this.snaps[k].bytes);
        this.at = this.snaps[k].event;
      }
    }
    while (this.at < b) {
      const st = this.sim.run(Infinity, b);
      this.sim.clearEvents(); /* recorded already */
      this.at = this.sim.eventsTotal;
      if (st !== RunStatus.EventsFull && st !== RunStatus.StopEvent) break;
    }
    if (this.at !== b) throw new Error(`seek to ${b} stopped at ${this.at}`);
  }

  /* ------------------------------------------------------------- history */

  /**
   * Per page: every mm_set_pte that mapped it, with how (one pass over all
   * events). Only *why* a page was mapped comes from here: *whether* it is
   * mapped at the cursor comes from the core (its page tables at the
   * boundary, then the partial operation's mm_set_pte and mmsim_pte_clear
   * events), so no unmapping is re-derived here.
   */
  private pageHistory(): FlatHistory {
    if (this.history) return this.history;
    const h = new Map<number, Interval[]>();
    let opMajor = false;
    for (let i = 0; i < this.nEvents; i++) {
      const e = this.event(i);
      if (e.opStart) opMajor = false;
      if (e.type === EV.mm_filemap_fault && e.c === 0) opMajor = true;
      if (e.type !== EV.mm_set_pte || e.c === SetHow.Reuse) continue; /* reuse: the same page, made writable */
      const key = this.mmOfTask(e.task) * 2 ** 36 + Math.floor(e.addr / 4096);
      const list = h.get(key) ?? [];
      list.push({ from: i + 1, to: Infinity, cause: causeOf(e.c, opMajor) });
      h.set(key, list);
    }
    this.history = flatten(h);
    return this.history;
  }

  private mmOfTask(task: number | null): number {
    if (task === null) return 0;
    const p = this.program.procs.findIndex((pr) => task >= pr.firstTask && task < pr.firstTask + pr.threads);
    return Math.max(0, p);
  }

  /* ------------------------------------------------------------- frames */

  private logLine(i: number): LogLine {
    const e = this.event(i);
    let before: SimEvent[] | undefined;
    if (e.type === EV.mm_fault_done) {
      before = [];
      for (let k = this.opOf(i)[0]; k < i; k++) before.push(this.event(k));
    }
    const d = describeEvent(e, this.program, before);
    return { index: i, type: e.type, text: d.text, fn: d.fn, label: d.label, task: e.task, opStart: e.opStart };
  }

  /** what the views show at cursor c (events 0 .. c-1 have happened) */
  frame(cursor: number, logRadius = 60): Frame {
    const info = this.timeline();
    if (this.big) return this.bigFrame();
    const c = Math.max(0, Math.min(cursor, info.nEvents));
    const [opStart, opEnd] = c > 0 ? this.opOf(c - 1) : [0, 0];
    const complete = c === opEnd || c === 0;
    /* the operation's events that have happened */
    const ops: SimEvent[] = [];
    for (let i = opStart; i < c; i++) ops.push(this.event(i));

    /* the core at the boundary before the operation, or after it when it is complete */
    this.seek(complete ? c : opStart);
    const focusTask = ops.find((e) => e.task !== null)?.task ?? this.lastTaskBefore(c);
    const focusMm = this.mmOfTask(focusTask);
    const fault = this.faultView(ops);
    const walk = fault ? this.walkView(focusMm, fault.addr, ops) : null;
    const partial = complete ? [] : ops;
    const mms = this.mmViews(c, partial);
    const files = this.fileViews(partial);
    const { tasks } = collectCounters(this.program, this.sim);

    let step: number | null = null, say: string | null = null;
    for (const i of info.stepEvents) if (i < c) step = this.event(i).b;
    for (const i of info.sayEvents) if (i < c) say = this.program.says[this.event(i).a] ?? null;
    const lo = Math.max(0, c - logRadius), hi = Math.min(info.nEvents, c + logRadius);
    const log: LogLine[] = [];
    for (let i = lo; i < hi; i++) log.push(this.logLine(i));
    return {
      cursor: c, nEvents: info.nEvents, big: false, opStart, opEnd, event: c > 0 ? this.logLine(c - 1) : null,
      step, say, counters: this.sim.counters(),
      tasks: this.program.tasks.map((name, i) => ({ name, alive: this.sim.taskInfo(i).alive, counters: tasks[name] })),
      focusMm, mms, fault, walk, files, log,
    };
  }

  /** each file's readahead window: the core's f_ra, then the windows the partial operation started */
  private fileViews(partial: SimEvent[]): FileView[] {
    return this.program.files.map((_, id) => {
      const fi = this.sim.fileInfo(id);
      let ra = fi.raSize ? { start: Number(fi.raStart), size: fi.raSize, async: fi.raAsyncSize } : null;
      for (const e of partial)
        /* d = 0: a small random read that leaves the readahead state alone */
        if ((e.type === EV.page_cache_sync_ra || e.type === EV.page_cache_async_ra) && e.a === id && e.d)
          ra = { start: e.b, size: e.c, async: e.d };
      return { id, nrpages: fi.nrpages, mmapMiss: fi.mmapMiss, ra };
    });
  }

  /**
   * The page cache behind a file VMA: the core's state, then what the
   * partial operation did to it (pages added and being read, reads done,
   * pages removed, PG_readahead set or cleared), from its events.
   */
  private cacheView(file: number, pgoff: number, n: number, partial: SimEvent[]): Uint8Array {
    const st = this.sim.pagecacheStates(file, pgoff, n);
    const tmpfs = this.program.scenario.files[file]?.fs === 'tmpfs';
    const at = (index: number) => index - pgoff;
    for (const e of partial) {
      if (e.a !== file) continue;
      if (e.type === EV.mm_filemap_add_to_page_cache) {
        const i = at(e.b);
        /* a tmpfs page is zeroed and uptodate at once; a disk page is locked until its read completes */
        if (i >= 0 && i < n) st[i] = tmpfs ? PC.uptodate : PC.reading;
      } else if (e.type === EV.mmsim_read_done) {
        for (let i = Math.max(0, at(e.b)); i < Math.min(n, at(e.b + e.c)); i++)
          if ((st[i] & PC_STATE_MASK) === PC.reading) st[i] = (st[i] & ~PC_STATE_MASK) | PC.uptodate;
      } else if (e.type === EV.mm_filemap_delete_from_page_cache) {
        const i = at(e.b);
        if (i >= 0 && i < n) st[i] = PC.none;
      } else if (e.type === EV.mmsim_readahead_mark) {
        const i = at(e.b);
        if (i >= 0 && i < n) st[i] = e.c ? st[i] | PC_READAHEAD : st[i] & ~PC_READAHEAD;
      }
    }
    return st;
  }

  private lastTaskBefore(c: number): number | null {
    for (let i = c - 1; i >= 0 && i >= c - 5000; i--) {
      const t = this.event(i).task;
      if (t !== null) return t;
    }
    return null;
  }

  private faultView(ops: SimEvent[]): FaultView | null {
    const pf = ops.find((e) => e.type === EV.page_fault_user);
    if (!pf) return null;
    const f: FaultView = {
      addr: pf.addr, write: (pf.a & 2) !== 0, task: pf.task, major: false, retried: false, done: false, kind: null,
      window: null, skips: [], mapped: [],
    };
    for (const e of ops) {
      if (e.type === EV.mm_filemap_map_pages)
        f.window = { start: e.addr, end: e.addr + (e.c - e.b + 1) * 4096, startPgoff: e.b, endPgoff: e.c };
      else if (e.type === EV.mm_filemap_map_skip) f.skips.push({ addr: e.addr, pgoff: e.a, reason: e.b });
      else if (e.type === EV.mm_set_pte) f.mapped.push({ addr: e.addr, how: e.c });
      else if (e.type === EV.mm_filemap_fault && e.c === 0) f.major = true;
      else if (e.type === EV.page_fault_user && e.d > 0) {
        f.retried = true;
        /* the retry's window replaces the first attempt's */
        f.skips = [];
      } else if (e.type === EV.mm_fault_done && e.b !== FaultKind.Retry) {
        f.done = true;
        f.kind = e.b;
      }
    }
    return f;
  }

  private walkView(mm: number, addr: number, ops: SimEvent[]): WalkView {
    const w = this.sim.walk(mm, BigInt(addr));
    const allocated = [false, false, false, false];
    for (const e of ops) if (e.type === EV.mm_pgtable_alloc && e.a >= 1) allocated[e.a - 1] = true;
    const { pfn, entries } = this.sim.pteTable(mm, BigInt(addr));
    const pte = new Uint8Array(512);
    const base = Math.floor(addr / 2 ** 21) * 2 ** 21;
    for (let i = 0; i < 512; i++) {
      const e = entries[i];
      if (e & 1n) pte[i] = e & 2n ? 2 : 1;
    }
    for (const e of ops)
      if (e.type === EV.mm_set_pte && e.addr >= base && e.addr < base + 2 ** 21) {
        const i = (e.addr - base) / 4096;
        pte[i] = (pte[i] & ~3) | (e.d & 2 ? 2 : 1) | 4;
      }
    pte[Math.floor((addr - base) / 4096)] |= 8;
    const entry = [...w.entry];
    /* the leaf as the operation left it so far (the core stands before the operation) */
    const page = addr - (addr % 4096);
    for (const e of ops)
      if (e.type === EV.mm_set_pte && e.addr === page) entry[3] = (BigInt(e.a) << 12n) | BigInt(e.d);
    return {
      addr, entry: entry.map((e) => `0x${e.toString(16).padStart(16, '0')}`),
      present: entry.map((e) => (e & 1n) === 1n), allocated,
      tablePfn: w.tablePfn, index: w.index, pte, ptePfn: pfn, pteBase: base,
    };
  }

  /**
   * VMAs (from the core) and per-page states of every process at cursor c.
   * The core gives which pages are mapped at the boundary it stands at; the
   * partial operation's mm_set_pte / mmsim_pte_clear events move that to the
   * exact cursor; each mapped page is coloured by the last mm_set_pte that
   * mapped it before the cursor.
   */
  private mmViews(cursor: number, partial: SimEvent[]): MmView[] {
    const hist = this.pageHistory();
    const out: MmView[] = [];
    for (let mm = 0; mm < this.program.procs.length; mm++) {
      const mi = this.sim.mmInfo(mm);
      const vmas: VmaView[] = [];
      const mine = partial.filter((e) => (e.type === EV.mm_set_pte && this.mmOfTask(e.task) === mm) || (e.type === EV.mmsim_pte_clear && e.b === mm));
      if (mi.alive)
        for (const v of this.sim.vmas(mm)) {
          const start = Number(v.vmStart), end = Number(v.vmEnd), n = (end - start) / 4096;
          const vv: VmaView = { id: v.id, start, end, pgoff: Number(v.vmPgoff), flags: v.vmFlags, file: v.file, map: v.map };
          if (n <= MAX_CELLS) {
            const st = this.sim.pteStates(mm, v.vmStart, n);
            /* the partial operation, in order: PTEs set and cleared since the boundary */
            for (const e of mine) {
              if (e.addr < start || e.addr >= end) continue;
              const p = (e.addr - start) / 4096;
              if (e.type === EV.mmsim_pte_clear) st[p] = 0;
              else st[p] = (e.d & 2 ? 2 : 1) | (e.c === SetHow.Zero ? 8 : e.c === SetHow.Anon || e.c === SetHow.Cow ? 4 : st[p] & 4);
            }
            /* the cause of each mapped page: its last mm_set_pte before the cursor */
            const base = mm * 2 ** 36 + start / 4096;
            for (let i = lowerBound(hist.keys, base); i < hist.keys.length && hist.keys[i] < base + n; i++) {
              const p = hist.keys[i] - base;
              if (!(st[p] & 3)) continue;
              let cause = 0;
              for (let j = hist.start[i]; j < hist.start[i + 1] && hist.from[j] <= cursor; j++) cause = hist.cause[j];
              st[p] = (st[p] & 15) | (cause << 4);
            }
            vv.pages = st;
            if (v.file !== null) vv.cache = this.cacheView(v.file, Number(v.vmPgoff), n, partial);
          } else {
            vv.heat = this.sim.pteHeat(mm, v.vmStart, v.vmEnd, HEAT_BUCKETS);
          }
          vmas.push(vv);
        }
      const counters: Record<string, number> = {};
      MM_COUNTERS.forEach((k) => { counters[k] = mi.counters[k]; });
      out.push({ id: mm, name: this.program.procs[mm].name, alive: mi.alive, vmas, counters });
    }
    return out;
  }

  private bigFrame(): Frame {
    const { tasks } = collectCounters(this.program, this.sim);
    const mms: MmView[] = [];
    for (let mm = 0; mm < this.program.procs.length; mm++) {
      const mi = this.sim.mmInfo(mm);
      const vmas: VmaView[] = mi.alive ? this.sim.vmas(mm).map((v) => ({
        id: v.id, start: Number(v.vmStart), end: Number(v.vmEnd), pgoff: Number(v.vmPgoff), flags: v.vmFlags,
        file: v.file, map: v.map, heat: this.sim.pteHeat(mm, v.vmStart, v.vmEnd, HEAT_BUCKETS),
      })) : [];
      const counters: Record<string, number> = {};
      MM_COUNTERS.forEach((k) => { counters[k] = mi.counters[k]; });
      mms.push({ id: mm, name: this.program.procs[mm].name, alive: mi.alive, vmas, counters });
    }
    return {
      cursor: 0, nEvents: 0, big: true, opStart: 0, opEnd: 0, event: null, step: null, say: null,
      counters: this.sim.counters(),
      tasks: this.program.tasks.map((name, i) => ({ name, alive: this.sim.taskInfo(i).alive, counters: tasks[name] })),
      focusMm: 0, mms, fault: null, walk: null, files: [], log: [],
    };
  }

  /* ------------------------------------------------------------- navigation */

  /** the cursor just after the next (dir 1) or previous (dir -1) event of a kind */
  findEvent(from: number, kind: 'fault' | 'major' | 'step' | 'say' | number, dir: 1 | -1): number | null {
    const info = this.timeline();
    const list = kind === 'fault' ? info.faultEvents : kind === 'major' ? info.majorEvents
      : kind === 'step' ? info.stepEvents : kind === 'say' ? info.sayEvents : null;
    if (list) return findInIndex(list, from, dir);
    for (let i = dir > 0 ? from : from - 2; i >= 0 && i < info.nEvents; i += dir)
      if (this.event(i).type === kind) return i + 1;
    return null;
  }

  stepInfo(step: number | null): StepInfo | null {
    return step === null ? null : this.program.steps[step] ?? null;
  }
}
