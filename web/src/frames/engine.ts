/**
 * The engine behind the playground: a Recorder (recorder.ts: the run, its
 * events and snapshots, time travel) that answers "what is on screen at
 * cursor k?" for any k: a Frame. Every piece of state in it (counters,
 * tasks, VMAs and PTEs, the page-table walk, the page cache) is read from
 * the core standing exactly at k, after event k - 1, even in the middle of
 * a fault (seekCursor: a capture inside the operation). The operation's
 * events so far add only the narrative: which fault is in progress, what
 * the mechanisms mark on it (their providers' slots: a window, skipped
 * pages, a batch), which tables and PTEs *this operation* made, and why
 * each page was mapped. The views draw frames; no view, and nothing here,
 * keeps a second model of kernel state.
 *
 * Mechanisms add their own data to a frame through frame providers (their
 * folder in web/src/mechanisms/): each gets the core at the cursor and the
 * partial operation's events, and its result goes in frame.mech[id].
 */
import { EV, EV_TYPE_MASK, EVENT_OFFSETS, FaultKind, SetHow, type EventName } from '../../../wasm-core/ts/abi.js';
import type { Core, MmInfo } from '../../../wasm-core/ts/core.js';
import type { Program, StepInfo } from '../../../wasm-core/ts/compile.js';
import { lowerBound } from '../../../wasm-core/ts/search.js';
import { describeEvent, type SimEvent } from '../../../wasm-core/ts/events.js';
import { findInIndex, Recorder, type EngineOptions } from '../../../wasm-core/ts/recorder.js';
import {
  CAUSE,
  type FaultView,
  type FileView,
  type Frame,
  type FrameProvider,
  type LogLine,
  type MmView,
  type TableChange,
  type VmaView,
  type WalkView,
  type FrameFocus,
} from './types.js';
import { collectCounters } from '../../../wasm-core/ts/runner.js';

/** the largest mapping drawn page by page; larger ones are heat strips */
export const MAX_CELLS = 1 << 18;
export const HEAT_BUCKETS = 2048;

/**
 * Every page's mapping history, flattened: keys (mm * 2^36 + page number)
 * sorted, and for key i its intervals at [start[i], start[i + 1]) of
 * from/to/cause. A frame walks the keys of one VMA in order: no per-page
 * hash lookups (80,000 of them took 17 ms a frame).
 */
interface FlatHistory {
  keys: Float64Array;
  start: Uint32Array;
  from: Float64Array;
  to: Float64Array;
  cause: Uint8Array;
}

/** how a mm_set_pte mapped its page, for colouring (CAUSE) */
function causeOf(how: number, major: boolean): number {
  return how === SetHow.Around
    ? CAUSE.around
    : how === SetHow.AroundSelf || how === SetHow.Fault
      ? major
        ? CAUSE.major
        : CAUSE.fault
      : how === SetHow.Zero
        ? CAUSE.zero
        : how === SetHow.Anon
          ? CAUSE.anon
          : how === SetHow.Cow
            ? CAUSE.cow
            : CAUSE.unknown;
}

/**
 * A PMD entry replaced by a PTE table among ops (a provider's tableChange: a THP remapped), at the walk's
 * 2 MiB: the walk says so, and its 512 entries were all set at once. For the fault's own operation and for
 * the one at the cursor.
 */
function markRemap(w: WalkView, changes: TableChange[]): void {
  if (w.leaf || w.remapped || !changes.some((c) => c.remap && c.address === w.pteBase)) return;
  w.remapped = true;
  for (let i = 0; i < 512; i++) if (w.pte[i] & 3) w.pte[i] |= 4;
}

export class Engine extends Recorder {
  /* the mapping history of the first historyOf events (a frame taken while the run records sees fewer) */
  private history: FlatHistory | null = null;
  private historyOf = -1;
  private providers: readonly FrameProvider[];

  constructor(core: Core, program: Program, opts: EngineOptions = {}, providers: readonly FrameProvider[] = []) {
    super(core, program, opts);
    this.providers = providers;
  }

  /** the page-table changes the providers read in ops (beyond mm_set_pte), with the index of each's event */
  private tableChanges(ops: SimEvent[]): (TableChange & { at: number })[] {
    const out: (TableChange & { at: number })[] = [];
    ops.forEach((e, at) => {
      for (const p of this.providers) {
        const f = p.tableChanges?.[e.name] as ((e: SimEvent) => TableChange | null) | undefined;
        const c = f?.(e);
        if (c) out.push({ ...c, at });
      }
    });
    return out;
  }

  /* ------------------------------------------------------------- history */

  /**
   * Per page: every mm_set_pte that mapped it, with how (one pass over all
   * events). Only *why* a page was mapped comes from here: *whether* it is
   * mapped at the cursor comes from the core's page tables, so no unmapping
   * is re-derived here.
   */
  private pageHistory(): FlatHistory {
    if (this.history && this.historyOf === this.nEvents) return this.history;
    this.historyOf = this.nEvents;
    /* (page key, event + 1, cause) triples in growable typed arrays: no object per mapping (262,144
       mappings took 370 ms as a Map of arrays of objects) */
    let n = 0,
      keyOf = new Float64Array(1024),
      fromOf = new Float64Array(1024),
      causeOf_ = new Uint8Array(1024);
    const add = (key: number, from: number, cause: number) => {
      if (n === keyOf.length) {
        const grow = <T extends Float64Array | Uint8Array>(a: T): T => {
          const b = new (a.constructor as new (n: number) => T)(a.length * 2);
          b.set(a);
          return b;
        };
        keyOf = grow(keyOf);
        fromOf = grow(fromOf);
        causeOf_ = grow(causeOf_);
      }
      keyOf[n] = key;
      fromOf[n] = from;
      causeOf_[n++] = cause;
    };
    /* only the events that map pages or say a fault was major (ofTypes: no other event is decoded) */
    const changers = [...new Set(this.providers.flatMap((p) => Object.keys(p.tableChanges ?? {})))].map(
      (name) => EV[name as EventName],
    );
    const read = this.ofTypes([EV.mm_set_pte, EV.mm_filemap_fault, ...changers]);
    const changerTypes = new Set<number>(changers);
    /* a plain mm_set_pte (most of a big run's events) is read in place, not decoded into an object */
    const v = this.eventView();
    const SET = EVENT_OFFSETS.mm_set_pte;
    const mmOf = new Map<number, number>();
    /* the operation of the last major filemap fault: a page mapped in that operation was read from disk */
    let majorOp = -1;
    for (let k = 0; k < read.length; k++) {
      const i = read[k];
      const o = i * 32;
      const type = v.getUint16(o, true) & EV_TYPE_MASK;
      if (type === EV.mm_filemap_fault) {
        if (!v.getUint32(o + EVENT_OFFSETS.mm_filemap_fault.cached, true)) majorOp = this.opOf(i)[0];
        continue;
      }
      if (changerTypes.has(type)) {
        const changed = this.tableChanges([this.event(i)]);
        for (const c of changed)
          for (let j = 0; j < c.pages; j++) add(c.mm * 2 ** 36 + Math.floor(c.address / 4096) + j, i + 1, c.cause);
        if (changed.length) continue;
      }
      if (type !== EV.mm_set_pte) continue;
      const how = v.getUint32(o + SET.how, true);
      if (how === SetHow.Reuse) continue; /* reuse: the same page, made writable */
      const task = v.getUint16(o + 2, true);
      let mm = mmOf.get(task);
      if (mm === undefined) mmOf.set(task, (mm = this.mmOfTask(task === 0xffff ? null : task)));
      const address = v.getUint32(o + SET.address + 4, true) * 2 ** 32 + v.getUint32(o + SET.address, true);
      add(mm * 2 ** 36 + Math.floor(address / 4096), i + 1, causeOf(how, majorOp >= 0 && majorOp === this.opOf(i)[0]));
    }
    /* by page, and by event within a page (events are added in order) */
    const order = new Uint32Array(n);
    let sorted = true;
    for (let k = 0; k < n; k++) {
      order[k] = k;
      if (k && keyOf[k] < keyOf[k - 1]) sorted = false;
    }
    /* a run that maps its pages in address order (most big ones) is in page order already */
    if (!sorted) order.sort((a, b) => keyOf[a] - keyOf[b] || a - b);
    const keys: number[] = [];
    const start: number[] = [];
    const from = new Float64Array(n),
      to = new Float64Array(n).fill(Infinity),
      cause = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const o = order[k];
      if (!keys.length || keys[keys.length - 1] !== keyOf[o]) {
        keys.push(keyOf[o]);
        start.push(k);
      }
      from[k] = fromOf[o];
      cause[k] = causeOf_[o];
    }
    start.push(n);
    this.history = { keys: Float64Array.from(keys), start: Uint32Array.from(start), from, to, cause };
    return this.history;
  }

  private mmOfTask(task: number | null): number {
    if (task === null) return 0;
    const p = this.program.procs.findIndex((pr) => task >= pr.firstTask && task < pr.firstTask + pr.threads);
    return Math.max(0, p);
  }

  /* ------------------------------------------------------------- frames */

  /** event i as the log shows it: one sentence, and the kernel function */
  logLine(i: number): LogLine {
    const e = this.event(i);
    let before: SimEvent[] | undefined;
    if (e.type === EV.mm_fault_done) before = this.eventsIn(this.opOf(i)[0], i);
    const d = describeEvent(e, this.program, before);
    return { index: i, type: e.type, text: d.text, fn: d.fn, label: d.label, task: e.task, opStart: e.opStart };
  }

  /** what the views show at cursor c (events 0 .. c-1 have happened) */
  /** a tour's highlighted folio, for the frames that show one (set by the worker with each request) */
  focus: FrameFocus | null = null;

  frame(cursor: number, logRadius = 60): Frame {
    const info = this.timeline();
    if (this.big) return this.bigFrame();
    const c = Math.max(0, Math.min(cursor, info.nEvents));
    const [opStart, opEnd] = c > 0 ? this.opOf(c - 1) : [0, 0];
    const complete = c === opEnd || c === 0;
    /* the operation's events that have happened */
    const ops = this.eventsIn(opStart, c);

    /* the core at the cursor: after the operation when it is complete, else between two of its events */
    const exact = this.seekCursor(c);
    const focusTask = ops.find((e) => e.task !== null)?.task ?? this.lastTaskBefore(c);
    const focusMm = this.mmOfTask(focusTask);
    const mms = this.mmViews(c);
    const fault = this.faultView(ops, mms[focusMm]);
    /* an operation with no fault that remapped a THP's PMD (a munmap, a madvise): walk the (last) remap's address */
    const changes = this.tableChanges(ops);
    const remap = fault ? null : ([...changes].reverse().find((x) => x.remap) ?? null);
    const walk = fault
      ? this.walkView(focusMm, fault.addr, ops, opStart + ops.findIndex((e) => e.type === EV.page_fault_user), false)
      : remap
        ? { ...this.walkView(remap.mm, remap.address, ops, opStart + remap.at, false), remap: true }
        : this.lastWalk(info.faultEvents, opStart);
    /* a remap by this operation (a munmap, a madvise) of the last fault's PMD: said in the walk too */
    if (walk) markRemap(walk, changes);
    const partial = complete ? [] : ops;
    const mech: Record<string, unknown> = {};
    for (const p of this.providers)
      if (p.frame)
        mech[p.id] = p.frame({ sim: this.sim, program: this.program, cursor: c, partial, ops, mms, focus: this.focus });
    const { tasks } = collectCounters(this.program, this.sim);

    let step: number | null = null,
      say: string | null = null;
    for (const i of info.stepEvents) if (i < c) step = this.eventOf(i, 'mmsim_step').pc;
    for (const i of info.sayEvents) if (i < c) say = this.program.says[this.eventOf(i, 'mmsim_say').text] ?? null;
    const lo = Math.max(0, c - logRadius),
      hi = Math.min(info.nEvents, c + logRadius);
    const log: LogLine[] = [];
    for (let i = lo; i < hi; i++) log.push(this.logLine(i));
    return {
      cursor: c,
      nEvents: info.nEvents,
      big: false,
      opStart,
      opEnd,
      event: c > 0 ? this.logLine(c - 1) : null,
      step,
      say,
      counters: this.sim.counters(),
      tasks: this.program.tasks.map((name, i) => ({ name, alive: this.sim.taskInfo(i).alive, counters: tasks[name] })),
      focusMm,
      mms,
      fault,
      walk,
      log,
      files: this.fileViews(),
      mech,
      ...(exact ? {} : { inexact: true }),
    };
  }

  private lastTaskBefore(c: number): number | null {
    for (let i = c - 1; i >= 0 && i >= c - 5000; i--) {
      const t = this.event(i).task;
      if (t !== null) return t;
    }
    return null;
  }

  /** the fault in the operation, if any: the core's fault path in its events, and each mechanism's marks on it */
  private faultView(ops: SimEvent[], mm: MmView | undefined): FaultView | null {
    const pf = ops.find((e) => e.type === EV.page_fault_user);
    if (!pf) return null;
    const f: FaultView = {
      addr: pf.address,
      write: (pf.error_code & 2) !== 0,
      task: pf.task,
      major: false,
      retried: false,
      done: false,
      kind: null,
      mapped: [],
      marks: [],
      notes: [],
    };
    for (const e of ops) {
      if (e.type === EV.mm_set_pte) f.mapped.push({ addr: e.address, how: e.how });
      else if (e.type === EV.mm_filemap_fault && !e.cached) f.major = true;
      else if (e.type === EV.page_fault_user && e.attempt > 0) f.retried = true;
      else if (e.type === EV.mm_fault_done && e.kind !== FaultKind.Retry) {
        f.done = true;
        f.kind = e.kind;
      }
    }
    const vma = mm?.vmas.find((v) => f.addr >= v.start && f.addr < v.end) ?? null;
    for (const p of this.providers) {
      const m = p.fault?.(ops, { addr: f.addr, vma });
      if (m?.marks) f.marks.push(...m.marks);
      if (m?.notes) f.notes.push(...m.notes);
    }
    return f;
  }

  /** each file's page cache size and readahead window (struct file_ra_state), from the core */
  private fileViews(): FileView[] {
    return this.program.files.map((_, id) => {
      const fi = this.sim.fileInfo(id);
      const ra = fi.raSize ? { start: Number(fi.raStart), size: fi.raSize, async: fi.raAsyncSize } : null;
      return { id, nrpages: fi.nrpages, mmapMiss: fi.mmapMiss, ra };
    });
  }

  /**
   * Between faults the walk keeps showing the last fault before the
   * operation (marked stale): its address walked through the page tables as
   * they are now, with what that fault allocated and set. The view keeps its
   * content, and its size, while the steps between faults play.
   */
  private lastWalk(faults: number[], before: number): WalkView | null {
    const k = lowerBound(faults, before);
    if (k === 0) return null;
    const at = faults[k - 1];
    const pf = this.eventOf(at, 'page_fault_user');
    const mm = this.mmOfTask(pf.task);
    if (!this.sim.mmInfo(mm).alive) return null;
    const [s, e] = this.opOf(at);
    return this.walkView(mm, pf.address, this.eventsIn(s, e), at, true);
  }

  /** events [from, to) */
  private eventsIn(from: number, to: number): SimEvent[] {
    const out: SimEvent[] = [];
    for (let i = from; i < to; i++) out.push(this.event(i));
    return out;
  }

  /** the walk of addr in mm's tables now; ops: the fault's events (what it allocated and set) */
  private walkView(mm: number, addr: number, ops: SimEvent[], faultEvent: number, stale: boolean): WalkView {
    const w = this.sim.walk(mm, BigInt(addr));
    const allocated = [false, false, false, false];
    for (const e of ops) if (e.type === EV.mm_pgtable_alloc && e.level >= 1) allocated[e.level - 1] = true;
    const { pfn, entries } = this.sim.pteTable(mm, BigInt(addr));
    const pte = new Uint8Array(512);
    const base = Math.floor(addr / 2 ** 21) * 2 ** 21;
    const pmd = w.entry[2];
    const leaf =
      (pmd & 0x81n) === 0x81n
        ? { zero: (pmd & 0x200n) !== 0n, set: ops.some((e) => e.type === EV.mmsim_set_pmd && e.address === base) }
        : null;
    for (let i = 0; i < 512; i++) {
      const e = leaf ? pmd : entries[i];
      if (e & 1n) pte[i] = (e & 2n ? 2 : 1) | (leaf ? 16 : 0);
    }
    /* which of the present PTEs this operation set (the narrative; whether they are present is the core's) */
    for (const e of ops)
      if (e.type === EV.mm_set_pte && e.address >= base && e.address < base + 2 ** 21) {
        const i = (e.address - base) / 4096;
        if (pte[i] & 3) pte[i] |= 4;
      }
    pte[Math.floor((addr - base) / 4096)] |= 8;
    const view: WalkView = {
      addr,
      entry: w.entry.map((e) => `0x${e.toString(16).padStart(16, '0')}`),
      present: w.entry.map((e) => (e & 1n) === 1n),
      allocated,
      tablePfn: w.tablePfn,
      index: w.index,
      pte,
      ptePfn: pfn,
      pteBase: base,
      faultEvent,
      stale,
      leaf,
      remapped: false,
    };
    markRemap(view, this.tableChanges(ops));
    return view;
  }

  /**
   * VMAs and per-page states of every process at cursor c, from the core
   * (which stands at c); each mapped page is coloured by the last
   * mm_set_pte that mapped it before the cursor.
   */
  private mmViews(cursor: number): MmView[] {
    const hist = this.pageHistory();
    const out: MmView[] = [];
    for (let mm = 0; mm < this.program.procs.length; mm++) {
      const mi = this.sim.mmInfo(mm);
      const vmas: VmaView[] = [];
      if (mi.alive)
        for (const v of this.sim.vmas(mm)) {
          const start = Number(v.vmStart),
            end = Number(v.vmEnd),
            n = (end - start) / 4096;
          const vv: VmaView = {
            id: v.id,
            start,
            end,
            pgoff: Number(v.vmPgoff),
            flags: v.vmFlags,
            file: v.file,
            map: v.map,
          };
          if (n <= MAX_CELLS) {
            const st = this.sim.pteStates(mm, v.vmStart, n);
            /* pages under a PMD leaf (core bit 16): a THP, or the huge zero page; no mm_set_pte maps them */
            let leaves: Uint8Array | null = null;
            for (let p = 0; p < n; p++) {
              if (!(st[p] & 16)) continue;
              (leaves ??= new Uint8Array(n))[p] = 1;
              st[p] = (st[p] & 15) | ((st[p] & 8 ? CAUSE.zero : CAUSE.huge) << 4);
            }
            /* the cause of each page a PTE maps: its last mm_set_pte before the cursor */
            const base = mm * 2 ** 36 + start / 4096;
            for (let i = lowerBound(hist.keys, base); i < hist.keys.length && hist.keys[i] < base + n; i++) {
              const p = hist.keys[i] - base;
              if (!(st[p] & 3) || leaves?.[p]) continue;
              let cause = 0;
              for (let j = hist.start[i]; j < hist.start[i + 1] && hist.from[j] <= cursor; j++) cause = hist.cause[j];
              st[p] = (st[p] & 15) | (cause << 4);
            }
            /*
             * A present PTE no mm_set_pte mapped before the cursor, in a forked process: fork's
             * copy_present_pte() made it (the kernel traces no event there; leaves and remaps
             * have their causes above)
             */
            if (this.program.procs[mm].forked)
              for (let p = 0; p < n; p++) if (st[p] & 1 && !(st[p] >> 4)) st[p] |= CAUSE.fork << 4;
            vv.pages = st;
            /* the page cache behind a file mapping, page by page */
            if (v.file !== null) vv.cache = this.sim.pagecacheStates(v.file, vv.pgoff, n);
            for (const p of this.providers) {
              const joins = p.pages?.({ sim: this.sim, mm, vma: vv }).joins;
              if (joins?.some((w) => w !== 0)) vv.joins = joins;
            }
          } else {
            vv.heat = this.sim.pteHeat(mm, v.vmStart, v.vmEnd, HEAT_BUCKETS);
          }
          vmas.push(vv);
        }
      out.push(this.mmView(mm, mi, vmas));
    }
    return out;
  }

  /** a process as the views get it, from the core's mm_info (its counters already keyed by MM_COUNTERS) */
  private mmView(mm: number, mi: MmInfo, vmas: VmaView[]): MmView {
    return {
      id: mm,
      name: this.program.procs[mm].name,
      alive: mi.alive,
      exited: mi.exited,
      vmas,
      counters: mi.counters,
      nrVmas: mi.alive ? mi.nrVmas : 0,
    };
  }

  private bigFrame(): Frame {
    const { tasks } = collectCounters(this.program, this.sim);
    const mms: MmView[] = [];
    for (let mm = 0; mm < this.program.procs.length; mm++) {
      const mi = this.sim.mmInfo(mm);
      const vmas: VmaView[] = mi.alive
        ? this.sim.vmas(mm).map((v) => ({
            id: v.id,
            start: Number(v.vmStart),
            end: Number(v.vmEnd),
            pgoff: Number(v.vmPgoff),
            flags: v.vmFlags,
            file: v.file,
            map: v.map,
            heat: this.sim.pteHeat(mm, v.vmStart, v.vmEnd, HEAT_BUCKETS),
          }))
        : [];
      mms.push(this.mmView(mm, mi, vmas));
    }
    return {
      cursor: 0,
      nEvents: 0,
      big: true,
      opStart: 0,
      opEnd: 0,
      event: null,
      step: null,
      say: null,
      counters: this.sim.counters(),
      tasks: this.program.tasks.map((name, i) => ({ name, alive: this.sim.taskInfo(i).alive, counters: tasks[name] })),
      focusMm: 0,
      mms,
      fault: null,
      walk: null,
      log: [],
      files: this.fileViews(),
      mech: {},
    };
  }

  /* ------------------------------------------------------------- navigation */

  /** the cursor just after the next (dir 1) or previous (dir -1) event of a kind */
  findEvent(from: number, kind: 'fault' | 'major' | 'step' | 'say' | number, dir: 1 | -1): number | null {
    const info = this.timeline();
    const list =
      kind === 'fault'
        ? info.faultEvents
        : kind === 'major'
          ? info.majorEvents
          : kind === 'step'
            ? info.stepEvents
            : kind === 'say'
              ? info.sayEvents
              : null;
    if (list) return findInIndex(list, from, dir);
    for (let i = dir > 0 ? from : from - 2; i >= 0 && i < info.nEvents; i += dir)
      if (this.event(i).type === kind) return i + 1;
    return null;
  }

  stepInfo(step: number | null): StepInfo | null {
    return step === null ? null : (this.program.steps[step] ?? null);
  }
}
