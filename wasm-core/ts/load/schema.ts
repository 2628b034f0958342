/**
 * The scenario's shape, as one JSON Schema (draft-07 plus the x- keywords of
 * ../schema/check.ts): the tunables' part and the steps' part come from the
 * interface description (the tunables, ../../interface/steps.ts), the rest
 * (files, processes, repeat, expect, compare, reference) is written here.
 * The loader checks a document against it, the editor completes and explains
 * with it, and docs/scenario-format.md is generated from it.
 */
import type { SchemaObject } from 'ajv';
import { STEPS, STRUCTURAL_KINDS, type StepArg } from '../../interface/steps.js';
import { COUNTERS, FOLIO_FIELDS, TASK_COUNTERS, TUNABLES } from '../abi.js';
import type { DescribedKind, StepKind, Tunables } from '../scenario.js';
import { NAME_PATTERN, PAGE, type SizeOpts } from '../schema/check.js';
import { KERNEL_TUNABLES, MACHINE_SETTINGS, type TunableInfo } from '../tunables.js';

export const NAME_RE = new RegExp(NAME_PATTERN);
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
export const TUNABLE_SCHEMAS = new Map(TUNABLES.map((t) => [t.key, tunableSchema(t)]));
export const TUNABLE_KEYS = KERNEL_TUNABLES.map((t) => t.key) as (keyof Tunables)[];
export const MACHINE_KEYS = MACHINE_SETTINGS.map((t) => t.key.slice('machine.'.length));
/** the tunables a reference's x can be: those with numeric values */
const NUMERIC_KEYS = TUNABLES.filter((t) => t.type === 'size' || t.type === 'int').map((t) => t.key);
/** the step kinds a run may leave out (`without`): those that create or end nothing later steps use */
export const SKIPPABLE_KINDS: readonly string[] = Object.entries(STEPS)
  .filter(([, d]) => !('effect' in d))
  .map(([k]) => k);
const SKIPPABLE: SchemaObject = {
  type: 'string',
  enum: [...SKIPPABLE_KINDS],
  'x-expected': `expected a step kind a run can leave out (${SKIPPABLE_KINDS.join(', ')}), got {got}`,
};
/** `without`: a list of step kinds (--set without=fadvise takes one alone) */
export const WITHOUT: SchemaObject = {
  type: 'array',
  items: SKIPPABLE,
  minItems: 1,
  description:
    'the step kinds this run leaves out (each kept as a no-op, so that steps line up with the other run): [fadvise], the backup without its fadvise calls',
  'x-expected': `expected a list of step kinds a run can leave out, like [fadvise] (${SKIPPABLE_KINDS.join(', ')}), got {got}`,
};

export const SEED: SchemaObject = int(
  0,
  Number.MAX_SAFE_INTEGER,
  'every random choice (random and uniform access patterns) derives from it; default 1',
);

const BYTES = (description: string) => size({}, description);

/** the schema of a step argument, by its type in the description */
function argSchema(a: StepArg): SchemaObject {
  switch (a.type) {
    case 'task':
      return task(!!a.all, a.doc);
    case 'map':
    case 'new-map':
    case 'file':
    case 'new-process':
      return withDoc(NAME, a.doc);
    case 'maps':
      return {
        if: { type: 'array' },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else
        then: { type: 'array', minItems: 1, items: NAME, 'x-expected': 'expected at least one map name' },
        else: NAME,
        description: a.doc,
      };
    case 'page-offset':
      return size({ page: true }, a.doc);
    case 'page-length':
      return size({ page: true, min: PAGE }, a.doc);
    case 'bytes':
      return BYTES(a.doc);
    case 'choice':
      return choice(a.choices!, a.doc);
    case 'bool':
      return withDoc(BOOL, a.doc);
    case 'count':
      return int(0, 2 ** 40, a.doc);
    case 'pages':
      return {
        type: 'array',
        minItems: 1,
        items: int(0, 2 ** 40),
        'x-expected': 'expected a list of page indexes, like [0, 5, 17], got {got}',
        description: a.doc,
      };
    case 'address':
      return { 'x-address': true, description: a.doc };
  }
}

/* the described step kinds: each a mapping of its arguments, with its one-line description */
export const STEP_SCHEMAS: Record<DescribedKind, SchemaObject> = Object.fromEntries(
  Object.entries(STEPS).map(([kind, d]) => {
    const args = Object.entries(d.args as Record<string, StepArg>);
    return [
      kind,
      mapping(
        `a ${kind} step`,
        Object.fromEntries(args.map(([k, a]) => [k, argSchema(a)])),
        args.filter(([, a]) => a.required).map(([k]) => k),
        { description: d.doc },
      ),
    ];
  }),
) as Record<DescribedKind, SchemaObject>;

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
  description: STRUCTURAL_KINDS.expect.doc,
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

export const STEP_KINDS: StepKind[] = [...Object.keys(STEPS), ...Object.keys(STRUCTURAL_KINDS)] as StepKind[];

/** counters an expect may name: the vmstat counters and the model's own */
export const EXPECT_COUNTERS: readonly string[] = COUNTERS;

/** the tunables (kernel and machine.*) by their `--set` key: compare's keys */
const SETTINGS: Record<string, SchemaObject> = Object.fromEntries(
  TUNABLES.map((t) => [t.key, TUNABLE_SCHEMAS.get(t.key)!]),
);

/* a letter: the cover letter's table beside the model's (../letter.ts) */
const CHECKS = ['value', 'change', 'none'] as const;
const PERCENT = (description: string): SchemaObject => ({
  type: 'number',
  minimum: 0,
  maximum: 10000,
  description,
});
const LETTER_ROW = mapping(
  'letter row',
  {
    row: withDoc(TEXT, "the letter's own label for the row"),
    unit: withDoc(TEXT, 'the unit of its figures (faults, pages, %, s)'),
    seed: {
      type: 'array',
      items: { type: ['number', 'null'] },
      'x-expected': "expected the letter's figures, one per column (null where it gives none), got {got}",
      description: "the letter's figures, one per column (null where it gives none)",
    },
    change: {
      type: 'number',
      description: "the letter's change from the first column to the last, in % (where it gives only that)",
    },
    under: {
      type: 'number',
      minimum: 0,
      description: 'the letter\'s bound on the change, in %, where it says only "< 1%" (not affected)',
    },
    model: withDoc(
      TEXT,
      "the model's figure: counters, numbers, + - * / (100 * vmacache_find_hits / vmacache_find_calls)",
    ),
    instead: withDoc(TEXT, 'what the model counts instead, where it cannot compute the figure (seconds, cycles)'),
    check: choice(
      CHECKS,
      'how the row agrees: value (within `within` %), change (the same direction first to last column), none',
    ),
    within: PERCENT('value: the error allowed, in %; change: the points allowed between the two changes'),
    why: withDoc(TEXT, 'why the model and the letter differ here, or cannot be compared'),
  },
  ['row'],
);
const LETTER: SchemaObject = mapping(
  'letter',
  {
    source: withDoc(TEXT, 'the letter: author, title, date, and which table'),
    note: withDoc(TEXT, 'what a reader should know about the experiment before comparing'),
    columns: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        minProperties: 1,
        maxProperties: 1,
        additionalProperties: mapping('letter column', { ...SETTINGS, without: WITHOUT }, [], {
          'x-unknown':
            "unknown key '{key}'{suggest}; a column's run takes a kernel tunable, a machine.* key or without: {keys}",
        }),
        'x-expected':
          "expected a column: its label and its run's settings, like NRS: { without: [fadvise] }, got {got}",
      },
      'x-expected': "expected the letter's columns, each a label and its run's settings, got {got}",
      description: "the letter's columns: `label: { settings }`, each a run of this scenario with those settings",
    },
    rows: { type: 'array', minItems: 1, items: LETTER_ROW, description: "the letter's rows" },
    check: choice(CHECKS, "the rows' check where a row gives none (default: change with 2+ columns, else value)"),
    within: PERCENT("the rows' `within` where a row gives none"),
  },
  ['source', 'columns', 'rows'],
  { description: "the cover letter's table beside the model's: its columns are runs, its rows figures" },
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
            'a disk file whose blocks are not written yet (a new copy): writing part of a page reads nothing first (default false)',
          ),
          large_folios: withDoc(
            BOOL,
            "whether the file's file system caches it in large folios when the kernel can (kernel.pagecache_large_folios, 6.18): true (default) as ext4 does; false as ext4 mounted data=journal does (order-0 pages); a disk file only",
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
            "the mm's initial vmacache_seqnum (default 0; start near 4294967295 to reach the wrap)",
          ),
        },
      },
      description: 'the processes that exist before step 1: name: { threads, vmacache_seqnum }',
    },
    steps: { $ref: '#/$defs/steps' },
    compare: mapping('compare', { ...SETTINGS, without: WITHOUT }, [], {
      minProperties: 1,
      'x-expected': 'expected the tunables run B sets, like { fault_around_bytes: 4KiB }, got {got}',
      'x-unknown': "unknown key '{key}'{suggest}; compare takes a kernel tunable, a machine.* key or without: {keys}",
      description: "the scenario's natural comparison; run B is this scenario with these tunables set",
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
      { description: "reference data (e.g. a kernel patch's benchmark table) drawn beside a sweep over x" },
    ),
    letter: LETTER,
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
          { description: STRUCTURAL_KINDS.repeat.doc },
        ),
        expect: EXPECT_SCHEMA,
        say: { ...TEXT, description: STRUCTURAL_KINDS.say.doc },
      },
    },
  },
};

/** The scenario format as JSON Schema (draft-07 plus the x- keywords of ./schema/check.ts); do not modify */
export function scenarioJsonSchema(): SchemaObject {
  return SCHEMA;
}
