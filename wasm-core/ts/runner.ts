/**
 * Run a compiled program on the core and describe the outcome: counters by
 * name, per-task counters, expect failures and errors with file, line and
 * key path. Shared by the CLI (cli/sim.ts) and the browser's engine.
 */
import {
  COUNTERS,
  ErrorCode,
  FIRST_MODEL_COUNTER,
  MAX_MAP_COUNT,
  RunStatus,
  TASK_COUNTERS,
  type CounterName,
} from './abi.js';
import { CORE_MEMORY_LIMIT } from './limits.js';
import { CoreError, type Core, type ExpectFailure, type Sim } from './core.js';
import type { Program, StepInfo } from './compile.js';
import type { At } from './errors.js';
import { formatSize, PAGE } from './units.js';

export interface RunIssue {
  at: At | null;
  step: number | null;
  message: string;
  /** an expect failure: what was checked, as formatted in `message` */
  expect?: { item: string; expected: string; actual: string };
}

export interface RunResult {
  status: 'ok' | 'expect-failed' | 'error';
  /** vmstat counters (kernel names) */
  counters: Record<string, number>;
  /** the model's own counters (no kernel equivalent) */
  model: Record<string, number>;
  /** per task, 'app.0' -> counters */
  tasks: Record<string, Record<string, number>>;
  steps: number;
  expectFailures: RunIssue[];
  error: (RunIssue & { code: number }) | null;
  events: number;
  work: number;
  seconds: number;
  simBytes: number;
  simPeakBytes: number;
}

export interface RunOptions {
  trace?: boolean;
  debugVm?: boolean;
  maxBytes?: number;
  eventCapacity?: number;
  /** called with each batch of raw event records */
  onEvents?: (batch: Uint8Array) => void;
  /** called about every progressEvery operations */
  // biome-ignore lint/suspicious/noConfusingVoidType: a progress callback returns nothing to go on, false to stop
  onProgress?: (done: number, total: number) => boolean | void;
  progressEvery?: number;
}

export function where(prog: Program, step: number | null): At | null {
  return step === null ? null : (prog.steps[step]?.at ?? null);
}

export function locate(prog: Program, at: At | null, message: string): string {
  return at ? `${prog.scenario.file}:${at.line}: ${at.path}: ${message}` : `${prog.scenario.file}: ${message}`;
}

const hex = (n: bigint) => `0x${n.toString(16)}`;

/*
 * What ran out, named: the free pages the min watermark keeps (min_free_kbytes), or every page; and what
 * holds memory that reclaim cannot free (anonymous pages without swap, page tables, pages under I/O).
 */
function oomSentence(prog: Program, sim: Sim): string {
  const n = (c: (typeof COUNTERS)[number]) => Number(sim.counter(COUNTERS.indexOf(c)));
  const free = n('nr_free_pages'),
    anon = n('nr_anon_pages'),
    tables = n('nr_page_table_pages'),
    file = n('nr_file_pages');
  const mem = prog.scenario.machine.memory;
  const minFree = prog.scenario.kernel.min_free_kbytes * 1024;
  const pages = (x: number) => `${x.toLocaleString('en-US')} pages (${formatSize(x * 4096)})`;
  const what =
    /* pages still free, yet none handed out: the watermark min_free_kbytes sets keeps them */
    free > 0 && minFree > 0
      ? `the ${pages(free)} still free are kept back by the watermark kernel.min_free_kbytes (${formatSize(minFree)}) sets for the kernel's own use`
      : 'no free page is left';
  const held = [
    anon ? `anonymous memory ${pages(anon)}, never reclaimed here (the model has no swap)` : '',
    tables ? `page tables ${pages(tables)}` : '',
    file ? `the page cache ${pages(file)}, of which reclaim could free no more` : '',
  ].filter(Boolean);
  return `out of memory: machine.memory (${formatSize(mem)}) is exhausted: ${what}${held.length ? `; it holds ${held.join(', ')}` : ''}; raise machine.memory${minFree ? ' or lower kernel.min_free_kbytes' : ''}`;
}

/** Turn a core error into a sentence a scenario author understands. */
export function explainError(prog: Program, sim: Sim): RunIssue & { code: number } {
  const e = sim.lastError();
  const task = e.task !== null && e.task < prog.tasks.length ? prog.tasks[e.task] : 'the task';
  const info: StepInfo | undefined = e.step !== null ? prog.steps[e.step] : undefined;
  let msg: string;
  switch (e.code) {
    case ErrorCode.ESEGV:
      msg =
        e.detail === 1n || e.detail === 2n
          ? `SIGSEGV: ${task} wrote to ${hex(e.addr)} in a read-only mapping`
          : `SIGSEGV: ${task} touched ${hex(e.addr)}, where no VMA is mapped (was it unmapped?)`;
      break;
    case ErrorCode.ESIGBUS:
      msg = `SIGBUS: ${task} touched ${hex(e.addr)}, a page of the mapping beyond the end of its file`;
      break;
    case ErrorCode.EOOM:
      msg =
        e.step === null
          ? `out of memory: the cached files (${formatSize(Number(e.detail) * 4096)}) do not fit in machine.memory (${formatSize(prog.scenario.machine.memory)})`
          : oomSentence(prog, sim);
      break;
    case ErrorCode.ENOMEM: {
      const lost = sim.loadMessage();
      const cap = maxBytesOf(prog);
      msg = lost
        ? `the simulator's host refused memory: ${lost}`
        : `the simulator reached its own memory limit (${formatSize(Math.round(cap / 2 ** 20) * 2 ** 20)}, using ${formatSize(Math.ceil(Number(e.detail) / 2 ** 20) * 2 ** 20)}): this is the host's memory, not machine.memory; raise it with --limit memory=${formatSize(Math.min(CORE_MEMORY_LIMIT, 2 * Math.round(cap / 2 ** 20) * 2 ** 20)).replace(' ', '')} (at most ${formatSize(CORE_MEMORY_LIMIT)}), or make the scenario smaller`;
      break;
    }
    case ErrorCode.ENOMAP:
      msg = `${task}'s process has no mapping '${prog.maps[Number(e.detail)] ?? e.detail}' at this point`;
      break;
    case ErrorCode.ENOTASK:
      msg = `${prog.tasks[Number(e.detail)] ?? 'the task'} does not exist (its process exited, or was not forked yet)`;
      break;
    case ErrorCode.EEXIST:
      msg = `${task}'s process already has a mapping named '${prog.maps[Number(e.detail)] ?? e.detail}'`;
      break;
    case ErrorCode.EINVAL:
      msg =
        info?.kind === 'access' || info?.kind === 'munmap' || info?.kind === 'madvise'
          ? `the range (${hex(e.addr)}) lies outside the mapping (${formatSize(Number(e.detail))})`
          : `invalid request (${hex(e.addr)}, ${e.detail})`;
      break;
    case ErrorCode.ELIMIT:
      msg =
        e.detail === BigInt(MAX_MAP_COUNT)
          ? `mmap failed: ${task}'s process is at the kernel's vm.max_map_count (${MAX_MAP_COUNT.toLocaleString('en-US')} VMAs; a fixed limit of the model, as the kernel's default)`
          : `mmap failed: no room for ${formatSize(Number(e.detail))} in ${task}'s address space (user space is 128 TiB, the mappings are placed from 0x7f0000000000 up, then from 0x2aaaaaaab000)`;
      break;
    case ErrorCode.EINVARIANT:
      msg = `internal error: the model broke its own invariant: ${sim.checkMessage()}`;
      break;
    default:
      msg = `the core stopped with error ${e.code}`;
  }
  return { at: where(prog, e.step), step: e.step, message: msg, code: e.code };
}

function fmtExpected(item: string, v: bigint): string {
  if (item.endsWith('likely_mapped_shared')) return v ? 'true' : 'false';
  if (v === (1n << 64n) - 1n) return 'not mapped';
  /* the core's answer for the zero page or the huge zero page, which have no folio */
  if (v === (1n << 64n) - 2n) return 'the zero page (no folio)';
  return v.toLocaleString('en-US');
}

export function explainFailure(prog: Program, f: ExpectFailure): RunIssue {
  const info = prog.steps[f.step];
  const it = info?.items?.[f.item];
  const item = it?.label ?? `item ${f.item}`;
  const expected = fmtExpected(item, f.expected),
    actual = fmtExpected(item, f.actual);
  return {
    at: it?.at ?? info?.at ?? null,
    step: f.step,
    message: `expected ${item} = ${expected}, got ${actual}`,
    expect: { item, expected, actual },
  };
}

export function collectCounters(prog: Program, sim: Sim) {
  const all = sim.counters();
  const counters: Record<string, number> = {};
  const model: Record<string, number> = {};
  COUNTERS.forEach((n: CounterName, i) => {
    if (i >= FIRST_MODEL_COUNTER) model[n] = all[i];
    else counters[n] = all[i];
  });
  const tasks: Record<string, Record<string, number>> = {};
  prog.tasks.forEach((name, i) => {
    const ti = sim.taskInfo(i);
    const c: Record<string, number> = {};
    for (const n of TASK_COUNTERS) c[n] = ti.counters[n];
    tasks[name] = c;
  });
  return { counters, model, tasks };
}

/** the simulator memory a run of prog may use: its memory limit (limits.ts), never above what wasm32 holds */
export function maxBytesOf(prog: Program, opts: RunOptions = {}): number {
  return Math.min(opts.maxBytes ?? prog.limits.memory, CORE_MEMORY_LIMIT);
}

/** Load the program into a fresh machine (throws RunIssue-bearing errors for refusals). */
export function startProgram(core: Core, prog: Program, opts: RunOptions = {}): Sim {
  /* a scenario whose page cache cannot fit was refused by the memory limit (limits.ts) before this */
  const maxBytes = maxBytesOf(prog, opts);
  const sim = core.createSim({
    trace: opts.trace,
    debugVm: opts.debugVm,
    maxBytes,
    eventCapacity: opts.eventCapacity,
  });
  try {
    sim.load(prog.bytes);
  } catch (e) {
    sim.destroy();
    if (e instanceof CoreError) {
      if (e.code === ErrorCode.EOOM && e.step === null) {
        /* the machine cannot even start the processes: name what holds its pages, where it was set */
        const { at, reason } = startOom(prog);
        throw new ProgramError(prog, at, e.code, reason);
      }
      throw new ProgramError(prog, where(prog, e.step), e.code, e.message);
    }
    throw e;
  }
  return sim;
}

/**
 * Out of memory before step 1 (load.c: the processes' page-table roots): the watermark min_free_kbytes
 * keeps back, and the cached files fill, what the processes' first page tables would need.
 */
function startOom(prog: Program): { at: At | null; reason: string } {
  const s = prog.scenario;
  const mem = s.machine.memory;
  const minFree = s.kernel.min_free_kbytes * 1024;
  const cached = s.files.filter((f) => f.cached).reduce((a, f) => a + Math.ceil(f.size / PAGE) * PAGE, 0);
  const held = [
    minFree ? `the watermark kernel.min_free_kbytes keeps back ${formatSize(minFree)}` : '',
    cached ? `the cached files fill ${formatSize(cached)}` : '',
  ].filter(Boolean);
  const reason = `machine.memory (${formatSize(mem)}) has no page left for the ${prog.procs.length === 1 ? "process's" : `${prog.procs.length} processes'`} first page tables${held.length ? `: ${held.join(', and ')}` : ''}; raise machine.memory${minFree ? ' or lower kernel.min_free_kbytes' : ''}`;
  const given = s.kernelGiven.min_free_kbytes;
  return { at: minFree && given && given.line > 0 ? given : null, reason };
}

/** A scenario the core refuses; `message` is located (file:line: path: reason), `reason` is not. */
export class ProgramError extends Error {
  readonly reason: string;
  constructor(
    prog: Program,
    readonly at: At | null,
    readonly code: number,
    reason: string,
  ) {
    super(locate(prog, at, reason));
    this.reason = reason;
    this.name = 'ProgramError';
  }
}

/** Run a whole program; never throws for problems of the scenario (they are in the result). */
export function runProgram(core: Core, prog: Program, opts: RunOptions = {}): RunResult {
  const t0 = performance.now();
  const sim = startProgram(core, prog, opts);
  const every = opts.progressEvery ?? 1 << 16;
  let events = 0;
  try {
    for (;;) {
      // Always in slices: a WebAssembly function runs in the engine's baseline
      // code until its next call after tier-up (there is no on-stack
      // replacement), so one call for the whole run would stay unoptimised.
      const st = sim.run(every);
      if (opts.trace) {
        const batch = sim.drainEvents();
        events += batch.length / 32;
        opts.onEvents?.(batch);
      }
      if (st === RunStatus.Work || st === RunStatus.EventsFull) {
        if (opts.onProgress?.(sim.workDone, sim.workTotal) === false) break;
        continue;
      }
      break;
    }
    const { counters, model, tasks } = collectCounters(prog, sim);
    const code = sim.lastError().code;
    const error = code ? explainError(prog, sim) : null;
    const expectFailures = sim.expectFailures().map((f) => explainFailure(prog, f));
    return {
      status: error ? 'error' : expectFailures.length ? 'expect-failed' : 'ok',
      counters,
      model,
      tasks,
      steps: sim.stepsExecuted,
      expectFailures,
      error,
      events,
      work: sim.workDone,
      seconds: (performance.now() - t0) / 1000,
      simBytes: sim.memBytes,
      simPeakBytes: sim.memPeak,
    };
  } finally {
    sim.destroy();
  }
}
