/**
 * The recorder: runs a program once, records its event stream and keeps
 * snapshots, and can put the core at any operation boundary, fast (time
 * travel). engine.ts builds what the views show (frames) on top of it.
 *
 * Time travel. The core can stop only between two operations (a touch with
 * its fault, or a step), and its whole state is a snapshot. While recording,
 * the engine keeps a snapshot every `interval` events (at an operation
 * boundary) within a memory budget, halving their number and doubling the
 * interval when the budget is exceeded. seek(b) puts the core at boundary b
 * (restore the nearest snapshot, replay forward; or just run forward when
 * that is short). seekCursor(c) puts it at any cursor, also between two
 * events of one operation: from the operation's start it runs the operation
 * to its end with a capture armed at c (the core saves its state right after
 * event c - 1) and puts the capture in place. That machine can be queried
 * but not run (it is frozen: half an operation's progress is not in the
 * state), so the next seek restores a snapshot before running anything. The
 * start of that operation is kept as a snapshot in the core's memory, so
 * that stepping through the operation costs three copies of the state
 * (back to its start, the capture, the capture put in place), not a replay
 * from the last periodic snapshot each time.
 *
 * Cursor convention: cursor c means "events 0 .. c-1 have happened"; the
 * current event is events[c - 1]; c ranges over [0, nEvents].
 *
 * Big runs (millions of touches, the 16 GiB seed scenarios) record no events:
 * the engine runs the core with tracing off, in slices for progress and
 * cancel, and the views show aggregates (heat strips) of the final state.
 */
import {
  COUNTERS,
  EVF_OP_START,
  EV_TYPE_MASK,
  EV,
  EVENT_OFFSETS,
  ErrorCode,
  RunStatus,
  type EventName,
} from './abi.js';
import { buildOpIndex, type OpIndex } from './align.js';
import { upperBound } from './search.js';
import { CoreError, ERROR_NAMES, type Core, type CoreSnapshot, type Sim } from './core.js';
import type { Program } from './compile.js';
import { decodeEvent, type SimEvent, type SimEventOf } from './gen/events.js';
import { explainError, explainFailure, startProgram } from './runner.js';
import { FIRSTS_KEPT } from './load/tour-format.js';
import type { RunIssue } from './runner.js';

export interface EngineOptions {
  /** bytes of snapshots to keep at most */
  snapshotBudget?: number;
  /** programs with more operations than this run as big runs (no events) */
  bigRunWork?: number;
  /** an interactive run stops recording beyond this many events and becomes a big run */
  maxEvents?: number;
  /** the core may not hold more host memory than this (default: the program's memory limit, limits.ts) */
  maxBytes?: number;
  /** start with a snapshot every this many events */
  interval?: number;
  /** a counter sample every this many events (interactive) */
  sampleEvery?: number;
  /** a snapshot at least this large stays in the core's memory (saveSnapshot; up to IN_CORE_MAX) */
  inCoreFrom?: number;
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
  /**
   * the steps a speaker walks: those written at the top of the scenario (a repeat is one, however many
   * times its body runs; its faults are jump targets), says left to their caption events
   */
  beatEvents: number[];
  /** event index of every fault (first attempt) */
  faultEvents: number[];
  /** event index of every major fault (->fault found no page) */
  majorEvents: number[];
  /** event index of every say */
  sayEvents: number[];
  /** per event name, the index of its first FIRSTS_KEPT events (a tour's moment { event: mmsim_fork, nth: 1 }) */
  firsts: Record<string, number[]>;
  samples: Samples;
  snapshots: number;
  snapshotBytes: number;
  interval: number;
  recordSeconds: number;
}

const EVENT_NAMES: readonly string[] = Object.entries(EV).reduce<string[]>((out, [name, t]) => {
  out[t] = name;
  return out;
}, []);

/** a snapshot of at most this size stays in the core's memory (saveSnapshot; from inCoreFrom, 8 MiB) ... */
const IN_CORE_MAX = 256 * 2 ** 20;
/** ... while the core's memory is at most this large (wasm32: 4 GiB in all) */
const IN_CORE_CEILING = 2 * 2 ** 30;

const DEFAULTS: Required<Omit<EngineOptions, 'maxBytes'>> & { maxBytes?: number } = {
  snapshotBudget: 192 * 2 ** 20,
  bigRunWork: 1_500_000,
  maxEvents: 3_000_000,
  interval: 2048,
  sampleEvery: 256,
  inCoreFrom: 8 * 2 ** 20,
};

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

export class Recorder {
  readonly opts: typeof DEFAULTS;
  readonly program: Program;
  protected sim: Sim;
  protected events = new Uint8Array(0);
  protected nEvents = 0;
  private opStarts: number[] = [];
  /**
   * Snapshots of the core at operation boundaries. `event`: the boundary
   * (events before it); `work`: the core's work done there; `pinned`: taken
   * because much work passed without events (filling the page cache emits
   * one event for millions of pages), so thinning keeps it. `data`: the
   * state, in the core's own memory (a CoreSnapshot) or, for a large state,
   * copied out to JavaScript (see saveSnapshot).
   */
  private snaps: { event: number; work: number; pinned: boolean; len: number; data: CoreSnapshot | Uint8Array }[] = [];
  private interval: number;
  private snapBytes = 0;
  private samples: Samples = { x: [], values: COUNTERS.map(() => []) };
  private nextSample = 0;
  protected big = false;
  private done = false;
  private cancelled = false;
  private t0 = performance.now();
  private recordSeconds = 0;
  /** the sim stands at this event boundary (unless frozen) */
  protected at = 0;
  /** the sim holds a restored capture, the state at this cursor inside an operation; null if not */
  private frozenAt: number | null = null;
  /** the boundary where the operation last shown from inside starts, kept in the core's memory */
  private kept: { event: number; snap: CoreSnapshot } | null = null;
  private info: TimelineInfo | null = null;
  /** the step events recorded so far, by index: the timeline's stepEvents, also while the run still records */
  private stepsSoFar: number[] = [];

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
      trace: !this.big,
      maxBytes: this.opts.maxBytes,
      eventCapacity: 8192,
    });
    if (!this.big) {
      /* the start, kept as boundary 0 (the program's load has emitted its first events already) */
      this.snaps = [this.snapshotAt(sim, true, 0, 0)];
      this.snapBytes = this.snaps[0].len;
    }
    this.sample(sim, 0);
    return sim;
  }

  get isBig(): boolean {
    return this.big;
  }
  get progress(): { done: number; total: number } {
    return { done: this.sim.workDone, total: this.sim.workTotal };
  }

  cancel(): void {
    this.cancelled = true;
  }

  private sample(sim: Sim, x: number): void {
    const c = sim.counters();
    this.samples.x.push(x);
    c.forEach((v, i) => {
      this.samples.values[i].push(v);
    });
    if (this.samples.x.length > 4000) {
      /* thin: keep every other sample (and the first) */
      const keep = (_: number, i: number) => i % 2 === 0;
      this.samples.x = this.samples.x.filter(keep);
      this.samples.values = this.samples.values.map((v) => v.filter(keep));
    }
  }

  /** the batch copied once into the log (it may be a view of the core's memory), its operations' starts noted */
  private appendEvents(batch: Uint8Array): void {
    if (!batch.length) return;
    const at = this.nEvents;
    if (at * 32 + batch.length > this.events.length) {
      let cap = Math.max(this.events.length * 2, at * 32 + batch.length, 1 << 16);
      /*
       * Past a quarter of the work, room for the events the work done so far foretells (and a tenth more),
       * where that is more than doubling: one copy instead of several, each into a fresh buffer the
       * system must fault in (prefault's 1 GiB run, 35.5 MiB of events: 39 MiB instead of 64, its first
       * recording in a fresh process 331-349 ms instead of 460-488). Before a quarter the rate misleads:
       * without the wait, the LRU backup's first slices foretold 100 MiB of events and it made 6.2.
       */
      const sim = this.sim;
      if (sim.workDone >= sim.workTotal / 4 && sim.workTotal > sim.workDone) {
        const expected = Math.min((sim.eventsTotal * sim.workTotal) / sim.workDone, this.opts.maxEvents + 1) * 32 * 1.1;
        if (expected > cap) cap = Math.ceil(expected / 32) * 32;
      }
      const grown = new Uint8Array(cap);
      grown.set(this.events.subarray(0, at * 32));
      this.events = grown;
    }
    this.events.set(batch, at * 32);
    /* each event's first field is its 16-bit type and flags (little-endian, as wasm and every browser's
       host are): a typed view over the copy, read 16 halfwords apart */
    const n = batch.length / 32;
    const h = new Uint16Array(this.events.buffer, this.events.byteOffset + at * 32, n * 16);
    for (let k = 0; k < n; k++) {
      if (h[k * 16] & EVF_OP_START) this.opStarts.push(at + k);
      if ((h[k * 16] & EV_TYPE_MASK) === EV.mmsim_step) this.stepsSoFar.push(at + k);
    }
    this.nEvents += n;
  }

  /**
   * A snapshot of a large state stays in the core's memory: copying one out to a fresh JavaScript buffer
   * cost more than saving it (recording fault-around/seed/random-1g took 41 snapshots of 10.6 MiB: saving
   * them 47-71 ms, the copies out 171-296 ms, most of it the fresh buffers' page faults), while the core's
   * memory freed by thinning is reused by the next. A small one (under inCoreFrom) is copied out, which
   * measured no slower; a very large one (over IN_CORE_MAX, or with the core's memory over
   * IN_CORE_CEILING) too: the wasm memory's 4 GiB are the simulator's first.
   */
  private saveSnapshot(sim: Sim): CoreSnapshot | Uint8Array {
    const size = sim.snapshotSize;
    if (size < this.opts.inCoreFrom || size > IN_CORE_MAX || this.core.memoryBytes > IN_CORE_CEILING)
      return sim.snapshot();
    /* into the smallest spare one it fits (each has an eighth's room to grow): a new buffer beside the
       holes thinning left would grow the core's memory instead (random-1g's ended at 385 MiB) */
    let k = -1;
    for (let i = 0; i < this.spare.length; i++)
      if (this.spare[i].cap >= size && (k < 0 || this.spare[i].cap < this.spare[k].cap)) k = i;
    const into = k < 0 ? null : this.spare.splice(k, 1)[0];
    return sim.snapshotInCore(into);
  }

  /** thinned in-core snapshots, whose memory the next ones reuse while the run records */
  private spare: CoreSnapshot[] = [];

  private restoreSnapshot(data: CoreSnapshot | Uint8Array): void {
    if (data instanceof Uint8Array) this.sim.restore(data);
    else this.sim.restoreInCore(data);
  }

  /** free the in-core ones (or, while recording, keep them as spares); the others are the GC's */
  private freeSnapshots(list: { data: CoreSnapshot | Uint8Array }[], spare = false): void {
    for (const { data } of list) {
      if (data instanceof Uint8Array) continue;
      if (spare) this.spare.push(data);
      else this.sim.freeSnapshot(data);
    }
  }

  private freeSpares(): void {
    for (const s of this.spare) this.sim.freeSnapshot(s);
    this.spare = [];
  }

  /** a snapshot of the sim as it stands, as the recording keeps it (at its own boundary unless told) */
  private snapshotAt(
    sim: Sim,
    pinned: boolean,
    event = sim.eventsTotal,
    work = sim.workDone,
  ): Recorder['snaps'][number] {
    const data = this.saveSnapshot(sim);
    const len = data instanceof Uint8Array ? data.length : data.len;
    return { event, work, pinned, len, data };
  }

  private takeSnapshot(pinned: boolean): void {
    const snap = this.snapshotAt(this.sim, pinned);
    this.snaps.push(snap);
    this.snapBytes += snap.len;
    if (!pinned) this.widenInterval(snap.len);
    if (this.snapBytes > this.opts.snapshotBudget && this.snaps.length > 2) {
      /* over budget: keep every other snapshot (and the pinned ones), snapshot half as often */
      this.halveSnapshots();
      this.interval *= 2;
    }
  }

  /**
   * Take now the interval the budget would end at: the events still to come (at this run's rate of
   * events per unit of work so far) would hold more snapshots of this size than the budget keeps, and
   * each halving throws away half the copies made (prefault/sequential's 1 GiB run, 1,163,067 events,
   * took 222 snapshots to keep 37; taken this way, 105 to keep 56). Where the snapshots are taken
   * changes no state a seek reaches, only its speed.
   */
  private widenInterval(size: number): void {
    const sim = this.sim;
    if (sim.workDone <= 0 || sim.workTotal <= sim.workDone) return;
    const expected = (sim.eventsTotal * sim.workTotal) / sim.workDone;
    const fit = Math.max(2, Math.floor(this.opts.snapshotBudget / size));
    /* twice the budget's count at today's size: a state grows as it runs, so its later snapshots are
       larger and the budget thins them further; this never ends coarser than thinning alone would */
    while (expected / this.interval > 2 * fit) this.interval *= 2;
  }

  /** keep every other snapshot, and every pinned one */
  private halveSnapshots(): void {
    let odd = false;
    const keep = this.snaps.map((s) => s.pinned || (odd = !odd));
    this.freeSnapshots(
      this.snaps.filter((_, i) => !keep[i]),
      !this.done,
    );
    this.snaps = this.snaps.filter((_, i) => keep[i]);
    this.snapBytes = this.snaps.reduce((a, s) => a + s.len, 0);
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
      const target = Math.min(
        nextSnap,
        this.nextSample + this.opts.sampleEvery,
        heavy ? sim.eventsTotal + 1 : Infinity,
      );
      const st = sim.run(heavy ? Infinity : this.interval, target);
      this.appendEvents(sim.pendingEvents());
      sim.clearEvents();
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
          this.freeSnapshots(this.snaps);
          this.freeSpares();
          this.sim.destroy();
          this.big = true;
          this.events = new Uint8Array(0);
          this.nEvents = 0;
          this.opStarts = [];
          this.stepsSoFar = [];
          this.snaps = [];
          this.snapBytes = 0;
          this.samples = { x: [], values: COUNTERS.map(() => []) };
          this.dropKept();
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
    while (!this.recordSome(1000)) {
      /* keep going */
    }
    return this.timeline();
  }

  private finish(): true {
    this.done = true;
    this.freeSpares();
    this.recordSeconds = (performance.now() - this.t0) / 1000;
    if (!this.big) {
      this.sample(this.sim, this.nEvents);
      this.at = this.nEvents;
    }
    return true;
  }

  get finished(): boolean {
    return this.done;
  }

  /** how far the recording has come: its events so far, and where each of its steps began */
  get recorded(): { nEvents: number; stepEvents: readonly number[] } {
    return { nEvents: this.nEvents, stepEvents: this.stepsSoFar };
  }

  /**
   * fn (a frame, a query) over the events recorded so far, while the run still records: the recording's
   * state is kept aside in the core's memory and put back after, so that it goes on where it stood (the
   * core is deterministic: the state fn sees at a cursor is the one the finished run will show there).
   * Between two slices of recordSome() only, where the core stands at a boundary.
   */
  whileRecording<T>(fn: () => T): T {
    if (this.done || this.big) return fn();
    const live = this.sim.snapshotInCore(null);
    const at = this.nEvents;
    this.at = at;
    this.frozenAt = null;
    let out: { value: T } | { error: unknown };
    try {
      out = { value: fn() };
    } catch (error) {
      out = { error };
    }
    /* a capture fn took (a frame inside an operation) counts against the machine's memory: free it, so that
       a run near its limit records as it would have without the frame */
    this.sim.captureRelease();
    try {
      this.sim.restoreInCore(live);
    } catch (error) {
      /* the recording cannot go on from where fn left the core: the run stops here, as cancelled */
      this.cancelled = true;
      out = { error };
    }
    this.sim.freeSnapshot(live);
    this.at = at;
    this.frozenAt = null;
    if ('error' in out) throw out.error;
    return out.value;
  }

  get wasCancelled(): boolean {
    return this.cancelled;
  }

  timeline(): TimelineInfo {
    if (this.info) return this.info;
    const faultEvents: number[] = [],
      majorEvents: number[] = [],
      sayEvents: number[] = [];
    const firsts: Record<string, number[]> = {};
    const v = new DataView(this.events.buffer, 0, this.nEvents * 32);
    /* the step events, noted as they were recorded (appendEvents), with the step each executes */
    const stepEvents = [...this.stepsSoFar];
    const stepOf = stepEvents.map((i) => v.getUint32(i * 32 + EVENT_OFFSETS.mmsim_step.pc, true));
    for (let i = 0; i < this.nEvents; i++) {
      const o = i * 32;
      const t = v.getUint16(o, true) & EV_TYPE_MASK;
      const name = EVENT_NAMES[t];
      if (name) {
        const f = (firsts[name] ??= []);
        if (f.length < FIRSTS_KEPT) f.push(i);
      }
      if (t === EV.page_fault_user && v.getUint32(o + EVENT_OFFSETS.page_fault_user.attempt, true) === 0)
        faultEvents.push(i); /* not a retry */
      else if (t === EV.mm_filemap_fault && v.getUint32(o + EVENT_OFFSETS.mm_filemap_fault.cached, true) === 0)
        majorEvents.push(i);
      else if (t === EV.mmsim_say) sayEvents.push(i);
    }
    /* each step's top-level step: itself, or the repeat it is written in (steps are numbered in the
       order written, a repeat before its body, which alone emits step events) */
    const top: number[] = [];
    for (const [pc, st] of this.program.steps.entries()) top.push(st.depth === 0 || pc === 0 ? pc : top[pc - 1]);
    /* a say's beat is its caption's event, a moment later: its step event would show the caption before */
    const beatEvents = stepEvents.filter(
      (_, k) => (k === 0 || top[stepOf[k]] !== top[stepOf[k - 1]]) && this.program.steps[stepOf[k]]?.kind !== 'say',
    );
    const code = this.sim.lastError().code;
    const error = code ? explainError(this.program, this.sim) : null;
    const expectFailures = this.sim.expectFailures().map((f) => explainFailure(this.program, f));
    const info: TimelineInfo = {
      big: this.big,
      nEvents: this.nEvents,
      work: this.sim.workDone,
      status: error ? 'error' : expectFailures.length ? 'expect-failed' : 'ok',
      error,
      expectFailures,
      stepEvents,
      stepOf,
      beatEvents,
      faultEvents,
      majorEvents,
      sayEvents,
      firsts,
      samples: this.samples,
      snapshots: this.snaps.length,
      snapshotBytes: this.snapBytes,
      interval: this.interval,
      recordSeconds: this.recordSeconds,
    };
    if (this.done) this.info = info;
    return info;
  }

  /**
   * Keep fewer snapshots, down to `budget` bytes (every other one, the pinned ones always): a finished
   * recording put aside for later costs less memory, and time travel in it re-runs a little more.
   */
  thin(budget: number): void {
    while (this.snapBytes > budget && this.snaps.filter((x) => !x.pinned).length > 1) this.halveSnapshots();
  }

  /** the host memory this recording holds: the simulator, its snapshots and the event log */
  get heldBytes(): number {
    return this.sim.memBytes + this.snapBytes + this.events.length;
  }

  destroy(): void {
    this.dropKept();
    this.freeSnapshots(this.snaps);
    this.freeSpares();
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
    return decodeEvent(this.eventView(), i * 32, i);
  }

  /** the event log as a DataView (event i at byte 32 i): one per log buffer, not one per event read */
  protected eventView(): DataView {
    if (this.view?.buffer !== this.events.buffer)
      this.view = new DataView(this.events.buffer, this.events.byteOffset, this.events.byteLength);
    return this.view;
  }
  private view: DataView | null = null;

  /**
   * The indexes of the events of these types, in order, without decoding an event: a pass over the
   * recorded type fields builds an index of every type once (a counting sort), and a list for a set of
   * types merges theirs. A chart over the run that reads one kind of event out of a million reads only
   * those (the worker's series and jump marks: 0.6 s of decoding every event, four times, before).
   */
  ofTypes(types: readonly number[]): Int32Array {
    if (!this.byType || this.byType.n !== this.nEvents) this.byType = indexByType(this.events, this.nEvents);
    const { start, index } = this.byType;
    const lists = [...new Set(types)].map((t) => index.subarray(start[t], start[t + 1]));
    if (lists.length === 1) return lists[0];
    const out = new Int32Array(lists.reduce((a, l) => a + l.length, 0));
    let at = 0;
    for (const l of lists) {
      out.set(l, at);
      at += l.length;
    }
    return out.sort();
  }
  private byType: { n: number; start: Int32Array; index: Int32Array } | null = null;

  /** event i, which the caller knows is of this kind (an index from its own list of them): its fields by name */
  eventOf<N extends EventName>(i: number, name: N): SimEventOf<N> {
    const e = this.event(i);
    if (e.name !== name) throw new Error(`event ${i} is ${e.name}, not ${name}`);
    return e as unknown as SimEventOf<N>;
  }

  /** the operation containing event i: [start, end) */
  opOf(i: number): [number, number] {
    const s = this.opStarts;
    const k = upperBound(s, i) - 1;
    const start = k < 0 ? 0 : s[k];
    const end = k + 1 < s.length ? s[k + 1] : this.nEvents;
    return [start, end];
  }

  /** is event index b an operation boundary (an op starts there, or it is the end)? */
  private isBoundary(b: number): boolean {
    if (b === 0 || b === this.nEvents) return true;
    return (this.events[b * 32 + 1] & 0x80) !== 0;
  }

  /** the global counters at operation boundary b (Export: the counters at the end of each step) */
  countersAt(b: number): number[] {
    this.seek(b);
    return this.sim.counters();
  }

  /**
   * The cursor just after the event that brings a counter that only grows to `reaches` (a tour's moment
   * { counter: pgmajfault, reaches: 1 }), or null if the run never gets there: a binary search over the
   * cursor, about 20 seeks for a million events.
   */
  locateCounter(counter: string, reaches: number): number | null {
    if (this.big) return null;
    const i = COUNTERS.indexOf(counter as never);
    if (i < 0 || this.countersAtCursor(this.nEvents)[i] < reaches) return null;
    let lo = 0,
      hi = this.nEvents;
    /* the least cursor whose counters have reached it */
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.countersAtCursor(mid)[i] >= reaches) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /**
   * The pages of mapping `map` (its index in the program's maps) present at cursor c, as page numbers from
   * the VMA's start, in the first live process that maps it (an exercise's pick question: quiz.ts); null
   * when no live process maps it there.
   */
  presentPages(c: number, map: number): { mm: number; pages: number[] } | null {
    this.seekCursor(c);
    for (let mm = 0; mm < this.program.procs.length; mm++) {
      if (!this.sim.mmInfo(mm).alive) continue;
      const v = this.sim.vmas(mm).find((x) => x.map === map);
      if (!v) continue;
      const n = Math.min(Number((v.vmEnd - v.vmStart) / 4096n), 1 << 20);
      const st = this.sim.pteStates(mm, v.vmStart, n);
      const pages: number[] = [];
      for (let i = 0; i < n; i++) if (st[i] & 1) pages.push(i);
      return { mm, pages };
    }
    return null;
  }

  /** the global counters at cursor c, between two events of an operation too (an exercise's answers: quiz.ts) */
  countersAtCursor(c: number): number[] {
    this.seekCursor(c);
    return this.sim.counters();
  }

  /** put the core at boundary b (state after events 0 .. b-1); never runs a frozen core forward */
  seek(b: number): void {
    if (this.big) return;
    if (!this.isBoundary(b)) throw new Error(`event ${b} is not an operation boundary`);
    const frozen = this.frozenAt !== null;
    if (b === this.at && !frozen) return;
    if (frozen || b < this.at || b - this.at > this.interval) {
      let k = this.snaps.length - 1;
      while (k > 0 && this.snaps[k].event > b) k--;
      /* the kept operation start, if it is at least as close (and it is cheaper to restore) */
      const kept = this.kept && this.kept.event <= b && this.kept.event >= this.snaps[k].event ? this.kept : null;
      const from = kept ? kept.event : this.snaps[k].event;
      if (frozen || from > this.at || b < this.at) {
        if (kept) this.sim.restoreInCore(kept.snap);
        else this.restoreSnapshot(this.snaps[k].data);
        this.at = from;
        this.frozenAt = null;
      }
    }
    this.runTo(b);
  }

  private dropKept(): void {
    if (this.kept) this.sim.freeSnapshot(this.kept.snap);
    this.kept = null;
  }

  /** run the core forward from where it stands to boundary b */
  private runTo(b: number): void {
    while (this.at < b) {
      const st = this.sim.run(Infinity, b);
      this.sim.clearEvents(); /* recorded already */
      this.at = this.sim.eventsTotal;
      if (st !== RunStatus.EventsFull && st !== RunStatus.StopEvent) break;
    }
    if (this.at !== b) {
      /* a replay that fails where the recording did not: say what the core said */
      const e = this.sim.lastError();
      throw new CoreError(
        `going to event ${b} stopped at event ${this.at}: ${e.code ? `${ERROR_NAMES[e.code] ?? e.code} in step ${e.step}` : 'the core stopped early'}${e.code === ErrorCode.ENOMEM ? ' (the host refused memory: the scenario is at its memory limit)' : ''}`,
        e.code || ErrorCode.ESTATE,
        e.step,
      );
    }
  }

  /**
   * Put the core at cursor c (the state after events 0 .. c-1), even inside
   * an operation, for queries: a boundary is a seek; otherwise run the
   * operation from its start with a capture armed at c, and put the capture
   * in place (the core is then frozen until the next seek).
   */
  seekCursor(c: number): boolean {
    if (this.big) return true;
    if (this.isBoundary(c)) {
      this.seek(c);
      return true;
    }
    /* events of mmsim_load (the first processes' PGDs) come before any operation: show the state it left */
    if (c < (this.opStarts[0] ?? this.nEvents)) {
      this.seek(0);
      return true;
    }
    if (this.frozenAt === c) return true;
    const [start, end] = this.opOf(c - 1);
    this.seek(start);
    if (this.kept?.event !== start) {
      const reuse = this.kept?.snap ?? null;
      this.kept = null;
      try {
        this.kept = { event: start, snap: this.sim.snapshotInCore(reuse) };
      } catch (e) {
        /* only a shortcut for the next step inside this operation: go on without it */
        if (!(e instanceof CoreError)) throw e;
      }
    }
    this.sim.captureAt(c);
    this.runTo(end); /* the operation itself: seek(end) could restore a snapshot taken at its end */
    try {
      this.sim.captureRestore();
    } catch (e) {
      /* the host refused the capture's memory: show the state before the operation rather than fail the
         frame (false: the caller says the views are not exact) */
      if (!(e instanceof CoreError)) throw e;
      this.seek(start);
      return false;
    }
    this.frozenAt = c;
    return true;
  }
}

/** every event's index grouped by type (events of type t are index[start[t] .. start[t+1]), in order) */
function indexByType(events: Uint8Array, n: number): { n: number; start: Int32Array; index: Int32Array } {
  const types = EV_TYPE_MASK + 1;
  const start = new Int32Array(types + 1);
  for (let i = 0; i < n; i++) start[((events[i * 32] | (events[i * 32 + 1] << 8)) & EV_TYPE_MASK) + 1]++;
  for (let t = 0; t < types; t++) start[t + 1] += start[t];
  const fill = start.slice(0, types);
  const index = new Int32Array(n);
  for (let i = 0; i < n; i++) index[fill[(events[i * 32] | (events[i * 32 + 1] << 8)) & EV_TYPE_MASK]++] = i;
  return { n, start, index };
}
