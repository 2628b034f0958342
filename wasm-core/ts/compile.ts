/**
 * Compile a validated Scenario into the core's program format (mmsim.h:
 * header, files, processes, 64-byte steps, a u64 data table). Names become
 * ids; `repeat` stays a loop (REPEAT + body length), never unrolled. Each
 * compiled step keeps its source position so that the core's errors and
 * expect failures can name the file, line and key path.
 */
import {
  ABI_VERSION,
  COUNTERS,
  ExpectKind,
  FILE_CACHED,
  FILE_SHMEM,
  FILE_SPARSE,
  FILE_ORDER0,
  FOLIO_FIELDS,
  Op,
  PROC_FORKED,
  PROG_MAGIC,
  STEPF,
  STRUCTS,
  TASK_ALL,
  TASK_COUNTERS,
} from './abi.js';
import { writeStruct } from './layout.js';
import { checkLimits, DEFAULT_LIMITS, type Estimate, type Limits } from './limits.js';
import { STEPS, type StepKindDesc } from '../interface/steps.js';
import type { At, DescribedKind, Scenario, Step, TaskRef } from './scenario.js';
import { formatSize } from './units.js';
import { ScenarioError, ScenarioErrors } from './errors.js';
import { encodeTunable, KERNEL_TUNABLES, MACHINE_SETTINGS } from './tunables.js';

export interface StepInfo {
  at: At;
  kind: Step['kind'];
  summary: string;
  /** nesting depth inside repeats */
  depth: number;
  /** for expect steps: what each (key, value) item checks, and where it is written */
  items?: { label: string; at: At }[];
  /** for mmap steps: the process that maps */
  proc?: number;
}

export interface ProcInfo {
  name: string;
  threads: number;
  firstTask: number;
  forked: boolean;
  vmacacheSeqnum: number;
}

export interface Program {
  bytes: Uint8Array;
  scenario: Scenario;
  steps: StepInfo[];
  files: string[];
  procs: ProcInfo[];
  /** task id -> 'app.0' */
  tasks: string[];
  maps: string[];
  says: string[];
  /** what the run needs at most (limits.ts), and the limits it was checked against */
  estimate: Estimate;
  limits: Limits;
}

interface RawStep {
  op: Op;
  flags: number;
  kind: number;
  task: number;
  map: number;
  file: number;
  offset: number;
  length: number;
  stride: number;
  count: number;
  addr: number;
  data: number;
  ndata: number;
}

function raw(op: Op, p: Partial<RawStep> = {}): RawStep {
  return {
    op,
    flags: 0,
    kind: 0,
    task: 0,
    map: 0,
    file: 0,
    offset: 0,
    length: 0,
    stride: 0,
    count: 0,
    addr: 0,
    data: 0,
    ndata: 0,
    ...p,
  };
}

/** the step list's line for a step: its kind's summary (../interface/steps.ts), or the structural kinds' own */
export function describeStep(st: Step): string {
  switch (st.kind) {
    case 'repeat':
      return `repeat ${st.times} times${st.stride ? `, offsets + ${formatSize(st.stride)} each time` : ''}`;
    case 'expect':
      return `expect ${[...st.counters.map((c) => `${c.name} = ${c.value}`), ...st.fields.map((f) => `${f.name} = ${f.value}`)].join(', ')}`;
    case 'say':
      return st.text.length > 80 ? `${st.text.slice(0, 77)}...` : st.text;
    default:
      return (STEPS[st.kind] as StepKindDesc).summary(st as unknown as Record<string, unknown>, SUMMARY);
  }
}
const SUMMARY = { size: formatSize, hex: (n: number) => `0x${n.toString(16)}` };

/** Compile a scenario; refuses (ScenarioErrors of LimitExceeded) one over a limit before any work. */
/**
 * Settings that cannot run together, named where they were set (a scenario line, or --set): the watermark
 * min_free_kbytes keeps must leave the machine pages to hand out.
 */
function checkSettings(s: Scenario): void {
  const minFree = s.kernel.min_free_kbytes * 1024;
  if (minFree < s.machine.memory) return;
  const at = s.kernelGiven.min_free_kbytes;
  const inFile = !!at && at.line > 0;
  throw new ScenarioErrors([
    new ScenarioError(
      inFile ? s.file : '--set',
      inFile ? at!.line : 0,
      inFile ? at!.col : 0,
      inFile ? 'kernel.min_free_kbytes' : 'min_free_kbytes',
      `${formatSize(minFree)} is not below machine.memory (${formatSize(s.machine.memory)}): the watermark would keep back every page; make it smaller than the machine`,
    ),
  ]);
}

export function compile(s: Scenario, limits: Limits = DEFAULT_LIMITS): Program {
  checkSettings(s);
  const estimate = checkLimits(s, limits);
  const files = s.files.map((f) => f.name);
  const procs: ProcInfo[] = [];
  let nextTask = 0;
  const addProc = (name: string, threads: number, forked: boolean, vmacacheSeqnum = 0) => {
    procs.push({ name, threads, firstTask: nextTask, forked, vmacacheSeqnum });
    nextTask += threads;
  };
  for (const p of s.processes) addProc(p.name, p.threads, false, p.vmacacheSeqnum ?? 0);
  const maps: string[] = [];
  const mapIds = new Map<string, number>();
  const mapId = (n: string) => {
    let i = mapIds.get(n);
    if (i === undefined) mapIds.set(n, (i = maps.push(n) - 1));
    return i;
  };
  const prepass = (steps: Step[]) => {
    for (const st of steps) {
      if (st.kind === 'fork') addProc(st.child, 1, true);
      if (st.kind === 'mmap') mapId(st.name);
      if (st.kind === 'repeat') prepass(st.steps);
    }
  };
  prepass(s.steps);
  const tasks: string[] = [];
  for (const p of procs) for (let t = 0; t < p.threads; t++) tasks.push(`${p.name}.${t}`);
  const procIds = new Map(procs.map((p, i) => [p.name, i]));
  const fileIds = new Map(files.map((f, i) => [f, i]));
  const procIdx = (name: string) => procIds.get(name) ?? -1;
  const taskId = (t: TaskRef): number => {
    const p = procs[procIdx(t.proc)];
    return t.thread === '*' ? (TASK_ALL | procIdx(t.proc)) >>> 0 : p.firstTask + t.thread;
  };

  const out: RawStep[] = [];
  const info: StepInfo[] = [];
  const data: bigint[] = [];
  const says: string[] = [];

  /* a described step, encoded as its arguments' descriptions say (../interface/steps.ts) */
  const encode = (st: Step): RawStep => {
    const d = STEPS[st.kind as DescribedKind] as StepKindDesc;
    const v = st as unknown as Record<string, unknown>;
    const r = raw(Op[d.op as keyof typeof Op]);
    for (const [k, a] of Object.entries(d.args)) {
      const e = a.encode,
        x = v[k];
      if (!e || x === undefined) continue;
      if ('flag' in e && !('to' in e)) {
        if (e.when === undefined ? x === true : x === e.when) r.flags |= STEPF[e.flag as keyof typeof STEPF];
        continue;
      }
      switch (e.to) {
        case 'task':
          r.task = taskId(x as TaskRef);
          break;
        case 'map':
          r.map = mapId(x as string);
          break;
        case 'maplist':
          if (Array.isArray(x)) {
            r.flags |= STEPF.MAPLIST;
            r.addr = data.length;
            for (const m of x) data.push(BigInt(mapId(m)));
          } else r.map = mapId(x as string);
          break;
        case 'file':
          r.file = (fileIds.get(x as string) ?? -1) + (e.plus ?? 0);
          break;
        case 'process':
          r.file = procIdx(x as string);
          break;
        case 'kind':
          r.kind = a.choices!.indexOf(x as string);
          break;
        case 'data':
          r.data = data.length;
          r.ndata = (x as number[]).length;
          for (const p of x as number[]) data.push(BigInt(p));
          break;
        default:
          r[e.to] = x as number;
          if (e.flag) r.flags |= STEPF[e.flag as keyof typeof STEPF];
      }
    }
    return r;
  };

  /* the step kinds this run leaves out (`without`): kept as no-ops, so that steps line up with another run's */
  const leftOut = new Set(s.without);
  const emit = (st: Step, depth: number) => {
    const skipped = leftOut.has(st.kind);
    const push = (r: RawStep, items?: { label: string; at: At }[]) => {
      out.push(r);
      info.push({
        at: st.at,
        kind: st.kind,
        summary: skipped ? `left out (without ${st.kind}): ${describeStep(st)}` : describeStep(st),
        depth,
        items,
        ...(st.kind === 'mmap' ? { proc: procIdx(st.task.proc) } : {}),
      });
    };
    switch (st.kind) {
      case 'repeat': {
        const at = out.length;
        push(raw(Op.Repeat, { count: st.times, stride: st.stride }));
        for (const inner of st.steps) emit(inner, depth + 1);
        out[at].addr = out.length - at - 1;
        break;
      }
      case 'expect': {
        const r = raw(Op.Expect, { data: data.length });
        const items: { label: string; at: At }[] = [];
        for (const ctr of st.counters) {
          if (st.task) {
            data.push(
              (BigInt(ExpectKind.TaskCounter) << 56n) |
                (BigInt(taskId(st.task)) << 16n) |
                BigInt(TASK_COUNTERS.indexOf(ctr.name as never)),
            );
            items.push({ label: `${st.task.text} ${ctr.name}`, at: ctr.at });
          } else {
            data.push((BigInt(ExpectKind.Counter) << 56n) | BigInt(COUNTERS.indexOf(ctr.name as never)));
            items.push({ label: ctr.name, at: ctr.at });
          }
          data.push(BigInt(ctr.value));
        }
        if (st.folio) {
          data.push(
            (BigInt(ExpectKind.FolioAt) << 56n) | (BigInt(taskId(st.folio.task)) << 16n) | BigInt(mapId(st.folio.map)),
          );
          data.push(BigInt(st.folio.offset));
          items.push({
            label: `folio of ${st.folio.task.text} ${st.folio.map}+${formatSize(st.folio.offset)}`,
            at: st.folio.at,
          });
          for (const f of st.fields) {
            data.push((BigInt(ExpectKind.FolioField) << 56n) | BigInt(FOLIO_FIELDS.indexOf(f.name as never)));
            data.push(BigInt(f.value));
            items.push({ label: `folio ${f.name}`, at: f.at });
          }
        }
        r.ndata = data.length - r.data;
        push(r, items);
        break;
      }
      case 'say':
        push(raw(Op.Say, { data: says.length }));
        says.push(st.text);
        break;
      default:
        push(skipped ? raw(Op.Nop, {}) : encode(st));
    }
  };
  for (const st of s.steps) emit(st, 0);

  const S = STRUCTS;
  const len =
    S.prog_header.size +
    files.length * S.prog_file.size +
    procs.length * S.prog_proc.size +
    out.length * S.step.size +
    data.length * 8;
  const bytes = new Uint8Array(len);
  const v = new DataView(bytes.buffer);
  const header: Record<string, number | bigint> = {
    magic: PROG_MAGIC,
    abi: ABI_VERSION,
    seed: BigInt(s.seed),
    nr_files: files.length,
    nr_procs: procs.length,
    nr_tasks: tasks.length,
    nr_maps: maps.length,
    nr_steps: out.length,
    nr_data: data.length,
  };
  for (const t of KERNEL_TUNABLES) header[t.field] = encodeTunable(t, s.kernel[t.key as keyof typeof s.kernel]);
  for (const t of MACHINE_SETTINGS)
    header[t.field] = encodeTunable(t, s.machine[t.key.slice(8) as keyof typeof s.machine]);
  writeStruct(v, 0, 'prog_header', header);
  let o = S.prog_header.size;
  for (const f of s.files) {
    writeStruct(v, o, 'prog_file', {
      size: BigInt(f.size),
      flags:
        (f.cached ? FILE_CACHED : 0) |
        (f.fs === 'tmpfs' ? FILE_SHMEM : 0) |
        (f.sparse ? FILE_SPARSE : 0) |
        (f.largeFolios ? 0 : FILE_ORDER0),
    });
    o += S.prog_file.size;
  }
  for (const p of procs) {
    writeStruct(v, o, 'prog_proc', {
      threads: p.threads,
      first_task: p.firstTask,
      flags: p.forked ? PROC_FORKED : 0,
      vmacache_seqnum: p.vmacacheSeqnum,
    });
    o += S.prog_proc.size;
  }
  for (const r of out) {
    writeStruct(v, o, 'step', {
      op: r.op,
      flags: r.flags,
      kind: r.kind,
      task: r.task,
      map: r.map,
      file: r.file,
      offset: BigInt(r.offset),
      length: BigInt(r.length),
      stride: BigInt(r.stride),
      count: BigInt(r.count),
      addr: BigInt(r.addr),
      data: r.data,
      ndata: r.ndata,
    });
    o += S.step.size;
  }
  for (const d of data) {
    v.setBigUint64(o, BigInt(d), true);
    o += 8;
  }

  return { bytes, scenario: s, steps: info, files, procs, tasks, maps, says, estimate, limits };
}
