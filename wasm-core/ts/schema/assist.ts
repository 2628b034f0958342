/**
 * Editor assistance from a JSON Schema: which keys and values fit at the
 * cursor (completion) and what a key means (hover documentation). Pure
 * functions of the text and a cursor offset, so that they run (and are
 * tested) without an editor; web/src/components/Editor.tsx wires them into
 * CodeMirror.
 *
 * The key path at the cursor comes from the YAML parser: a marker word is
 * inserted at the cursor and the document parsed; the scalar that holds the
 * marker is a key (of a mapping) or a value (of a key, or an item of a
 * list). The yaml package recovers from half-written documents well enough
 * for this (`kernel:\n  fa|` reads as kernel: 'fa…', a value where a mapping
 * belongs, so the keys of kernel: are offered).
 */
import type { SchemaObject } from 'ajv';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { COUNTER_INFO, MECHANISMS } from '../abi.js';
import { formatBytes, formatTunable, tunableInfo, type TunableInfo } from '../tunables.js';
import type { Seg } from './check.js';

const MARK = 'mmplay9cursor9mark';

/** documentation of a key or value: a title and plain-text lines (never HTML) */
export interface Doc {
  title: string;
  lines: string[];
}
export interface Option {
  label: string;
  kind: 'key' | 'value';
  detail?: string;
  doc?: Doc;
  apply?: string;
}

type S = SchemaObject;

/** follow a local $ref (#/$defs/x) */
function resolve(root: S, s: S | boolean | undefined): S | null {
  if (s === undefined || s === false) return null;
  if (s === true) return {};
  let cur = s;
  for (let i = 0; i < 8 && typeof cur.$ref === 'string'; i++) {
    const parts = (cur.$ref as string).replace(/^#\//, '').split('/');
    let t: unknown = root;
    for (const p of parts) t = (t as Record<string, unknown> | undefined)?.[p];
    if (!t || typeof t !== 'object') return null;
    cur = t as S;
  }
  return cur;
}

/** the schema of the value at a path (null: not described) */
export function schemaAt(root: S, segs: readonly Seg[]): S | null {
  let s: S | null = resolve(root, root);
  for (const g of segs) {
    if (!s) return null;
    if (typeof g === 'number') {
      const items = (s.items ?? (s.then as S | undefined)?.items) as S | S[] | undefined;
      s = resolve(root, Array.isArray(items) ? items[g] : items);
    } else {
      const props = s.properties as Record<string, S> | undefined;
      if (props && g in props) s = resolve(root, props[g]);
      else if (s.additionalProperties && typeof s.additionalProperties === 'object')
        s = resolve(root, s.additionalProperties as S);
      else return null;
    }
  }
  return s;
}

const isObject = (s: S) =>
  s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || (!s.type && !!s.properties);

/**
 * The keys a mapping may have: its properties, and the names its if/then/else
 * branch allows (the branch chosen by the `required` of its `if`: expect's
 * counters depend on whether task: is given).
 */
function keysOf(s: S, present: readonly string[]): string[] {
  const keys = new Set(Object.keys((s.properties as object | undefined) ?? {}));
  const cond = ((s.if as S | undefined)?.required as string[] | undefined) ?? [];
  const branch = (s.if ? (cond.every((k) => present.includes(k)) ? s.then : s.else) : undefined) as S | undefined;
  for (const k of ((branch?.propertyNames as S | undefined)?.enum as string[] | undefined) ?? []) keys.add(k);
  return [...keys];
}

function valuesOf(s: S): string[] {
  if (Array.isArray(s.enum)) return s.enum.map(String);
  if (s.type === 'boolean') return ['true', 'false'];
  return [];
}

/* ------------------------------------------------------------ documentation */

function rangeOf(t: TunableInfo): string | null {
  switch (t.type) {
    case 'size':
      return `${formatBytes(t.min!)} … ${formatBytes(t.max!)}${t.pow2 ? ', a power of two' : ''}${t.page ? ', a multiple of 4 KiB' : ''}`;
    case 'int':
      return `${t.min} … ${t.max}${t.unit ? ` ${t.unit}` : ''}`;
    case 'choice':
      return `one of ${t.choices!.join(', ')}`;
    case 'bool':
      return 'true or false';
    case 'sizes':
      return `a list of sizes ${formatBytes(t.min!)} … ${formatBytes(t.max!)}, each a power of two`;
  }
}

/** a tunable's documentation, from the generated description */
export function tunableDoc(key: string): Doc | null {
  const t = tunableInfo(key);
  if (!t) return null;
  const mech = MECHANISMS.find((m) => m.id === t.mechanism)?.title ?? t.mechanism;
  const lines = [t.desc, `default: ${formatTunable(t, t.default)}`];
  const range = rangeOf(t);
  if (range) lines.push(`values: ${range}`);
  if (t.unit) lines.push(`unit: ${t.unit}`);
  if (t.kernel && t.kernel !== '-') lines.push(`kernel: ${t.kernel}`);
  lines.push(`mechanism: ${mech}`);
  if (t.status === 'later') lines.push('not modelled yet: the value is checked and recorded, the model ignores it');
  return { title: t.key, lines };
}

function valueHint(s: S): string | null {
  if (s['x-size']) {
    const o = s['x-size'] as { page?: boolean; min?: number; max?: number };
    return `a size: bytes, or 4KiB, 2MiB, 16GiB${o.page ? '; a multiple of 4 KiB' : ''}${o.min !== undefined ? `; at least ${formatBytes(o.min)}` : ''}${o.max !== undefined ? `; at most ${formatBytes(o.max)}` : ''}`;
  }
  if (s['x-address']) return 'an address: a number or a hex string like "0x7f0000000000", page aligned';
  if (s['x-task'])
    return `a task: app (thread 0), app.2${(s['x-task'] as { all: boolean }).all ? ', app.* (every thread)' : ''}`;
  if (Array.isArray(s.enum) && s.enum.length <= 12) return `one of ${s.enum.join(', ')}`;
  if (s.type === 'integer')
    return `a whole number${s.minimum === undefined ? '' : s.maximum === Number.MAX_SAFE_INTEGER ? `, at least ${s.minimum}` : `, ${s.minimum} … ${s.maximum as number}`}`;
  if (s.type === 'boolean') return 'true or false';
  if (s.type === 'string' && s.pattern) return 'a name: a lowercase letter, then lowercase letters, digits, _ or -';
  return null;
}

/** documentation of the value at a path whose last key is `name` */
export function docOf(s: S, name: string, required = false): Doc {
  if (typeof s['x-tunable'] === 'string') {
    const d = tunableDoc(s['x-tunable']);
    if (d) return d;
  }
  const lines: string[] = [];
  if (typeof s.description === 'string') lines.push(s.description);
  const hint = valueHint(s);
  if (hint) lines.push(hint);
  if (required) lines.push('required');
  return { title: name, lines };
}

/* ------------------------------------------------------------ the cursor */

interface Found {
  role: 'key' | 'value';
  segs: Seg[];
  siblings: string[];
}

const holds = (n: unknown): boolean => isScalar(n) && typeof n.value === 'string' && n.value.includes(MARK);
const keyText = (n: unknown): string => String(isScalar(n) ? n.value : n);

function find(node: Node | null | undefined, segs: Seg[]): Found | null {
  if (!node) return null;
  if (holds(node)) return { role: 'value', segs, siblings: [] };
  if (isMap(node)) {
    for (const pair of node.items) {
      if (holds(pair.key))
        return { role: 'key', segs, siblings: node.items.filter((p) => p !== pair).map((p) => keyText(p.key)) };
      const r = find(pair.value as Node | null, [...segs, keyText(pair.key)]);
      if (r) return r;
    }
  } else if (isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const r = find(node.items[i] as Node | null, [...segs, i]);
      if (r) return r;
    }
  }
  return null;
}

/** what the cursor at `pos` is typing: a key of the mapping at segs, or the value at segs */
export function cursorContext(text: string, pos: number): Found | null {
  const doc = parseDocument(text.slice(0, pos) + MARK + text.slice(pos));
  return find(doc.contents as Node | null, []);
}

/** the keys or values that fit at the cursor */
export function completionsAt(root: S, text: string, pos: number): Option[] {
  const c = cursorContext(text, pos);
  if (!c) return [];
  const s = schemaAt(root, c.segs);
  if (!s) return [];
  if (c.role === 'key' || isObject(s)) {
    const required = new Set((s.required as string[] | undefined) ?? []);
    const isStep = s.maxProperties === 1;
    return keysOf(s, c.siblings)
      .filter((k) => !c.siblings.includes(k))
      .map((k): Option => {
        const ks = schemaAt(root, [...c.segs, k]) ?? {};
        return {
          label: k,
          kind: 'key',
          apply: `${k}: `,
          detail: isStep
            ? 'step'
            : typeof ks['x-tunable'] === 'string'
              ? 'tunable'
              : required.has(k)
                ? 'required'
                : undefined,
          doc: docOf(ks, k, required.has(k)),
        };
      });
  }
  return valuesOf(s).map((v) => ({ label: v, kind: 'value' }));
}

/* ------------------------------------------------------------ hover */

interface Hit {
  node: Node;
  role: 'key' | 'value';
  segs: Seg[];
  parent: S | null;
}

function hit(root: S, node: Node | null | undefined, segs: Seg[], pos: number): Hit | null {
  if (!node?.range || pos < node.range[0] || pos > node.range[1]) return null;
  if (isMap(node)) {
    for (const pair of node.items) {
      const k = pair.key as Node | null;
      const ks = [...segs, keyText(k)];
      if (k?.range && pos >= k.range[0] && pos <= k.range[1])
        return { node: k, role: 'key', segs: ks, parent: schemaAt(root, segs) };
      const r = hit(root, pair.value as Node | null, ks, pos);
      if (r) return r;
    }
    return null;
  }
  if (isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const r = hit(root, node.items[i] as Node | null, [...segs, i], pos);
      if (r) return r;
    }
    return null;
  }
  return isScalar(node) ? { node, role: 'value', segs, parent: null } : null;
}

/** the documentation of the key (or of the value's key) under the cursor, and the text range it covers */
export function docAt(root: S, text: string, pos: number): { from: number; to: number; doc: Doc } | null {
  const doc = parseDocument(text);
  const h = hit(root, doc.contents as Node | null, [], pos);
  if (!h?.node.range || !h.segs.length) return null;
  const s = schemaAt(root, h.segs);
  if (!s) return null;
  const name = h.segs[h.segs.length - 1];
  if (typeof name === 'number') return null;
  const required = ((h.parent?.required as string[] | undefined) ?? []).includes(name);
  const d = docOf(s, name, required);
  if (h.parent?.maxProperties === 1) d.title = `step: ${name}`;
  const counter =
    h.parent?.additionalProperties && !Object.hasOwn((h.parent.properties as object | undefined) ?? {}, name)
      ? COUNTER_INFO.find((c) => c.name === name)
      : undefined;
  if (counter)
    d.lines.unshift(
      `${counter.doc ? `${counter.doc}: ` : ''}${counter.model ? "the model's own counter" : counter.gauge ? 'a /proc/vmstat gauge' : 'a /proc/vmstat counter'}`,
    );
  /* a tunable named as a value (reference: x:) */
  if (h.role === 'value' && isScalar(h.node) && typeof h.node.value === 'string') {
    const t = tunableDoc(h.node.value);
    if (t && Array.isArray(s.enum)) return { from: h.node.range[0], to: h.node.range[1], doc: t };
  }
  if (!d.lines.length) return null;
  return { from: h.node.range[0], to: h.node.range[1], doc: d };
}
