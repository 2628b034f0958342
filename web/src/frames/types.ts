/**
 * The view models the playground draws: a Frame is what is on screen at one
 * cursor (built in the worker by ./engine.ts from the core standing at that
 * cursor), and a FrameProvider is how a mechanism adds its own part
 * (frame.mech[id]). The views only ever draw these; none keeps a second
 * model of kernel state.
 */
import type { MmInfo, Sim } from '../../../wasm-core/ts/core.js';
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { SimEvent } from '../../../wasm-core/ts/events.js';

export type { MmInfo };

/** per page: how it came to be mapped (0 unknown: nothing the events say) */
export const CAUSE = { unknown: 0, fault: 1, around: 2, major: 3, anon: 4, zero: 5, cow: 6, huge: 7, fork: 8 } as const;
export const CAUSE_NAMES = [
  'mapped',
  'faulting access',
  'fault-around',
  'major fault',
  'anonymous page',
  'zero page',
  'private copy',
  'a THP (one PMD maps 2 MiB)',
  'copied by fork',
];

export interface VmaView {
  id: number;
  start: number;
  end: number;
  pgoff: number;
  flags: number;
  file: number | null;
  map: number | null;
  /** per page: bit 0 present, bit 1 writable, bit 2 anon, bit 3 zero page; then cause in bits 4..6;
   *  undefined when the VMA is too large (see heat) */
  pages?: Uint8Array;
  /** present PTEs per bucket, for large VMAs */
  heat?: Uint32Array;
  /** with pages: bit p of joins[p >> 5] set when page p continues page p - 1's large folio (drawn as one block) */
  joins?: Uint32Array;
}

export interface MmView {
  id: number;
  name: string;
  alive: boolean;
  vmas: VmaView[];
  counters: Record<string, number>;
  /** not alive because it exited (not alive and not exited: a fork has not created it yet) */
  exited: boolean;
  /** the process's VMA count: vmas holds the first 1,024 of them (core.ts vmas()) */
  nrVmas: number;
}

export interface FaultView {
  addr: number;
  write: boolean;
  task: number | null;
  major: boolean;
  retried: boolean;
  done: boolean;
  kind: number | null;
  window: { start: number; end: number; startPgoff: number; endPgoff: number } | null;
  /** the 2004 anticipatory prefault's batch (mmsim_anon_prefault): its pages, what ended it, and the next prediction */
  prefault: { hit: boolean; order: number; pages: number; planned: number; why: number; next: number } | null;
  skips: { addr: number; pgoff: number; reason: number }[];
  mapped: { addr: number; how: number }[];
}

export interface WalkView {
  addr: number;
  entry: string[] /* hex, per level */;
  present: boolean[];
  allocated: boolean[] /* the table below this entry was allocated by the current operation */;
  tablePfn: number[];
  index: number[];
  /** the PTE page: per slot 0 none, 1 read-only, 2 writable; +4 set by this operation, +8 the current address;
   *  +16 mapped by the PMD leaf (a THP: no PTE page, every slot shows the one entry) */
  pte: Uint8Array;
  /** the PMD entry is a leaf (PSE): a THP, or the huge zero page (zero) */
  leaf: null | { zero: boolean; set: boolean };
  /** this operation remapped the PMD by a PTE table (__split_huge_pmd): the PTE page is the deposited one */
  remapped: boolean;
  /** the walk is of a remap's address (an operation with no fault, e.g. a munmap that cut a THP), not of a fault */
  remap?: boolean;
  ptePfn: number;
  pteBase: number;
  /** the page_fault_user event of the fault walked */
  faultEvent: number;
  /** true between faults: the last fault before the operation shown, walked in the tables as they are now */
  stale: boolean;
}

export interface LogLine {
  index: number;
  type: number;
  text: string;
  fn: string | null;
  label: string;
  task: number | null;
  opStart: boolean;
}

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
  log: LogLine[];
  /** what each mechanism's frame provider added, by mechanism id */
  mech: Record<string, unknown>;
  /** set when the state inside the operation could not be captured (the host refused the memory): the
      views show the state before the operation, the log and the narrative the cursor's */
  inexact?: true;
}

/** what a frame provider sees: the core at the cursor, and the operation's events so far */
export interface FrameContext {
  /** the core at the cursor; inside an operation a restored capture: query it, do not run it */
  sim: Sim;
  program: Program;
  cursor: number;
  /** the events of the operation shown that have happened, when it is not complete (narrative only: the state is the core's) */
  partial: SimEvent[];
  /** the events of the operation shown that have happened, complete or not (the operation's story: a lookup and its walk) */
  ops: SimEvent[];
  mms: MmView[];
}

export interface FrameProvider {
  /** the mechanism's id: its result goes in frame.mech[id] */
  id: string;
  frame(ctx: FrameContext): unknown;
  /**
   * Once per recorded run, in one pass over its events: data for charts over
   * the whole run (the worker sends it with the timeline, as timeline.series[id]).
   */
  series?(nEvents: number, event: (i: number) => SimEvent, program: Program): unknown;
}
