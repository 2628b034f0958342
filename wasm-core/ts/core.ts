/**
 * The one wrapper around the core's WebAssembly exports (wasm-core/exports.txt).
 *
 * Works the same in Node and in the browser: instantiate the plain
 * standalone .wasm with the single import it needs. Memory growth detaches
 * ArrayBuffer views, so every read builds a fresh view; pointers above 2 GiB
 * come back negative from i32 returns and are normalised with `>>> 0`.
 * C error codes become CoreError exceptions.
 */
import {
  ABI_VERSION,
  COUNTERS,
  EVENTS,
  ErrorCode,
  INTERFACE_HASH,
  MM_COUNTERS,
  NONE,
  type RunStatus,
  STRUCTS,
  TASK_COUNTERS,
  type CoreExports,
} from './abi.js';
import { readStruct, type StructValue } from './layout.js';
import type { StructName } from './gen/interface.js';

type Ptr = number;
type Exports = CoreExports;
/** the name of a query export (every argument and the result a 32-bit number) */
export type QueryFn = Extract<keyof Exports, `mmsim_${string}`>;

export class CoreError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly step: number | null = null,
  ) {
    super(message);
    this.name = 'CoreError';
  }
}

export const ERROR_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(ErrorCode)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => [v, k]),
);

export interface ErrorInfo {
  code: number;
  step: number | null;
  task: number | null;
  addr: bigint;
  detail: bigint;
}
export interface ExpectFailure {
  step: number;
  item: number;
  key: bigint;
  expected: bigint;
  actual: bigint;
}
export interface VmaInfo {
  vmStart: bigint;
  vmEnd: bigint;
  vmPgoff: bigint;
  vmFlags: number;
  file: number | null;
  id: number;
  anonVma: number;
  map: number | null;
}
export interface Walk {
  addr: bigint;
  entry: bigint[];
  tablePfn: number[];
  index: number[];
}
export interface PageInfo {
  pfn: number;
  flags: number;
  refcount: number;
  mapcount: number;
  mapping: number;
  index: number;
  order: number;
  lru: number | null;
}
export interface TaskInfo {
  mm: number;
  alive: boolean;
  counters: Record<string, number>;
}
export interface MmInfo {
  alive: boolean;
  exited: boolean;
  nrVmas: number;
  pgdPfn: number;
  counters: Record<string, number>;
}
/** a snapshot kept in the core's own memory (Sim.snapshotInCore) */
export interface CoreSnapshot {
  ptr: Ptr;
  len: number;
  cap: number;
}
export interface FileInfo {
  size: bigint;
  nrpages: number;
  mmapMiss: number;
  raStart: bigint;
  raSize: number;
  raAsyncSize: number;
}

const u64max = (1n << 64n) - 1n;

function toBig(n: number): bigint {
  return Number.isFinite(n) ? BigInt(Math.max(0, Math.floor(n))) : u64max;
}

/** what the core imports: a standalone wasm asks only to be told when its memory grows */
const CORE_IMPORTS = { env: { emscripten_notify_memory_growth: () => {} } };

/** A loaded core module: create simulations from it. */
export class Core {
  readonly ex: Exports;

  private constructor(instance: WebAssembly.Instance) {
    this.ex = instance.exports as unknown as Exports;
    this.ex._initialize?.();
    const abi = this.ex.mmsim_abi_version();
    if (abi !== ABI_VERSION) throw new CoreError(`core ABI ${abi}, binding expects ${ABI_VERSION}`, ErrorCode.EABI);
    const hash = this.ex.mmsim_interface_hash() >>> 0;
    if (hash !== INTERFACE_HASH)
      throw new CoreError(
        `the core was built from another interface description (hash ${hash.toString(16)}, the binding's ${INTERFACE_HASH.toString(16)}): rebuild it (npm run build)`,
        ErrorCode.EABI,
      );
    COUNTERS.forEach((name, i) => {
      const got = this.cstr(this.ex.mmsim_counter_name(i));
      if (got !== name)
        throw new CoreError(`counter ${i} is '${got}' in the core, '${name}' in abi.ts`, ErrorCode.EABI);
    });
    EVENTS.forEach((name, i) => {
      const got = this.cstr(this.ex.mmsim_event_name(i));
      if (got !== name) throw new CoreError(`event ${i} is '${got}' in the core, '${name}' in abi.ts`, ErrorCode.EABI);
    });
    TASK_COUNTERS.forEach((name, i) => {
      const got = this.cstr(this.ex.mmsim_task_counter_name(i));
      if (got !== name) throw new CoreError(`task counter ${i} is '${got}' in the core`, ErrorCode.EABI);
    });
  }

  /** Instantiate from the .wasm bytes (Node: fs.readFile; browser: fetch). */
  static async fromBytes(bytes: BufferSource): Promise<Core> {
    const { instance } = await WebAssembly.instantiate(bytes, CORE_IMPORTS);
    return new Core(instance);
  }

  /**
   * Instantiate a module compiled before, synchronously (Node: the CLI compiles the core once per process;
   * the browser's worker, from ./fetch.ts).
   */
  static fromModule(module: WebAssembly.Module): Core {
    return new Core(new WebAssembly.Instance(module, CORE_IMPORTS));
  }

  view(): DataView {
    return new DataView(this.ex.memory.buffer);
  }

  bytes(ptr: Ptr, len: number): Uint8Array {
    return new Uint8Array(this.ex.memory.buffer, ptr >>> 0, len);
  }

  cstr(ptr: Ptr): string {
    const mem = new Uint8Array(this.ex.memory.buffer);
    let end = ptr >>> 0;
    while (mem[end] !== 0) end++;
    return new TextDecoder().decode(mem.subarray(ptr >>> 0, end));
  }

  /** Host memory the wasm instance holds (its linear memory), bytes. */
  get memoryBytes(): number {
    return this.ex.memory.buffer.byteLength;
  }

  malloc(n: number): Ptr {
    const p = this.ex.malloc(n) >>> 0;
    if (!p) throw new CoreError(`the core could not allocate ${n} bytes of host memory`, ErrorCode.ENOMEM);
    return p;
  }

  createSim(opts: SimOptions = {}): Sim {
    return new Sim(this, opts);
  }
}

export interface SimOptions {
  trace?: boolean;
  debugVm?: boolean;
  eventCapacity?: number;
  /** refuse to grow the simulator's own memory beyond this (bytes) */
  maxBytes?: number;
}

const SCRATCH = 64 * 1024;

/** One simulated machine. */
export class Sim {
  readonly ptr: Ptr;
  private scratch: Ptr;
  private scratchLen = SCRATCH;
  private destroyed = false;

  constructor(
    readonly core: Core,
    opts: SimOptions,
  ) {
    const ex = core.ex;
    this.ptr =
      ex.mmsim_create_with(
        opts.trace ? 1 : 0,
        opts.debugVm ? 1 : 0,
        opts.eventCapacity ?? 65536,
        BigInt(opts.maxBytes ?? 0),
      ) >>> 0;
    if (!this.ptr) throw new CoreError('the core could not create a machine', ErrorCode.ENOMEM);
    this.scratch = core.malloc(SCRATCH);
  }

  private get ex(): Exports {
    if (this.destroyed) throw new CoreError('this machine was destroyed', ErrorCode.ESTATE);
    return this.core.ex;
  }

  private scratchFor(n: number): Ptr {
    if (n > this.scratchLen) {
      this.core.ex.free(this.scratch);
      this.scratchLen = Math.max(n, this.scratchLen * 2);
      this.scratch = this.core.malloc(this.scratchLen);
    }
    return this.scratch;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.core.ex.free(this.scratch);
    this.core.ex.mmsim_destroy(this.ptr);
    this.destroyed = true;
  }

  /** Load a compiled program; throws CoreError (with .step) if the core refuses it. */
  load(program: Uint8Array): void {
    const p = this.core.malloc(program.length);
    this.core.bytes(p, program.length).set(program);
    const rc = this.ex.mmsim_load(this.ptr, p, program.length);
    this.core.ex.free(p);
    if (rc !== 0) {
      const e = this.lastError();
      const msg = this.core.cstr(this.ex.mmsim_load_message(this.ptr)) || ERROR_NAMES[rc] || String(rc);
      throw new CoreError(msg, rc, e.step);
    }
  }

  run(workBudget = Infinity, stopEvent = Infinity): RunStatus {
    return this.ex.mmsim_run(this.ptr, toBig(workBudget), toBig(stopEvent)) as RunStatus;
  }

  setTrace(on: boolean): void {
    this.ex.mmsim_set_trace(this.ptr, on ? 1 : 0);
  }

  /** drop the buffered events without copying them (a replay that has them already) */
  clearEvents(): void {
    this.ex.mmsim_events_clear(this.ptr);
  }

  /**
   * The events since the last clear, as a view of the core's memory (no copy): valid until the next
   * call into the core (its memory may grow and move). The recorder copies it once, into its log.
   */
  pendingEvents(): Uint8Array {
    const n = this.ex.mmsim_nr_events(this.ptr);
    return n ? this.core.bytes(this.ex.mmsim_events(this.ptr), n * STRUCTS.event.size) : new Uint8Array(0);
  }

  /** A copy of the buffered event records (32 bytes each), and clears the buffer. */
  drainEvents(): Uint8Array {
    const out = this.pendingEvents().slice();
    this.clearEvents();
    return out;
  }

  get eventsTotal(): number {
    return Number(this.ex.mmsim_events_total(this.ptr));
  }
  get workDone(): number {
    return Number(this.ex.mmsim_work_done(this.ptr));
  }
  get workTotal(): number {
    return Number(this.ex.mmsim_work_total(this.ptr));
  }
  get finished(): boolean {
    return this.ex.mmsim_finished(this.ptr) !== 0;
  }
  get stepsExecuted(): number {
    return this.ex.mmsim_steps_executed(this.ptr);
  }
  get memBytes(): number {
    return Number(this.ex.mmsim_mem_bytes(this.ptr));
  }
  get memPeak(): number {
    return Number(this.ex.mmsim_mem_peak(this.ptr));
  }
  get nrTasks(): number {
    return this.ex.mmsim_nr_tasks(this.ptr);
  }
  get nrMms(): number {
    return this.ex.mmsim_nr_mms(this.ptr);
  }

  lastError(): ErrorInfo {
    const p = this.ex.mmsim_last_error(this.ptr) >>> 0;
    const r = readStruct(this.core.view(), p, 'error_info');
    return {
      code: r.code,
      step: r.step === NONE ? null : r.step,
      task: r.task === NONE ? null : r.task,
      addr: r.addr,
      detail: r.detail,
    };
  }

  expectFailures(): ExpectFailure[] {
    const n = Math.min(this.ex.mmsim_nr_expect_failures(this.ptr), 64);
    const out: ExpectFailure[] = [];
    for (let i = 0; i < n; i++) {
      const p = this.ex.mmsim_expect_failure(this.ptr, i) >>> 0;
      const r = readStruct(this.core.view(), p, 'expect_failure');
      out.push({ step: r.step, item: r.item, key: r.key, expected: r.expected, actual: r.actual });
    }
    return out;
  }

  get nrExpectFailures(): number {
    return this.ex.mmsim_nr_expect_failures(this.ptr);
  }

  /** All counters, by abi.ts COUNTERS order. */
  counters(): number[] {
    const p = this.ex.mmsim_counters(this.ptr) >>> 0;
    const v = this.core.view();
    return COUNTERS.map((_, i) => Number(v.getBigUint64(p + 8 * i, true)));
  }

  counter(id: number): number {
    return Number(this.ex.mmsim_counter(this.ptr, id));
  }

  taskInfo(task: number): TaskInfo {
    const p = this.scratchFor(STRUCTS.task_info.size);
    if (this.ex.mmsim_task_info(this.ptr, task, p)) throw new CoreError(`no task ${task}`, ErrorCode.EINVAL);
    const r = readStruct(this.core.view(), p, 'task_info');
    const counters: Record<string, number> = {};
    TASK_COUNTERS.forEach((n, i) => {
      counters[n] = Number(r.counters[i]);
    });
    return { mm: r.mm, alive: r.alive !== 0, counters };
  }

  mmInfo(mm: number): MmInfo {
    const p = this.scratchFor(STRUCTS.mm_info.size);
    if (this.ex.mmsim_mm_info(this.ptr, mm, p)) throw new CoreError(`no mm ${mm}`, ErrorCode.EINVAL);
    const r = readStruct(this.core.view(), p, 'mm_info');
    const counters: Record<string, number> = {};
    MM_COUNTERS.forEach((n, i) => {
      counters[n] = Number(r.counters[i]);
    });
    return { alive: r.alive !== 0, exited: r.exited !== 0, nrVmas: r.nr_vmas, pgdPfn: r.pgd_pfn, counters };
  }

  fileInfo(file: number): FileInfo {
    const p = this.scratchFor(STRUCTS.file_info.size);
    if (this.ex.mmsim_file_info(this.ptr, file, p)) throw new CoreError(`no file ${file}`, ErrorCode.EINVAL);
    const r = readStruct(this.core.view(), p, 'file_info');
    return {
      size: r.size,
      nrpages: r.nrpages,
      mmapMiss: r.mmap_miss,
      raStart: r.ra_start,
      raSize: r.ra_size,
      raAsyncSize: r.ra_async_size,
    };
  }

  /**
   * A mechanism's own query (described in its interface file, so no wrapper
   * here): `fn(sim, ...args, out)` filling one struct `name`; null when the
   * core says no (a non-zero return).
   */
  query<N extends StructName>(fn: QueryFn, name: N, ...args: number[]): StructValue<N> | null {
    const p = this.scratchFor(STRUCTS[name].size);
    const f = this.ex[fn] as unknown as (...a: number[]) => number;
    if (f(this.ptr, ...args, p)) return null;
    return readStruct(this.core.view(), p, name);
  }

  /** a mechanism's query `fn(sim, ...args, out, max)` filling up to max structs `name`, returning how many */
  queryMany<N extends StructName>(fn: QueryFn, name: N, max: number, ...args: number[]): StructValue<N>[] {
    const size = STRUCTS[name].size;
    const p = this.scratchFor(max * size);
    const f = this.ex[fn] as unknown as (...a: number[]) => number;
    const n = f(this.ptr, ...args, p, max) >>> 0;
    const v = this.core.view();
    return Array.from({ length: Math.min(n, max) }, (_, i) => readStruct(v, p + i * size, name));
  }

  /** a mechanism's query `fn(sim, ...args, out, max)` filling up to max u32 words, returning how many */
  queryWords(fn: QueryFn, max: number, ...args: number[]): Uint32Array {
    const p = this.scratchFor(max * 4);
    const f = this.ex[fn] as unknown as (...a: number[]) => number;
    const n = Math.min(f(this.ptr, ...args, p, max) >>> 0, max);
    return new Uint32Array(this.core.ex.memory.buffer.slice(p, p + n * 4));
  }

  vmas(mm: number, max = 1024): VmaInfo[] {
    const size = STRUCTS.vma_info.size;
    const p = this.scratchFor(max * size);
    const n = this.ex.mmsim_vmas(this.ptr, mm, p, max);
    const v = this.core.view();
    const out: VmaInfo[] = [];
    for (let i = 0; i < n; i++) {
      const r = readStruct(v, p + i * size, 'vma_info');
      out.push({
        vmStart: r.vm_start,
        vmEnd: r.vm_end,
        vmPgoff: r.vm_pgoff,
        vmFlags: r.vm_flags,
        file: r.file ? r.file - 1 : null,
        id: r.id,
        anonVma: r.anon_vma,
        map: r.map === NONE ? null : r.map,
      });
    }
    return out;
  }

  walk(mm: number, addr: bigint): Walk {
    const p = this.scratchFor(STRUCTS.walk.size);
    this.ex.mmsim_walk(this.ptr, mm, addr, p);
    const r = readStruct(this.core.view(), p, 'walk');
    return { addr: r.addr, entry: r.entry, tablePfn: r.table_pfn, index: r.index };
  }

  /** The 512 entries of the PTE table mapping addr (zeros if none) and its pfn (0 if none). */
  pteTable(mm: number, addr: bigint): { pfn: number; entries: BigUint64Array } {
    const p = this.scratchFor(512 * 8);
    const pfn = this.ex.mmsim_pte_table(this.ptr, mm, addr, p);
    const entries = new BigUint64Array(this.core.ex.memory.buffer.slice(p, p + 512 * 8));
    return { pfn, entries };
  }

  pageInfo(pfn: number): PageInfo | null {
    const p = this.scratchFor(STRUCTS.page_info.size);
    if (this.ex.mmsim_page_info(this.ptr, pfn, p)) return null;
    const r = readStruct(this.core.view(), p, 'page_info');
    return {
      pfn: r.pfn,
      flags: r.flags,
      refcount: r.refcount,
      mapcount: r.mapcount,
      mapping: r.mapping,
      index: r.index,
      order: r.order,
      lru: r.lru === NONE ? null : r.lru,
    };
  }

  /** Per page: 0 none, 1 read-only, 2 writable, +4 anon, +8 zero page. */
  pteStates(mm: number, start: bigint, n: number): Uint8Array {
    const p = this.scratchFor(n);
    this.ex.mmsim_pte_states(this.ptr, mm, start, n, p);
    return this.core.bytes(p, n).slice();
  }

  /** Present PTEs per bucket of [start, end) split in n. */
  pteHeat(mm: number, start: bigint, end: bigint, n: number): Uint32Array {
    const p = this.scratchFor(n * 4);
    this.ex.mmsim_pte_heat(this.ptr, mm, start, end, n, p);
    return new Uint32Array(this.core.ex.memory.buffer.slice(p, p + n * 4));
  }

  /** pfn per page-cache slot from pgoff (0 empty, 0xffffffff shadow). */
  pagecache(file: number, pgoff: number, n: number): Uint32Array {
    const p = this.scratchFor(n * 4);
    this.ex.mmsim_pagecache(this.ptr, file, BigInt(pgoff), n, p);
    return new Uint32Array(this.core.ex.memory.buffer.slice(p, p + n * 4));
  }

  /** page-cache state per page from pgoff: PC_* | PC_READAHEAD (abi.ts) */
  pagecacheStates(file: number, pgoff: number, n: number): Uint8Array {
    const p = this.scratchFor(n);
    this.ex.mmsim_pagecache_states(this.ptr, file, BigInt(pgoff), n, p);
    return new Uint8Array(this.core.ex.memory.buffer.slice(p, p + n));
  }

  lruHead(list: number, max: number): Uint32Array {
    const p = this.scratchFor(max * 4);
    const n = this.ex.mmsim_lru_head(this.ptr, list, p, max);
    return new Uint32Array(this.core.ex.memory.buffer.slice(p, p + n * 4));
  }

  /** the bytes a snapshot of the current state takes */
  get snapshotSize(): number {
    return Number(this.ex.mmsim_snapshot_size(this.ptr));
  }

  snapshot(): Uint8Array {
    const len = this.snapshotSize;
    const p = this.core.malloc(len);
    const rc = this.ex.mmsim_snapshot_save(this.ptr, p, BigInt(len));
    const out = rc === 0 ? this.core.bytes(p, len).slice() : null;
    this.core.ex.free(p);
    if (!out) throw new CoreError(`snapshot failed (${ERROR_NAMES[rc]})`, rc);
    return out;
  }

  restore(snap: Uint8Array): void {
    const p = this.core.malloc(snap.length);
    this.core.bytes(p, snap.length).set(snap);
    const rc = this.ex.mmsim_snapshot_restore(this.ptr, p, BigInt(snap.length));
    this.core.ex.free(p);
    if (rc) throw new CoreError(`restore failed (${ERROR_NAMES[rc]})`, rc);
  }

  /**
   * Like snapshot(), but the bytes stay in the core's memory, with no copy
   * out to JavaScript and back in (half the cost): for a state the host
   * returns to again and again. Reuses `into`'s memory when it is large
   * enough; free it with freeSnapshot().
   */
  snapshotInCore(into: CoreSnapshot | null = null): CoreSnapshot {
    const len = this.snapshotSize;
    let s = into;
    if (!s || s.cap < len) {
      if (s) this.freeSnapshot(s);
      const cap = len + (len >> 3);
      s = { ptr: this.core.malloc(cap), len: 0, cap };
    }
    const rc = this.ex.mmsim_snapshot_save(this.ptr, s.ptr, BigInt(s.cap));
    if (rc) {
      this.freeSnapshot(s);
      throw new CoreError(`snapshot failed (${ERROR_NAMES[rc]})`, rc);
    }
    s.len = len;
    return s;
  }

  restoreInCore(s: CoreSnapshot): void {
    const rc = this.ex.mmsim_snapshot_restore(this.ptr, s.ptr, BigInt(s.len));
    if (rc) throw new CoreError(`restore failed (${ERROR_NAMES[rc]})`, rc);
  }

  freeSnapshot(s: CoreSnapshot): void {
    if (s.ptr) this.core.ex.free(s.ptr);
    s.ptr = 0;
    s.len = s.cap = 0;
  }

  /**
   * Arm a capture: the core saves its whole state when the event count
   * reaches `event` (right after event `event - 1` is recorded), even in the
   * middle of an operation. Drops the previous capture.
   */
  captureAt(event: number): void {
    const rc = this.ex.mmsim_capture_at(this.ptr, BigInt(event));
    if (rc) throw new CoreError(`cannot capture at event ${event} (${ERROR_NAMES[rc]})`, rc);
  }

  /**
   * Put the captured state in place. The machine then stands inside an
   * operation and answers queries, but run() refuses until a snapshot is
   * restored (half an operation cannot be resumed).
   */
  /** free the capture's buffer (its memory counts against the machine's while a run goes on) */
  captureRelease(): void {
    this.ex.mmsim_capture_release(this.ptr);
  }

  captureRestore(): void {
    const rc = this.ex.mmsim_capture_restore(this.ptr);
    if (rc)
      throw new CoreError(
        `no capture to restore (${ERROR_NAMES[rc]}): the run did not reach it, or the host refused the memory`,
        rc,
      );
  }

  /** The invariant checker: null if sound, else its message. */
  check(): string | null {
    const p = this.scratchFor(512);
    const rc = this.ex.mmsim_check(this.ptr, p, 512);
    return rc === 0 ? null : this.core.cstr(p);
  }

  /** why the core refused the program, or why it stopped (events lost); '' when neither */
  loadMessage(): string {
    return this.core.cstr(this.ex.mmsim_load_message(this.ptr));
  }

  checkMessage(): string {
    return this.core.cstr(this.ex.mmsim_check_message(this.ptr));
  }
}
