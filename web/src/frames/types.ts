/**
 * The view models the playground draws: a Frame is what is on screen at one
 * cursor (built in the worker by ./engine.ts from the core standing at that
 * cursor), and a FrameProvider is how a mechanism adds its own part
 * (frame.mech[id]). The views only ever draw these; none keeps a second
 * model of kernel state.
 */
import type { MmInfo, Sim } from '../../../wasm-core/ts/core.js';
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { SimEvent, SimEventOf } from '../../../wasm-core/ts/events.js';
import type { EventName } from '../../../wasm-core/ts/abi.js';

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
  /** with pages: bit p of joins[p >> 5] set when page p continues the block of page p - 1 (drawn as one: a
   *  large folio); filled by a frame provider's pages() */
  joins?: Uint32Array;
  /** with pages, for a file VMA: the page cache behind each page, PC.* | PC_READAHEAD */
  cache?: Uint8Array;
}

/** a file's readahead state (struct file_ra_state): the last window, its last `async` pages ahead of the reader */
export interface FileView {
  id: number;
  nrpages: number;
  mmapMiss: number;
  ra: { start: number; size: number; async: number } | null;
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
  mapped: { addr: number; how: number }[];
  /** what the mechanisms mark on the fault (their providers' fault()): windows, skipped pages, guesses */
  marks: FaultMark[];
  /** their phrases in the fault line, in the providers' order */
  notes: FaultNote[];
}

/**
 * A mechanism's mark on the fault in progress, drawn by the address space:
 * `range` a bracket around the pages [start, end) (fault-around's window, a
 * prefault batch); `cross` a cross on each of them (a page not mapped, and
 * why); `guess` a dashed outline on the page at start (a predicted next
 * fault). A page under it reads `lead` (bold) and `title` in its tooltip.
 */
export interface FaultMark {
  kind: 'range' | 'cross' | 'guess';
  start: number;
  end: number;
  title: string;
  lead?: string;
}

/** a phrase of the fault line under the address space: `bold`, then `text` ("window pages 16–31") */
export interface FaultNote {
  bold?: string;
  text: string;
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
  /** each file's page cache size and readahead window */
  files: FileView[];
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
  /** a tour's highlighted folio: the one mapping this page of this mapping (the folio view shows it) */
  focus?: FrameFocus | null;
}

export interface FrameFocus {
  vma: string;
  page: number;
}

/** a page-table change an event makes that no mm_set_pte tells (a PMD remapped by 512 PTEs) */
export interface TableChange {
  mm: number;
  address: number;
  pages: number;
  /** how the pages came to be mapped (CAUSE), for the address space's colours */
  cause: number;
  /** the walk marks the PTE table as this operation's (the PMD entry replaced by a table) */
  remap: boolean;
}

/**
 * What a mechanism adds to the playground's frames, in the worker. Every
 * part is optional: a slot of the shared views that the mechanism fills.
 */
export interface FrameProvider {
  /** the mechanism's id: its frame() result goes in frame.mech[id] */
  id: string;
  /** its own view model, for its own views */
  frame?(ctx: FrameContext): unknown;
  /** its marks on the fault in progress and its phrases in the fault line, from the operation's events */
  fault?(ops: SimEvent[], at: { addr: number; vma: VmaView | null }): { marks?: FaultMark[]; notes?: FaultNote[] };
  /** per drawn VMA: page blocks to draw as one (large folios) */
  pages?(ctx: { sim: Sim; mm: number; vma: VmaView }): { joins?: Uint32Array };
  /**
   * page-table changes events make beyond mm_set_pte (the address space's colours, the walk), by the event
   * that makes them: the keys are the only events read for it
   */
  tableChanges?: { readonly [N in EventName]?: (e: SimEventOf<N>) => TableChange | null };
  /**
   * Once per recorded run, over the events of the types it reads (`ofTypes([EV.x, EV.y])`: their indexes, in
   * order, without decoding the others): data for charts over
   * the whole run (the worker sends it with the timeline, as timeline.series[id]).
   */
  series?(nEvents: number, event: (i: number) => SimEvent, program: Program, ofTypes: OfTypes): unknown;
}

/** the indexes of a recorded run's events of these types, in order (Recorder.ofTypes) */
export type OfTypes = (types: readonly number[]) => ArrayLike<number>;
