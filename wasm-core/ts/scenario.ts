/**
 * The scenario loader: YAML (or JSON) text -> a validated, typed Scenario.
 *
 * Implements ../shared/docs/scenario-format.md (version 1) exactly; the
 * project's extensions are marked "extension" below. Every error names the
 * file, the line and column, and the key path (`steps[3].access.stride`), and
 * says what was expected; unknown keys are errors, with a suggestion when the
 * key looks like a typo. All errors are collected, not just the first.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Node, type Pair, type YAMLMap } from 'yaml';
import { COUNTERS, FOLIO_FIELDS, TASK_COUNTERS } from './abi.js';
import {
  DEFAULT_KERNEL, DEFAULT_MACHINE, KERNEL_TUNABLES, MACHINE_SETTINGS, SETTABLE_KEYS, type KernelTunables,
  type MachineSettings, type TunableInfo,
} from './tunables.js';

export const PAGE = 4096;

export interface At { line: number; col: number; path: string }

export class ScenarioError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly col: number,
    readonly path: string,
    readonly detail: string,
  ) {
    super(line ? `${file}:${line}:${col}: ${path ? `${path}: ` : ''}${detail}` : `${file} ${path}: ${detail}`);
    this.name = 'ScenarioError';
  }
}

export class ScenarioErrors extends Error {
  constructor(readonly errors: ScenarioError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'ScenarioErrors';
  }
}

/* ------------------------------------------------------------------ types */

export interface TaskRef { proc: string; thread: number | '*'; text: string; at: At }

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
export interface FileDef { name: string; size: number; cached: boolean; fs: FileSystem; at: At; cachedAt: At }
export interface ProcDef { name: string; threads: number; at: At }

interface StepBase { at: At }
export type Step = StepBase & (
  | { kind: 'mmap'; task: TaskRef; name: string; file?: string; offset: number; length?: number;
      prot: 'read' | 'read-write'; shared: boolean; addr?: number }
  | { kind: 'munmap'; task: TaskRef; map: string; offset: number; length?: number }
  | { kind: 'madvise'; task: TaskRef; map: string; advice: Advice; offset: number; length?: number }
  | { kind: 'access'; task: TaskRef; map: string | string[]; op: 'read' | 'write'; pattern: Pattern;
      offset: number; length?: number; stride: number; count?: number; pages?: number[] }
  | { kind: 'read' | 'write'; task: TaskRef; file: string; offset: number; length: number }
  | { kind: 'fadvise'; task: TaskRef; file: string; advice: 'dontneed'; offset: number; length: number }
  | { kind: 'fsync'; task: TaskRef; file: string }
  | { kind: 'fork'; task: TaskRef; child: string }
  | { kind: 'exit'; task: TaskRef }
  | { kind: 'repeat'; times: number; stride: number; steps: Step[] }
  | { kind: 'expect'; task?: TaskRef; counters: { name: string; value: number; at: At }[];
      folio?: { task: TaskRef; map: string; offset: number; at: At };
      fields: { name: string; value: number; at: At }[] }
  | { kind: 'say'; text: string }
);
export type StepKind = Step['kind'];
export type Advice = 'hugepage' | 'nohugepage' | 'random' | 'sequential' | 'dontneed';
export type Pattern = 'sequential' | 'random' | 'uniform' | 'list';

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
}

/* ------------------------------------------------------------ value types */

const NAME_RE = /^[a-z][a-z0-9_-]*$/;
const UNITS: Record<string, number> = {
  '': 1, B: 1, K: 2 ** 10, KiB: 2 ** 10, M: 2 ** 20, MiB: 2 ** 20, G: 2 ** 30, GiB: 2 ** 30,
  T: 2 ** 40, TiB: 2 ** 40,
};
export const MAX_ADDR = 0x7ffffffff000;

export function formatSize(n: number): string {
  for (const [u, v] of [['TiB', 2 ** 40], ['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const)
    if (n >= v && n % v === 0) return `${n / v} ${u}`;
  return `${n} B`;
}

/** Levenshtein distance, for "did you mean" */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

export function suggest(word: string, options: readonly string[]): string {
  let best = '', bestD = Infinity;
  for (const o of options) {
    const dd = distance(word.toLowerCase(), o.toLowerCase());
    if (dd < bestD) { best = o; bestD = dd; }
  }
  return bestD <= Math.max(1, Math.floor(best.length / 3)) ? ` (did you mean '${best}'?)` : '';
}

/* ------------------------------------------------------------------ context */

class Ctx {
  errors: ScenarioError[] = [];
  constructor(readonly file: string, readonly lc: LineCounter) {}

  at(node: Node | Pair | null | undefined, path: string, fallback?: At): At {
    const n: Node | null | undefined = node && isPair(node) ? (node.key as Node | null) : (node as Node | null | undefined);
    const range = n?.range;
    if (range) {
      const { line, col } = this.lc.linePos(range[0]);
      return { line, col, path };
    }
    return fallback ? { ...fallback, path } : { line: 1, col: 1, path };
  }

  err(at: At, detail: string): void {
    if (this.errors.length < 100) this.errors.push(new ScenarioError(this.file, at.line, at.col, at.path, detail));
  }
}

const MISSING = Symbol('missing');
type Got<T> = T | typeof MISSING;

function describe(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (typeof v === 'string') return `'${v}'`;
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return String(v);
}

function scalarValue(node: Node | null | undefined): unknown {
  if (!node) return null;
  if (isScalar(node)) return node.value;
  if (isSeq(node)) return node.items.map((n) => scalarValue(n as Node));
  if (isMap(node)) return {};
  return null;
}

/* value parsers: return the value, or MISSING after reporting an error */

function parseSize(c: Ctx, node: Node | null, at: At, opts: { page?: boolean; min?: number; max?: number; pow2?: boolean } = {}): Got<number> {
  const v = scalarValue(node);
  let n: number;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) {
      c.err(at, `expected a size in bytes (a whole number, or a string like '4KiB', '2MiB', '16GiB'), got ${describe(v)}`);
      return MISSING;
    }
    n = v;
  } else if (typeof v === 'string') {
    const m = /^\s*(\d+)\s*(B|K|KiB|M|MiB|G|GiB|T|TiB)?\s*$/.exec(v);
    if (!m) {
      c.err(at, `expected a size such as 4096, '4KiB', '2MiB' or '16GiB' (binary units K/KiB, M/MiB, G/GiB, T/TiB), got ${describe(v)}`);
      return MISSING;
    }
    n = Number(m[1]) * UNITS[m[2] ?? ''];
    if (!Number.isSafeInteger(n)) {
      c.err(at, `size ${describe(v)} is too large`);
      return MISSING;
    }
  } else {
    c.err(at, `expected a size such as 4096, '4KiB', '2MiB' or '16GiB', got ${describe(v)}`);
    return MISSING;
  }
  if (opts.page && n % PAGE) {
    c.err(at, `must be a multiple of 4 KiB (4096 bytes), got ${n}`);
    return MISSING;
  }
  if (opts.min !== undefined && n < opts.min) {
    c.err(at, `must be at least ${formatSize(opts.min)}, got ${formatSize(n)}`);
    return MISSING;
  }
  if (opts.max !== undefined && n > opts.max) {
    c.err(at, `must be at most ${formatSize(opts.max)}, got ${formatSize(n)}`);
    return MISSING;
  }
  if (opts.pow2 && n & (n - 1)) {
    c.err(at, `must be a power of two from ${opts.min} to ${opts.max}, got ${n}`);
    return MISSING;
  }
  return n;
}

function parseInt_(c: Ctx, node: Node | null, at: At, min: number, max: number): Got<number> {
  const v = scalarValue(node);
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
    c.err(at, `expected a whole number, got ${describe(v)}`);
    return MISSING;
  }
  if (v < min || v > max) {
    c.err(at, `must be between ${min} and ${max}, got ${v}`);
    return MISSING;
  }
  return v;
}

function parseBool(c: Ctx, node: Node | null, at: At): Got<boolean> {
  const v = scalarValue(node);
  if (typeof v !== 'boolean') {
    c.err(at, `expected true or false, got ${describe(v)}`);
    return MISSING;
  }
  return v;
}

function parseEnum<T extends string>(c: Ctx, node: Node | null, at: At, values: readonly T[]): Got<T> {
  const v = scalarValue(node);
  if (typeof v !== 'string' || !values.includes(v as T)) {
    c.err(at, `must be one of ${values.join(', ')}; got ${describe(v)}${typeof v === 'string' ? suggest(v, values) : ''}`);
    return MISSING;
  }
  return v as T;
}

function parseName(c: Ctx, node: Node | null, at: At): Got<string> {
  const v = scalarValue(node);
  if (typeof v !== 'string' || !NAME_RE.test(v)) {
    c.err(at, `expected a name: a lowercase letter, then lowercase letters, digits, '_' or '-'; got ${describe(v)}`);
    return MISSING;
  }
  return v;
}

function parseText(c: Ctx, node: Node | null, at: At): Got<string> {
  const v = scalarValue(node);
  if (typeof v !== 'string') {
    c.err(at, `expected text, got ${describe(v)}`);
    return MISSING;
  }
  return v;
}

function parseAddr(c: Ctx, node: Node | null, at: At): Got<number> {
  const v = scalarValue(node);
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*(0x[0-9a-fA-F]+|\d+)\s*$/.test(v)) n = Number(v.trim());
  else {
    c.err(at, `expected an address: a number or a hex string like "0x7f0000000000", got ${describe(v)}`);
    return MISSING;
  }
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_ADDR) {
    c.err(at, `address ${describe(v)} is outside user space (0 .. 0x${MAX_ADDR.toString(16)})`);
    return MISSING;
  }
  if (n % PAGE) {
    c.err(at, `address 0x${n.toString(16)} is not page aligned (a multiple of 0x1000)`);
    return MISSING;
  }
  return n;
}

function parseTask(c: Ctx, node: Node | null, at: At, allowAll: boolean): Got<TaskRef> {
  const v = scalarValue(node);
  const m = typeof v === 'string' ? /^([a-z][a-z0-9_-]*)(?:\.(\d+|\*))?$/.exec(v) : null;
  if (!m) {
    c.err(at, `expected a task: 'app' (thread 0 of process app), 'app.2' (thread 2)${allowAll ? " or 'app.*' (every thread)" : ''}; got ${describe(v)}`);
    return MISSING;
  }
  if (m[2] === '*' && !allowAll) {
    c.err(at, `'${v}' names every thread; this step is done by one task (use '${m[1]}' or '${m[1]}.N')`);
    return MISSING;
  }
  return { proc: m[1], thread: m[2] === undefined ? 0 : m[2] === '*' ? '*' : Number(m[2]), text: v as string, at };
}

/* ------------------------------------------------------------ maps by schema */

type FieldType =
  | { t: 'size'; page?: boolean; min?: number; max?: number; pow2?: boolean }
  | { t: 'bytes' }
  | { t: 'int'; min: number; max: number }
  | { t: 'bool' }
  | { t: 'enum'; values: readonly string[] }
  | { t: 'name' }
  | { t: 'text' }
  | { t: 'addr' }
  | { t: 'task'; all?: boolean }
  | { t: 'maps' }
  | { t: 'pages' }
  | { t: 'sizes'; min: number; max: number }
  | { t: 'any' }; /* parsed by the caller */

interface Field { type: FieldType; required?: boolean }
type Schema = Record<string, Field>;

function parseField(c: Ctx, f: FieldType, node: Node | null, at: At): Got<unknown> {
  switch (f.t) {
    case 'size': return parseSize(c, node, at, f);
    case 'bytes': return parseSize(c, node, at, {});
    case 'int': return parseInt_(c, node, at, f.min, f.max);
    case 'bool': return parseBool(c, node, at);
    case 'enum': return parseEnum(c, node, at, f.values);
    case 'name': return parseName(c, node, at);
    case 'text': return parseText(c, node, at);
    case 'addr': return parseAddr(c, node, at);
    case 'task': return parseTask(c, node, at, !!f.all);
    case 'maps': {
      if (node && isSeq(node)) {
        if (!node.items.length) {
          c.err(at, 'expected at least one map name');
          return MISSING;
        }
        const out: string[] = [];
        node.items.forEach((it, i) => {
          const n = parseName(c, it as Node, c.at(it as Node, `${at.path}[${i}]`, at));
          if (n !== MISSING) out.push(n);
        });
        return out.length === node.items.length ? out : MISSING;
      }
      return parseName(c, node, at);
    }
    case 'pages': {
      if (!node || !isSeq(node) || !node.items.length) {
        c.err(at, `expected a list of page indexes, like [0, 5, 17], got ${describe(scalarValue(node))}`);
        return MISSING;
      }
      const out: number[] = [];
      node.items.forEach((it, i) => {
        const n = parseInt_(c, it as Node, c.at(it as Node, `${at.path}[${i}]`, at), 0, 2 ** 40);
        if (n !== MISSING) out.push(n);
      });
      return out.length === node.items.length ? out : MISSING;
    }
    case 'any':
      return node;
    case 'sizes': {
      if (!node || !isSeq(node)) {
        c.err(at, `expected a list of sizes, like [16KiB, 64KiB], got ${describe(scalarValue(node))}`);
        return MISSING;
      }
      const out: number[] = [];
      node.items.forEach((it, i) => {
        const iat = c.at(it as Node, `${at.path}[${i}]`, at);
        const n = parseSize(c, it as Node, iat, { min: f.min, max: f.max });
        if (n === MISSING) return;
        if (n & (n - 1)) c.err(iat, `must be a power of two, got ${formatSize(n)}`);
        else out.push(n);
      });
      return out.length === node.items.length ? out : MISSING;
    }
  }
}

/**
 * Validate a mapping against a schema: unknown keys and missing required
 * keys are errors. Returns the parsed values (absent keys omitted) and
 * whether everything was valid.
 */
function parseMap(c: Ctx, node: Node | null, at: At, schema: Schema, what: string): { v: Record<string, unknown>; ok: boolean; keys: Record<string, At> } {
  const v: Record<string, unknown> = {};
  const keys: Record<string, At> = {};
  let ok = true;
  if (!node || !isMap(node)) {
    c.err(at, `expected a mapping of ${what} (key: value), got ${describe(scalarValue(node))}`);
    return { v, ok: false, keys };
  }
  for (const pair of (node as YAMLMap).items) {
    const key = scalarValue(pair.key as Node);
    const kat = c.at(pair.key as Node, at.path ? `${at.path}.${String(key)}` : String(key), at);
    if (typeof key !== 'string' || !(key in schema)) {
      c.err(kat, `unknown key '${String(key)}'${typeof key === 'string' ? suggest(key, Object.keys(schema)) : ''}; ${what} takes: ${Object.keys(schema).join(', ')}`);
      ok = false;
      continue;
    }
    keys[key] = kat;
    const vat = pair.value ? c.at(pair.value as Node, kat.path, kat) : kat;
    const got = parseField(c, schema[key].type, pair.value as Node, vat);
    if (got === MISSING) ok = false;
    else v[key] = got;
  }
  for (const [k, f] of Object.entries(schema)) {
    if (f.required && !(k in keys)) {
      c.err(at, `missing required key '${k}'`);
      ok = false;
    }
  }
  return { v, ok, keys };
}

/* ------------------------------------------------------------------ schemas */

/* the field type of a tunable, from its description */
function tunableField(t: TunableInfo): Field {
  switch (t.type) {
    case 'size': return { type: { t: 'size', page: t.page, min: t.min, max: t.max, pow2: t.pow2 } };
    case 'int': return { type: { t: 'int', min: t.min!, max: t.max! } };
    case 'bool': return { type: { t: 'bool' } };
    case 'choice': return { type: { t: 'enum', values: t.choices! } };
    case 'sizes': return { type: { t: 'sizes', min: t.min!, max: t.max! } };
  }
}
const KERNEL_SCHEMA: Schema = Object.fromEntries(KERNEL_TUNABLES.map((t) => [t.key, tunableField(t)]));
export const TUNABLE_KEYS = KERNEL_TUNABLES.map((t) => t.key) as (keyof Tunables)[];
const MACHINE_SCHEMA: Schema = Object.fromEntries(MACHINE_SETTINGS.map((t) => [t.key.slice('machine.'.length), tunableField(t)]));

const TOP_SCHEMA: Schema = {
  name: { type: { t: 'text' }, required: true },
  about: { type: { t: 'text' } },
  seed: { type: { t: 'int', min: 0, max: Number.MAX_SAFE_INTEGER } },
  kernel: { type: { t: 'any' } },
  machine: { type: { t: 'any' } },
  files: { type: { t: 'any' } },
  processes: { type: { t: 'any' } },
  steps: { type: { t: 'any' }, required: true },
};

const FILE_SCHEMA: Schema = {
  size: { type: { t: 'bytes' }, required: true },
  cached: { type: { t: 'enum', values: ['all', 'none'] } },
  fs: { type: { t: 'enum', values: ['disk', 'tmpfs'] } },
};
const PROC_SCHEMA: Schema = { threads: { type: { t: 'int', min: 1, max: 1024 } } };

const off = { type: { t: 'size', page: true } as FieldType };
const STEP_SCHEMAS: Record<Exclude<StepKind, 'say' | 'expect' | 'repeat'>, Schema> = {
  mmap: {
    task: { type: { t: 'task' }, required: true }, name: { type: { t: 'name' }, required: true },
    file: { type: { t: 'name' } }, offset: off, length: { type: { t: 'size', page: true, min: 4096 } },
    prot: { type: { t: 'enum', values: ['read', 'read-write'] }, required: true },
    shared: { type: { t: 'bool' } }, addr: { type: { t: 'addr' } },
  },
  munmap: {
    task: { type: { t: 'task' }, required: true }, map: { type: { t: 'name' }, required: true },
    offset: off, length: { type: { t: 'size', page: true, min: 4096 } },
  },
  madvise: {
    task: { type: { t: 'task' }, required: true }, map: { type: { t: 'name' }, required: true },
    advice: { type: { t: 'enum', values: ['hugepage', 'nohugepage', 'random', 'sequential', 'dontneed'] }, required: true },
    offset: off, length: { type: { t: 'size', page: true, min: 4096 } },
  },
  access: {
    task: { type: { t: 'task', all: true }, required: true }, map: { type: { t: 'maps' }, required: true },
    op: { type: { t: 'enum', values: ['read', 'write'] }, required: true },
    pattern: { type: { t: 'enum', values: ['sequential', 'random', 'uniform', 'list'] } },
    offset: off, length: { type: { t: 'size', page: true, min: 4096 } },
    stride: { type: { t: 'size', page: true, min: 4096 } },
    count: { type: { t: 'int', min: 0, max: 2 ** 40 } }, pages: { type: { t: 'pages' } },
  },
  read: {
    task: { type: { t: 'task' }, required: true }, file: { type: { t: 'name' }, required: true },
    offset: { type: { t: 'bytes' }, required: true }, length: { type: { t: 'bytes' }, required: true },
  },
  write: {
    task: { type: { t: 'task' }, required: true }, file: { type: { t: 'name' }, required: true },
    offset: { type: { t: 'bytes' }, required: true }, length: { type: { t: 'bytes' }, required: true },
  },
  fadvise: {
    task: { type: { t: 'task' }, required: true }, file: { type: { t: 'name' }, required: true },
    advice: { type: { t: 'enum', values: ['dontneed'] }, required: true },
    offset: { type: { t: 'bytes' } }, length: { type: { t: 'bytes' } },
  },
  fsync: { task: { type: { t: 'task' }, required: true }, file: { type: { t: 'name' }, required: true } },
  fork: { task: { type: { t: 'task' }, required: true }, child: { type: { t: 'name' }, required: true } },
  exit: { task: { type: { t: 'task' }, required: true } },
};
const REPEAT_SCHEMA: Schema = {
  times: { type: { t: 'int', min: 0, max: 1_000_000_000 }, required: true },
  stride: { type: { t: 'bytes' } },
  steps: { type: { t: 'any' }, required: true },
};
export const STEP_KINDS: StepKind[] = [...Object.keys(STEP_SCHEMAS), 'repeat', 'expect', 'say'] as StepKind[];

/** counters an expect may name: the vmstat counters and the model's own */
export const EXPECT_COUNTERS: readonly string[] = COUNTERS;

/* ------------------------------------------------------------------ steps */

function parseSteps(c: Ctx, node: Node | null, at: At): Step[] {
  if (!node || !isSeq(node)) {
    c.err(at, `expected a list of steps (each '- kind: {...}'), got ${describe(scalarValue(node))}`);
    return [];
  }
  const out: Step[] = [];
  node.items.forEach((item, i) => {
    const sat = c.at(item as Node, `${at.path}[${i}]`, at);
    const s = parseStep(c, item as Node, sat);
    if (s) out.push(s);
  });
  return out;
}

function parseStep(c: Ctx, node: Node | null, at: At): Step | null {
  if (!node || !isMap(node) || node.items.length === 0) {
    c.err(at, `expected a step: a mapping with one key naming its kind (${STEP_KINDS.join(', ')}), got ${describe(scalarValue(node))}`);
    return null;
  }
  if (node.items.length > 1) {
    const names = node.items.map((p) => `'${String(scalarValue(p.key as Node))}'`).join(' and ');
    c.err(at, `a step has exactly one kind, found ${names} (indent the fields under the kind, or start a new '- ' item)`);
    return null;
  }
  const pair = node.items[0];
  const kind = scalarValue(pair.key as Node);
  const kat = c.at(pair.key as Node, `${at.path}.${String(kind)}`, at);
  const body = pair.value as Node | null;
  const bat = body ? c.at(body, kat.path, kat) : kat;
  if (typeof kind !== 'string' || !STEP_KINDS.includes(kind as StepKind)) {
    c.err(kat, `unknown step kind '${String(kind)}'${typeof kind === 'string' ? suggest(kind, STEP_KINDS) : ''}; steps are: ${STEP_KINDS.join(', ')}`);
    return null;
  }
  const sat: At = { ...kat };
  if (kind === 'say') {
    const t = parseText(c, body, bat);
    return t === MISSING ? null : { kind: 'say', text: t, at: sat };
  }
  if (kind === 'repeat') {
    const { v, ok } = parseMap(c, body, kat, REPEAT_SCHEMA, 'repeat');
    if (!ok && !('steps' in v)) return null;
    const stepsPair = body && isMap(body) ? (body as YAMLMap).items.find((p) => scalarValue(p.key as Node) === 'steps') : undefined;
    const steps = stepsPair ? parseSteps(c, stepsPair.value as Node, c.at(stepsPair.key as Node, `${kat.path}.steps`, kat)) : [];
    if (!ok) return null;
    return { kind: 'repeat', times: v.times as number, stride: (v.stride as number) ?? 0, steps, at: sat };
  }
  if (kind === 'expect') return parseExpect(c, body, kat);
  const { v, ok, keys } = parseMap(c, body, kat, STEP_SCHEMAS[kind as keyof typeof STEP_SCHEMAS], `a ${kind} step`);
  if (!ok) return null;
  const s = { kind, ...v, at: sat } as Record<string, unknown>;
  s.offset ??= 0;
  if (kind === 'mmap') {
    s.shared ??= false;
    if (!('file' in v) && !('length' in v)) {
      c.err(kat, 'an anonymous mapping (no file) needs a length');
      return null;
    }
    if (!('file' in v) && v.shared) {
      c.err(keys.shared, 'shared anonymous mappings are shmem, which the model does not run yet; use a file with shared: true, or shared: false');
      return null;
    }
  }
  if (kind === 'access') {
    s.pattern ??= 'sequential';
    s.stride ??= PAGE;
    if (s.pattern === 'uniform' && !('count' in v)) {
      c.err(kat, "pattern 'uniform' needs count: the number of touches");
      return null;
    }
    if (s.pattern === 'list' && !('pages' in v)) {
      c.err(kat, "pattern 'list' needs pages: the page indexes to touch, in order");
      return null;
    }
    if ('count' in v && s.pattern !== 'uniform') {
      c.err(keys.count, `count applies to pattern 'uniform' only (this access is '${String(s.pattern)}')`);
      return null;
    }
    if ('pages' in v && s.pattern !== 'list') {
      c.err(keys.pages, `pages apply to pattern 'list' only (this access is '${String(s.pattern)}')`);
      return null;
    }
    if (Array.isArray(v.map) && (v.task as TaskRef).thread !== '*') {
      c.err(keys.map, `a list of maps gives one map per thread; the task must name every thread ('${(v.task as TaskRef).proc}.*')`);
      return null;
    }
  }
  if (kind === 'fadvise') s.length ??= 0;
  return s as unknown as Step;
}

function parseExpect(c: Ctx, node: Node | null, at: At): Step | null {
  const counters: { name: string; value: number; at: At }[] = [];
  const fields: { name: string; value: number; at: At }[] = [];
  let folio: { task: TaskRef; map: string; offset: number; at: At } | undefined;
  let task: TaskRef | undefined;
  let ok = true;
  if (!node || !isMap(node) || !node.items.length) {
    c.err(at, `expected counters to check (e.g. { pgfault: 4096 }) and/or a folio, got ${describe(scalarValue(node))}`);
    return null;
  }
  const taskPair = node.items.find((p) => scalarValue(p.key as Node) === 'task');
  if (taskPair) {
    const t = parseTask(c, taskPair.value as Node, c.at(taskPair.value as Node, `${at.path}.task`, at), false);
    if (t === MISSING) ok = false;
    else task = t;
  }
  const allowed = task ? TASK_COUNTERS : EXPECT_COUNTERS;
  for (const pair of node.items) {
    const key = scalarValue(pair.key as Node);
    const kat = c.at(pair.key as Node, `${at.path}.${String(key)}`, at);
    const vat = pair.value ? c.at(pair.value as Node, kat.path, kat) : kat;
    if (key === 'task') continue;
    if (key === 'folio') {
      const r = parseMap(c, pair.value as Node, kat, {
        task: { type: { t: 'task' }, required: true }, map: { type: { t: 'name' }, required: true },
        offset: { type: { t: 'size', page: true } },
      }, 'a folio reference');
      if (!r.ok) ok = false;
      else folio = { task: r.v.task as TaskRef, map: r.v.map as string, offset: (r.v.offset as number) ?? 0, at: kat };
      continue;
    }
    if (typeof key === 'string' && (FOLIO_FIELDS as readonly string[]).includes(key)) {
      const v = key === 'likely_mapped_shared' ? parseBool(c, pair.value as Node, vat) : parseInt_(c, pair.value as Node, vat, 0, 2 ** 40);
      if (v === MISSING) ok = false;
      else fields.push({ name: key, value: Number(v), at: kat });
      continue;
    }
    if (typeof key !== 'string' || !allowed.includes(key)) {
      const what = task ? `a per-task counter (${TASK_COUNTERS.join(', ')})` : 'a counter name from /proc/vmstat, folio, or a folio field';
      c.err(kat, `unknown key '${String(key)}'${typeof key === 'string' ? suggest(key, [...allowed, 'folio', ...FOLIO_FIELDS]) : ''}: expected ${what}`);
      ok = false;
      continue;
    }
    const v = parseInt_(c, pair.value as Node, vat, 0, Number.MAX_SAFE_INTEGER);
    if (v === MISSING) ok = false;
    else counters.push({ name: key, value: v, at: kat });
  }
  if (fields.length && !folio) {
    c.err(at, `${fields.map((f) => f.name).join(', ')} describe a folio: add folio: { task, map, offset }`);
    ok = false;
  }
  if (folio && !fields.length) {
    c.err(folio.at, `folio needs at least one field to check (${FOLIO_FIELDS.join(', ')})`);
    ok = false;
  }
  if (task && folio) {
    c.err(at, "task: selects per-task counters; folio checks take their own task inside folio:");
    ok = false;
  }
  return ok ? { kind: 'expect', task, counters, folio, fields, at } : null;
}

/* ------------------------------------------------------------------ top level */

export function parseScenario(source: string, file = '<scenario>'): Scenario {
  const lc = new LineCounter();
  const c = new Ctx(file, lc);
  const doc = parseDocument(source, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  for (const e of doc.errors) {
    const { line, col } = lc.linePos(e.pos[0]);
    c.err({ line, col, path: '' }, `YAML: ${e.message.split('\n')[0]}`);
  }
  /* anchors and aliases would let a few lines expand into huge scenarios: refuse them */
  visit(doc, {
    Alias(_, node) {
      c.err(c.at(node as unknown as Node, ''), `YAML aliases (*${(node as { source: string }).source}) are not supported in scenarios: write the value out`);
    },
  });
  if (c.errors.length) throw new ScenarioErrors(c.errors);
  const root = doc.contents as Node | null;
  const rootAt: At = { line: 1, col: 1, path: '' };
  if (!root || !isMap(root)) {
    c.err(rootAt, `a scenario is a mapping with at least name: and steps:, got ${describe(scalarValue(root))}`);
    throw new ScenarioErrors(c.errors);
  }
  const get = (k: string) => (root as YAMLMap).items.find((p) => scalarValue(p.key as Node) === k);
  const keyAt = (k: string): At => {
    const p = get(k);
    return p ? c.at(p.key as Node, k, rootAt) : { ...rootAt, path: k };
  };
  /* top-level keys: unknown ones, and the scalar ones */
  const top = parseMap(c, root, rootAt, TOP_SCHEMA, 'the scenario');

  const kernel: Tunables = { ...DEFAULT_TUNABLES, mthp: [...DEFAULT_TUNABLES.mthp] };
  const kernelGiven: Scenario['kernelGiven'] = {};
  const kp = get('kernel');
  if (kp) {
    const r = parseMap(c, kp.value as Node, keyAt('kernel'), KERNEL_SCHEMA, 'kernel tunables');
    for (const [k, v] of Object.entries(r.v)) {
      (kernel as unknown as Record<string, unknown>)[k] = v;
      kernelGiven[k as keyof Tunables] = r.keys[k];
    }
  }
  const machine: Machine = { ...DEFAULT_MACHINE };
  const mp = get('machine');
  if (mp) Object.assign(machine, parseMap(c, mp.value as Node, keyAt('machine'), MACHINE_SCHEMA, 'machine').v);

  const files: FileDef[] = [];
  const fp = get('files');
  if (fp) {
    const fat = keyAt('files');
    if (!fp.value || !isMap(fp.value)) c.err(fat, `expected a mapping of file names to { size, cached }, got ${describe(scalarValue(fp.value as Node))}`);
    else
      for (const pair of (fp.value as YAMLMap).items) {
        const name = scalarValue(pair.key as Node);
        const nat = c.at(pair.key as Node, `files.${String(name)}`, fat);
        if (parseName(c, pair.key as Node, nat) === MISSING) continue;
        const r = parseMap(c, pair.value as Node, nat, FILE_SCHEMA, `file ${String(name)}`);
        if (r.ok && (r.v.size as number) > 2 ** 40) {
          c.err(r.keys.size, `files larger than 1 TiB are not modelled, got ${formatSize(r.v.size as number)}`);
          continue;
        }
        if (r.ok) files.push({
          name: name as string, size: r.v.size as number, cached: r.v.cached === 'all',
          fs: (r.v.fs as FileSystem | undefined) ?? 'disk', at: nat, cachedAt: r.keys.cached ?? nat,
        });
      }
  }
  const processes: ProcDef[] = [];
  const pp = get('processes');
  if (pp) {
    const pat = keyAt('processes');
    if (!pp.value || !isMap(pp.value)) c.err(pat, `expected a mapping of process names to { threads }, got ${describe(scalarValue(pp.value as Node))}`);
    else
      for (const pair of (pp.value as YAMLMap).items) {
        const name = scalarValue(pair.key as Node);
        const nat = c.at(pair.key as Node, `processes.${String(name)}`, pat);
        if (parseName(c, pair.key as Node, nat) === MISSING) continue;
        const val = pair.value as Node | null;
        const empty = !val || (isScalar(val) && val.value === null);
        const r = empty ? { v: {}, ok: true } : parseMap(c, val, nat, PROC_SCHEMA, `process ${String(name)}`);
        if (r.ok) processes.push({ name: name as string, threads: ((r.v as { threads?: number }).threads) ?? 1, at: nat });
      }
  }
  const sp = get('steps');
  const steps = sp ? parseSteps(c, sp.value as Node, keyAt('steps')) : [];
  if (c.errors.length) throw new ScenarioErrors(c.errors);
  const scenario: Scenario = {
    file, source, name: top.v.name as string, about: (top.v.about as string) ?? '',
    seed: (top.v.seed as number) ?? 1, kernel, kernelGiven, machine, files, processes, steps, at: rootAt,
  };
  checkSemantics(c, scenario);
  if (c.errors.length) throw new ScenarioErrors(c.errors);
  return scenario;
}

/* ------------------------------------------------------------------ semantics */

interface ProcState { name: string; threads: number; alive: boolean; maps: Map<string, { len: number; at: At }>; bornAt?: At; diedAt?: At }

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

  const cachedBytes = s.files.filter((f) => f.cached).reduce((a, f) => a + Math.ceil(f.size / PAGE) * PAGE, 0);
  if (cachedBytes > s.machine.memory - 2 ** 20) {
    const f = s.files.filter((x) => x.cached).sort((a, b) => b.size - a.size)[0];
    c.err(f.cachedAt, `cached: all needs ${formatSize(cachedBytes)} of page cache for the cached files, more than machine.memory (${formatSize(s.machine.memory)}) can hold next to page tables; raise machine.memory or use cached: none`);
  }

  const proc = (t: TaskRef, allowAll: boolean): ProcState | null => {
    const p = procs.get(t.proc);
    if (!p) {
      c.err(t.at, `no process '${t.proc}'${suggest(t.proc, [...procs.keys()])}; processes: ${[...procs.keys()].join(', ') || '(none: add a processes: section)'}`);
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
      c.err(t.at, `process '${t.proc}' has ${p.threads} thread${p.threads > 1 ? 's' : ''} (0 .. ${p.threads - 1}), so '${t.text}' does not exist`);
      return null;
    }
    return p;
  };
  const mapOf = (p: ProcState, name: string, at: At): { len: number } | null => {
    const m = p.maps.get(name);
    if (m) return m;
    const elsewhere = allMaps.get(name);
    c.err(at, elsewhere
      ? `process '${p.name}' has no mapping '${name}' at this point (an mmap at line ${elsewhere.line} creates it in another process)`
      : `no mmap step before this one creates a map named '${name}'${suggest(name, [...p.maps.keys()])}`);
    return null;
  };
  const range = (m: { len: number }, offset: number, length: number | undefined, at: At, stepAt: At) => {
    if (offset > m.len) c.err(at, `offset ${formatSize(offset)} is beyond the end of the mapping (${formatSize(m.len)})`);
    else if (length !== undefined && offset + length > m.len)
      c.err(stepAt, `offset + length (${formatSize(offset + length)}) runs past the end of the mapping (${formatSize(m.len)})`);
  };
  const fileOf = (name: string, at: At): FileDef | null => {
    const f = files.get(name);
    if (!f) c.err(at, `no file '${name}'${suggest(name, [...files.keys()])}; files: ${[...files.keys()].join(', ') || '(none: add a files: section)'}`);
    return f ?? null;
  };
  const fieldAt = (st: Step, key: string): At => ({ ...st.at, path: `${st.at.path}.${key}` });

  const unmappedAt = new Map<string, At>();
  const walk = (steps: Step[], times: number) => {
    for (const st of steps) {
      switch (st.kind) {
        case 'mmap': {
          const p = proc(st.task, false);
          let len = st.length;
          if (st.file !== undefined) {
            const f = fileOf(st.file, fieldAt(st, 'file'));
            if (f && len === undefined) {
              if (st.offset >= f.size) { c.err(fieldAt(st, 'offset'), `offset ${formatSize(st.offset)} is at or beyond the end of file '${f.name}' (${formatSize(f.size)})`); break; }
              len = Math.ceil((f.size - st.offset) / PAGE) * PAGE;
            }
          }
          if (st.addr !== undefined && len !== undefined && st.addr + len > MAX_ADDR)
            c.err(fieldAt(st, 'addr'), 'the mapping would run past the end of user space');
          if (!p || len === undefined) break;
          if (p.maps.has(st.name)) {
            c.err(fieldAt(st, 'name'), `process '${p.name}' already has a mapping named '${st.name}' (line ${p.maps.get(st.name)!.at.line}); unmap it first or choose another name`);
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
            c.err(fieldAt(st, 'map'), `one map per thread: process '${p.name}' has ${p.threads} threads, the list has ${st.map.length}`);
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
        case 'read': case 'write': case 'fadvise': case 'fsync':
          proc(st.task, false);
          fileOf(st.file, fieldAt(st, 'file'));
          break;
        case 'fork': {
          const p = proc(st.task, false);
          if (procs.has(st.child)) {
            c.err(fieldAt(st, 'child'), `a process named '${st.child}' already exists (line ${procs.get(st.child)!.bornAt?.line ?? procs.get(st.child)!.name})`);
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
          const before = new Map([...procs.values()].map((p) => [p.name, new Set(p.maps.keys())]));
          walk(st.steps, times * Math.max(st.times, 1));
          if (st.times < 2) break;
          for (const p of procs.values()) {
            const had = before.get(p.name);
            if (!had || !p.alive) continue;
            for (const [name, m] of p.maps)
              if (!had.has(name))
                c.err(m.at, `this mmap is inside a repeat of ${st.times} and stays mapped: the second iteration would map '${name}' again; unmap it inside the repeat`);
            for (const name of had)
              if (!p.maps.has(name))
                c.err(unmappedAt.get(`${p.name}/${name}`) ?? st.at, `this munmap is inside a repeat of ${st.times}: the second iteration would unmap '${name}' again; map it again inside the repeat`);
          }
          break;
        }
        case 'expect': {
          if (st.task) proc(st.task, false);
          if (st.folio) {
            const p = proc(st.folio.task, false);
            const m = p && mapOf(p, st.folio.map, st.folio.at);
            if (m && st.folio.offset >= m.len) c.err(st.folio.at, `offset ${formatSize(st.folio.offset)} is beyond the mapping (${formatSize(m.len)})`);
          }
          break;
        }
        case 'say':
          break;
      }
    }
  };
  walk(s.steps, 1);
}

/* ------------------------------------------------------------------ overrides */

/**
 * Apply `--set key=value` overrides (CLI) or UI controls: any kernel tunable,
 * plus seed, machine.memory and machine.io_latency. Values are YAML scalars.
 */
export function applyOverrides(s: Scenario, sets: Record<string, string>): Scenario {
  const c = new Ctx('--set', new LineCounter());
  const out: Scenario = { ...s, kernel: { ...s.kernel }, machine: { ...s.machine } };
  for (const [key, raw] of Object.entries(sets)) {
    const doc = parseDocument(raw);
    const node = doc.contents as Node | null;
    const at: At = { line: 0, col: 0, path: key };
    if (key === 'seed') {
      const v = parseInt_(c, node, at, 0, Number.MAX_SAFE_INTEGER);
      if (v !== MISSING) out.seed = v;
    } else if (key.startsWith('machine.') && key.slice(8) in MACHINE_SCHEMA) {
      const v = parseField(c, MACHINE_SCHEMA[key.slice(8)].type, node, at);
      if (v !== MISSING) (out.machine as unknown as Record<string, unknown>)[key.slice(8)] = v;
    } else if (key in KERNEL_SCHEMA) {
      const v = parseField(c, KERNEL_SCHEMA[key].type, node, at);
      if (v !== MISSING) (out.kernel as unknown as Record<string, unknown>)[key] = v;
    } else {
      c.err(at, `unknown tunable '${key}'${suggest(key, SETTABLE_KEYS)}; tunables: ${SETTABLE_KEYS.join(', ')}`);
    }
  }
  if (c.errors.length)
    throw new ScenarioErrors(c.errors.map((e) => new ScenarioError('--set', 0, 0, e.path, e.detail)));
  return out;
}
