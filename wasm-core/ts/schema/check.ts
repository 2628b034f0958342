/**
 * The generic half of the scenario loader: YAML text -> plain JS checked
 * against a JSON Schema by ajv, every error mapped back to file:line:col and
 * a key path (`steps[3].access.stride`) with a message that says what was
 * expected. Nothing here knows what a scenario is; ../scenario.ts holds the
 * scenario's schema, the typed result and the semantic checks.
 *
 * Schemas are ordinary JSON Schema (draft-07, as ajv's default) plus a few
 * keywords of our own, all prefixed `x-` (compiled ahead of time by
 * ./standalone.ts):
 *
 * | keyword | validates | value |
 * |---|---|---|
 * | `x-size` | a size: a whole number of bytes or `4KiB`, `2MiB`, `16GiB` (units B, K/KiB, M/MiB, G/GiB, T/TiB) | `{ page?, min?, max?, pow2?, inList? }` |
 * | `x-address` | an address: a number or a hex string `"0x7f0000000000"`, page aligned, in user space | `true` |
 * | `x-task` | a task: `app`, `app.2`, and with `all` also `app.*` | `{ all: boolean }` |
 * | `x-expected` | (annotation) the message for a value of the wrong type or shape; `{got}` is the value (in `propertyNames`: also `{key}`, `{suggest}` from its `enum`) | text |
 * | `x-what` | (annotation) what a mapping holds, for "expected a mapping of ..." and "... takes:"; `{name}` is the key it sits under | text |
 * | `x-unknown` | (annotation) the message for an unknown key: `{key}`, `{suggest}`, `{keys}`, `{what}` | text |
 * | `x-too-many` | (annotation) the message when maxProperties is exceeded: `{found}` lists the keys | text |
 * | `x-tunable` | (annotation) the tunable this value sets (for the editor's documentation) | key |
 *
 * One problem gives one error: errors are deduplicated by key path, `if`
 * and `propertyNames` summaries are dropped, and a mapping with too many
 * keys (a step with two kinds) hides the errors inside it.
 */
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Node, type Pair } from 'yaml';
import { ScenarioError, ScenarioErrors, suggest, type At } from '../errors.js';
import { formatSize, PAGE } from '../units.js';

export { PAGE, ScenarioError, ScenarioErrors, suggest, type At };
export const MAX_ADDR = 0x7ffffffff000;

/* ------------------------------------------------------------------ words */

export { formatSize };

/** a value as an error message shows it */
export function describe(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (typeof v === 'string') return `'${v}'`;
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return Object.keys(v).length ? 'a mapping' : 'an empty mapping ({})';
  return String(v);
}

/* ------------------------------------------------------------ value domains */

export const NAME_PATTERN = '^[a-z][a-z0-9_-]*$';
const UNITS: Record<string, number> = {
  '': 1,
  B: 1,
  K: 2 ** 10,
  KiB: 2 ** 10,
  M: 2 ** 20,
  MiB: 2 ** 20,
  G: 2 ** 30,
  GiB: 2 ** 30,
  T: 2 ** 40,
  TiB: 2 ** 40,
};

export interface SizeOpts {
  page?: boolean;
  min?: number;
  max?: number;
  pow2?: boolean /** an item of a list of sizes */;
  inList?: boolean;
}

/** a size's value in bytes, or the message saying why it is not one */
export function checkSize(v: unknown, opts: SizeOpts = {}): number | { error: string } {
  let n: number;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0)
      return {
        error: `expected a size in bytes (a whole number, or a string like '4KiB', '2MiB', '16GiB'), got ${describe(v)}`,
      };
    n = v;
  } else if (typeof v === 'string') {
    const m = /^\s*(\d+)\s*(B|K|KiB|M|MiB|G|GiB|T|TiB)?\s*$/.exec(v);
    if (!m)
      return {
        error: `expected a size such as 4096, '4KiB', '2MiB' or '16GiB' (binary units K/KiB, M/MiB, G/GiB, T/TiB), got ${describe(v)}`,
      };
    n = Number(m[1]) * UNITS[m[2] ?? ''];
    if (!Number.isSafeInteger(n)) return { error: `size ${describe(v)} is too large` };
  } else {
    return { error: `expected a size such as 4096, '4KiB', '2MiB' or '16GiB', got ${describe(v)}` };
  }
  if (opts.page && n % PAGE) return { error: `must be a multiple of 4 KiB (4096 bytes), got ${n}` };
  if (opts.min !== undefined && n < opts.min)
    return { error: `must be at least ${formatSize(opts.min)}, got ${formatSize(n)}` };
  if (opts.max !== undefined && n > opts.max)
    return { error: `must be at most ${formatSize(opts.max)}, got ${formatSize(n)}` };
  if (opts.pow2 && n & (n - 1))
    return {
      error: opts.inList
        ? `must be a power of two, got ${formatSize(n)}`
        : `must be a power of two from ${opts.min} to ${opts.max}, got ${n}`,
    };
  return n;
}

/** the bytes of a size that passed x-size */
export function toSize(v: unknown): number {
  const n = checkSize(v);
  if (typeof n !== 'number') throw new Error(n.error);
  return n;
}

export function checkAddress(v: unknown): number | { error: string } {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*(0x[0-9a-fA-F]+|\d+)\s*$/.test(v)) n = Number(v.trim());
  else return { error: `expected an address: a number or a hex string like "0x7f0000000000", got ${describe(v)}` };
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_ADDR)
    return { error: `address ${describe(v)} is outside user space (0 .. 0x${MAX_ADDR.toString(16)})` };
  if (n % PAGE) return { error: `address 0x${n.toString(16)} is not page aligned (a multiple of 0x1000)` };
  return n;
}

export function toAddress(v: unknown): number {
  const n = checkAddress(v);
  if (typeof n !== 'number') throw new Error(n.error);
  return n;
}

/** a task reference: `app` (thread 0), `app.2`, `app.*` */
export function checkTask(v: unknown, all: boolean): { proc: string; thread: number | '*' } | { error: string } {
  const m = typeof v === 'string' ? /^([a-z][a-z0-9_-]*)(?:\.(\d+|\*))?$/.exec(v) : null;
  if (!m)
    return {
      error: `expected a task: 'app' (thread 0 of process app), 'app.2' (thread 2)${all ? " or 'app.*' (every thread)" : ''}; got ${describe(v)}`,
    };
  if (m[2] === '*' && !all)
    return {
      error: `'${v as string}' names every thread; this step is done by one task (use '${m[1]}' or '${m[1]}.N')`,
    };
  return { proc: m[1], thread: m[2] === undefined ? 0 : m[2] === '*' ? '*' : Number(m[2]) };
}

/* ------------------------------------------------------------------ ajv */

/*
 * The validators themselves are compiled ahead of time (./standalone.ts,
 * written to ../gen/validate-*.ts by scripts/gen-interface.mjs): the x-
 * value keywords call these with the value and the keyword's schema value,
 * and a failed one's message is the error's params.error.
 */
export const xSize = (v: unknown, s: SizeOpts) => checkSize(v, s);
export const xAddress = (v: unknown) => checkAddress(v);
export const xTask = (v: unknown, s: { all: boolean }) => checkTask(v, s.all);

/* ------------------------------------------------------------ the YAML side */

export type Seg = string | number;

/** `steps[3].access.stride` */
export function keyPath(segs: readonly Seg[]): string {
  let s = '';
  for (const g of segs) s += typeof g === 'number' ? `[${g}]` : s ? `.${g}` : g;
  return s;
}

function pointerSegs(pointer: string): Seg[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * A parsed YAML document: its plain-JS value, and where each key and value
 * came from. YAML syntax errors and aliases throw ScenarioErrors.
 */
/** a node's YAML tag as written (!!binary, !custom), or null: a scenario and --set refuse them alike */
export function yamlTag(node: unknown): string | null {
  const tag = node && (isScalar(node) || isMap(node) || isSeq(node)) ? node.tag : undefined;
  return tag ? tag.replace(/^tag:yaml\.org,2002:/, '!!') : null;
}

export class YamlSource {
  readonly data: unknown;
  private readonly lc = new LineCounter();
  private readonly root: Node | null;

  constructor(
    readonly source: string,
    readonly file: string,
  ) {
    const doc = parseDocument(source, { lineCounter: this.lc, prettyErrors: false, uniqueKeys: true });
    const errors: ScenarioError[] = [];
    for (const e of doc.errors) {
      const { line, col } = this.lc.linePos(e.pos[0]);
      const msg =
        e.code === 'MULTIPLE_DOCS'
          ? "a scenario is one YAML document; this '---' starts a second"
          : e.message.split('\n')[0];
      errors.push(new ScenarioError(file, line, col, '', `YAML: ${msg}`));
    }
    /* tags (!!binary, !!js/function, !custom) would change what a value is: refuse them */
    visit(doc, (_, node) => {
      const tag = yamlTag(node);
      if (tag && (node as { range?: [number] }).range) {
        const { line, col } = this.lc.linePos((node as unknown as Node).range![0]);
        errors.push(
          new ScenarioError(
            file,
            line,
            col,
            '',
            `YAML tags (${tag}) are not supported in scenarios: write the plain value`,
          ),
        );
      }
    });
    /* anchors and aliases would let a few lines expand into huge scenarios: refuse them */
    visit(doc, {
      Alias: (_, node) => {
        const r = (node as unknown as Node).range;
        const { line, col } = r ? this.lc.linePos(r[0]) : { line: 1, col: 1 };
        errors.push(
          new ScenarioError(
            file,
            line,
            col,
            '',
            `YAML aliases (*${(node as { source: string }).source}) are not supported in scenarios: write the value out`,
          ),
        );
      },
    });
    if (errors.length) throw new ScenarioErrors(errors.slice(0, 100));
    /* a kernel version is text as written: `version: 6.10` is "6.10", not the number 6.1 */
    visit(doc, {
      Pair: (_, pair) => {
        const v = pair.value;
        if (
          isScalar(pair.key) &&
          pair.key.value === 'version' &&
          isScalar(v) &&
          typeof v.value === 'number' &&
          v.source
        )
          v.value = v.source;
      },
    });
    this.root = doc.contents as Node | null;
    this.data = doc.toJS({ maxAliasCount: 0 });
  }

  /**
   * The pair (when the last segment is a map key) and the value node at a
   * path, and the path with list indexes as numbers (ajv's are strings).
   */
  private find(segs: readonly Seg[]): { pair?: Pair; node: Node | null; norm: Seg[] } {
    let node: Node | null = this.root;
    let pair: Pair | undefined;
    const norm: Seg[] = [];
    for (const g of segs) {
      if (node && isMap(node)) {
        pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(g));
        norm.push(String(g));
        node = (pair?.value as Node | null | undefined) ?? null;
        if (!pair) return { node: null, norm: [...norm, ...segs.slice(norm.length)] };
      } else if (node && isSeq(node)) {
        pair = undefined;
        norm.push(Number(g));
        node = (node.items[Number(g)] as Node | undefined) ?? null;
      } else {
        return { node: null, norm: [...norm, ...segs.slice(norm.length)] };
      }
    }
    return { pair, node, norm };
  }

  private pos(n: Node | null | undefined): { line: number; col: number } | null {
    return n?.range ? this.lc.linePos(n.range[0]) : null;
  }

  /**
   * Where a path is: at its key (`key`: the key of a map entry, or the item
   * of a list) or at its value (`value`: falling back to the key); what is
   * not in the document is where its nearest parent is. The root is 1:1.
   */
  at(segs: readonly Seg[], where: 'key' | 'value' = 'value'): At {
    const f = this.find(segs);
    const path = keyPath(f.norm);
    if (!segs.length) return { line: 1, col: 1, path };
    const key = f.pair ? (f.pair.key as Node | null) : null;
    const p =
      !f.node && !f.pair
        ? null
        : where === 'key'
          ? (this.pos(key) ?? this.pos(f.node))
          : (this.pos(f.node) ?? this.pos(key));
    return p ? { ...p, path } : { ...this.at(segs.slice(0, -1), 'key'), path };
  }
}

/** the YAML text parsed; throws ScenarioErrors on syntax errors and aliases */
export function loadYaml(source: string, file: string): YamlSource {
  return new YamlSource(source, file);
}

/* ------------------------------------------------------------ ajv errors -> ours */

/** one problem: where (segments, at the key or the value) and what */
export interface Problem {
  segs: Seg[];
  where: 'key' | 'value';
  detail: string /** the instance path ajv reported */;
  instance: string;
}

const fill = (tpl: string, vars: Record<string, string>) => tpl.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);

function typeWord(t: string): string {
  switch (t) {
    case 'integer':
      return 'expected a whole number';
    case 'number':
      return 'expected a number';
    case 'boolean':
      return 'expected true or false';
    case 'string':
      return 'expected text';
    case 'array':
      return 'expected a list';
    default:
      return `expected ${t}`;
  }
}

const schemaKeys = (s: AnySchemaObject | undefined): string[] =>
  Object.keys((s?.properties as object | undefined) ?? {});

/** one ajv error as a Problem (null: noise to drop) */
function problemOf(e: ErrorObject): Problem | null {
  const segs = pointerSegs(e.instancePath);
  const ps = e.parentSchema ?? {};
  const got = describe(e.data);
  const what =
    ps['x-what'] !== undefined
      ? fill(ps['x-what'] as string, { name: String(segs[segs.length - 1] ?? '') })
      : 'this mapping';
  const expected = ps['x-expected'] as string | undefined;
  const p = (detail: string, where: 'key' | 'value' = 'value', s = segs): Problem => ({
    segs: s,
    where,
    detail,
    instance: e.instancePath,
  });
  if (e.propertyName !== undefined) {
    const key = e.propertyName;
    const keys = Array.isArray(ps.enum) ? (ps.enum as unknown[]).map(String) : [];
    return p(
      fill(expected ?? "unknown key '{key}'{suggest}", { got: describe(key), key, suggest: suggest(key, keys) }),
      'key',
      [...segs, key],
    );
  }
  switch (e.keyword) {
    case 'if':
    case 'propertyNames':
      return null;
    case 'additionalProperties': {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      const keys = schemaKeys(ps);
      const tpl = (ps['x-unknown'] as string | undefined) ?? "unknown key '{key}'{suggest}; {what} takes: {keys}";
      return p(fill(tpl, { key, suggest: suggest(key, keys), keys: keys.join(', '), what }), 'key', [...segs, key]);
    }
    case 'required':
      return p(`missing required key '${(e.params as { missingProperty: string }).missingProperty}'`, 'key');
    case 'maxProperties': {
      const found = Object.keys(e.data as object)
        .map((k) => `'${k}'`)
        .join(' and ');
      return p(
        fill((ps['x-too-many'] as string | undefined) ?? `expected at most ${ps.maxProperties} keys, found {found}`, {
          found,
        }),
      );
    }
    case 'type': {
      const t = ([] as string[]).concat(ps.type as string | string[]);
      if (expected) return p(fill(expected, { got }), t.includes('object') ? 'key' : 'value');
      if (t.includes('object')) return p(`expected a mapping of ${what} (key: value), got ${got}`, 'key');
      return p(`${typeWord(t[0])}, got ${got}`);
    }
    case 'minProperties':
      return p(fill(expected ?? `expected at least ${ps.minProperties} keys, got {got}`, { got }), 'key');
    case 'minItems':
    case 'maxItems':
    case 'additionalItems':
      return p(fill(expected ?? 'has the wrong number of entries, got {got}', { got }));
    case 'pattern':
      return p(fill(expected ?? `must match ${ps.pattern as string}, got {got}`, { got }));
    case 'minimum':
    case 'maximum': {
      const min = ps.minimum as number | undefined,
        max = ps.maximum as number | undefined;
      const range =
        min !== undefined && max !== undefined
          ? `must be between ${min} and ${max}`
          : min !== undefined
            ? `must be at least ${min}`
            : `must be at most ${max}`;
      return p(`${range}, got ${got}`);
    }
    case 'enum': {
      const values = (ps.enum as unknown[]).map(String);
      return p(
        `must be one of ${values.join(', ')}; got ${got}${typeof e.data === 'string' ? suggest(e.data, values) : ''}`,
      );
    }
    case 'const':
      return p(`must be ${JSON.stringify(ps.const)}, got ${got}`);
    default:
      return p((e.params as { error?: string }).error ?? e.message ?? `is not valid (${e.keyword})`);
  }
}

/** ajv's errors as Problems: noise dropped, one per problem, in the order ajv found them */
export function problems(errors: readonly ErrorObject[]): Problem[] {
  /* a mapping with too many keys (a step with two kinds): only that, nothing inside it */
  const crowded = errors.filter((e) => e.keyword === 'maxProperties').map((e) => e.instancePath);
  const within = (inst: string, top: string) => inst === top || inst.startsWith(`${top}/`);
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const e of errors) {
    if (e.keyword !== 'maxProperties' && crowded.some((c) => within(e.instancePath, c))) continue;
    const pr = problemOf(e);
    if (!pr) continue;
    /* one error per key path (several missing keys of one mapping are several problems) */
    const id = `${keyPath(pr.segs)}\0${e.keyword === 'required' ? pr.detail : ''}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(pr);
  }
  return out;
}

/** validate a document; the errors as ScenarioErrors with positions, sorted by position */
export function checkDocument(
  src: YamlSource,
  validate: ValidateFunction,
): { errors: ScenarioError[]; bad: (segs: readonly Seg[]) => boolean } {
  const ok = validate(src.data);
  const raw = ok ? [] : (validate.errors ?? []);
  const ps = problems(raw);
  const errors = ps.map((p) => {
    const at = src.at(p.segs, p.where);
    return new ScenarioError(src.file, at.line, at.col, at.path, p.detail);
  });
  errors.sort((a, b) => a.line - b.line || a.col - b.col);
  const paths = raw.map((e) => pointerSegs(e.instancePath).map(String));
  /* whether anything at or under this path was reported */
  const bad = (segs: readonly Seg[]) =>
    paths.some((p) => p.length >= segs.length && segs.every((g, i) => p[i] === String(g)));
  return { errors: errors.slice(0, 100), bad };
}

/** validate one value (a `--set` value): its problems, with paths inside the value (list indexes as numbers) */
export function checkValue(v: ValidateFunction, value: unknown): { segs: Seg[]; detail: string }[] {
  if (v(value)) return [];
  return problems(v.errors ?? []).map((p) => {
    let cur: unknown = value;
    const segs = p.segs.map((g) => {
      const isIndex = Array.isArray(cur);
      cur = (cur as Record<string, unknown> | null)?.[g as string];
      return isIndex ? Number(g) : g;
    });
    return { segs, detail: p.detail };
  });
}
