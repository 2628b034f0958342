/**
 * Golden summaries of every shipped scenario: every counter and per-task
 * counter by name and, for the interactive ones, the number of events of
 * each kind and the whole event stream (event-stream.ts). A change to the
 * model fails here saying what changed, by name:
 *
 *     scenarios/fault-around/sequential.yaml changed:
 *       counter pgfault: 256 -> 4096
 *       events mm_set_pte: 4096 -> 4100
 *       first difference: event 57 (step 6, line 21: app.0 reads m: sequential), mm_set_pte: pfn 4123 -> 4124
 *
 * Regenerate on purpose with
 *
 *     UPDATE_GOLDEN=1 npx vitest run --project core golden
 *
 * and say why in the commit. A counter the golden file does not know yet (a
 * new one) is not a change, so adding a counter rewrites no golden file; the
 * stream keeps event kinds by name, so renumbering them changes nothing.
 * Every interactive scenario also runs on the debug build (assertions on)
 * with the invariant checker after every step, and must give the very same
 * summary and stream.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_OFFSETS, EVENTS, EV_TYPE_MASK } from '../ts/abi.js';
import { runProgram } from '../ts/runner.js';
import { decodeStream, encodeStream, firstDifference } from './event-stream.js';
import { loadCore, programOf, repo, shippedScenarios } from './helpers.js';

type Summary = Awaited<ReturnType<typeof summarise>>['summary'];

async function summarise(file: string, variant: 'release' | 'debug', trace: boolean, debugVm: boolean) {
  const prog = programOf(file);
  const byType: Record<string, number> = {};
  const chunks: Uint8Array[] = [];
  const res = runProgram(await loadCore(variant), prog, {
    trace,
    debugVm,
    onEvents: (b) => {
      const copy = b.slice();
      const v = new DataView(copy.buffer);
      for (let o = 0; o < copy.length; o += 32) {
        const t = v.getUint16(o, true) & EV_TYPE_MASK;
        byType[EVENTS[t]] = (byType[EVENTS[t]] ?? 0) + 1;
      }
      chunks.push(copy);
    },
  });
  const events = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    events.set(c, at);
    at += c.length;
  }
  const summary = {
    status: res.status,
    error: res.error?.message ?? null,
    steps: res.steps,
    counters: res.counters as Record<string, number>,
    model: res.model as Record<string, number>,
    tasks: res.tasks as Record<string, Record<string, number>>,
    ...(trace
      ? { events: { total: events.length / 32, byType: Object.fromEntries(Object.entries(byType).sort()) } }
      : {}),
  };
  return { summary, events, prog };
}

/** what changed from the golden summary, one line each; counters new to the run are not changes */
export function changes(golden: Summary, got: Summary): string[] {
  const out: string[] = [];
  const fmt = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v));
  for (const k of ['status', 'error', 'steps'] as const)
    if (golden[k] !== got[k]) out.push(`${k}: ${fmt(golden[k])} -> ${fmt(got[k])}`);
  const counters = (what: string, g: Record<string, number> = {}, r: Record<string, number> = {}) => {
    for (const [k, v] of Object.entries(g)) {
      if (!(k in r)) out.push(`${what} ${k}: the run no longer reports it`);
      else if (r[k] !== v) out.push(`${what} ${k}: ${v} -> ${r[k]}`);
    }
  };
  counters('counter', golden.counters, got.counters);
  counters('model counter', golden.model, got.model);
  for (const t of new Set([...Object.keys(golden.tasks ?? {}), ...Object.keys(got.tasks ?? {})]))
    counters(`task ${t}`, golden.tasks?.[t], got.tasks?.[t] ?? {});
  if (golden.events || got.events) {
    const g = golden.events,
      r = got.events;
    if (!g || !r) out.push(`events: ${g ? 'recorded' : 'not recorded'} -> ${r ? 'recorded' : 'not recorded'}`);
    else {
      if (g.total !== r.total) out.push(`events in all: ${g.total} -> ${r.total}`);
      for (const k of new Set([...Object.keys(g.byType), ...Object.keys(r.byType)]))
        if (g.byType[k] !== r.byType[k]) out.push(`events ${k}: ${g.byType[k] ?? 0} -> ${r.byType[k] ?? 0}`);
    }
  }
  return out;
}

const update = process.env.UPDATE_GOLDEN === '1';
const HOW = 'if on purpose: UPDATE_GOLDEN=1 npx vitest run --project core golden, and say why in the commit';

/*
 * npm test -- quick (MMPLAY_QUICK=1) checks every golden on the release build and leaves the debug
 * build's second run of each scenario, with the invariant checker after every step, to the full run:
 * it is two thirds of this file's time.
 */
const quick = process.env.MMPLAY_QUICK === '1';
const released = new Map<string, Awaited<ReturnType<typeof summarise>>>();

describe('golden summaries', () => {
  for (const file of shippedScenarios()) {
    const big = file.includes('/seed/');
    it(file, async () => {
      const got = await summarise(file, 'release', !big, false);
      released.set(file, got);
      expect(got.summary.status).toBe('ok');
      const base = `${repo}wasm-core/test/golden/${file.replace(/^scenarios\//, '').replace(/\.(ya?ml|json)$/, '')}`;
      const [json, stream] = [`${base}.json`, `${base}.events.br`];
      if (update || !existsSync(json) || (!big && !existsSync(stream))) {
        if (!update)
          throw new Error(`no golden summary for ${file}: run UPDATE_GOLDEN=1 npx vitest run --project core golden`);
        mkdirSync(dirname(json), { recursive: true });
        writeFileSync(json, `${JSON.stringify(got.summary, null, 2)}\n`);
        if (!big) writeFileSync(stream, encodeStream(got.events));
      }
      const diff = changes(JSON.parse(readFileSync(json, 'utf8')) as Summary, got.summary);
      if (!big) {
        const first = firstDifference(decodeStream(readFileSync(stream)), got.events, got.prog);
        if (first) diff.push(`first difference: ${first}`);
      }
      expect(diff, `${file} changed (${HOW}):\n  ${diff.join('\n  ')}`).toEqual([]);
      if (!big) {
        /*
         * Without events, the same machine at the end: every counter, per task too. Untraced paths
         * batch what the traced ones do page by page (filemap_map_pages maps fault-around's pages in
         * place and counts them once), and this is where the two would part.
         */
        const { events: _, ...traced } = got.summary;
        expect((await summarise(file, 'release', false, false)).summary, `${file}: untraced`).toEqual(traced);
      }
    });
    if (!big)
      it.skipIf(quick)(`${file}: the debug build, checked after every step, gives the same`, async () => {
        const got = released.get(file) ?? (await summarise(file, 'release', true, false));
        const debug = await summarise(file, 'debug', true, true);
        expect(debug.summary).toEqual(got.summary);
        expect(
          firstDifference(got.events, debug.events, got.prog),
          'the debug build, against the release build',
        ).toBeNull();
      });
  }
});

describe('a golden failure explains itself', () => {
  it('names the first event that differs: its index, step and line, kind, field and both values', async () => {
    const { events, prog } = await summarise('scenarios/fault-around/sequential.yaml', 'release', true, false);
    const stored = decodeStream(encodeStream(events));
    expect(firstDifference(stored, events, prog)).toBeNull();
    /* the 100th mm_set_pte maps another page frame */
    const v = new DataView(events.buffer);
    let k = -1;
    for (let i = 0, n = 0; i < events.length / 32 && k < 0; i++)
      if ((v.getUint16(i * 32, true) & EV_TYPE_MASK) === EVENTS.indexOf('mm_set_pte') && ++n === 100) k = i;
    const changed = events.slice();
    const w = new DataView(changed.buffer);
    const pfn = w.getUint32(k * 32 + EVENT_OFFSETS.mm_set_pte.pfn, true);
    w.setUint32(k * 32 + EVENT_OFFSETS.mm_set_pte.pfn, pfn + 1, true);
    const step = prog.steps[w.getUint32(k * 32 + 4, true)];
    expect(firstDifference(stored, changed, prog)).toBe(
      `event ${k} (step ${w.getUint32(k * 32 + 4, true) + 1}, line ${step.at.line}: ${step.summary}), mm_set_pte: pfn ${pfn} -> ${pfn + 1}`,
    );
    /* a kind in its place, and a run cut short */
    expect(firstDifference(stored, changed.subarray(0, k * 32), prog)).toMatch(
      new RegExp(`^the run ends after ${k} events; ${events.length / 32} expected \\(next: mm_set_pte\\)$`),
    );
  });
});
