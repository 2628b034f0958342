/**
 * The scenario's step kinds, described once: each kind's YAML keys, the type
 * and domain of each argument, how each argument is encoded in the program's
 * 64-byte step (struct mmsim_step), what a step costs in the work estimate,
 * what it does to the scenario's processes and mappings (for the loader's
 * checks), and the one line the step list shows.
 *
 * From this: enum mmsim_op (C and TypeScript, by scripts/gen-interface.mjs,
 * in this order), the steps' part of the JSON Schema and the editor's help,
 * the loader's conversions and checks by argument type (ts/load/), the
 * compiler (ts/compile.ts), the work estimate (ts/limits.ts), the CLI's help
 * and the format reference (docs/scenario-format.md). Adding a step kind is
 * an entry here and the C that runs it (src/run.c, checked by src/load.c).
 *
 * Argument types (the value a step holds once loaded):
 *   task          'app' (thread 0), 'app.2'; with `all` also 'app.*'     TaskRef
 *   map           a mapping of the task's process, mapped before          string
 *   maps          a map, or a list of one map per thread ('app.*')        string | string[]
 *   new-map       the name of the mapping the step creates                string
 *   file          one of the scenario's files                             string
 *   new-process   the name of the process the step creates                string
 *   page-offset   a size, a multiple of 4 KiB                             bytes
 *   page-length   a size, a multiple of 4 KiB, at least 4 KiB            bytes
 *   bytes         a size                                                  bytes
 *   choice        one of `choices`                                        string
 *   bool          true or false                                           boolean
 *   count         a whole number, 0 .. 2^40                               number
 *   pages         a list of page indexes                                  number[]
 *   address       a page-aligned user address (a number or hex string)   number
 */
import type { At } from '../ts/errors.js';

export type StepArgType =
  | 'task'
  | 'map'
  | 'maps'
  | 'new-map'
  | 'file'
  | 'new-process'
  | 'page-offset'
  | 'page-length'
  | 'bytes'
  | 'choice'
  | 'bool'
  | 'count'
  | 'pages'
  | 'address';

/** where an argument goes in struct mmsim_step (names are its fields; MAPLIST etc. are STEPF_* flags) */
export type StepEncoding =
  | { to: 'task' | 'map' | 'offset' | 'length' | 'stride' | 'count' | 'addr'; flag?: string }
  | { to: 'file'; plus?: number }
  /* the child's process id */
  | { to: 'process' }
  /* a choice as the step's kind (an enum's values, in `choices` order) */
  | { to: 'kind'; enum: string }
  /* a value setting a flag: a bool when true, a choice when it is `when` */
  | { flag: string; when?: string }
  /* a list in the program's data table: step.data and step.ndata; a map list: step.addr and flag MAPLIST */
  | { to: 'data' }
  | { to: 'maplist' };

export interface StepArg {
  type: StepArgType;
  doc: string;
  required?: boolean;
  /** the value when the key is absent (the loader fills it in) */
  default?: unknown;
  /** task: 'app.*' allowed (every thread takes a turn) */
  all?: boolean;
  choices?: readonly string[];
  encode?: StepEncoding;
}

/**
 * What a step does to the scenario's state, for the loader's checks: creates
 * a mapping, unmaps one (all of it if the range covers it), creates a
 * process, ends one. Other kinds only use what exists.
 */
export type StepEffect = 'map' | 'unmap' | 'fork' | 'exit';

/**
 * What a step costs in the work estimate (ts/limits.ts): one operation; a
 * new VMA; an unmap or a zap of a range (with a huge PMD split at each end);
 * the touches of its range or its pattern, with the faults, page tables and
 * huge pages they may bring; a fork's copy of the parent's present entries;
 * read(2)/write(2)'s pages, each with a readahead window; fadvise's walk of
 * its range.
 */
export type StepCost = 'one' | 'map' | 'unmap' | 'touches' | 'fork' | 'file-io' | 'file-range';

export interface StepKindDesc {
  /** enum mmsim_op's member (TypeScript: Op.<op>, C: MMSIM_OP_<OP>) */
  op: string;
  doc: string;
  args: Record<string, StepArg>;
  cost: StepCost;
  effect?: StepEffect;
  /** it writes into its file: a range past the end is refused (files do not grow in this model) */
  writes?: boolean;
  /** the step list's line for a step of this kind (its arguments, loaded) */
  summary: (s: Record<string, unknown>, f: SummaryHelpers) => string;
  /**
   * Rules a schema cannot say, on the step as written (`raw`, before
   * defaults): returns [key, message] for each broken one (key: where the
   * error points, null for the step itself).
   */
  rules?: (raw: Record<string, unknown>, s: Record<string, unknown>) => [string | null, string][];
}

export interface SummaryHelpers {
  size: (bytes: number) => string;
  hex: (n: number) => string;
}

const TASK = {
  type: 'task',
  required: true,
  doc: "the task that acts: 'app' (thread 0 of process app) or 'app.2'",
  encode: { to: 'task' },
} as const satisfies StepArg;
const OFFSET = {
  type: 'page-offset',
  default: 0,
  doc: 'offset into the mapping, a multiple of 4 KiB (default 0)',
  encode: { to: 'offset' },
} as const satisfies StepArg;
const LENGTH = {
  type: 'page-length',
  doc: 'length, a multiple of 4 KiB (default: to the end)',
  encode: { to: 'length', flag: 'LENGTH' },
} as const satisfies StepArg;
const MAP = { type: 'map', required: true, doc: 'the mapping', encode: { to: 'map' } } as const satisfies StepArg;
const FILE = { type: 'file', required: true, doc: 'the file', encode: { to: 'file' } } as const satisfies StepArg;

/** "[+4 KiB, 8 KiB]" when a step covers part of its mapping */
const range = (s: Record<string, unknown>, f: SummaryHelpers) =>
  s.offset || s.length ? ` [+${f.size(s.offset as number)}${s.length ? `, ${f.size(s.length as number)}` : ''}]` : '';
const who = (s: Record<string, unknown>) => (s.task as { text: string }).text;

/** in enum mmsim_op order: Nop (0) first, then these, then the structural Repeat, Expect, Say */
export const STEPS = {
  mmap: {
    op: 'Mmap',
    doc: 'create a mapping; without file it is anonymous',
    args: {
      task: TASK,
      name: {
        type: 'new-map',
        required: true,
        doc: "the mapping's name, used by later steps",
        encode: { to: 'map' },
      },
      file: {
        type: 'file',
        doc: 'the file to map; without it the mapping is anonymous',
        encode: { to: 'file', plus: 1 },
      },
      offset: { ...OFFSET, doc: 'file offset, a multiple of 4 KiB (default 0)' },
      length: { ...LENGTH, doc: 'length, a multiple of 4 KiB (default: the file size; required for anonymous)' },
      prot: {
        type: 'choice',
        required: true,
        choices: ['read', 'read-write'],
        doc: 'protection',
        encode: { flag: 'WRITE', when: 'read-write' },
      },
      shared: {
        type: 'bool',
        default: false,
        doc: 'MAP_SHARED (default false: MAP_PRIVATE)',
        encode: { flag: 'SHARED' },
      },
      addr: {
        type: 'address',
        doc: 'start address, page aligned (default: chosen deterministically, 2 MiB aligned)',
        encode: { to: 'addr', flag: 'FIXED' },
      },
    },
    cost: 'map',
    effect: 'map',
    rules: (raw) =>
      !('file' in raw) && !('length' in raw)
        ? [[null, 'an anonymous mapping (no file) needs a length']]
        : !('file' in raw) && raw.shared
          ? [
              [
                'shared',
                'shared anonymous mappings are shmem, which the model does not run yet; use a file with shared: true, or shared: false',
              ],
            ]
          : [],
    summary: (s, f) =>
      `${who(s)} maps ${s.name}: ${s.file ? `file ${s.file}` : 'anonymous'}${s.length ? `, ${f.size(s.length as number)}` : ''}, ${s.prot}${s.shared ? ', shared' : ', private'}${s.addr !== undefined ? ` at ${f.hex(s.addr as number)}` : ''}`,
  },
  munmap: {
    op: 'Munmap',
    doc: 'unmap all or part of a mapping (a partial unmap splits the VMA)',
    args: { task: TASK, map: MAP, offset: OFFSET, length: LENGTH },
    cost: 'unmap',
    effect: 'unmap',
    summary: (s, f) => `${who(s)} unmaps ${s.map}${range(s, f)}`,
  },
  madvise: {
    op: 'Madvise',
    doc: 'madvise(2) on all or part of a mapping',
    args: {
      task: TASK,
      map: MAP,
      advice: {
        type: 'choice',
        required: true,
        choices: ['hugepage', 'nohugepage', 'random', 'sequential', 'dontneed'],
        doc: 'the advice (MADV_*)',
        encode: { to: 'kind', enum: 'Advice' },
      },
      offset: OFFSET,
      length: LENGTH,
    },
    cost: 'unmap',
    summary: (s) => `${who(s)} madvise(${(s.advice as string).toUpperCase()}) on ${s.map}`,
  },
  access: {
    op: 'Access',
    doc: 'touch memory from user space, one byte per touched page',
    args: {
      task: {
        ...TASK,
        all: true,
        doc: "the task that acts: 'app' (thread 0), 'app.2', or 'app.*' (every thread, taking turns)",
      },
      map: {
        type: 'maps',
        required: true,
        doc: "the mapping, or a list with one mapping per thread (with task 'app.*')",
        encode: { to: 'maplist' },
      },
      op: {
        type: 'choice',
        required: true,
        choices: ['read', 'write'],
        doc: 'read or write one byte of each touched page',
        encode: { flag: 'WRITE', when: 'write' },
      },
      pattern: {
        type: 'choice',
        default: 'sequential',
        choices: ['sequential', 'random', 'uniform', 'list'],
        doc: 'sequential (default): every stride-th page in order; random: each once, in a permutation from seed; uniform: count touches drawn with replacement; list: the pages given',
        encode: { to: 'kind', enum: 'Pattern' },
      },
      offset: OFFSET,
      length: LENGTH,
      stride: {
        type: 'page-length',
        default: 4096,
        doc: 'distance between touched pages (default 4KiB)',
        encode: { to: 'stride' },
      },
      count: { type: 'count', doc: "number of touches (pattern 'uniform')", encode: { to: 'count' } },
      pages: {
        type: 'pages',
        doc: "page indexes within the range, in the order touched (pattern 'list')",
        encode: { to: 'data' },
      },
    },
    cost: 'touches',
    rules: (raw, s) => {
      const out: [string | null, string][] = [];
      if (s.pattern === 'uniform' && !('count' in raw))
        out.push([null, "pattern 'uniform' needs count: the number of touches"]);
      else if (s.pattern === 'list' && !('pages' in raw))
        out.push([null, "pattern 'list' needs pages: the page indexes to touch, in order"]);
      else if ('count' in raw && s.pattern !== 'uniform')
        out.push(['count', `count applies to pattern 'uniform' only (this access is '${String(s.pattern)}')`]);
      else if ('pages' in raw && s.pattern !== 'list')
        out.push(['pages', `pages apply to pattern 'list' only (this access is '${String(s.pattern)}')`]);
      else if (Array.isArray(raw.map) && (s.task as { thread: unknown }).thread !== '*')
        out.push([
          'map',
          `a list of maps gives one map per thread; the task must name every thread ('${(s.task as { proc: string }).proc}.*')`,
        ]);
      return out;
    },
    summary: (s, f) => {
      const maps = Array.isArray(s.map) ? s.map.join(', ') : s.map;
      const pages = s.pages as number[] | undefined;
      const how =
        s.pattern === 'uniform'
          ? `${s.count} uniform touches`
          : s.pattern === 'list'
            ? `pages ${pages!.slice(0, 6).join(', ')}${pages!.length > 6 ? ', ...' : ''}`
            : `${s.pattern}`;
      return `${who(s)} ${s.op}s ${maps}: ${how}${s.stride !== 4096 ? `, stride ${f.size(s.stride as number)}` : ''}`;
    },
  },
  read: {
    op: 'Read',
    doc: 'read(2) through the page cache (mark_page_accessed on every page touched)',
    args: {
      task: TASK,
      file: FILE,
      offset: { type: 'bytes', required: true, doc: 'byte offset', encode: { to: 'offset' } },
      length: { type: 'bytes', required: true, doc: 'bytes to read', encode: { to: 'length' } },
    },
    cost: 'file-io',
    summary: (s) => `${who(s)} read(2)s ${s.file} [${s.offset}, +${s.length})`,
  },
  write: {
    op: 'Write',
    doc: 'write(2) through the page cache (dirties the pages)',
    args: {
      task: TASK,
      file: FILE,
      offset: { type: 'bytes', required: true, doc: 'byte offset', encode: { to: 'offset' } },
      length: { type: 'bytes', required: true, doc: 'bytes to write', encode: { to: 'length' } },
    },
    cost: 'file-io',
    writes: true,
    summary: (s) => `${who(s)} write(2)s ${s.file} [${s.offset}, +${s.length})`,
  },
  fadvise: {
    op: 'Fadvise',
    doc: 'posix_fadvise(2)',
    args: {
      task: TASK,
      file: FILE,
      advice: { type: 'choice', required: true, choices: ['dontneed'], doc: 'POSIX_FADV_DONTNEED' },
      offset: { type: 'bytes', default: 0, doc: 'byte offset (default 0)', encode: { to: 'offset' } },
      length: {
        type: 'bytes',
        default: 0,
        doc: 'bytes (0 or absent: to the end of the file)',
        encode: { to: 'length' },
      },
    },
    cost: 'file-range',
    summary: (s) => `${who(s)} fadvise(DONTNEED) on ${s.file}`,
  },
  fsync: {
    op: 'Fsync',
    doc: "write back the file's dirty pages and wait",
    args: { task: TASK, file: FILE },
    cost: 'one',
    summary: (s) => `${who(s)} fsyncs ${s.file}`,
  },
  fork: {
    op: 'Fork',
    doc: "fork the task's process; the child is a new process with one thread",
    args: {
      task: TASK,
      child: { type: 'new-process', required: true, doc: "the new process's name", encode: { to: 'process' } },
    },
    cost: 'fork',
    effect: 'fork',
    summary: (s) => `${who(s)} forks ${s.child}`,
  },
  exit: {
    op: 'Exit',
    doc: 'the process exits and its mappings are unmapped',
    args: { task: TASK },
    cost: 'one',
    effect: 'exit',
    summary: (s) => `${who(s)} exits`,
  },
} as const satisfies Record<string, StepKindDesc>;

/** the structural kinds after them, which the loader reads itself (their shape is the format's own) */
export const STRUCTURAL_KINDS = {
  repeat: { op: 'Repeat', doc: 'run the inner steps times times; iteration i adds i × stride to every offset in them' },
  expect: {
    op: 'Expect',
    doc: "an assertion: counters (totals since the start) and/or a folio's fields; a run with a failed expect fails",
  },
  say: { op: 'Say', doc: 'a narrative caption for presentations; no effect on the simulation' },
} as const;

/* ------------------------------------------------------------- the types a loaded step has */

export interface TaskRef {
  proc: string;
  thread: number | '*';
  text: string;
  at: At;
}

type ArgValue<A extends StepArg> = A['type'] extends 'task'
  ? TaskRef
  : A['type'] extends 'maps'
    ? string | string[]
    : A['type'] extends 'map' | 'new-map' | 'file' | 'new-process'
      ? string
      : A['type'] extends 'choice'
        ? A['choices'] extends readonly (infer C)[]
          ? C
          : string
        : A['type'] extends 'bool'
          ? boolean
          : A['type'] extends 'pages'
            ? number[]
            : number;

type Args<D extends StepKindDesc> = D['args'];
type Given<D extends StepKindDesc> = {
  [K in keyof Args<D> as Args<D>[K] extends { required: true } | { default: unknown } ? K : never]: ArgValue<
    Args<D>[K]
  >;
};
type Optional<D extends StepKindDesc> = {
  [K in keyof Args<D> as Args<D>[K] extends { required: true } | { default: unknown } ? never : K]?: ArgValue<
    Args<D>[K]
  >;
};

/** a loaded step of a described kind: its arguments (defaults filled in), its kind and where it is written */
export type DescribedStep<K extends keyof typeof STEPS> = { kind: K; at: At } & Given<(typeof STEPS)[K]> &
  Optional<(typeof STEPS)[K]>;
