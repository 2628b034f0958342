/**
 * A scenario document the schema accepted, built into the typed Scenario:
 * sizes in bytes, addresses as numbers, tasks resolved, the description's
 * defaults filled in, every part located for later errors. A part with a
 * schema error is skipped; the step kinds' rules the schema cannot say
 * (../../interface/steps.ts) are checked here.
 */
import { STEPS, type StepKindDesc } from '../../interface/steps.js';
import { FOLIO_FIELDS } from '../abi.js';
import type { At } from '../errors.js';
import type { DescribedKind, Reference, SettingValue, Step, StepKind, TaskRef } from '../scenario.js';
import { ScenarioError, toAddress, toSize, type Seg, type YamlSource } from '../schema/check.js';
import { tunableInfo, type TunableInfo } from '../tunables.js';

export class Ctx {
  errors: ScenarioError[] = [];
  constructor(readonly file: string) {}
  err(at: At, detail: string): void {
    if (this.errors.length < 100) this.errors.push(new ScenarioError(this.file, at.line, at.col, at.path, detail));
  }
}

/** a tunable's value as the schema accepted it -> as the core takes it (sizes in bytes) */
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
