/**
 * Resource limits: a scenario is untrusted input (share links, students'
 * files, the CLI), so before any work the loader checks it against limits
 * and refuses, with a message naming the step, the figure and the limit,
 * what would hang a class's browsers or exhaust a laptop's memory.
 *
 *   1. the text, before parsing:       source_bytes
 *   2. the parsed document's shape:    depth, list_items, text_chars
 *   3. the scenario's work, estimated from the scenario alone (repeats
 *      multiplied out, never expanded):  operations, memory, processes,
 *      threads, mappings, steps
 *
 * Every limit can be raised: `--limit key=value` in the CLI, "Run anyway"
 * in the browser (which raises the limits the scenario exceeds to what it
 * needs). The memory estimate is an upper bound: a scenario under it
 * cannot need more (the core's own hard limits, load.c, sit above these
 * defaults, and the core's memory cap is `memory` itself); operations are
 * an estimate of time in COST's units, checked against measurement.
 */
import { MAX_MAPS, MAX_PROCS, MAX_STEPS, MAX_TASKS } from './abi.js';
import { ScenarioError, ScenarioErrors, type At } from './errors.js';
import { formatSize, PAGE } from './units.js';
import { STEPS, type DescribedStep, type StepKindDesc } from '../interface/steps.js';
import type { DescribedKind, Scenario, Step } from './scenario.js';

export type LimitKey =
  | 'source_bytes'
  | 'depth'
  | 'list_items'
  | 'text_chars'
  | 'operations'
  | 'sweep_operations'
  | 'memory'
  | 'processes'
  | 'threads'
  | 'mappings'
  | 'steps';

export interface LimitDef {
  key: LimitKey;
  default: number;
  /** the most it can be raised to (the core's hard limit), if any */
  max?: number;
  bytes?: boolean;
  what: string;
  why: string;
}

/**
 * What the simulator may use at most: wasm32 addresses 4 GiB, and the
 * host's own data (the program, event batches) lives there too.
 */
export const CORE_MEMORY_LIMIT = 3.5 * 2 ** 30;

/** operations (COST's units of ~100 ns) per second the CLI runs, for "about N s"; a tab recording events is 2-3 times slower */
export const OPS_PER_SECOND = 1e7;

export const LIMIT_DEFS: readonly LimitDef[] = [
  {
    key: 'source_bytes',
    default: 2 ** 20,
    bytes: true,
    what: 'the scenario text',
    why: 'parsing and checking YAML takes about 1 s per MiB',
  },
  {
    key: 'depth',
    default: 64,
    what: 'nesting of mappings and lists',
    why: 'a repeat nests three levels; the core runs 8 repeats deep',
  },
  {
    key: 'list_items',
    default: 100_000,
    what: 'items in one list (steps:, pages:, points:)',
    why: 'keeps parsing and checking under a second',
  },
  {
    key: 'text_chars',
    default: 100_000,
    what: 'characters in one text (name, about, say)',
    why: 'the player shows them whole',
  },
  {
    key: 'operations',
    default: 5e7,
    what: 'operations of about 100 ns (each kind of work weighted by its measured cost)',
    why: 'about 5 s of the CLI; a tab recording events takes two or three times longer',
  },
  {
    key: 'sweep_operations',
    default: 2.5e8,
    what: "operations of a sweep's runs together (each run is held to operations too)",
    why: 'about 25 s of the CLI for the whole sweep',
  },
  {
    key: 'memory',
    default: 768 * 2 ** 20,
    max: CORE_MEMORY_LIMIT,
    bytes: true,
    what: 'simulator memory',
    why: 'a browser tab and a laptop stay safe; the core cannot use more than 3.5 GiB',
  },
  {
    key: 'processes',
    default: MAX_PROCS,
    max: MAX_PROCS,
    what: 'processes (with forked ones)',
    why: 'the core holds 1,024',
  },
  { key: 'threads', default: MAX_TASKS, max: MAX_TASKS, what: 'threads', why: 'the core holds 4,096' },
  {
    key: 'mappings',
    default: MAX_MAPS,
    max: MAX_MAPS,
    what: 'map names',
    why: "the core holds 65,536 (the kernel's vm.max_map_count is 65,530 per process)",
  },
  {
    key: 'steps',
    default: MAX_STEPS,
    max: MAX_STEPS,
    what: 'steps (counting those inside repeats once)',
    why: 'the core holds 1,048,576',
  },
];

export type Limits = Record<LimitKey, number>;
export const DEFAULT_LIMITS: Limits = Object.freeze(
  Object.fromEntries(LIMIT_DEFS.map((d) => [d.key, d.default])) as Limits,
);
const DEF = new Map(LIMIT_DEFS.map((d) => [d.key as string, d]));

export const isLimitKey = (k: string): k is LimitKey => DEF.has(k);

const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** 18 -> ¹⁸ */
const superscript = (e: number) =>
  String(e)
    .split('')
    .map((d) => SUP[Number(d)])
    .join('');

/** "5 × 10⁷", "768 MiB", "65,536" */
export function formatFigure(key: LimitKey, n: number): string {
  if (DEF.get(key)?.bytes)
    return n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : formatSize(Math.ceil(n / 2 ** 20) * 2 ** 20);
  if (!Number.isFinite(n)) return 'more than 10^300';
  if (n >= 1e7) {
    let e = Math.floor(Math.log10(n));
    let m = n / 10 ** e;
    if (m >= 9.95) {
      m = 1;
      e++;
    }
    return `${m.toFixed(1).replace(/\.0$/, '')} × 10${superscript(e)}`;
  }
  return Math.round(n).toLocaleString('en-US');
}

/** the table of limits in docs/limits.md (a test keeps that copy equal to this) */
export function limitsMarkdown(): string {
  const rows = LIMIT_DEFS.map((d) => `| \`${d.key}\` | ${formatFigure(d.key, d.default)} | ${d.what} | ${d.why} |`);
  return ['| limit | default | what it bounds | why this default |', '|---|---:|---|---|', ...rows].join('\n');
}

/** "about 40 s", "about 3 minutes", "about 5 hours" */
export function formatDuration(ops: number): string {
  const s = ops / OPS_PER_SECOND;
  if (s < 90) return `about ${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `about ${Math.round(s / 60)} minutes`;
  if (s < 48 * 3600) return `about ${Math.round(s / 3600)} hours`;
  if (s < 730 * 86400) return `about ${Math.round(s / 86400)} days`;
  return `about ${formatFigure('operations', s / (365 * 86400))} years`;
}

/** a value for --limit key=…: 2GiB, 84000000, 1.1e18 */
function limitArg(key: LimitKey, n: number): string {
  if (DEF.get(key)!.bytes) return formatSize(Math.ceil(n / 2 ** 20) * 2 ** 20).replace(' ', '');
  if (n < 1e9) return String(Math.ceil(n));
  const e = Math.floor(Math.log10(n));
  return `${Math.ceil((n / 10 ** e) * 10) / 10}e${e}`;
}

/** a scenario over a limit: which, by how much, and how to raise it */
export class LimitExceeded extends ScenarioError {
  /** what it needs and the limit, without how to raise it (the browser says that with a button) */
  readonly summary: string;
  constructor(
    file: string,
    at: At | null,
    readonly key: LimitKey,
    readonly needed: number,
    readonly limit: number,
    what: string,
  ) {
    const d = DEF.get(key)!;
    const raise =
      d.max !== undefined && needed > d.max
        ? `the most it can be is ${formatFigure(key, d.max)}`
        : `raise it with --limit ${key}=${limitArg(key, needed * 1.05)}, or Run anyway in the browser`;
    super(
      file,
      at?.line ?? 0,
      at?.col ?? 0,
      at?.path ?? '',
      `${what}, over the limit of ${formatFigure(key, limit)} for ${d.what} (limit ${key}: ${raise})`,
    );
    this.name = 'LimitExceeded';
    this.summary = `${what}, over the limit of ${formatFigure(key, limit)} for ${d.what}${d.max !== undefined && needed > d.max ? ` (the most it can be is ${formatFigure(key, d.max)})` : ''}`;
  }
  /** whether raising the limit can help */
  get raisable(): boolean {
    const d = DEF.get(this.key)!;
    return d.max === undefined || this.needed <= d.max;
  }
}

/** Errors that are all limits: the browser offers to run anyway with them raised */
export function limitsOf(e: unknown): LimitExceeded[] | null {
  if (!(e instanceof ScenarioErrors) || !e.errors.length) return null;
  return e.errors.every((x) => x instanceof LimitExceeded) ? (e.errors as LimitExceeded[]) : null;
}

/** the limits raised just enough for these refusals */
export function raised(limits: Limits, over: readonly LimitExceeded[]): Limits {
  const out = { ...limits };
  for (const x of over) out[x.key] = Math.max(out[x.key], Math.ceil(x.needed * 1.05));
  return out;
}

/** `--limit key=value`: sizes for byte limits, numbers like 3e9 or 3000000000 */
export function parseLimit(key: string, value: string, into: Limits): string | null {
  if (!isLimitKey(key)) return `unknown limit '${key}'; limits: ${LIMIT_DEFS.map((d) => d.key).join(', ')}`;
  const d = DEF.get(key)!;
  let n: number;
  const m = /^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*(B|KiB|K|MiB|M|GiB|G|TiB|T)?\s*$/i.exec(value);
  if (!m) return `--limit ${key}: expected a number${d.bytes ? ' or a size like 2GiB' : ' like 3e9'}, got '${value}'`;
  n = Number(m[1]);
  const unit = (m[2] ?? '').toUpperCase().replace('IB', '');
  if (unit) {
    if (!d.bytes) return `--limit ${key}: a count, not a size; got '${value}'`;
    n *= 1024 ** 'BKMGT'.indexOf(unit[0]);
  }
  if (!Number.isFinite(n) || n < 1) return `--limit ${key}: expected a positive number, got '${value}'`;
  if (d.max !== undefined && n > d.max)
    return `--limit ${key}: at most ${formatFigure(key, d.max)} (${d.why}), got '${value}'`;
  into[key] = Math.floor(n);
  return null;
}

/* ------------------------------------------------------------------ 1. the text */

/** Refuse, before parsing, a text longer than source_bytes (UTF-8). */
export function checkSource(source: string, file: string, limits: Limits = DEFAULT_LIMITS): void {
  const max = limits.source_bytes;
  /* bytes >= characters: a long string fails without encoding it */
  const bytes =
    source.length > max ? source.length : source.length * 3 <= max ? 0 : new TextEncoder().encode(source).length;
  if (bytes > max)
    throw new ScenarioErrors([
      new LimitExceeded(
        file,
        null,
        'source_bytes',
        bytes,
        max,
        `the scenario is ${formatFigure('source_bytes', bytes)} of text`,
      ),
    ]);
  /* flow collections ([[[…]]]) nest without indentation: the parser recurses on them, so count first */
  let depth = 0,
    quote = '',
    line = 1,
    col = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    col++;
    if (c === '\n') {
      line++;
      col = 0;
      continue;
    }
    if (quote) {
      if (c === quote && (quote === "'" || source[i - 1] !== '\\')) quote = '';
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(source[i - 1]))) {
      const nl = source.indexOf('\n', i);
      if (nl < 0) break;
      i = nl - 1;
      col--;
      continue;
    }
    if ((c === '"' || c === "'") && (i === 0 || /[\s[{,:]/.test(source[i - 1]))) quote = c; /* it's: not a quote */
    else if (c === '[' || c === '{') {
      if (++depth > limits.depth)
        throw new ScenarioErrors([
          new LimitExceeded(
            file,
            { line, col, path: '' },
            'depth',
            depth,
            limits.depth,
            `lists or mappings are nested more than ${limits.depth} deep here`,
          ),
        ]);
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
}

/* ------------------------------------------------------------------ 2. the document's shape */

/**
 * Walk the parsed document (iteratively: no recursion on hostile depth) for
 * nesting, list lengths and text lengths. `at` locates a path.
 */
export function checkShape(
  data: unknown,
  file: string,
  at: (segs: (string | number)[]) => At,
  limits: Limits = DEFAULT_LIMITS,
): void {
  const errors: LimitExceeded[] = [];
  const stack: { v: unknown; segs: (string | number)[] }[] = [{ v: data, segs: [] }];
  while (stack.length && errors.length < 5) {
    const { v, segs } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length > limits.text_chars)
        errors.push(
          new LimitExceeded(
            file,
            at(segs),
            'text_chars',
            v.length,
            limits.text_chars,
            `this text is ${formatFigure('text_chars', v.length)} characters`,
          ),
        );
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (segs.length >= limits.depth) {
      errors.push(
        new LimitExceeded(
          file,
          at(segs),
          'depth',
          segs.length + 1,
          limits.depth,
          `this is nested ${segs.length + 1} levels deep`,
        ),
      );
      continue;
    }
    if (Array.isArray(v)) {
      if (v.length > limits.list_items) {
        errors.push(
          new LimitExceeded(
            file,
            at(segs),
            'list_items',
            v.length,
            limits.list_items,
            `this list has ${formatFigure('list_items', v.length)} items`,
          ),
        );
        continue;
      }
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], segs: [...segs, i] });
    } else {
      const keys = Object.keys(v);
      if (keys.length > limits.list_items) {
        errors.push(
          new LimitExceeded(
            file,
            at(segs),
            'list_items',
            keys.length,
            limits.list_items,
            `this mapping has ${formatFigure('list_items', keys.length)} keys`,
          ),
        );
        continue;
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        if (keys[i].length > limits.text_chars)
          errors.push(
            new LimitExceeded(
              file,
              at([...segs, keys[i]]),
              'text_chars',
              keys[i].length,
              limits.text_chars,
              `this key is ${formatFigure('text_chars', keys[i].length)} characters`,
            ),
          );
        stack.push({ v: (v as Record<string, unknown>)[keys[i]], segs: [...segs, keys[i]] });
      }
    }
  }
  if (errors.length) throw new ScenarioErrors(errors);
}

/* ------------------------------------------------------------------ 3. the work */

export interface Estimate {
  /** the run's work in COST's units of about 100 ns (an estimate of time, checked against measurement) */
  operations: number;
  /** page frames the run can hold at once (upper bound) */
  pages: number;
  /** simulator memory (upper bound), bytes */
  memory: number;
  /** page-cache tree nodes (upper bound), part of memory */
  cacheNodes: number;
  processes: number;
  threads: number;
  mappings: number;
  steps: number;
  /** events a traced run can emit (upper bound; the player keeps at most 2 M, then records counters only) */
  events: number;
  /** the step kind that needs the most operations (its steps' total), and where its heaviest step is */
  worst: { at: At; operations: number; kind: string; steps: number } | null;
}

/** simulator bytes per page frame (struct page 32, page-cache slot ~4.3, PTE 8, table share) */
const BYTES_PER_PAGE = 48;
/** the core's bookkeeping besides pages: pools, the event buffer */
const BASE_BYTES = 8 * 2 ** 20;
/** one page-cache tree node (struct xa_node: 64 slots of 4 bytes, tags, links) with its pool's share */
const XA_NODE_BYTES = 288;
const XA_SLOTS = 64;
const PMD_PAGES = 512;

/**
 * What each kind of work costs, in operations of about 100 ns each: the wasm
 * core, untraced, on this project's reference machine (2 cores). Measured one
 * kind at a time with scenarios that do only that (wasm-core/test/estimate/);
 * wasm-core/test/estimate.test.ts runs them and checks the estimate against the
 * measured time within ESTIMATE_FACTOR. The unit is an anonymous page fault.
 */
export const COST = {
  /** any step, and each iteration of a repeat */
  step: 1,
  /** mmap or munmap of a VMA (the tree, the merge, the seqnum) */
  vma: 2,
  /** a touch of a page that is mapped already (38 ns) */
  touch: 0.4,
  /** a page mapped for the first time, and zapped again by munmap or exit (100 + 110 ns) */
  fresh: 1.4,
  /** a page of a large anonymous folio (mTHP) or a fault-around batch, mapped and zapped with its folio */
  batched: 0.2,
  /** a page-cache page a fault or read(2) brings in (readahead), with its later reclaim or removal */
  cachePage: 0.3,
  /** a page-table page allocated, then freed with its mapping (~600 ns) */
  table: 6,
  /** a PMD-sized folio allocated, mapped, and freed (~4 us) */
  thp: 40,
  /** a PMD split into 512 PTEs (the remap of a partial unmap, ~4.5 us) */
  split: 45,
  /** fork: one PTE copied (and zapped when the child exits) */
  copyPte: 0.4,
  /** fork: one huge PMD copied (and zapped) */
  copyPmd: 10,
  /** read(2)/write(2): a page copied */
  ioPage: 0.3,
  /** fadvise: a page of its range walked */
  rangePage: 0.7,
  /** cached: all: a page put in the page cache before step 1 */
  cachedPage: 0.5,
} as const;

/** what a mapping may still cost, over the whole run, as the estimate walks the steps */
interface MapCost {
  len: number;
  /** the mapped file's name, or '' */
  file: string;
  /** pages that can still be mapped for the first time (pages × the repeats around its mmap; a zap gives some back) */
  fresh: number;
  /** PMD-sized blocks that can still fault as huge pages (THP on, anonymous) */
  huge: number;
  /** page-table pages that can still be allocated for it */
  tables: number;
  /** pages and huge PMDs mapped since its mmap, for a fork's copy */
  present: number;
  presentHuge: number;
}

/**
 * From the scenario alone (after overrides: the tunables matter), what a
 * run needs: operations weighted by COST (an estimate of time, checked
 * against measurement) and upper bounds of pages and memory. Repeats are
 * multiplied out, never expanded: a repeat costs 1 + times operations
 * (entering it, ending each iteration), its body times as much. A mapping
 * created inside a repeat is new in every iteration; one created outside
 * faults its pages once, however often a repeat touches them. Linear in the
 * number of steps.
 */
export function estimate(s: Scenario): Estimate {
  const k = s.kernel;
  const frames = Math.floor(s.machine.memory / PAGE);
  /* pages one touch can bring in: a fault allocates one page, readahead a window, THP a PMD */
  const raPages = Math.max(1, Math.floor(k.readahead_kb / 4));
  const anonBatch = Math.max(1, ...k.mthp.map((b) => b / PAGE), k.anon_prefault !== 'off' ? k.anon_prefault_cap : 1);
  const faultAround = Math.max(1, k.fault_around_bytes / PAGE);
  const thpOn = k.thp !== 'never';
  const anonPages = Math.max(anonBatch, thpOn ? PMD_PAGES : 1);
  const perTouch = Math.max(raPages * 2, anonPages) + 1;

  const fileSize = new Map(s.files.map((f) => [f.name, f.size]));
  const cachedFiles = new Set(s.files.filter((f) => f.cached).map((f) => f.name));
  /* per file: page-cache leaves its insertions may need (a window spans at most this many) */
  const fileLeaves = new Map<string, number>();
  const addLeaves = (file: string, windows: number, pages: number) =>
    fileLeaves.set(file, (fileLeaves.get(file) ?? 0) + windows * (Math.ceil(pages / XA_SLOTS) + 1));
  let ops = 0,
    raw = 0,
    touches = 0,
    steps = 0,
    forkCopies = 0,
    forkTables = 0,
    fileIo = 0;
  const cachedPages = s.files.filter((f) => f.cached).reduce((a, f) => a + Math.ceil(f.size / PAGE), 0);
  /* per process: its mappings by name */
  const procMaps = new Map<string, Map<string, MapCost>>();
  const maxLen = new Map<string, number>();
  const threads = new Map<string, number>();
  for (const p of s.processes) {
    procMaps.set(p.name, new Map());
    threads.set(p.name, p.threads);
  }
  const mapNames = new Set<string>();
  /* per step kind: the operations of all its steps, and its heaviest step */
  const byKind = new Map<string, { total: number; count: number; at: At; max: number }>();
  const charge = (st: { kind: string; at: At }, n: number, rawOps: number) => {
    ops += n;
    raw += rawOps;
    const k = byKind.get(st.kind);
    if (!k) byKind.set(st.kind, { total: n, count: 1, at: st.at, max: n });
    else {
      k.total += n;
      k.count++;
      if (n > k.max) {
        k.max = n;
        k.at = st.at;
      }
    }
  };
  /* the page-table pages a range of a mapping can hold: its PTE tables and the PMD and PUD above */
  const tablesOf = (len: number) => Math.ceil(len / (PMD_PAGES * PAGE)) + 3;
  const walk = (list: Step[], mult: number) => {
    for (const st of list) {
      steps++;
      if (st.kind === 'repeat') {
        charge(st, mult * (1 + st.times) * COST.step, mult * (1 + st.times));
        walk(st.steps, mult * st.times);
        continue;
      }
      if (!(st.kind in STEPS)) {
        charge(st, mult * COST.step, mult);
        continue;
      }
      const d = STEPS[st.kind as DescribedKind] as StepKindDesc;
      switch (d.cost) {
        case 'map': {
          const mm = st as DescribedStep<'mmap'>;
          mapNames.add(mm.name);
          const len = mm.length ?? Math.ceil(((fileSize.get(mm.file!) ?? 0) - mm.offset) / PAGE) * PAGE;
          maxLen.set(mm.name, Math.max(maxLen.get(mm.name) ?? 0, len));
          procMaps.get(mm.task.proc)?.set(mm.name, {
            len,
            file: mm.file ?? '',
            fresh: (len / PAGE) * mult,
            huge: thpOn && !mm.file ? Math.floor(len / (PMD_PAGES * PAGE)) * mult : 0,
            tables: tablesOf(len) * mult,
            present: 0,
            presentHuge: 0,
          });
          charge(st, mult * (COST.step + COST.vma), mult);
          break;
        }
        case 'unmap': {
          /* munmap, madvise: a zap gives the range's pages back to be faulted again (their cost was
             charged with the fault); a range that cuts a huge PMD splits it, at either end */
          const um = st as DescribedStep<'munmap'> | DescribedStep<'madvise'>;
          const m = procMaps.get(um.task.proc)?.get(um.map);
          const zaps = st.kind === 'munmap' || (st as DescribedStep<'madvise'>).advice === 'dontneed';
          const partial = !!m && (um.offset > 0 || (um.length !== undefined && um.offset + um.length < m.len));
          /* a munmap removes a VMA; a partial one splits it first, leaving one more to remove later */
          let n = COST.step + (st.kind === 'munmap' ? COST.vma * (partial ? 4 : 1) : 0);
          if (zaps && partial && m && (m.huge > 0 || m.presentHuge > 0)) n += 2 * COST.split;
          if (zaps && m && st.kind === 'madvise') {
            const pages = (um.length ?? m.len - um.offset) / PAGE;
            m.fresh += pages * mult;
            m.huge += thpOn && !m.file ? Math.floor(pages / PMD_PAGES) * mult : 0;
            m.tables += tablesOf(pages * PAGE) * mult;
          }
          charge(st, n * mult, mult);
          break;
        }
        case 'touches': {
          const ac = st as DescribedStep<'access'>;
          const pm = procMaps.get(ac.task.proc);
          const names = Array.isArray(ac.map)
            ? ac.map
            : Array(ac.task.thread === '*' ? (threads.get(ac.task.proc) ?? 1) : 1).fill(ac.map);
          /* the touches' cost over every iteration (already times mult) */
          let n = 0;
          let count = 1;
          for (const name of names) {
            const m = pm?.get(name);
            const span = ac.length ?? Math.max(0, (m?.len ?? 0) - ac.offset);
            const t =
              ac.pattern === 'uniform'
                ? (ac.count ?? 0)
                : ac.pattern === 'list'
                  ? (ac.pages?.length ?? 0)
                  : Math.ceil(span / ac.stride);
            count += t;
            const all = t * mult;
            n += all * COST.touch;
            if (!m) continue;
            /* huge pages first (one fault maps 512 pages), then the pages a fault maps one by one or in a batch */
            const huge = Math.min(all, m.huge, (Math.ceil(span / (PMD_PAGES * PAGE)) + 1) * mult);
            m.huge -= huge;
            m.presentHuge += huge;
            m.fresh = Math.max(0, m.fresh - huge * PMD_PAGES);
            const batch = m.file ? faultAround : anonBatch;
            const fresh = Math.min((all - huge) * batch, m.fresh);
            m.fresh -= fresh;
            m.present += fresh;
            const tables = Math.min(m.tables, 3 * (all - huge) + 2 * huge);
            m.tables -= tables;
            n += huge * COST.thp + tables * COST.table;
            /* a fault maps its first page at the full cost, its batch's other pages cheaper */
            const faults = Math.min(all - huge, fresh);
            n += faults * COST.fresh + (fresh - faults) * COST.batched;
            if (m.file) {
              /* the page cache fills by readahead windows (one per fault at most), unless the file is cached already */
              const f = cachedFiles.has(m.file) ? 0 : fresh;
              n += f * COST.cachePage;
              fileIo += f;
              addLeaves(m.file, faults, raPages);
            }
          }
          touches += (count - 1) * mult;
          charge(st, COST.step * mult + n, count * mult);
          break;
        }
        case 'fork': {
          const fk = st as DescribedStep<'fork'>;
          const parent = procMaps.get(fk.task.proc);
          const child = new Map<string, MapCost>();
          /* copy_page_range() copies every present entry of the parent's mappings: a huge PMD as one */
          let ptes = 0,
            pmds = 0;
          for (const [name, m] of parent ?? []) {
            const p = Math.min(m.present, m.len / PAGE);
            const h = Math.min(m.presentHuge, Math.floor(m.len / (PMD_PAGES * PAGE)));
            ptes += p;
            pmds += h;
            /* after the fork, a write by either side copies (COW): each present page can fault again */
            child.set(name, { ...m, fresh: m.present, huge: 0, tables: tablesOf(m.len) });
            m.fresh += m.present;
          }
          procMaps.set(fk.child, child);
          threads.set(fk.child, 1);
          forkCopies += (ptes + pmds * PMD_PAGES) * mult;
          forkTables += (ptes + pmds) * 8 * mult;
          charge(
            st,
            (COST.step +
              ptes * COST.copyPte +
              pmds * COST.copyPmd +
              tablesOf((ptes + pmds * PMD_PAGES) * PAGE) * COST.table) *
              mult,
            (1 + ptes + pmds) * mult,
          );
          break;
        }
        case 'file-io': {
          /* one step, but a page of work per page it reads or writes, and a readahead window */
          const io = st as DescribedStep<'read'>;
          const pages = Math.ceil((io.length + (io.offset % PAGE)) / PAGE);
          const brought = Math.min(pages + raPages, Math.ceil((fileSize.get(io.file) ?? 0) / PAGE));
          fileIo += brought * mult;
          addLeaves(io.file, mult, brought);
          charge(st, (COST.step + pages * COST.ioPage + brought * COST.cachePage) * mult, (1 + pages) * mult);
          break;
        }
        case 'file-range': {
          /* invalidation walks the range (len 0: to the end of the file); the flush finds dirty pages by their tag */
          const fa = st as DescribedStep<'fadvise'>;
          const pages = Math.ceil((fa.length || Math.max(0, (fileSize.get(fa.file) ?? 0) - fa.offset)) / PAGE);
          charge(st, (COST.step + pages * COST.rangePage) * mult, (1 + pages) * mult);
          break;
        }
        default:
          charge(st, mult * COST.step, mult);
      }
    }
  };
  /* cached: all fills the page cache before step 1, one operation per page */
  for (const f of s.files)
    if (f.cached) {
      const pages = Math.ceil(f.size / PAGE);
      charge({ kind: 'cached: all', at: f.cachedAt }, pages * COST.cachedPage, pages);
      addLeaves(f.name, 1, pages);
    }
  walk(s.steps, 1);

  let mapped = 0;
  for (const len of maxLen.values()) mapped += len / PAGE;
  const filePages = s.files.reduce((a, f) => a + Math.ceil(f.size / PAGE), 0);
  /* frames: the page cache holds at most the files, anonymous memory at most what is mapped; each touch brings at most perTouch */
  const pages = Math.min(frames, filePages + mapped, cachedPages + touches * perTouch + forkCopies + fileIo);
  const ptes = Math.min(mapped, cachedPages + touches * perTouch) * 8 + forkTables;
  /*
   * The page-cache tree outlives the pages: reclaim leaves shadow entries in its leaves. A file's
   * nodes at each level are at most its insertions' leaves, and at most what the file's size holds
   * at that level (64 slots each).
   */
  let nodes = 0;
  for (const f of s.files) {
    const leaves = fileLeaves.get(f.name) ?? 0;
    for (let cover = XA_SLOTS; ; cover *= XA_SLOTS) {
      nodes += Math.min(leaves, Math.ceil(Math.ceil(f.size / PAGE) / cover));
      if (cover >= f.size / PAGE) break;
    }
  }
  const evPerOp = 8 + Math.max(raPages * 2, k.fault_around_bytes / PAGE, anonPages);
  const procs = procMaps.size;
  let nthreads = 0;
  for (const t of threads.values()) nthreads += t;
  let worst: Estimate['worst'] = null;
  for (const [kind, k] of byKind)
    if (!worst || k.total > worst.operations) worst = { at: k.at, operations: k.total, kind, steps: k.count };
  return {
    operations: ops,
    pages,
    memory: BASE_BYTES + pages * BYTES_PER_PAGE + ptes + nodes * XA_NODE_BYTES + mapNames.size * 256 + steps * 64,
    cacheNodes: nodes,
    processes: procs,
    threads: nthreads,
    mappings: mapNames.size,
    steps,
    events: (raw - cachedPages) * evPerOp + s.files.length,
    worst,
  };
}

/** Refuse, before any work, a scenario over a limit; returns the estimate. */
export function checkLimits(s: Scenario, limits: Limits = DEFAULT_LIMITS): Estimate {
  const e = estimate(s);
  const errors: LimitExceeded[] = [];
  const w = e.worst as Estimate['worst'];
  if (e.operations > limits.operations) {
    const share =
      !w || w.operations >= e.operations * 0.999
        ? ''
        : w.steps > 1
          ? ` (its ${w.steps.toLocaleString('en-US')} ${w.kind === 'cached: all' ? 'cached files' : `${w.kind} steps`}: ${formatFigure('operations', w.operations)}; the largest here)`
          : ` (this step: ${formatFigure('operations', w.operations)})`;
    errors.push(
      new LimitExceeded(
        s.file,
        w?.at ?? null,
        'operations',
        e.operations,
        limits.operations,
        `this scenario needs about ${formatFigure('operations', e.operations)} operations${share}, ${formatDuration(e.operations)} of work`,
      ),
    );
  }
  if (e.memory > limits.memory) {
    /* at the biggest cached file when the page cache it fills is most of it */
    const big = s.files.filter((f) => f.cached).sort((a, b) => b.size - a.size)[0];
    const at = big && (big.size / PAGE) * BYTES_PER_PAGE > e.memory / 2 ? big.cachedAt : null;
    const tree = e.cacheNodes * XA_NODE_BYTES > e.memory / 4;
    errors.push(
      new LimitExceeded(
        s.file,
        at,
        'memory',
        e.memory,
        limits.memory,
        `this scenario may need up to ${formatFigure('memory', e.memory)} of simulator memory (${formatFigure('operations', e.pages)} pages${at ? `, most of them the page cache cached: all fills` : ''}${tree ? `; ${formatFigure('operations', e.cacheNodes)} page-cache tree nodes, which its reads can reach and which keep shadow entries after reclaim` : ''})`,
      ),
    );
  }
  for (const [key, n, what] of [
    ['processes', e.processes, 'processes'],
    ['threads', e.threads, 'threads'],
    ['mappings', e.mappings, 'map names'],
    ['steps', e.steps, 'steps'],
  ] as const)
    if (n > limits[key])
      errors.push(
        new LimitExceeded(s.file, null, key, n, limits[key], `this scenario has ${formatFigure(key, n)} ${what}`),
      );
  if (errors.length) throw new ScenarioErrors(errors);
  return e;
}
