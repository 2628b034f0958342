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
import { COUNTER_INFO, COUNTERS, LRU_LISTS } from '../abi.js';
import { EVENTS } from '../gen/interface.js';
import type { At } from '../errors.js';
import { checkShape, checkSource, DEFAULT_LIMITS } from '../limits.js';
import type { SettingValue } from '../scenario.js';
import type { SchemaObject } from 'ajv';
import { VALIDATORS } from '../gen/validate-tour.js';
import { checkDocument, loadYaml, ScenarioErrors } from '../schema/check.js';
import { tunableInfo } from '../tunables.js';
import { Ctx, settingValue, withoutValue, type Obj } from './build.js';
import { TUNABLE_SCHEMAS, WITHOUT } from './schema.js';
import {
  drawParams,
  fillParams,
  PARAM_NAME,
  PARAM_REF,
  paramCount,
  type ParamSpec,
  type ParamValue,
} from './params.js';

/* captions, counterKey and FIRSTS_KEPT: ./tour-format.ts, which the page and the recorder read without this parser */
import { captionParts, FIRSTS_KEPT } from './tour-format.js';

/** the moment of a beat: where the cursor goes once the beat's runs are recorded */
export type Moment =
  | { kind: 'start' }
  | { kind: 'end' }
  /** just after the nth (1-based) event a jump key stops after: fault, fault-end, major, vc-miss, ... */
  | { kind: 'jump'; jump: string; nth: number }
  /** the start of step n (1-based, as the step list numbers them), or its end (the start of what follows) */
  | { kind: 'step'; step: number; end: boolean }
  /** just after the nth caption (say) */
  | { kind: 'say'; nth: number }
  /** just after the nth event of this name (a tracepoint: mmsim_fork, mm_filemap_fault, ...), up to the 256th */
  | { kind: 'event'; event: string; nth: number }
  /** just after the event that brings a counter (one that only grows) to `reaches`: "when pgmajfault first changes" */
  | { kind: 'counter'; counter: string; reaches: number };

export type Highlight =
  | { kind: 'figure'; counter: string }
  | { kind: 'view'; view: string }
  /** pages [from, to] of the mapping at the cursor's fault (the address space brackets them) */
  | { kind: 'pages'; from: number; to: number }
  /** a mapping, by its name in the scenario: the address space outlines its VMA */
  | { kind: 'vma'; name: string }
  /** an LRU list: the LRU view outlines its row */
  | { kind: 'list'; list: string }
  /** the folio mapping page `page` of mapping `vma`: the folio view shows it (and the address space brackets its pages) */
  | { kind: 'folio'; vma: string; page: number };

/**
 * A question a beat asks instead of telling (an exercise): its answer is never written here, the model
 * computes it (../quiz.ts) from the counters of the beat's runs between `from` and the beat's moment.
 */
export type Question = {
  /** unique in its tour: the CLI's --check id=value, the page's data-question */
  id: string;
  prompt: string;
  /** shown after a wrong answer */
  hint: string;
  /** the view that explains it (a view id): after a wrong answer the card offers to show and outline it */
  explain: string | null;
  /** where the question starts (null: the start of the beat's step, or of the run) */
  from: Moment | null;
  /** where `ask:` is written */
  where: At;
} & (
  | { kind: 'number'; counter: string; tolerance: { kind: 'abs' | 'pct'; value: number } }
  | { kind: 'choice'; over: 'runs'; counter: string; fewest: boolean }
  | { kind: 'choice'; over: 'counters'; counters: string[]; fewest: boolean }
  /** put these events (tracepoint names) in the order the kernel first does each, in run A */
  | { kind: 'order'; events: string[] }
  /** pick on the address space the pages of a mapping that become present over the span, in run A (a set) */
  | { kind: 'pick'; vma: string }
);

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
  /** the views' shares of the room, in the order of views: (null: each view's own) */
  sizes: number[] | null;
  highlight: Highlight | null;
  /** a drawer to open: the letter beside the model, or the scenario's story */
  drawer: 'letter' | 'about' | null;
  caption: string;
  notes: string;
  /** a question instead of (before) the telling: an exercise's beat */
  ask: Question | null;
  /** where each part is written, for the playground's checks of names */
  where: { beat: At; scenario: At | null; at: At | null; views: At | null; highlight: At | null };
}

export interface Tour {
  file: string;
  title: string;
  about: string;
  beats: Beat[];
  /** an exercise's parameters and the values this seed drew (null: the tour declares none) */
  params: { specs: [string, ParamSpec][]; seed: number; values: Record<string, ParamValue> } | null;
}

const TEXT: SchemaObject = { type: 'string', 'x-expected': 'expected text, got {got}' };
const doc = (s: SchemaObject, description: string): SchemaObject => ({ ...s, description });
const SETTINGS: SchemaObject = {
  type: 'object',
  'x-what': 'settings',
  properties: {
    ...Object.fromEntries(TUNABLE_SCHEMAS),
    without: WITHOUT,
    seed: {
      type: 'integer',
      minimum: 0,
      maximum: 2 ** 31 - 1,
      description: "the scenario's random seed (its random access orders): an exercise's variant may draw it",
    },
  },
  additionalProperties: false,
  'x-unknown':
    "unknown key '{key}'{suggest}; a run's settings take a kernel tunable, a machine.* key, seed or without: {keys}",
};
const POSITIVE = { type: 'integer', minimum: 1, maximum: 1e9 } as SchemaObject;

const MOMENT: SchemaObject = {
  'x-expected':
    'expected a moment: start, end, { jump: fault, nth: 3 }, { step: 4 }, { step: 4, end: true }, { say: 2 } or { event: mmsim_fork, nth: 1 }, got {got}',
  description:
    'where the cursor goes: start, end, the nth stop of a jump key, a step, a caption, the nth event of a kind',
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
      counter: {
        enum: COUNTERS.filter((_, i) => !COUNTER_INFO[i].gauge),
        'x-expected': 'expected a counter that only grows (pgfault, pgmajfault, pgactivate, ...), got {got}',
        description: 'just after the event that brings this counter to reaches: (default 1: when it first changes)',
      },
      reaches: doc(POSITIVE, 'with counter: the value it reaches (default 1)'),
      event: {
        enum: [...EVENTS],
        'x-expected': 'expected an event (a tracepoint name: mmsim_fork, mm_filemap_fault, ...), got {got}',
        description: 'just after the nth event of this name (nth: from 1, default 1, at most 256)',
      },
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
    'expected one thing to highlight: { figure: pgfault }, { view: address }, { pages: [16, 31] }, { vma: m }, { list: inactive_file } or { folio: { vma: m, page: 8 } }, got {got}',
  properties: {
    figure: doc({ enum: [...COUNTERS] }, 'a key figure, by its counter'),
    view: doc(TEXT, 'a view, by its id'),
    vma: doc(TEXT, "a mapping, by its name in the scenario's steps (the address space outlines its VMA)"),
    list: doc({ enum: [...LRU_LISTS] }, 'an LRU list (the LRU view outlines its row)'),
    folio: {
      type: 'object',
      'x-what': 'folio',
      additionalProperties: false,
      required: ['vma', 'page'],
      description: 'the folio that maps page `page` of mapping `vma` (the folio view shows it)',
      properties: {
        vma: doc(TEXT, "a mapping, by its name in the scenario's steps"),
        page: doc({ type: 'integer', minimum: 0, maximum: 2 ** 36 }, 'a page of it, from 0'),
      },
    },
    pages: {
      type: 'array',
      items: { type: 'integer', minimum: 0, maximum: 2 ** 36 },
      minItems: 2,
      maxItems: 2,
      description: 'pages [from, to] of the mapping the address space shows',
    },
  },
};

const COUNTER: SchemaObject = {
  enum: [...COUNTERS],
  'x-expected': 'expected a counter (pgfault, pgmajfault, nr_mapped, ... see docs/reference.md), got {got}',
};

const ASK: SchemaObject = {
  type: 'object',
  'x-what': 'question',
  additionalProperties: false,
  required: ['id', 'prompt'],
  description: 'a question instead of telling: the model computes its answer (never written here)',
  properties: {
    id: doc(
      {
        type: 'string',
        pattern: '^[a-z][a-z0-9-]{0,39}$',
        'x-expected': 'expected an id like faults-step-3, got {got}',
      },
      'the question id, unique in the tour (--check id=value, data-question)',
    ),
    prompt: doc(TEXT, 'the question as the student reads it ($name is a parameter\u2019s value)'),
    hint: doc(TEXT, 'shown after a wrong answer'),
    explain: doc(TEXT, 'the view that explains the answer, by id: after a wrong answer the page offers to show it'),
    number: doc(COUNTER, "a number question: how much this counter grows from from: to the beat's moment, in run A"),
    choice: {
      type: 'object',
      'x-what': 'choice',
      additionalProperties: false,
      minProperties: 1,
      description:
        'a choice: the run whose counter grows most (runs: counter) or the counter that grows most in run A (counters: [...])',
      properties: {
        runs: doc(COUNTER, 'the options are the beat\u2019s runs; the answer the one where this counter grows most'),
        counters: {
          type: 'array',
          items: COUNTER,
          minItems: 2,
          maxItems: 6,
          uniqueItems: true,
          description: 'the options are these counters; the answer the one that grows most in run A',
        },
        fewest: doc({ type: 'boolean' }, 'the answer is the one that grows least instead'),
      },
    },
    order: {
      type: 'array',
      items: {
        enum: [...EVENTS],
        'x-expected': 'expected an event (a tracepoint name: mm_filemap_fault, page_cache_sync_ra, ...), got {got}',
      },
      minItems: 2,
      maxItems: 8,
      uniqueItems: true,
      description: 'an order question: these events, in the order each first happens from from: to the moment (run A)',
    },
    pick: {
      type: 'object',
      'x-what': 'pick',
      additionalProperties: false,
      required: ['vma'],
      description:
        'a pick question: the student clicks the pages of this mapping that become present from from: to the moment (run A)',
      properties: { vma: doc(TEXT, "a mapping, by its name in the scenario's steps") },
    },
    from: MOMENT,
    tolerance: {
      description: 'how far a number answer may be off: an amount (3) or a share of the answer (10%); default 0',
      'x-expected': 'expected a tolerance: a whole number (3) or a percentage (10%), got {got}',
      anyOf: [
        { type: 'integer', minimum: 0, maximum: 1e12 },
        { type: 'string', pattern: '^\\d{1,3}(\\.\\d+)?%$' },
      ],
    },
  },
};

const PARAM: SchemaObject = {
  type: 'object',
  'x-what': 'parameter',
  additionalProperties: false,
  minProperties: 1,
  'x-expected':
    'expected a parameter: { range: [4, 16] }, { range: [4, 16], step: 2 } or { choose: [16KiB, 64KiB] }, got {got}',
  properties: {
    range: {
      type: 'array',
      items: { type: 'integer', minimum: -1e12, maximum: 1e12 },
      minItems: 2,
      maxItems: 2,
      description: 'whole numbers from the first to the second, both included',
    },
    step: doc(POSITIVE, "the range's step (default 1)"),
    choose: {
      type: 'array',
      /* a value, or a list for a list tunable (mthp: [[16KiB], [64KiB]]) */
      items: {
        anyOf: [{ type: ['string', 'number'] }, { type: 'array', items: { type: ['string', 'number'] }, maxItems: 16 }],
      },
      minItems: 1,
      maxItems: 100,
      description: 'the values to choose from',
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
    sizes: {
      type: 'array',
      items: { type: 'number', exclusiveMinimum: 0, maximum: 10 },
      minItems: 1,
      maxItems: 4,
      description: "the views' shares of the room, in the order of views: (sizes: [2, 1] gives the first two thirds)",
    },
    highlight: HIGHLIGHT,
    drawer: doc({ enum: ['letter', 'about'] }, 'a drawer to open: the letter beside the model, or the story'),
    caption: doc(
      TEXT,
      "what the audience reads (shown as text); {pgfault} is A's counter at the moment, {b.pgfault} B's, {x / y} a ratio, {x / y %} a percentage",
    ),
    notes: doc(TEXT, "the speaker's notes (markdown), in the notes window only"),
    ask: ASK,
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
    params: {
      type: 'object',
      'x-what': 'params',
      additionalProperties: PARAM,
      maxProperties: 20,
      description:
        'an exercise\u2019s parameters, drawn per student by the seed (&seed=N, --seed N); $name stands for the value in settings and text',
    },
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
    out[k] = k === 'without' ? withoutValue(x) : k === 'seed' ? (x as number) : settingValue(tunableInfo(k)!, x);
  return out;
}

function moment(v: unknown): Moment {
  if (v === undefined || v === 'start') return { kind: 'start' };
  if (v === 'end') return { kind: 'end' };
  const o = v as Obj;
  if (o.jump !== undefined) return { kind: 'jump', jump: o.jump as string, nth: (o.nth as number | undefined) ?? 1 };
  if (o.step !== undefined) return { kind: 'step', step: o.step as number, end: o.end === true };
  if (o.event !== undefined)
    return { kind: 'event', event: o.event as string, nth: (o.nth as number | undefined) ?? 1 };
  if (o.counter !== undefined)
    return { kind: 'counter', counter: o.counter as string, reaches: (o.reaches as number | undefined) ?? 1 };
  return { kind: 'say', nth: o.say as number };
}

type AtOf = (segs: (string | number)[]) => At;

/** an exercise's `params:`, checked, and the values this seed draws; null when the tour declares none */
function readParams(root: Obj, c: Ctx, at: AtOf, seed: number): Tour['params'] {
  const p = root.params;
  if (!p || typeof p !== 'object' || Array.isArray(p)) return null;
  const specs: [string, ParamSpec][] = [];
  for (const [name, v] of Object.entries(p as Obj)) {
    const o = v as Obj;
    if (!PARAM_NAME.test(name)) {
      c.err(
        at(['params', name]),
        `a parameter's name is lower case letters, digits and _ (written $name), got '${name}'`,
      );
      continue;
    }
    if (!o || typeof o !== 'object' || Array.isArray(o)) continue; /* the schema says what it expected */
    if (o.range !== undefined && o.choose !== undefined) {
      c.err(at(['params', name]), 'a parameter is a range: or a choose:, not both');
      continue;
    }
    const range = o.range as number[] | undefined;
    if (Array.isArray(range) && range.length === 2 && range.every(Number.isInteger)) {
      const step = Number.isInteger(o.step) && (o.step as number) >= 1 ? (o.step as number) : 1;
      if (range[0] > range[1]) {
        c.err(
          at(['params', name, 'range']),
          `the range is empty: [${range[0]}, ${range[1]}] goes down (write [low, high])`,
        );
        continue;
      }
      specs.push([name, { kind: 'range', lo: range[0], hi: range[1], step }]);
    } else if (Array.isArray(o.choose) && o.choose.length) {
      if (o.step !== undefined)
        c.err(at(['params', name, 'step']), 'step: goes with range: ({ range: [4, 16], step: 2 })');
      else specs.push([name, { kind: 'choose', values: o.choose as ParamValue[] }]);
    } else if (o.range === undefined && o.choose === undefined)
      c.err(at(['params', name]), 'a parameter is { range: [low, high] } or { choose: [a, b, ...] }');
  }
  for (const [name, spec] of specs)
    if (paramCount(spec) < 1) c.err(at(['params', name]), 'the parameter has no value to draw');
  return { specs, seed, values: drawParams(specs, seed) };
}

const RUN_KEYS_OF_BEAT = ['set', 'compare', 'c', 'd'] as const;

/**
 * Put each parameter's value where a run's setting is written `$name` (before the schema checks the
 * setting, so that the value is checked as if written there), and refuse a `$name` that is no parameter.
 */
function substituteParams(root: Obj, params: Tour['params'], c: Ctx, at: AtOf): void {
  const names = params ? Object.keys(params.values) : [];
  const known = (n: string) => !!params && Object.hasOwn(params.values, n);
  const none = (n: string) =>
    `no parameter '$${n}'; ${params ? `the parameters are ${names.map((x) => `$${x}`).join(', ') || 'none'}` : 'the tour declares none (params:)'}`;
  (Array.isArray(root.beats) ? (root.beats as Obj[]) : []).forEach((b, i) => {
    if (!b || typeof b !== 'object') return;
    for (const k of RUN_KEYS_OF_BEAT) {
      const o = b[k] as Obj | undefined;
      if (!o || typeof o !== 'object' || Array.isArray(o)) continue;
      for (const [key, v] of Object.entries(o)) {
        if (typeof v !== 'string' || !v.startsWith('$')) continue;
        const name = v.slice(1);
        if (!known(name)) c.err(at(['beats', i, k, key]), none(name));
        else o[key] = params!.values[name];
      }
    }
    /* in the text, only where the tour has parameters: a tour without them may write "$" freely */
    if (!params) return;
    const ask = b.ask && typeof b.ask === 'object' ? (b.ask as Obj) : null;
    for (const [path, text] of [
      [['caption'], b.caption],
      [['notes'], b.notes],
      [['ask', 'prompt'], ask?.prompt],
      [['ask', 'hint'], ask?.hint],
    ] as [string[], unknown][])
      if (typeof text === 'string')
        for (const m of text.matchAll(PARAM_REF)) if (!known(m[1])) c.err(at(['beats', i, ...path]), none(m[1]));
  });
}

/** a moment written as an object names one kind, and nth: and end: go with theirs; false when it does not */
function checkMoment(m: unknown, path: (string | number)[], c: Ctx, at: AtOf): boolean {
  if (!m || typeof m !== 'object') return true;
  const o = m as Obj;
  const kinds = ['jump', 'step', 'say', 'event', 'counter'].filter((k) => o[k] !== undefined);
  if (kinds.length !== 1) {
    c.err(
      at(path),
      `a moment is one of jump:, step:, say:, event: or counter:, got ${kinds.length ? kinds.join(' and ') : 'none'}`,
    );
    return false;
  }
  if (o.reaches !== undefined && kinds[0] !== 'counter') {
    c.err(at([...path, 'reaches']), 'reaches: goes with counter: ({ counter: pgmajfault, reaches: 10 })');
    return false;
  }
  if (o.nth !== undefined && kinds[0] !== 'jump' && kinds[0] !== 'event') {
    c.err(
      at([...path, 'nth']),
      'nth: goes with jump: or event: ({ jump: fault, nth: 3 }, { event: mmsim_fork, nth: 1 })',
    );
    return false;
  }
  if (kinds[0] === 'event' && typeof o.nth === 'number' && o.nth > FIRSTS_KEPT) {
    c.err(at([...path, 'nth']), `an event moment counts up to the ${FIRSTS_KEPT}th of its kind; got ${o.nth}`);
    return false;
  }
  if (o.end !== undefined && kinds[0] !== 'step') {
    c.err(at([...path, 'end']), 'end: goes with step: ({ step: 4, end: true })');
    return false;
  }
  return true;
}

/** a beat's `ask:` as a Question, or null with the reason in c (what the model computes is checked in ../quiz.ts) */
function readQuestion(
  o: Obj,
  i: number,
  ids: Map<string, number>,
  c: Ctx,
  at: AtOf,
  values: Record<string, ParamValue>,
): Question | null {
  const q = o.ask as Obj;
  const base = ['beats', i, 'ask'];
  const kinds = ['number', 'choice', 'order', 'pick'].filter((k) => q[k] !== undefined);
  if (kinds.length !== 1) {
    c.err(
      at(base),
      `a question is a number:, a choice:, an order: or a pick:, got ${kinds.length ? kinds.join(' and ') : 'none of them'}`,
    );
    return null;
  }
  const id = q.id as string;
  if (ids.has(id)) {
    c.err(at([...base, 'id']), `the question id '${id}' is taken by beat ${ids.get(id)}`);
    return null;
  }
  ids.set(id, i + 1);
  const jumpAt = (m: unknown) => !!m && typeof m === 'object' && (m as Obj).jump !== undefined;
  if (jumpAt(o.at)) {
    c.err(
      at(['beats', i, 'at']),
      "a question's beat stands at start, end, a step or a caption (say:), where the CLI can place it too, not at a jump key",
    );
    return null;
  }
  if (q.from !== undefined && (!checkMoment(q.from, [...base, 'from'], c, at) || jumpAt(q.from) || q.from === 'end')) {
    if (jumpAt(q.from) || q.from === 'end')
      c.err(at([...base, 'from']), "a question's from: is start, a step or a caption (say:)");
    return null;
  }
  if (q.tolerance !== undefined && kinds[0] !== 'number') {
    c.err(at([...base, 'tolerance']), 'tolerance: goes with number:');
    return null;
  }
  const common = {
    id,
    prompt: fillParams(q.prompt as string, values),
    hint: fillParams((q.hint as string | undefined) ?? '', values),
    explain: (q.explain as string | undefined) ?? null,
    from: q.from !== undefined ? moment(q.from) : null,
    where: at(base),
  };
  if (kinds[0] === 'number') {
    const t = q.tolerance;
    return {
      ...common,
      kind: 'number',
      counter: q.number as string,
      tolerance:
        typeof t === 'string'
          ? { kind: 'pct', value: Number.parseFloat(t) }
          : { kind: 'abs', value: (t as number | undefined) ?? 0 },
    };
  }
  if (kinds[0] === 'order') return { ...common, kind: 'order', events: q.order as string[] };
  if (kinds[0] === 'pick') return { ...common, kind: 'pick', vma: (q.pick as Obj).vma as string };
  const ch = q.choice as Obj;
  if ((ch.runs === undefined) === (ch.counters === undefined)) {
    c.err(
      at([...base, 'choice']),
      'a choice is of runs (runs: pgfault) or of counters (counters: [pgactivate, pgdeactivate]), one of them',
    );
    return null;
  }
  if (ch.runs !== undefined && o.compare === undefined) {
    c.err(
      at([...base, 'choice', 'runs']),
      "a choice of runs offers the beat's runs: give the beat compare: (and c:, d:)",
    );
    return null;
  }
  return ch.runs !== undefined
    ? { ...common, kind: 'choice', over: 'runs', counter: ch.runs as string, fewest: ch.fewest === true }
    : { ...common, kind: 'choice', over: 'counters', counters: ch.counters as string[], fewest: ch.fewest === true };
}

/**
 * Read a tour (or an exercise: a tour whose beats ask). `seed` draws the exercise's parameters (1 when not
 * given); a tour without params: ignores it.
 */
export function parseTour(source: string, file = '<tour>', opts: { seed?: number } = {}): Tour {
  checkSource(source, file, DEFAULT_LIMITS);
  const src = loadYaml(source, file);
  checkShape(src.data, file, (segs) => src.at(segs), DEFAULT_LIMITS);
  const c = new Ctx(file);
  const at = (segs: (string | number)[]): At => src.at(segs, 'key');
  const data = src.data as Obj;
  const params =
    data && typeof data === 'object' && !Array.isArray(data) ? readParams(data, c, at, opts.seed ?? 1) : null;
  if (data && typeof data === 'object' && !Array.isArray(data)) substituteParams(data, params, c, at);
  const values = params?.values ?? {};
  const { errors, bad } = checkDocument(src, VALIDATORS.tour);
  c.errors.push(...errors);
  const root = src.data as Obj;
  if (!root || typeof root !== 'object' || Array.isArray(root)) throw new ScenarioErrors(c.errors);
  const beats: Beat[] = [];
  const ids = new Map<string, number>();
  let scenario: string | null = null;
  let prev: Beat | null = null;
  (Array.isArray(root.beats) ? (root.beats as Obj[]) : []).forEach((b, i) => {
    if (bad(['beats', i]) || !b || typeof b !== 'object') return;
    const o = b as Obj;
    /* a moment object names one kind */
    if (!checkMoment(o.at, ['beats', i, 'at'], c, at)) return;
    const ask = o.ask && typeof o.ask === 'object' ? readQuestion(o, i, ids, c, at, values) : null;
    if (o.ask && !ask) return;
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
    const views = (o.views as string[] | undefined) ?? (stays ? prev!.views : null);
    if (Array.isArray(o.sizes) && (!views || o.sizes.length !== views.length)) {
      c.err(
        at(['beats', i, 'sizes']),
        `sizes: gives one share per view, in the order of views: (${views ? `${views.length} views` : 'this beat names none'}, ${o.sizes.length} sizes)`,
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
      views,
      sizes: (o.sizes as number[] | undefined) ?? (o.views === undefined && stays ? prev!.sizes : null),
      highlight: h
        ? h.figure !== undefined
          ? { kind: 'figure', counter: h.figure as string }
          : h.view !== undefined
            ? { kind: 'view', view: h.view as string }
            : h.vma !== undefined
              ? { kind: 'vma', name: h.vma as string }
              : h.list !== undefined
                ? { kind: 'list', list: h.list as string }
                : h.folio !== undefined
                  ? { kind: 'folio', vma: (h.folio as Obj).vma as string, page: (h.folio as Obj).page as number }
                  : { kind: 'pages', from: (h.pages as number[])[0], to: (h.pages as number[])[1] }
        : null,
      drawer: (o.drawer as Beat['drawer'] | undefined) ?? null,
      caption: fillParams(o.caption as string, values),
      notes: fillParams((o.notes as string | undefined) ?? '', values),
      ask,
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
  return { file, title: root.title as string, about: (root.about as string | undefined) ?? '', beats, params };
}
