/**
 * A tour: a talk's path through one or more scenarios, as beats a clicker
 * walks (scenarios/<group>/<name>.tour.yaml, opened by ?tour=<group>/<name>).
 * Each beat names its scenario (or keeps the previous beat's), the runs it
 * shows (A's settings and run B's), the moment (a cursor given as a query:
 * the Nth event a jump key stops after, the start or end of a step, the
 * start or end of the run), the views, what to highlight, a caption for the
 * audience and notes for the speaker (markdown, shown as text, never HTML).
 *
 * Checked here as a scenario is: YAML with positions, a JSON Schema
 * (tourJsonSchema, which the editor completes from), then what a schema
 * cannot say, each error with the file, line and key. The names a tour
 * refers to in the playground (scenarios, jump keys, views) are checked by
 * the playground against what it has, at the beat's line (web/src/tours.ts).
 */
import { COUNTERS } from '../abi.js';
import type { At } from '../errors.js';
import { checkShape, checkSource, DEFAULT_LIMITS } from '../limits.js';
import type { SettingValue } from '../scenario.js';
import type { SchemaObject } from 'ajv';
import { checkDocument, loadYaml, ScenarioErrors, validator } from '../schema/check.js';
import { tunableInfo } from '../tunables.js';
import { Ctx, settingValue, withoutValue, type Obj } from './build.js';
import { TUNABLE_SCHEMAS, WITHOUT } from './schema.js';

/** the moment of a beat: where the cursor goes once the beat's runs are recorded */
export type Moment =
  | { kind: 'start' }
  | { kind: 'end' }
  /** just after the nth (1-based) event a jump key stops after: fault, fault-end, major, vc-miss, ... */
  | { kind: 'jump'; jump: string; nth: number }
  /** the start of step n (1-based, as the step list numbers them), or its end (the start of what follows) */
  | { kind: 'step'; step: number; end: boolean }
  /** just after the nth caption (say) */
  | { kind: 'say'; nth: number };

export type Highlight =
  | { kind: 'figure'; counter: string }
  | { kind: 'view'; view: string }
  /** pages [from, to] of the mapping at the cursor's fault (the address space brackets them) */
  | { kind: 'pages'; from: number; to: number };

export interface Beat {
  /** group/name of the scenario; the previous beat's when not given */
  scenario: string;
  /** A's settings, on top of the scenario's own (as `set=` in a link) */
  set: Record<string, SettingValue>;
  /** run B's settings on top of A's, or null: no comparison */
  compare: Record<string, SettingValue> | null;
  /** runs C and D's settings on top of A's, in order (only beside a run B) */
  more: Record<string, SettingValue>[];
  at: Moment;
  views: string[] | null;
  highlight: Highlight | null;
  /** a drawer to open: the letter beside the model, or the scenario's story */
  drawer: 'letter' | 'about' | null;
  caption: string;
  notes: string;
  /** where each part is written, for the playground's checks of names */
  where: { beat: At; scenario: At | null; at: At | null; views: At | null; highlight: At | null };
}

export interface Tour {
  file: string;
  title: string;
  about: string;
  beats: Beat[];
}

const TEXT: SchemaObject = { type: 'string', 'x-expected': 'expected text, got {got}' };
const doc = (s: SchemaObject, description: string): SchemaObject => ({ ...s, description });
const SETTINGS: SchemaObject = {
  type: 'object',
  'x-what': 'settings',
  properties: { ...Object.fromEntries(TUNABLE_SCHEMAS), without: WITHOUT },
  additionalProperties: false,
  'x-unknown':
    "unknown key '{key}'{suggest}; a run's settings take a kernel tunable, a machine.* key or without: {keys}",
};
const POSITIVE = { type: 'integer', minimum: 1, maximum: 1e9 } as SchemaObject;

const MOMENT: SchemaObject = {
  'x-expected':
    'expected a moment: start, end, { jump: fault, nth: 3 }, { step: 4 }, { step: 4, end: true } or { say: 2 }, got {got}',
  description: 'where the cursor goes: start, end, the nth stop of a jump key, a step, a caption',
  if: { type: 'string' },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else
  then: { enum: ['start', 'end'] },
  else: {
    type: 'object',
    'x-what': 'moment',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      jump: doc(TEXT, "a jump key's id (fault, fault-end, major, skip, and each mechanism's own)"),
      nth: doc(POSITIVE, 'which of them, from 1 (default 1)'),
      step: doc(POSITIVE, 'a step, numbered from 1 as the step list shows them'),
      end: doc({ type: 'boolean' }, 'the end of the step (the start of what follows) instead of its start'),
      say: doc(POSITIVE, 'just after the nth caption'),
    },
  },
};

const HIGHLIGHT: SchemaObject = {
  type: 'object',
  'x-what': 'highlight',
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  'x-expected':
    'expected one thing to highlight: { figure: pgfault }, { view: address } or { pages: [16, 31] }, got {got}',
  properties: {
    figure: doc({ enum: [...COUNTERS] }, 'a key figure, by its counter'),
    view: doc(TEXT, 'a view, by its id'),
    pages: {
      type: 'array',
      items: { type: 'integer', minimum: 0, maximum: 2 ** 36 },
      minItems: 2,
      maxItems: 2,
      description: 'pages [from, to] of the mapping the address space shows',
    },
  },
};

const BEAT: SchemaObject = {
  type: 'object',
  'x-what': 'beat',
  additionalProperties: false,
  required: ['caption'],
  properties: {
    scenario: doc(TEXT, "the scenario, as group/name (the previous beat's when not given)"),
    set: doc(
      SETTINGS,
      "A's settings on top of the scenario's own (the previous beat's when the scenario stays; set: {} for none)",
    ),
    compare: doc(SETTINGS, "run B: A with these settings too (the previous beat's comparison ends)"),
    c: doc(SETTINGS, 'run C beside B: A with these settings too (a four-way comparison: c and d)'),
    d: doc(SETTINGS, 'run D beside B and C: A with these settings too'),
    at: MOMENT,
    views: {
      type: 'array',
      items: TEXT,
      minItems: 1,
      maxItems: 4,
      description:
        'the views on screen, by id (address, walk, log, counters, steps, and the mechanisms\u2019); the previous beat\u2019s when the scenario stays',
    },
    highlight: HIGHLIGHT,
    drawer: doc({ enum: ['letter', 'about'] }, 'a drawer to open: the letter beside the model, or the story'),
    caption: doc(
      TEXT,
      "what the audience reads (shown as text); {pgfault} is A's counter at the moment, {b.pgfault} B's, {x / y} a ratio, {x / y %} a percentage",
    ),
    notes: doc(TEXT, "the speaker's notes (markdown), in the notes window only"),
  },
};

const TOUR_SCHEMA: SchemaObject = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'mmplay tour',
  type: 'object',
  'x-what': 'the tour',
  'x-expected': 'a tour is a mapping with title: and beats:, got {got}',
  required: ['title', 'beats'],
  additionalProperties: false,
  properties: {
    title: doc(TEXT, "the tour's title"),
    about: doc(TEXT, 'what the tour tells, for the speaker (markdown)'),
    beats: { type: 'array', items: BEAT, minItems: 1, maxItems: 60, description: 'the beats, in order' },
  },
};

/** The tour format as JSON Schema (the editor completes from it); do not modify */
export function tourJsonSchema(): SchemaObject {
  return TOUR_SCHEMA;
}

function settings(v: Obj | undefined): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const [k, x] of Object.entries(v ?? {}))
    out[k] = k === 'without' ? withoutValue(x) : settingValue(tunableInfo(k)!, x);
  return out;
}

function moment(v: unknown): Moment {
  if (v === undefined || v === 'start') return { kind: 'start' };
  if (v === 'end') return { kind: 'end' };
  const o = v as Obj;
  if (o.jump !== undefined) return { kind: 'jump', jump: o.jump as string, nth: (o.nth as number | undefined) ?? 1 };
  if (o.step !== undefined) return { kind: 'step', step: o.step as number, end: o.end === true };
  return { kind: 'say', nth: o.say as number };
}

/**
 * A caption's figures, so that a number the audience reads is the model's,
 * never typed in: {pgfault} is run A's counter at the beat's moment,
 * {b.pgfault} run B's (c. and d. for C's and D's), {x / y} a ratio (16, 1.5) and {x / y %} a percentage
 * (7.42%), where x and y are such counters.
 */
export type CaptionPart = string | { x: Figure; y: Figure | null; percent: boolean };
export interface Figure {
  run: 'a' | 'b' | 'c' | 'd';
  counter: string;
}

const FIGURE_RE = /\{\s*([bcd]\.)?([a-z_0-9]+)\s*(?:\/\s*([bcd]\.)?([a-z_0-9]+)\s*(%)?\s*)?\}/g;
const runOf = (prefix: string | undefined): Figure['run'] => (prefix ? (prefix[0] as Figure['run']) : 'a');

export function captionParts(text: string): CaptionPart[] {
  const out: CaptionPart[] = [];
  let last = 0;
  for (const m of text.matchAll(FIGURE_RE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push({
      x: { run: runOf(m[1]), counter: m[2] },
      y: m[4] ? { run: runOf(m[3]), counter: m[4] } : null,
      percent: m[5] === '%',
    });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** a caption with its figures filled in from A's and B's counters (and C's and D's), in COUNTERS order */
export function captionText(
  parts: CaptionPart[],
  a: ArrayLike<number> | null,
  b: ArrayLike<number> | null,
  more: (ArrayLike<number> | null)[] = [],
): string {
  const runs = { a, b, c: more[0] ?? null, d: more[1] ?? null };
  const value = (f: Figure) => {
    const c = runs[f.run];
    return c ? c[COUNTERS.indexOf(f.counter as never)] : undefined;
  };
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      const x = value(p.x);
      if (x === undefined) return '\u2013';
      if (!p.y) return x.toLocaleString('en-US');
      const y = value(p.y);
      if (y === undefined || y === 0) return '\u2013';
      const r = p.percent ? (100 * x) / y : x / y;
      const s = r >= 100 || Number.isInteger(r) ? r.toFixed(0) : r.toFixed(2).replace(/\.?0+$/, '');
      return p.percent ? `${s}%` : s;
    })
    .join('');
}

export function parseTour(source: string, file = '<tour>'): Tour {
  checkSource(source, file, DEFAULT_LIMITS);
  const src = loadYaml(source, file);
  checkShape(src.data, file, (segs) => src.at(segs), DEFAULT_LIMITS);
  const { errors, bad } = checkDocument(src, validator(tourJsonSchema()));
  const c = new Ctx(file);
  c.errors.push(...errors);
  const root = src.data as Obj;
  if (!root || typeof root !== 'object' || Array.isArray(root)) throw new ScenarioErrors(c.errors);
  const at = (segs: (string | number)[]): At => src.at(segs, 'key');
  const beats: Beat[] = [];
  let scenario: string | null = null;
  let prev: Beat | null = null;
  (Array.isArray(root.beats) ? (root.beats as Obj[]) : []).forEach((b, i) => {
    if (bad(['beats', i]) || !b || typeof b !== 'object') return;
    const o = b as Obj;
    /* a moment object names one kind */
    if (o.at && typeof o.at === 'object') {
      const kinds = ['jump', 'step', 'say'].filter((k) => (o.at as Obj)[k] !== undefined);
      if (kinds.length !== 1) {
        c.err(
          at(['beats', i, 'at']),
          `a moment is one of jump:, step: or say:, got ${kinds.length ? kinds.join(' and ') : 'none'}`,
        );
        return;
      }
      if ((o.at as Obj).nth !== undefined && kinds[0] !== 'jump') {
        c.err(at(['beats', i, 'at', 'nth']), 'nth: goes with jump: ({ jump: fault, nth: 3 })');
        return;
      }
      if ((o.at as Obj).end !== undefined && kinds[0] !== 'step') {
        c.err(at(['beats', i, 'at', 'end']), 'end: goes with step: ({ step: 4, end: true })');
        return;
      }
    }
    if (typeof o.scenario === 'string') scenario = o.scenario;
    /* within one scenario, A's settings and the views carry on from beat to beat */
    const stays = prev !== null && prev.scenario === scenario;
    if (scenario === null) {
      c.err(at(['beats', i]), 'the first beat names its scenario (scenario: group/name)');
      return;
    }
    /* the caption's figures name counters, and B's only where there is a run B */
    if (typeof o.caption === 'string')
      for (const p of captionParts(o.caption)) {
        if (typeof p === 'string') continue;
        for (const f of p.y ? [p.x, p.y] : [p.x]) {
          if (!COUNTERS.includes(f.counter as never)) {
            c.err(
              at(['beats', i, 'caption']),
              `no counter '${f.counter}' for {${f.counter}}: the counters are vmstat's and the model's (see docs/reference.md)`,
            );
            return;
          }
          const runKey = f.run === 'b' ? 'compare' : f.run;
          if (f.run !== 'a' && !o[runKey]) {
            c.err(
              at(['beats', i, 'caption']),
              `{${f.run}.${f.counter}} is run ${f.run.toUpperCase()}'s, and this beat has no ${runKey}:`,
            );
            return;
          }
        }
      }
    /* C stands beside B, and D beside C */
    for (const [k, needs] of [
      ['c', 'compare'],
      ['d', 'c'],
    ] as const)
      if (o[k] !== undefined && o[needs] === undefined) {
        c.err(
          at(['beats', i, k]),
          `run ${k.toUpperCase()} stands beside run ${needs === 'c' ? 'C' : 'B'}: give ${needs}: too`,
        );
        return;
      }
    const h = o.highlight as Obj | undefined;
    if (h?.pages && (h.pages as number[])[0] > (h.pages as number[])[1]) {
      c.err(
        at(['beats', i, 'highlight', 'pages']),
        `pages [from, to] with from ≤ to, got [${(h.pages as number[]).join(', ')}]`,
      );
      return;
    }
    prev = {
      scenario,
      set: o.set === undefined && stays ? prev!.set : settings(o.set as Obj | undefined),
      compare: o.compare ? settings(o.compare as Obj) : null,
      more: (['c', 'd'] as const).filter((k) => o[k]).map((k) => settings(o[k] as Obj)),
      at: moment(o.at),
      views: (o.views as string[] | undefined) ?? (stays ? prev!.views : null),
      highlight: h
        ? h.figure !== undefined
          ? { kind: 'figure', counter: h.figure as string }
          : h.view !== undefined
            ? { kind: 'view', view: h.view as string }
            : { kind: 'pages', from: (h.pages as number[])[0], to: (h.pages as number[])[1] }
        : null,
      drawer: (o.drawer as Beat['drawer'] | undefined) ?? null,
      caption: o.caption as string,
      notes: (o.notes as string | undefined) ?? '',
      where: {
        beat: at(['beats', i]),
        scenario: o.scenario !== undefined ? at(['beats', i, 'scenario']) : null,
        at: o.at !== undefined ? at(['beats', i, 'at']) : null,
        views: o.views !== undefined ? at(['beats', i, 'views']) : null,
        highlight: o.highlight !== undefined ? at(['beats', i, 'highlight']) : null,
      },
    };
    beats.push(prev);
  });
  if (c.errors.length) {
    c.errors.sort((x, y) => x.line - y.line || x.col - y.col);
    throw new ScenarioErrors(c.errors);
  }
  return { file, title: root.title as string, about: (root.about as string | undefined) ?? '', beats };
}
