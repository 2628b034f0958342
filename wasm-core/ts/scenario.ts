/**
 * The scenario loader: YAML (or JSON) text -> a validated, typed Scenario.
 *
 * Implements ../shared/docs/scenario-format.md (version 1) exactly; the
 * project's extensions are marked "extension" below. The shape of a scenario
 * is one JSON Schema (scenarioJsonSchema(): the tunables' part generated from
 * the interface description, the steps' part written here), checked by ajv in
 * ./schema/check.ts, which maps every error back to the file, line and column
 * and the key path (`steps[3].access.stride`) and says what was expected;
 * unknown keys are errors, with a suggestion when the key looks like a typo.
 * What a schema cannot say (names defined before use, ranges that fit,
 * fields that go together) is checked by hand below. All errors are
 * collected, not just the first. The editor uses the same schema for
 * completion and documentation.
 *
 * Extensions to the format (besides `fs: tmpfs` files and `machine.io_latency`):
 *
 * ```yaml
 * compare:                  # the scenario's natural comparison: run B is this scenario with these set
 *   fault_around_bytes: 4KiB       # any kernel tunable or machine.* key, written as in kernel:/machine:
 *   machine.io_latency: 100        # (a compare that changes nothing is refused)
 * reference:                # reference data drawn beside a sweep over x (e.g. a patch's benchmark table)
 *   source: 'Kirill A. Shutemov, faultaround cover letter (Linux 3.15, 2014), "Random access 1GiB file": minor faults'
 *   x: fault_around_bytes   # a numeric tunable key (kernel or machine.*)
 *   y: pgfault              # a counter name (abi.ts COUNTERS)
 *   points: [[4KiB, 262636], [8KiB, 132743], [64KiB, 17299]]   # [x, y]; x may be a size for a size tunable
 * ```
 */
import type { SchemaObject } from 'ajv';
import { parseDocument } from 'yaml';
import { COUNTERS, FOLIO_FIELDS, MAX_LOOPS, TASK_COUNTERS, TUNABLES } from './abi.js';
import { checkShape, checkSource, DEFAULT_LIMITS, type Limits } from './limits.js';
import { withSettings } from './multirun.js';
import {
  checkDocument,
  checkValue,
  formatSize,
  keyPath,
  loadYaml,
  MAX_ADDR,
  NAME_PATTERN,
  PAGE,
  ScenarioError,
  ScenarioErrors,
  suggest,
  toAddress,
  toSize,
  validator,
  type At,
  type Seg,
  type SizeOpts,
  type YamlSource,
} from './schema/check.js';
import {
  DEFAULT_KERNEL,
  DEFAULT_MACHINE,
  KERNEL_TUNABLES,
  MACHINE_SETTINGS,
  SETTABLE_KEYS,
  tunableInfo,
  type KernelTunables,
  type MachineSettings,
  type TunableInfo,
} from './tunables.js';

export { formatSize, MAX_ADDR, PAGE, ScenarioError, ScenarioErrors, suggest, type At };

/* ------------------------------------------------------------------ types */

export interface TaskRef {
  proc: string;
  thread: number | '*';
  text: string;
  at: At;
}

/* the kernel tunables and machine settings, with their defaults: wasm-core/interface/ (generated) */
export type Tunables = KernelTunables;
export const DEFAULT_TUNABLES: Tunables = DEFAULT_KERNEL;
export type Machine = MachineSettings;
export { DEFAULT_MACHINE };

/**
 * fs: 'disk' is a page cache filled by read I/O (readahead, major faults)
 * with order-0 folios; 'tmpfs' is shmem: pages exist once written and are
 * never read from a disk (this project's extension to the format).
 */
export type FileSystem = 'disk' | 'tmpfs';
export interface FileDef {
  name: string;
  size: number;
  cached: boolean;
  fs: FileSystem;
  sparse: boolean;
  at: At;
  cachedAt: At;
}
export interface ProcDef {
  name: string;
  threads: number;
  at: At;
  /** format extension (the VMA cache): the mm's initial vmacache_seqnum, so that a run can reach its 32-bit wrap */
  vmacacheSeqnum?: number;
}

interface StepBase {
  at: At;
}
export type Step = StepBase &
  (
    | {
        kind: 'mmap';
        task: TaskRef;
        name: string;
        file?: string;
        offset: number;
        length?: number;
        prot: 'read' | 'read-write';
        shared: boolean;
        addr?: number;
      }
    | { kind: 'munmap'; task: TaskRef; map: string; offset: number; length?: number }
    | { kind: 'madvise'; task: TaskRef; map: string; advice: Advice; offset: number; length?: number }
    | {
        kind: 'access';
        task: TaskRef;
        map: string | string[];
        op: 'read' | 'write';
        pattern: Pattern;
        offset: number;
        length?: number;
        stride: number;
        count?: number;
        pages?: number[];
      }
    | { kind: 'read' | 'write'; task: TaskRef; file: string; offset: number; length: number }
    | { kind: 'fadvise'; task: TaskRef; file: string; advice: 'dontneed'; offset: number; length: number }
    | { kind: 'fsync'; task: TaskRef; file: string }
    | { kind: 'fork'; task: TaskRef; child: string }
    | { kind: 'exit'; task: TaskRef }
    | { kind: 'repeat'; times: number; stride: number; steps: Step[] }
    | {
        kind: 'expect';
        task?: TaskRef;
        counters: { name: string; value: number; at: At }[];
        folio?: { task: TaskRef; map: string; offset: number; at: At };
        fields: { name: string; value: number; at: At }[];
      }
    | { kind: 'say'; text: string }
  );
export type StepKind = Step['kind'];
export type Advice = 'hugepage' | 'nohugepage' | 'random' | 'sequential' | 'dontneed';
export type Pattern = 'sequential' | 'random' | 'uniform' | 'list';

/** a value of a tunable or machine setting, as a scenario or `--set` gives it (sizes in bytes) */
export type SettingValue = string | number | boolean | number[];

/** extension: reference data drawn beside a sweep over `x` */
export interface Reference {
  source: string;
  x: string;
  y: string;
  points: { x: number; y: number }[];
  at: At;
}

export interface Scenario {
  file: string;
  source: string;
  name: string;
  about: string;
  seed: number;
  kernel: Tunables;
  /** tunables the scenario sets itself */
  kernelGiven: Partial<Record<keyof Tunables, At>>;
  machine: Machine;
  files: FileDef[];
  processes: ProcDef[];
  steps: Step[];
  at: At;
  /** extension: the natural comparison, keyed by the `--set` key (`fault_around_bytes`, `machine.io_latency`) */
  compare?: Record<string, SettingValue>;
  /** where `compare:` is */
  compareAt?: At;
  /** extension: reference data for a sweep */
  reference?: Reference;
}

/* ------------------------------------------------------------------ schema */

const NAME_RE = new RegExp(NAME_PATTERN);
const NAME_EXPECTED = "expected a name: a lowercase letter, then lowercase letters, digits, '_' or '-'; got {got}";
const NAME: SchemaObject = { type: 'string', pattern: NAME_PATTERN, 'x-expected': NAME_EXPECTED };
const TEXT: SchemaObject = { type: 'string', 'x-expected': 'expected text, got {got}' };
const BOOL: SchemaObject = { type: 'boolean' };
const int = (minimum: number, maximum: number, description?: string): SchemaObject => ({
  type: 'integer',
  minimum,
  maximum,
  ...(description ? { description } : {}),
});
const size = (opts: SizeOpts, description?: string): SchemaObject => ({
  'x-size': opts,
  ...(description ? { description } : {}),
});
const choice = (values: readonly string[], description?: string): SchemaObject => ({
  enum: [...values],
  ...(description ? { description } : {}),
});
const task = (
  all: boolean,
  description = all
    ? "the task that acts: 'app' (thread 0), 'app.2', or 'app.*' (every thread, taking turns)"
    : "the task that acts: 'app' (thread 0 of process app) or 'app.2'",
): SchemaObject => ({ 'x-task': { all }, description });
const withDoc = (s: SchemaObject, description: string): SchemaObject => ({ ...s, description });
/** a mapping with these keys and no others */
const mapping = (
  what: string,
  properties: Record<string, SchemaObject>,
  required: string[] = [],
  extra: SchemaObject = {},
): SchemaObject => ({
  type: 'object',
  'x-what': what,
  properties,
  additionalProperties: false,
  ...(required.length ? { required } : {}),
  ...extra,
});

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** the schema of a tunable's value, from its generated description */
function tunableSchema(t: TunableInfo): SchemaObject {
  const doc = { description: t.desc, 'x-tunable': t.key };
  switch (t.type) {
    case 'size':
      return { 'x-size': defined({ page: t.page, min: t.min, max: t.max, pow2: t.pow2 }), ...doc };
    case 'int':
      return { type: 'integer', minimum: t.min!, maximum: t.max!, ...doc };
    case 'bool':
      return { type: 'boolean', ...doc };
    case 'choice':
      return { enum: [...t.choices!], ...doc };
    case 'sizes':
      return {
        type: 'array',
        items: { 'x-size': defined({ min: t.min, max: t.max, pow2: true, inList: true }) },
        'x-expected': 'expected a list of sizes, like [16KiB, 64KiB], got {got}',
        ...doc,
      };
  }
}
const TUNABLE_SCHEMAS = new Map(TUNABLES.map((t) => [t.key, tunableSchema(t)]));
export const TUNABLE_KEYS = KERNEL_TUNABLES.map((t) => t.key) as (keyof Tunables)[];
const MACHINE_KEYS = MACHINE_SETTINGS.map((t) => t.key.slice('machine.'.length));
/** the tunables a reference's x can be: those with numeric values */
const NUMERIC_KEYS = TUNABLES.filter((t) => t.type === 'size' || t.type === 'int').map((t) => t.key);
const SEED: SchemaObject = int(
  0,
  Number.MAX_SAFE_INTEGER,
  'every random choice (random and uniform access patterns) derives from it; default 1',
);

const OFF = size({ page: true }, 'offset into the mapping, a multiple of 4 KiB (default 0)');
const LEN = size({ page: true, min: PAGE }, 'length, a multiple of 4 KiB (default: to the end)');
const BYTES = (description: string) => size({}, description);

/* the step kinds: each a mapping (say: text) checked by its own schema, with a one-line description */
const STEP_SCHEMAS: Record<Exclude<StepKind, 'expect' | 'repeat' | 'say'>, SchemaObject> = {
  mmap: mapping(
    'a mmap step',
    {
      task: task(false),
      name: withDoc(NAME, "the mapping's name, used by later steps"),
      file: withDoc(NAME, 'the file to map; without it the mapping is anonymous'),
      offset: withDoc(OFF, 'file offset, a multiple of 4 KiB (default 0)'),
      length: withDoc(LEN, 'length, a multiple of 4 KiB (default: the file size; required for anonymous)'),
      prot: choice(['read', 'read-write'], 'protection'),
      shared: withDoc(BOOL, 'MAP_SHARED (default false: MAP_PRIVATE)'),
      addr: {
        'x-address': true,
        description: 'start address, page aligned (default: chosen deterministically, 2 MiB aligned)',
      },
    },
    ['task', 'name', 'prot'],
    { description: 'create a mapping; without file it is anonymous' },
  ),
  munmap: mapping(
    'a munmap step',
    {
      task: task(false),
      map: withDoc(NAME, 'the mapping'),
      offset: OFF,
      length: LEN,
    },
    ['task', 'map'],
    { description: 'unmap all or part of a mapping (a partial unmap splits the VMA)' },
  ),
  madvise: mapping(
    'a madvise step',
    {
      task: task(false),
      map: withDoc(NAME, 'the mapping'),
      advice: choice(['hugepage', 'nohugepage', 'random', 'sequential', 'dontneed'], 'the advice (MADV_*)'),
      offset: OFF,
      length: LEN,
    },
    ['task', 'map', 'advice'],
    { description: 'madvise(2) on all or part of a mapping' },
  ),
  access: mapping(
    'a access step',
    {
      task: task(true),
      map: {
        if: { type: 'array' },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else
        then: { type: 'array', minItems: 1, items: NAME, 'x-expected': 'expected at least one map name' },
        else: NAME,
        description: "the mapping, or a list with one mapping per thread (with task 'app.*')",
      },
      op: choice(['read', 'write'], 'read or write one byte of each touched page'),
      pattern: choice(
        ['sequential', 'random', 'uniform', 'list'],
        'sequential (default): every stride-th page in order; random: each once, in a permutation from seed; uniform: count touches drawn with replacement; list: the pages given',
      ),
      offset: OFF,
      length: LEN,
      stride: size({ page: true, min: PAGE }, 'distance between touched pages (default 4KiB)'),
      count: int(0, 2 ** 40, "number of touches (pattern 'uniform')"),
      pages: {
        type: 'array',
        minItems: 1,
        items: int(0, 2 ** 40),
        'x-expected': 'expected a list of page indexes, like [0, 5, 17], got {got}',
        description: "page indexes within the range, in the order touched (pattern 'list')",
      },
    },
    ['task', 'map', 'op'],
    { description: 'touch memory from user space, one byte per touched page' },
  ),
  read: mapping(
    'a read step',
    {
      task: task(false),
      file: withDoc(NAME, 'the file'),
      offset: BYTES('byte offset'),
      length: BYTES('bytes to read'),
    },
    ['task', 'file', 'offset', 'length'],
    { description: 'read(2) through the page cache (mark_page_accessed on every page touched)' },
  ),
  write: mapping(
    'a write step',
    {
      task: task(false),
      file: withDoc(NAME, 'the file'),
      offset: BYTES('byte offset'),
      length: BYTES('bytes to write'),
    },
    ['task', 'file', 'offset', 'length'],
    { description: 'write(2) through the page cache (dirties the pages)' },
  ),
  fadvise: mapping(
    'a fadvise step',
    {
      task: task(false),
      file: withDoc(NAME, 'the file'),
      advice: choice(['dontneed'], 'POSIX_FADV_DONTNEED'),
      offset: BYTES('byte offset (default 0)'),
      length: BYTES('bytes (0 or absent: to the end of the file)'),
    },
    ['task', 'file', 'advice'],
    { description: 'posix_fadvise(2)' },
  ),
  fsync: mapping('a fsync step', { task: task(false), file: withDoc(NAME, 'the file') }, ['task', 'file'], {
    description: "write back the file's dirty pages and wait",
  }),
  fork: mapping(
    'a fork step',
    { task: task(false), child: withDoc(NAME, "the new process's name") },
    ['task', 'child'],
    { description: "fork the task's process; the child is a new process with one thread" },
  ),
  exit: mapping('a exit step', { task: task(false) }, ['task'], {
    description: 'the process exits and its mappings are unmapped',
  }),
};

const FOLIO_SCHEMA = mapping(
  'a folio reference',
  {
    task: task(false),
    map: withDoc(NAME, 'the mapping'),
    offset: withDoc(size({ page: true }), 'offset of the page in the mapping (default 0)'),
  },
  ['task', 'map'],
  { description: 'the folio that backs this page' },
);

const FOLIO_FIELD_DOCS: Record<string, string> = {
  mapcount: 'folio_mapcount()',
  entire_mapcount: 'folio_entire_mapcount() (PMD mappings)',
  likely_mapped_shared: 'folio_likely_mapped_shared() of the kernel chosen by large_mapcount',
  order: 'folio_order()',
  refcount: 'folio_ref_count()',
  page_mapcount: "the page's own mapcount",
  nr_pages_mapped:
    "the folio's _nr_pages_mapped as the kernel stores it: the pages mapped by a PTE, plus ENTIRELY_MAPPED (8388608) while a PMD maps it",
  large_mapcount: "the folio's _large_mapcount + 1 (every PTE and PMD mapping it)",
};
const EXPECT_SCHEMA: SchemaObject = {
  type: 'object',
  minProperties: 1,
  'x-expected': 'expected counters to check (e.g. { pgfault: 4096 }) and/or a folio, got {got}',
  description:
    "an assertion: counters (totals since the start) and/or a folio's fields; a run with a failed expect fails",
  properties: {
    task: task(false, "check this task's own counters instead of the totals"),
    folio: FOLIO_SCHEMA,
    ...Object.fromEntries(
      FOLIO_FIELDS.map((f) => [
        f,
        f === 'likely_mapped_shared'
          ? withDoc(BOOL, FOLIO_FIELD_DOCS[f] ?? f)
          : int(0, 2 ** 40, FOLIO_FIELD_DOCS[f] ?? f),
      ]),
    ),
  },
  /* every other key is a counter: which counters depends on task: */
  additionalProperties: int(0, Number.MAX_SAFE_INTEGER, "a counter's expected total"),
  if: { type: 'object', properties: { task: true }, required: ['task'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else
  then: {
    propertyNames: {
      enum: ['task', ...TASK_COUNTERS, 'folio', ...FOLIO_FIELDS],
      'x-expected': `unknown key '{key}'{suggest}: expected a per-task counter (${TASK_COUNTERS.join(', ')})`,
    },
  },
  else: {
    propertyNames: {
      enum: [...COUNTERS, 'folio', ...FOLIO_FIELDS],
      'x-expected': "unknown key '{key}'{suggest}: expected a counter name from /proc/vmstat, folio, or a folio field",
    },
  },
};

export const STEP_KINDS: StepKind[] = [...Object.keys(STEP_SCHEMAS), 'repeat', 'expect', 'say'] as StepKind[];

/** counters an expect may name: the vmstat counters and the model's own */
export const EXPECT_COUNTERS: readonly string[] = COUNTERS;

/** the tunables (kernel and machine.*) by their `--set` key: compare's keys */
const SETTINGS: Record<string, SchemaObject> = Object.fromEntries(
  TUNABLES.map((t) => [t.key, TUNABLE_SCHEMAS.get(t.key)!]),
);

const SCHEMA: SchemaObject = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://mmplay.invalid/scenario.schema.json',
  title: 'mmplay scenario',
  type: 'object',
  'x-what': 'the scenario',
  'x-expected': 'a scenario is a mapping with at least name: and steps:, got {got}',
  required: ['name', 'steps'],
  additionalProperties: false,
  properties: {
    name: withDoc(TEXT, "the scenario's title"),
    about: withDoc(TEXT, 'markdown, shown in the UI'),
    seed: SEED,
    kernel: mapping('kernel tunables', Object.fromEntries(KERNEL_TUNABLES.map((t) => [t.key, SETTINGS[t.key]])), [], {
      description: "kernel tunables; each optional, the defaults are the current kernel's",
    }),
    machine: mapping(
      'machine',
      Object.fromEntries(MACHINE_SETTINGS.map((t) => [t.key.slice('machine.'.length), SETTINGS[t.key]])),
      [],
      { description: 'the simulated machine' },
    ),
    files: {
      type: 'object',
      'x-expected': 'expected a mapping of file names to { size, cached }, got {got}',
      propertyNames: { type: 'string', pattern: NAME_PATTERN, 'x-expected': NAME_EXPECTED },
      additionalProperties: mapping(
        'file {name}',
        {
          size: BYTES("the file's size"),
          cached: choice(
            ['all', 'none'],
            'all: every page in the page cache (clean, on the inactive file LRU) before step 1; none (default): empty',
          ),
          fs: choice(
            ['disk', 'tmpfs'],
            'disk (default): a page cache filled by read I/O; tmpfs: shmem, pages exist once written',
          ),
          sparse: withDoc(
            BOOL,
            'extension: a disk file whose blocks are not written yet (a new copy): writing part of a page reads nothing first (default false)',
          ),
        },
        ['size'],
      ),
      description: 'the files: name: { size, cached }',
    },
    processes: {
      type: 'object',
      'x-expected': 'expected a mapping of process names to { threads }, got {got}',
      propertyNames: { type: 'string', pattern: NAME_PATTERN, 'x-expected': NAME_EXPECTED },
      additionalProperties: {
        type: ['object', 'null'],
        'x-what': 'process {name}',
        additionalProperties: false,
        properties: {
          threads: int(1, 1024, 'threads (default 1)'),
          vmacache_seqnum: int(
            0,
            2 ** 32 - 1,
            "the mm's initial vmacache_seqnum (default 0; an extension: start near 4294967295 to reach the wrap)",
          ),
        },
      },
      description: 'the processes that exist before step 1: name: { threads, vmacache_seqnum }',
    },
    steps: { $ref: '#/$defs/steps' },
    compare: mapping('compare', SETTINGS, [], {
      minProperties: 1,
      'x-expected': 'expected the tunables run B sets, like { fault_around_bytes: 4KiB }, got {got}',
      'x-unknown': "unknown key '{key}'{suggest}; compare takes a kernel tunable or a machine.* key: {keys}",
      description: "extension: the scenario's natural comparison; run B is this scenario with these tunables set",
    }),
    reference: mapping(
      'reference',
      {
        source: withDoc(TEXT, 'where the numbers come from (a patch, a paper, a benchmark run)'),
        x: choice(NUMERIC_KEYS, 'the tunable swept (a numeric kernel tunable or machine.* key)'),
        y: choice(COUNTERS, 'the counter measured'),
        points: {
          type: 'array',
          minItems: 1,
          'x-expected': 'expected a list of [x, y] points, like [[4KiB, 3500], [64KiB, 600]], got {got}',
          items: {
            type: 'array',
            minItems: 2,
            maxItems: 2,
            additionalItems: false,
            items: [size({}, "x: the tunable's value"), { type: 'number', description: "y: the counter's value" }],
            'x-expected': 'expected a point [x, y], got {got}',
          },
          description: '[x, y] pairs; x may be written as a size for a size tunable',
        },
      },
      ['source', 'x', 'y', 'points'],
      { description: "extension: reference data (e.g. a kernel patch's benchmark table) drawn beside a sweep over x" },
    ),
  },
  $defs: {
    steps: {
      type: 'array',
      items: { $ref: '#/$defs/step' },
      'x-expected': "expected a list of steps (each '- kind: {...}'), got {got}",
      description: 'executed in order; each step is a mapping with one key naming its kind',
    },
    step: {
      type: 'object',
      minProperties: 1,
      maxProperties: 1,
      additionalProperties: false,
      'x-expected': `expected a step: a mapping with one key naming its kind (${STEP_KINDS.join(', ')}), got {got}`,
      'x-unknown': "unknown step kind '{key}'{suggest}; steps are: {keys}",
      'x-too-many':
        "a step has exactly one kind, found {found} (indent the fields under the kind, or start a new '- ' item)",
      properties: {
        ...STEP_SCHEMAS,
        repeat: mapping(
          'repeat',
          {
            times: int(0, 1_000_000_000, 'how many times'),
            stride: BYTES(
              'iteration i adds i × stride to every offset in the inner steps (default 0); a multiple of 4 KiB when they map, unmap, advise or touch memory',
            ),
            steps: { $ref: '#/$defs/steps' },
          },
          ['times', 'steps'],
          { description: 'run the inner steps times times; iteration i adds i × stride to every offset in them' },
        ),
        expect: EXPECT_SCHEMA,
        say: { ...TEXT, description: 'a narrative caption for presentations; no effect on the simulation' },
      },
    },
  },
};

/** The scenario format as JSON Schema (draft-07 plus the x- keywords of ./schema/check.ts); do not modify */
export function scenarioJsonSchema(): SchemaObject {
  return SCHEMA;
}

/* ------------------------------------------------------------------ typed result */

class Ctx {
  errors: ScenarioError[] = [];
  constructor(readonly file: string) {}
  err(at: At, detail: string): void {
    if (this.errors.length < 100) this.errors.push(new ScenarioError(this.file, at.line, at.col, at.path, detail));
  }
}

/** a tunable's value as the schema accepted it -> as the core takes it (sizes in bytes) */
function settingValue(t: TunableInfo, v: unknown): SettingValue {
  if (t.type === 'size') return toSize(v);
  if (t.type === 'sizes') return (v as unknown[]).map(toSize);
  return v as SettingValue;
}

type Obj = Record<string, unknown>;

/** builds the typed Scenario from a document the schema accepted (parts with errors are skipped) */
class Builder {
  constructor(
    readonly c: Ctx,
    readonly src: YamlSource,
    readonly bad: (segs: readonly Seg[]) => boolean,
  ) {}

  at(segs: readonly Seg[], where: 'key' | 'value' = 'value'): At {
    return this.src.at(segs, where);
  }

  task(v: unknown, segs: Seg[]): TaskRef {
    const m = /^([a-z][a-z0-9_-]*)(?:\.(\d+|\*))?$/.exec(v as string)!;
    return {
      proc: m[1],
      thread: m[2] === undefined ? 0 : m[2] === '*' ? '*' : Number(m[2]),
      text: v as string,
      at: this.at(segs),
    };
  }

  /** a step body's fields, converted by their schemas (sizes, addresses, tasks) */
  fields(v: Obj, props: Record<string, SchemaObject>, segs: Seg[]): Obj {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      const s = props[k] ?? {};
      out[k] = s['x-size'] ? toSize(x) : s['x-address'] ? toAddress(x) : s['x-task'] ? this.task(x, [...segs, k]) : x;
    }
    return out;
  }

  steps(list: unknown[], base: Seg[]): Step[] {
    const out: Step[] = [];
    list.forEach((item, i) => {
      const s = this.step(item as Obj, [...base, i]);
      if (s) out.push(s);
    });
    return out;
  }

  step(item: Obj, segs: Seg[]): Step | null {
    const kind = Object.keys(item ?? {})[0] as StepKind;
    const ks = [...segs, kind];
    const body = item?.[kind];
    const kat = this.at(ks, 'key');
    if (kind === 'repeat' && body && typeof body === 'object' && Array.isArray((body as Obj).steps)) {
      /* the inner steps are checked even when the repeat itself has errors */
      const steps = this.steps((body as Obj).steps as unknown[], [...ks, 'steps']);
      if (this.bad(segs)) return null;
      const r = body as { times: number; stride?: unknown };
      return { kind: 'repeat', times: r.times, stride: r.stride === undefined ? 0 : toSize(r.stride), steps, at: kat };
    }
    if (this.bad(segs)) return null;
    if (kind === 'say') return { kind: 'say', text: body as string, at: kat };
    if (kind === 'expect') return this.expect(body as Obj, ks, kat);
    const c = this.c;
    const raw = body as Obj;
    const s = {
      kind,
      ...this.fields(
        raw,
        STEP_SCHEMAS[kind as keyof typeof STEP_SCHEMAS].properties as Record<string, SchemaObject>,
        ks,
      ),
      at: kat,
    } as Obj;
    const keyAt = (k: string) => this.at([...ks, k], 'key');
    s.offset ??= 0;
    if (kind === 'mmap') {
      s.shared ??= false;
      if (!('file' in raw) && !('length' in raw)) {
        c.err(kat, 'an anonymous mapping (no file) needs a length');
        return null;
      }
      if (!('file' in raw) && raw.shared) {
        c.err(
          keyAt('shared'),
          'shared anonymous mappings are shmem, which the model does not run yet; use a file with shared: true, or shared: false',
        );
        return null;
      }
    }
    if (kind === 'access') {
      s.pattern ??= 'sequential';
      s.stride ??= PAGE;
      if (s.pattern === 'uniform' && !('count' in raw)) {
        c.err(kat, "pattern 'uniform' needs count: the number of touches");
        return null;
      }
      if (s.pattern === 'list' && !('pages' in raw)) {
        c.err(kat, "pattern 'list' needs pages: the page indexes to touch, in order");
        return null;
      }
      if ('count' in raw && s.pattern !== 'uniform') {
        c.err(keyAt('count'), `count applies to pattern 'uniform' only (this access is '${String(s.pattern)}')`);
        return null;
      }
      if ('pages' in raw && s.pattern !== 'list') {
        c.err(keyAt('pages'), `pages apply to pattern 'list' only (this access is '${String(s.pattern)}')`);
        return null;
      }
      if (Array.isArray(raw.map) && (s.task as TaskRef).thread !== '*') {
        c.err(
          keyAt('map'),
          `a list of maps gives one map per thread; the task must name every thread ('${(s.task as TaskRef).proc}.*')`,
        );
        return null;
      }
    }
    if (kind === 'fadvise') s.length ??= 0;
    return s as unknown as Step;
  }

  expect(v: Obj, ks: Seg[], at: At): Step | null {
    const counters: { name: string; value: number; at: At }[] = [];
    const fields: { name: string; value: number; at: At }[] = [];
    let folio: { task: TaskRef; map: string; offset: number; at: At } | undefined;
    const task = v.task === undefined ? undefined : this.task(v.task, [...ks, 'task']);
    for (const [key, x] of Object.entries(v)) {
      const kat = this.at([...ks, key], 'key');
      if (key === 'task') continue;
      if (key === 'folio') {
        const f = x as Obj;
        folio = {
          task: this.task(f.task, [...ks, key, 'task']),
          map: f.map as string,
          offset: f.offset === undefined ? 0 : toSize(f.offset),
          at: kat,
        };
      } else if ((FOLIO_FIELDS as readonly string[]).includes(key))
        fields.push({ name: key, value: Number(x), at: kat });
      else counters.push({ name: key, value: x as number, at: kat });
    }
    let ok = true;
    if (fields.length && !folio) {
      this.c.err(at, `${fields.map((f) => f.name).join(', ')} describe a folio: add folio: { task, map, offset }`);
      ok = false;
    }
    if (folio && !fields.length) {
      this.c.err(folio.at, `folio needs at least one field to check (${FOLIO_FIELDS.join(', ')})`);
      ok = false;
    }
    if (task && folio) {
      this.c.err(at, 'task: selects per-task counters; folio checks take their own task inside folio:');
      ok = false;
    }
    return ok ? { kind: 'expect', task, counters, folio, fields, at } : null;
  }

  reference(v: Obj): Reference | undefined {
    const x = v.x as string;
    const t = tunableInfo(x)!;
    const points: { x: number; y: number }[] = [];
    let ok = true;
    (v.points as [unknown, number][]).forEach(([px, py], i) => {
      if (typeof px === 'string' && t.type !== 'size') {
        this.c.err(
          this.at(['reference', 'points', i, 0]),
          `${x} is not a size (its unit is ${t.unit ?? 'none'}): write its value as a number, got '${px}'`,
        );
        ok = false;
      } else points.push({ x: toSize(px), y: py });
    });
    return ok
      ? { source: v.source as string, x, y: v.y as string, points, at: this.at(['reference'], 'key') }
      : undefined;
  }
}

/* ------------------------------------------------------------------ top level */

export function parseScenario(source: string, file = '<scenario>', limits: Limits = DEFAULT_LIMITS): Scenario {
  checkSource(source, file, limits); /* before parsing: the text's size */
  const src = loadYaml(source, file); /* throws on YAML errors and aliases */
  checkShape(src.data, file, (segs) => src.at(segs), limits); /* before the schema: depth, list and text lengths */
  const { errors, bad } = checkDocument(src, validator(SCHEMA));
  const c = new Ctx(file);
  c.errors.push(...errors);
  const root = src.data as Obj;
  if (!root || typeof root !== 'object' || Array.isArray(root)) throw new ScenarioErrors(c.errors);
  const b = new Builder(c, src, bad);

  const kernel: Tunables = { ...DEFAULT_TUNABLES, mthp: [...DEFAULT_TUNABLES.mthp] };
  const kernelGiven: Scenario['kernelGiven'] = {};
  const machine: Machine = { ...DEFAULT_MACHINE };
  for (const [section, target, keys] of [
    ['kernel', kernel, TUNABLE_KEYS],
    ['machine', machine, MACHINE_KEYS],
  ] as const) {
    const v = root[section];
    if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
    for (const [k, x] of Object.entries(v as Obj)) {
      if (!(keys as readonly string[]).includes(k) || bad([section, k])) continue;
      (target as unknown as Obj)[k] = settingValue(tunableInfo(section === 'kernel' ? k : `machine.${k}`)!, x);
      if (section === 'kernel') kernelGiven[k as keyof Tunables] = b.at([section, k], 'key');
    }
  }

  const files: FileDef[] = [];
  if (root.files && typeof root.files === 'object' && !Array.isArray(root.files))
    for (const [name, def] of Object.entries(root.files as Record<string, Obj>)) {
      if (!NAME_RE.test(name) || bad(['files', name])) continue;
      const nat = b.at(['files', name], 'key');
      const bytes = toSize(def.size);
      if (bytes > 2 ** 40) {
        c.err(
          b.at(['files', name, 'size'], 'key'),
          `files larger than 1 TiB are not modelled, got ${formatSize(bytes)}`,
        );
        continue;
      }
      if (def.sparse === true && def.fs === 'tmpfs')
        c.err(
          b.at(['files', name, 'sparse'], 'key'),
          'sparse is for a disk file; a tmpfs file is sparse already (its holes are never read)',
        );
      files.push({
        name,
        size: bytes,
        cached: def.cached === 'all',
        fs: (def.fs as FileSystem | undefined) ?? 'disk',
        sparse: def.sparse === true,
        at: nat,
        cachedAt: 'cached' in def ? b.at(['files', name, 'cached'], 'key') : nat,
      });
    }

  const processes: ProcDef[] = [];
  if (root.processes && typeof root.processes === 'object' && !Array.isArray(root.processes))
    for (const [name, def] of Object.entries(root.processes as Record<string, Obj | null>)) {
      if (!NAME_RE.test(name) || bad(['processes', name])) continue;
      const seq = def?.vmacache_seqnum as number | undefined;
      processes.push({
        name,
        threads: (def?.threads as number | undefined) ?? 1,
        at: b.at(['processes', name], 'key'),
        ...(seq !== undefined ? { vmacacheSeqnum: seq } : {}),
      });
    }

  const steps = Array.isArray(root.steps) ? b.steps(root.steps, ['steps']) : [];

  let compare: Scenario['compare'];
  let compareAt: At | undefined;
  if (root.compare && typeof root.compare === 'object' && !Array.isArray(root.compare)) {
    compareAt = b.at(['compare'], 'key');
    compare = {};
    for (const [k, x] of Object.entries(root.compare as Obj))
      if (tunableInfo(k) && !bad(['compare', k])) compare[k] = settingValue(tunableInfo(k)!, x);
  }
  const reference = root.reference && !bad(['reference']) ? b.reference(root.reference as Obj) : undefined;

  if (c.errors.length) {
    c.errors.sort((x, y) => x.line - y.line || x.col - y.col);
    throw new ScenarioErrors(c.errors);
  }
  const scenario: Scenario = {
    file,
    source,
    name: root.name as string,
    about: (root.about as string | undefined) ?? '',
    seed: (root.seed as number | undefined) ?? 1,
    kernel,
    kernelGiven,
    machine,
    files,
    processes,
    steps,
    at: { line: 1, col: 1, path: '' },
    ...(compare ? { compare, compareAt } : {}),
    ...(reference ? { reference } : {}),
  };
  checkSemantics(c, scenario);
  if (c.errors.length) throw new ScenarioErrors(c.errors);
  return scenario;
}

/* ------------------------------------------------------------------ semantics */

/** repeats nest at most this deep (the interpreter's loop stack) */
export const MAX_REPEAT_DEPTH = MAX_LOOPS;

interface ProcState {
  name: string;
  threads: number;
  alive: boolean;
  maps: Map<string, { len: number; at: At }>;
  bornAt?: At;
  diedAt?: At;
}

/**
 * Static checks that need the whole scenario: names exist where they are
 * used, processes exist when their tasks act, maps exist in the acting
 * process, ranges fit, cached files fit in machine.memory.
 */
function checkSemantics(c: Ctx, s: Scenario): void {
  const files = new Map<string, FileDef>();
  for (const f of s.files) {
    if (files.has(f.name)) c.err(f.at, `file '${f.name}' is defined twice`);
    files.set(f.name, f);
  }
  const procs = new Map<string, ProcState>();
  for (const p of s.processes) {
    if (procs.has(p.name)) c.err(p.at, `process '${p.name}' is defined twice`);
    procs.set(p.name, { name: p.name, threads: p.threads, alive: true, maps: new Map() });
  }
  const allMaps = new Map<string, At>();
  const unmappedAt = new Map<string, At>();

  const cachedBytes = s.files.filter((f) => f.cached).reduce((a, f) => a + Math.ceil(f.size / PAGE) * PAGE, 0);
  if (cachedBytes > s.machine.memory - 2 ** 20) {
    const f = s.files.filter((x) => x.cached).sort((a, b) => b.size - a.size)[0];
    c.err(
      f.cachedAt,
      `cached: all needs ${formatSize(cachedBytes)} of page cache for the cached files, more than machine.memory (${formatSize(s.machine.memory)}) can hold next to page tables; raise machine.memory or use cached: none`,
    );
  }

  const proc = (t: TaskRef, allowAll: boolean): ProcState | null => {
    const p = procs.get(t.proc);
    if (!p) {
      c.err(
        t.at,
        `no process '${t.proc}'${suggest(t.proc, [...procs.keys()])}; processes: ${[...procs.keys()].join(', ') || '(none: add a processes: section)'}`,
      );
      return null;
    }
    if (!p.alive) {
      c.err(t.at, `process '${t.proc}' has exited (line ${p.diedAt?.line})`);
      return null;
    }
    if (t.thread === '*' && !allowAll) {
      c.err(t.at, `this step is done by one task, not '${t.text}'`);
      return null;
    }
    if (typeof t.thread === 'number' && t.thread >= p.threads) {
      c.err(
        t.at,
        `process '${t.proc}' has ${p.threads} thread${p.threads > 1 ? 's' : ''} (0 .. ${p.threads - 1}), so '${t.text}' does not exist`,
      );
      return null;
    }
    return p;
  };
  const mapOf = (p: ProcState, name: string, at: At): { len: number } | null => {
    const m = p.maps.get(name);
    if (m) return m;
    const elsewhere = allMaps.get(name);
    const gone = unmappedAt.get(`${p.name}/${name}`);
    c.err(
      at,
      gone
        ? `process '${p.name}' has no mapping '${name}' at this point: it was unmapped at line ${gone.line}`
        : elsewhere && [...procs.values()].some((q) => q !== p && q.maps.has(name))
          ? `process '${p.name}' has no mapping '${name}' at this point (an mmap at line ${elsewhere.line} creates it in another process)`
          : elsewhere
            ? `process '${p.name}' has no mapping '${name}' at this point (the mmap at line ${elsewhere.line} is not in effect here)`
            : `no mmap step before this one creates a map named '${name}'${suggest(name, [...p.maps.keys()])}`,
    );
    return null;
  };
  const range = (m: { len: number }, offset: number, length: number | undefined, at: At, stepAt: At) => {
    if (offset > m.len)
      c.err(at, `offset ${formatSize(offset)} is beyond the end of the mapping (${formatSize(m.len)})`);
    else if (length !== undefined && offset + length > m.len)
      c.err(
        stepAt,
        `offset + length (${formatSize(offset + length)}) runs past the end of the mapping (${formatSize(m.len)})`,
      );
  };
  const fileOf = (name: string, at: At): FileDef | null => {
    const f = files.get(name);
    if (!f)
      c.err(
        at,
        `no file '${name}'${suggest(name, [...files.keys()])}; files: ${[...files.keys()].join(', ') || '(none: add a files: section)'}`,
      );
    return f ?? null;
  };
  const fieldAt = (st: Step, key: string): At => ({ ...st.at, path: `${st.at.path}.${key}` });

  const walk = (steps: Step[], times: number, depth = 0) => {
    for (const st of steps) {
      switch (st.kind) {
        case 'mmap': {
          const p = proc(st.task, false);
          let len = st.length;
          if (st.file !== undefined) {
            const f = fileOf(st.file, fieldAt(st, 'file'));
            if (f && len === undefined) {
              if (st.offset >= f.size) {
                c.err(
                  fieldAt(st, 'offset'),
                  `offset ${formatSize(st.offset)} is at or beyond the end of file '${f.name}' (${formatSize(f.size)})`,
                );
                break;
              }
              len = Math.ceil((f.size - st.offset) / PAGE) * PAGE;
            }
          }
          if (st.addr !== undefined && len !== undefined && st.addr + len > MAX_ADDR)
            c.err(fieldAt(st, 'addr'), 'the mapping would run past the end of user space');
          if (!p || len === undefined) break;
          if (p.maps.has(st.name)) {
            c.err(
              fieldAt(st, 'name'),
              `process '${p.name}' already has a mapping named '${st.name}' (line ${p.maps.get(st.name)!.at.line}); unmap it first or choose another name`,
            );
            break;
          }
          p.maps.set(st.name, { len, at: st.at });
          allMaps.set(st.name, allMaps.get(st.name) ?? st.at);
          break;
        }
        case 'munmap':
        case 'madvise': {
          const p = proc(st.task, false);
          const m = p && mapOf(p, st.map, fieldAt(st, 'map'));
          if (m) range(m, st.offset, st.length, fieldAt(st, 'offset'), st.at);
          if (p && m && st.kind === 'munmap' && st.offset === 0 && (st.length === undefined || st.length >= m.len)) {
            p.maps.delete(st.map);
            unmappedAt.set(`${p.name}/${st.map}`, st.at);
          }
          break;
        }
        case 'access': {
          const p = proc(st.task, true);
          if (!p) break;
          const names = Array.isArray(st.map) ? st.map : [st.map];
          if (Array.isArray(st.map) && st.map.length !== p.threads)
            c.err(
              fieldAt(st, 'map'),
              `one map per thread: process '${p.name}' has ${p.threads} threads, the list has ${st.map.length}`,
            );
          for (const n of names) {
            const m = mapOf(p, n, fieldAt(st, 'map'));
            if (!m) continue;
            range(m, st.offset, st.length, fieldAt(st, 'offset'), st.at);
            const span = st.length ?? m.len - st.offset;
            for (const pg of st.pages ?? [])
              if (pg * PAGE >= span) {
                c.err(fieldAt(st, 'pages'), `page ${pg} is beyond the range touched (${span / PAGE} pages)`);
                break;
              }
          }
          break;
        }
        case 'read':
        case 'write':
        case 'fadvise':
        case 'fsync': {
          proc(st.task, false);
          const f = fileOf(st.file, fieldAt(st, 'file'));
          if (f && st.kind === 'write' && st.offset + st.length > f.size)
            c.err(
              st.at,
              `this write runs past the end of file '${f.name}' (${formatSize(f.size)}): files do not grow in this model; make the file larger`,
            );
          break;
        }
        case 'fork': {
          const p = proc(st.task, false);
          if (procs.has(st.child)) {
            const born = procs.get(st.child)!.bornAt;
            c.err(
              fieldAt(st, 'child'),
              `a process named '${st.child}' already exists (${born ? `forked at line ${born.line}` : 'under processes:'})`,
            );
            break;
          }
          if (times > 1) c.err(st.at, `a fork inside a repeat of ${times} would create '${st.child}' ${times} times`);
          if (p) procs.set(st.child, { name: st.child, threads: 1, alive: true, maps: new Map(p.maps), bornAt: st.at });
          break;
        }
        case 'exit': {
          const p = proc(st.task, false);
          if (p) {
            if (times > 1) c.err(st.at, `an exit inside a repeat of ${times} would end '${p.name}' again`);
            p.alive = false;
            p.diedAt = st.at;
            p.maps.clear();
          }
          break;
        }
        case 'repeat': {
          /* the body must leave the mappings as it found them (an mmap .. munmap pair, as
             will-it-scale loops do, is fine), or its second iteration would fail */
          /* page-aligned offsets (mmap, munmap, madvise, access, a folio's) stay aligned only with a page-multiple stride */
          if (st.stride % PAGE) {
            const paged = (list: Step[]): Step | undefined => {
              for (const x of list) {
                if (
                  x.kind === 'mmap' ||
                  x.kind === 'munmap' ||
                  x.kind === 'madvise' ||
                  x.kind === 'access' ||
                  (x.kind === 'expect' && x.folio)
                )
                  return x;
                if (x.kind === 'repeat') {
                  const y = paged(x.steps);
                  if (y) return y;
                }
              }
              return undefined;
            };
            const inner = paged(st.steps);
            if (inner) {
              c.err(
                fieldAt(st, 'stride'),
                `must be a multiple of 4 KiB (4096 bytes) here, got ${st.stride}: the ${inner.kind} step at line ${inner.at.line} takes page-aligned offsets`,
              );
              break;
            }
          }
          if (depth === MAX_REPEAT_DEPTH) {
            c.err(
              st.at,
              `repeats nest at most ${MAX_REPEAT_DEPTH} deep (the core's loop stack); this one is the ${MAX_REPEAT_DEPTH + 1}th`,
            );
            break;
          }
          const before = new Map([...procs.values()].map((p) => [p.name, new Set(p.maps.keys())]));
          walk(st.steps, times * Math.max(st.times, 1), depth + 1);
          if (st.times < 2) break;
          for (const p of procs.values()) {
            const had = before.get(p.name);
            if (!had || !p.alive) continue;
            for (const [name, m] of p.maps)
              if (!had.has(name))
                c.err(
                  m.at,
                  `this mmap is inside a repeat of ${st.times} and stays mapped: the second iteration would map '${name}' again; unmap it inside the repeat`,
                );
            for (const name of had)
              if (!p.maps.has(name))
                c.err(
                  unmappedAt.get(`${p.name}/${name}`) ?? st.at,
                  `this munmap is inside a repeat of ${st.times}: the second iteration would unmap '${name}' again; map it again inside the repeat`,
                );
          }
          break;
        }
        case 'expect': {
          if (st.task) proc(st.task, false);
          if (st.folio) {
            const p = proc(st.folio.task, false);
            const m = p && mapOf(p, st.folio.map, st.folio.at);
            if (m && st.folio.offset >= m.len)
              c.err(st.folio.at, `offset ${formatSize(st.folio.offset)} is beyond the mapping (${formatSize(m.len)})`);
          }
          break;
        }
        case 'say':
          break;
      }
    }
  };
  walk(s.steps, 1);

  /* extension: a comparison that changes nothing would run the same thing twice */
  if (s.compare && s.compareAt) {
    const now = (k: string) =>
      k.startsWith('machine.')
        ? (s.machine as unknown as Record<string, unknown>)[k.slice(8)]
        : (s.kernel as unknown as Record<string, unknown>)[k];
    if (Object.entries(s.compare).every(([k, v]) => JSON.stringify(now(k)) === JSON.stringify(v)))
      c.err(
        s.compareAt,
        `compare sets ${Object.keys(s.compare).join(', ')} to the scenario's own value${Object.keys(s.compare).length > 1 ? 's' : ''}: run B would be run A`,
      );
  }
}

/* ------------------------------------------------------------------ overrides */

/**
 * Apply `--set key=value` overrides (CLI) or UI controls: any kernel tunable,
 * plus seed, machine.memory and machine.io_latency. Values are YAML scalars,
 * checked by the same schema as the scenario's kernel: and machine: values.
 */
export function applyOverrides(s: Scenario, sets: Record<string, string>): Scenario {
  const errors: ScenarioError[] = [];
  const set: Record<string, SettingValue> = Object.create(null);
  for (const [key, raw] of Object.entries(sets)) {
    const doc = parseDocument(raw);
    if (doc.errors.length) {
      const why = /multiple documents/.test(doc.errors[0].message)
        ? 'several YAML documents'
        : doc.errors[0].message.split('\n')[0];
      errors.push(new ScenarioError('--set', 0, 0, key, `expected one value, got ${JSON.stringify(raw)} (${why})`));
      continue;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 0 });
    } catch {
      errors.push(
        new ScenarioError(
          '--set',
          0,
          0,
          key,
          `expected a plain value, got ${JSON.stringify(raw)} (YAML anchors and aliases are not supported)`,
        ),
      );
      continue;
    }
    const t = tunableInfo(key);
    const schema = key === 'seed' ? SEED : t ? TUNABLE_SCHEMAS.get(key)! : null;
    if (!schema) {
      errors.push(
        new ScenarioError(
          '--set',
          0,
          0,
          key,
          `unknown tunable '${key}'${suggest(key, SETTABLE_KEYS)}; tunables: ${SETTABLE_KEYS.join(', ')}`,
        ),
      );
      continue;
    }
    const bad = checkValue(schema, value);
    if (bad.length) {
      errors.push(...bad.map((b) => new ScenarioError('--set', 0, 0, keyPath([key, ...b.segs]), b.detail)));
      continue;
    }
    set[key] = t ? settingValue(t, value) : (value as number);
  }
  if (errors.length) throw new ScenarioErrors(errors);
  return withSettings(s, set);
}
