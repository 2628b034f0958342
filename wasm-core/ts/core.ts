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
  ABI_VERSION, COUNTERS, EVENTS, ErrorCode, MM_COUNTERS, RunStatus, SIZE, TASK_COUNTERS,
} from './abi.js';

type Ptr = number;

interface Exports {
  memory: WebAssembly.Memory;
  _initialize?: () => void;
  malloc(n: number): Ptr;
  free(p: Ptr): void;
  mmsim_abi_version(): number;
  mmsim_create_with(trace: number, debugVm: number, cap: number, maxBytes: bigint): Ptr;
  mmsim_destroy(sim: Ptr): void;
  mmsim_load(sim: Ptr, prog: Ptr, len: number): number;
  mmsim_run(sim: Ptr, budget: bigint, stopEvent: bigint): number;
  mmsim_work_done(sim: Ptr): bigint;
  mmsim_work_total(sim: Ptr): bigint;
  mmsim_finished(sim: Ptr): number;
  mmsim_last_error(sim: Ptr): Ptr;
  mmsim_nr_expect_failures(sim: Ptr): number;
  mmsim_expect_failure(sim: Ptr, i: number): Ptr;
  mmsim_steps_executed(sim: Ptr): number;
  mmsim_set_trace(sim: Ptr, on: number): void;
  mmsim_events(sim: Ptr): Ptr;
  mmsim_nr_events(sim: Ptr): number;
  mmsim_events_clear(sim: Ptr): void;
  mmsim_events_total(sim: Ptr): bigint;
  mmsim_event_name(type: number): Ptr;
  mmsim_counter(sim: Ptr, id: number): bigint;
  mmsim_counters(sim: Ptr): Ptr;
  mmsim_counter_name(id: number): Ptr;
  mmsim_task_counter_name(id: number): Ptr;
  mmsim_nr_tasks(sim: Ptr): number;
  mmsim_nr_mms(sim: Ptr): number;
  mmsim_task_info(sim: Ptr, task: number, out: Ptr): number;
  mmsim_mm_info(sim: Ptr, mm: number, out: Ptr): number;
  mmsim_file_info(sim: Ptr, file: number, out: Ptr): number;
  mmsim_vmas(sim: Ptr, mm: number, out: Ptr, max: number): number;
  mmsim_walk(sim: Ptr, mm: number, addr: bigint, out: Ptr): number;
  mmsim_pte_table(sim: Ptr, mm: number, addr: bigint, out: Ptr): number;
  mmsim_page_info(sim: Ptr, pfn: number, out: Ptr): number;
  mmsim_pte_states(sim: Ptr, mm: number, start: bigint, n: number, out: Ptr): number;
  mmsim_pte_heat(sim: Ptr, mm: number, start: bigint, end: bigint, n: number, out: Ptr): number;
  mmsim_pagecache(sim: Ptr, file: number, pgoff: bigint, n: number, out: Ptr): number;
  mmsim_pagecache_states(sim: Ptr, file: number, pgoff: bigint, n: number, out: Ptr): number;
  mmsim_lru_head(sim: Ptr, list: number, out: Ptr, max: number): number;
  mmsim_snapshot_size(sim: Ptr): bigint;
  mmsim_snapshot_save(sim: Ptr, buf: Ptr, len: bigint): number;
  mmsim_snapshot_restore(sim: Ptr, buf: Ptr, len: bigint): number;
  mmsim_mem_bytes(sim: Ptr): bigint;
  mmsim_mem_peak(sim: Ptr): bigint;
  mmsim_check(sim: Ptr, msg: Ptr, len: number): number;
  mmsim_check_message(sim: Ptr): Ptr;
  mmsim_load_message(sim: Ptr): Ptr;
}

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
  Object.entries(ErrorCode).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v, k]),
);

export interface ErrorInfo { code: number; step: number | null; task: number | null; addr: bigint; detail: bigint }
export interface ExpectFailure { step: number; item: number; key: bigint; expected: bigint; actual: bigint }
export interface VmaInfo {
  vmStart: bigint; vmEnd: bigint; vmPgoff: bigint; vmFlags: number; file: number | null;
  id: number; anonVma: number; map: number | null;
}
export interface Walk { addr: bigint; entry: bigint[]; tablePfn: number[]; index: number[] }
export interface PageInfo {
  pfn: number; flags: number; refcount: number; mapcount: number; mapping: number; index: number;
  order: number; lru: number | null;
}
export interface TaskInfo { mm: number; alive: boolean; counters: Record<string, number> }
export interface MmInfo { alive: boolean; nrVmas: number; pgdPfn: number; counters: Record<string, number> }
export interface FileInfo {
  size: bigint; nrpages: number; mmapMiss: number; raStart: bigint; raSize: number; raAsyncSize: number;
}

const NONE = 0xffffffff;
const u64max = (1n << 64n) - 1n;

function toBig(n: number): bigint {
  return Number.isFinite(n) ? BigInt(Math.max(0, Math.floor(n))) : u64max;
}

/** A loaded core module: create simulations from it. */
export class Core {
  readonly ex: Exports;

  private constructor(instance: WebAssembly.Instance) {
    this.ex = instance.exports as unknown as Exports;
    this.ex._initialize?.();
    const abi = this.ex.mmsim_abi_version();
    if (abi !== ABI_VERSION) throw new CoreError(`core ABI ${abi}, binding expects ${ABI_VERSION}`, ErrorCode.EABI);
    COUNTERS.forEach((name, i) => {
      const got = this.cstr(this.ex.mmsim_counter_name(i));
      if (got !== name) throw new CoreError(`counter ${i} is '${got}' in the core, '${name}' in abi.ts`, ErrorCode.EABI);
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
    const { instance } = await WebAssembly.instantiate(bytes, {
      env: { emscripten_notify_memory_growth: () => {} },
    });
    return new Core(instance);
  }

  static async fromUrl(url: string | URL): Promise<Core> {
    const res = await fetch(url);
    if (!res.ok) throw new CoreError(`cannot fetch the core from ${url}: HTTP ${res.status}`, ErrorCode.ENOMEM);
    return Core.fromBytes(await res.arrayBuffer());
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
    this.ptr = ex.mmsim_create_with(opts.trace ? 1 : 0, opts.debugVm ? 1 : 0, opts.eventCapacity ?? 65536,
      BigInt(opts.maxBytes ?? 0)) >>> 0;
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

  /** A copy of the buffered event records (32 bytes each), and clears the buffer. */
  /** drop the buffered events without copying them (a replay that has them already) */
  clearEvents(): void {
    this.ex.mmsim_events_clear(this.ptr);
  }

  drainEvents(): Uint8Array {
    const n = this.ex.mmsim_nr_events(this.ptr);
    const out = n ? this.core.bytes(this.ex.mmsim_events(this.ptr), n * SIZE.event).slice() : new Uint8Array(0);
    this.ex.mmsim_events_clear(this.ptr);
    return out;
  }

  get eventsTotal(): number { return Number(this.ex.mmsim_events_total(this.ptr)); }
  get workDone(): number { return Number(this.ex.mmsim_work_done(this.ptr)); }
  get workTotal(): number { return Number(this.ex.mmsim_work_total(this.ptr)); }
  get finished(): boolean { return this.ex.mmsim_finished(this.ptr) !== 0; }
  get stepsExecuted(): number { return this.ex.mmsim_steps_executed(this.ptr); }
  get memBytes(): number { return Number(this.ex.mmsim_mem_bytes(this.ptr)); }
  get memPeak(): number { return Number(this.ex.mmsim_mem_peak(this.ptr)); }
  get nrTasks(): number { return this.ex.mmsim_nr_tasks(this.ptr); }
  get nrMms(): number { return this.ex.mmsim_nr_mms(this.ptr); }

  lastError(): ErrorInfo {
    const p = this.ex.mmsim_last_error(this.ptr) >>> 0;
    const v = this.core.view();
    const step = v.getUint32(p + 4, true), task = v.getUint32(p + 8, true);
    return {
      code: v.getInt32(p, true), step: step === NONE ? null : step, task: task === NONE ? null : task,
      addr: v.getBigUint64(p + 16, true), detail: v.getBigUint64(p + 24, true),
    };
  }

  expectFailures(): ExpectFailure[] {
    const n = Math.min(this.ex.mmsim_nr_expect_failures(this.ptr), 64);
    const out: ExpectFailure[] = [];
    for (let i = 0; i < n; i++) {
      const p = this.ex.mmsim_expect_failure(this.ptr, i) >>> 0;
      const v = this.core.view();
      out.push({
        step: v.getUint32(p, true), item: v.getUint32(p + 4, true), key: v.getBigUint64(p + 8, true),
        expected: v.getBigUint64(p + 16, true), actual: v.getBigUint64(p + 24, true),
      });
    }
    return out;
  }

  get nrExpectFailures(): number { return this.ex.mmsim_nr_expect_failures(this.ptr); }

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
    const p = this.scratchFor(SIZE.taskInfo);
    if (this.ex.mmsim_task_info(this.ptr, task, p)) throw new CoreError(`no task ${task}`, ErrorCode.EINVAL);
    const v = this.core.view();
    const counters: Record<string, number> = {};
    TASK_COUNTERS.forEach((n, i) => { counters[n] = Number(v.getBigUint64(p + 8 + 8 * i, true)); });
    return { mm: v.getUint32(p, true), alive: v.getUint32(p + 4, true) !== 0, counters };
  }

  mmInfo(mm: number): MmInfo {
    const p = this.scratchFor(SIZE.mmInfo);
    if (this.ex.mmsim_mm_info(this.ptr, mm, p)) throw new CoreError(`no mm ${mm}`, ErrorCode.EINVAL);
    const v = this.core.view();
    const counters: Record<string, number> = {};
    MM_COUNTERS.forEach((n, i) => { counters[n] = Number(v.getBigInt64(p + 16 + 8 * i, true)); });
    return {
      alive: v.getUint32(p, true) !== 0, nrVmas: v.getUint32(p + 4, true), pgdPfn: v.getUint32(p + 8, true),
      counters,
    };
  }

  fileInfo(file: number): FileInfo {
    const p = this.scratchFor(SIZE.fileInfo);
    if (this.ex.mmsim_file_info(this.ptr, file, p)) throw new CoreError(`no file ${file}`, ErrorCode.EINVAL);
    const v = this.core.view();
    return {
      size: v.getBigUint64(p, true), nrpages: v.getUint32(p + 8, true), mmapMiss: v.getUint32(p + 12, true),
      raStart: v.getBigUint64(p + 16, true), raSize: v.getUint32(p + 24, true),
      raAsyncSize: v.getUint32(p + 28, true),
    };
  }

  vmas(mm: number, max = 1024): VmaInfo[] {
    const p = this.scratchFor(max * SIZE.vmaInfo);
    const n = this.ex.mmsim_vmas(this.ptr, mm, p, max);
    const v = this.core.view();
    const out: VmaInfo[] = [];
    for (let i = 0; i < n; i++) {
      const q = p + i * SIZE.vmaInfo;
      const file = v.getUint32(q + 28, true), map = v.getUint32(q + 40, true);
      out.push({
        vmStart: v.getBigUint64(q, true), vmEnd: v.getBigUint64(q + 8, true), vmPgoff: v.getBigUint64(q + 16, true),
        vmFlags: v.getUint32(q + 24, true), file: file ? file - 1 : null, id: v.getUint32(q + 32, true),
        anonVma: v.getUint32(q + 36, true), map: map === NONE ? null : map,
      });
    }
    return out;
  }

  walk(mm: number, addr: bigint): Walk {
    const p = this.scratchFor(SIZE.walk);
    this.ex.mmsim_walk(this.ptr, mm, addr, p);
    const v = this.core.view();
    return {
      addr: v.getBigUint64(p, true),
      entry: [0, 1, 2, 3].map((i) => v.getBigUint64(p + 8 + 8 * i, true)),
      tablePfn: [0, 1, 2, 3].map((i) => v.getUint32(p + 40 + 4 * i, true)),
      index: [0, 1, 2, 3].map((i) => v.getUint32(p + 56 + 4 * i, true)),
    };
  }

  /** The 512 entries of the PTE table mapping addr (zeros if none) and its pfn (0 if none). */
  pteTable(mm: number, addr: bigint): { pfn: number; entries: BigUint64Array } {
    const p = this.scratchFor(512 * 8);
    const pfn = this.ex.mmsim_pte_table(this.ptr, mm, addr, p);
    const entries = new BigUint64Array(this.core.ex.memory.buffer.slice(p, p + 512 * 8));
    return { pfn, entries };
  }

  pageInfo(pfn: number): PageInfo | null {
    const p = this.scratchFor(SIZE.pageInfo);
    if (this.ex.mmsim_page_info(this.ptr, pfn, p)) return null;
    const v = this.core.view();
    const lru = v.getUint32(p + 28, true);
    return {
      pfn: v.getUint32(p, true), flags: v.getUint32(p + 4, true), refcount: v.getInt32(p + 8, true),
      mapcount: v.getInt32(p + 12, true), mapping: v.getUint32(p + 16, true), index: v.getUint32(p + 20, true),
      order: v.getUint32(p + 24, true), lru: lru === NONE ? null : lru,
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

  snapshot(): Uint8Array {
    const len = Number(this.ex.mmsim_snapshot_size(this.ptr));
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

  /** The invariant checker: null if sound, else its message. */
  check(): string | null {
    const p = this.scratchFor(512);
    const rc = this.ex.mmsim_check(this.ptr, p, 512);
    return rc === 0 ? null : this.core.cstr(p);
  }

  checkMessage(): string {
    return this.core.cstr(this.ex.mmsim_check_message(this.ptr));
  }
}
