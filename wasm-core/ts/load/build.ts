/**
 * A scenario document the schema accepted, built into the typed Scenario:
 * sizes in bytes, addresses as numbers, tasks resolved, the description's
 * defaults filled in, every part located for later errors. A part with a
 * schema error is skipped; the step kinds' rules the schema cannot say
 * (../../interface/steps.ts) are checked here.
 */
import { STEPS, type StepKindDesc } from '../../interface/steps.js';
import { COUNTERS, FOLIO_FIELDS } from '../abi.js';
import type { At } from '../errors.js';
import type { DescribedKind, Reference, SettingValue, Step, StepKind, TaskRef } from '../scenario.js';
import { ScenarioError, toAddress, toSize, type Seg, type YamlSource } from '../schema/check.js';
import { tunableInfo, type TunableInfo } from '../tunables.js';
import { parseExpr, type Check, type Letter, type LetterColumn, type LetterRow } from '../letter.js';

export class Ctx {
  errors: ScenarioError[] = [];
  constructor(readonly file: string) {}
  err(at: At, detail: string): void {
    if (this.errors.length < 100) this.errors.push(new ScenarioError(this.file, at.line, at.col, at.path, detail));
  }
}

/** a tunable's value as the schema accepted it -> as the core takes it (sizes in bytes) */
/** `without`'s value as a run holds it: a list of step kinds (the schema took one kind or a list) */
export function withoutValue(v: unknown): string[] {
  return [...new Set(Array.isArray(v) ? (v as string[]) : [v as string])];
}

export function settingValue(t: TunableInfo, v: unknown): SettingValue {
  if (t.type === 'size') return toSize(v);
  if (t.type === 'sizes') return (v as unknown[]).map(toSize);
  return v as SettingValue;
}

export type Obj = Record<string, unknown>;

/** builds the typed Scenario from a document the schema accepted (parts with errors are skipped) */
export class Builder {
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
    const d = STEPS[kind as DescribedKind] as StepKindDesc;
    const raw = body as Obj;
    /* the arguments, converted by type (sizes, addresses, tasks), then the description's defaults */
    const s: Obj = { kind };
    for (const [k, x] of Object.entries(raw)) {
      const a = d.args[k];
      s[k] =
        a?.type === 'page-offset' || a?.type === 'page-length' || a?.type === 'bytes'
          ? toSize(x)
          : a?.type === 'address'
            ? toAddress(x)
            : a?.type === 'task'
              ? this.task(x, [...ks, k])
              : x;
    }
    for (const [k, a] of Object.entries(d.args)) if (a.default !== undefined && !(k in s)) s[k] = a.default;
    s.at = kat;
    /* what a schema cannot say (an anonymous mapping needs a length, a pattern its count...) */
    const broken = d.rules?.(raw, s) ?? [];
    for (const [key, message] of broken) this.c.err(key === null ? kat : this.at([...ks, key], 'key'), message);
    return broken.length ? null : (s as unknown as Step);
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

  /** the cover letter's table (../letter.ts): columns as runs, rows as figures with their model expressions */
  letter(v: Obj): Letter | undefined {
    let ok = true;
    const columns: LetterColumn[] = (v.columns as Obj[]).map((c, i) => {
      const [label, raw] = Object.entries(c)[0];
      const set: Record<string, SettingValue> = {};
      for (const [k, x] of Object.entries((raw ?? {}) as Obj))
        set[k] = k === 'without' ? withoutValue(x) : settingValue(tunableInfo(k)!, x);
      if (!label.trim()) {
        this.c.err(this.at(['letter', 'columns', i], 'key'), 'a column needs a label');
        ok = false;
      }
      return { label, set };
    });
    const check0 = v.check as Check | undefined,
      within0 = v.within as number | undefined;
    const rows: LetterRow[] = [];
    (v.rows as Obj[]).forEach((r, i) => {
      const at = this.at(['letter', 'rows', i], 'key');
      const seed = (r.seed as (number | null)[] | undefined) ?? [];
      if (r.seed !== undefined && seed.length !== columns.length) {
        this.c.err(
          this.at(['letter', 'rows', i, 'seed']),
          `expected ${columns.length} figures, one per column (${columns.map((c) => c.label).join(', ')}), got ${seed.length}`,
        );
        ok = false;
        return;
      }
      let expr = null;
      if (typeof r.model === 'string')
        try {
          expr = parseExpr(r.model, (n) => (COUNTERS as readonly string[]).includes(n));
        } catch (e) {
          this.c.err(this.at(['letter', 'rows', i, 'model']), (e as Error).message);
          ok = false;
          return;
        }
      const check: Check = !expr
        ? 'none'
        : ((r.check as Check | undefined) ?? check0 ?? (columns.length > 1 ? 'change' : 'value'));
      if (check === 'value' && !seed.length) {
        this.c.err(at, "a value row needs the letter's figures (seed:)");
        ok = false;
        return;
      }
      if ((r.change !== undefined || r.under !== undefined) && check !== 'change') {
        this.c.err(this.at(['letter', 'rows', i, 'change']), 'change: goes with a change row (check: change)');
        ok = false;
        return;
      }
      if (check === 'none' && !r.why && !r.instead) {
        this.c.err(at, 'a row the model cannot compute says why (why:) or what it counts instead (instead:)');
        ok = false;
        return;
      }
      const within = (r.within as number | undefined) ?? within0;
      rows.push({
        label: r.row as string,
        unit: (r.unit as string | undefined) ?? '',
        seed: seed.length ? seed : columns.map(() => null),
        seedChange: (r.change as number | undefined) ?? null,
        under: (r.under as number | undefined) ?? null,
        model: (r.model as string | undefined) ?? null,
        expr,
        instead: (r.instead as string | undefined) ?? null,
        check,
        within: within === undefined ? (check === 'value' ? 0 : null) : within / 100,
        why: (r.why as string | undefined) ?? null,
        at,
      });
    });
    return ok
      ? {
          source: v.source as string,
          note: (v.note as string | undefined) ?? null,
          columns,
          rows,
          at: this.at(['letter'], 'key'),
        }
      : undefined;
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
