/**
 * Golden summaries of every shipped scenario: every counter and per-task
 * counter by name and, for the interactive ones, the number of events of each
 * kind and a digest of the whole event stream. A change to the model that
 * moves any of these fails here with a list of what changed, by name:
 *
 *     scenarios/fault-around/sequential.yaml changed:
 *       counter pgfault: 256 -> 4096
 *       events mm_set_pte: 4096 -> 4100
 *
 * Regenerate on purpose with
 *
 *     UPDATE_GOLDEN=1 npx vitest run --project core golden
 *
 * and say why in the commit. A counter the golden file does not know yet (a
 * new one) is not a change, so adding a counter rewrites no golden file. The
 * digest hashes each event's *name*, not its number, so adding an event kind
 * does not change it either. Every interactive scenario also runs on the
 * debug build (assertions on) with the invariant checker after every step,
 * and must give the very same summary.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENTS, EV_TYPE_MASK } from '../ts/abi.js';
import { runProgram } from '../ts/runner.js';
import { Digest, loadCore, programOf, repo, shippedScenarios } from './helpers.js';

/* a stable 16-bit code per event name, so that renumbering event kinds keeps digests */
const NAME_CODE = EVENTS.map((n) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < n.length; i++) h = Math.imul(h ^ n.charCodeAt(i), 0x01000193) >>> 0;
  return h & EV_TYPE_MASK;
});

type Summary = Awaited<ReturnType<typeof summarise>>;

async function summarise(file: string, variant: 'release' | 'debug', trace: boolean, debugVm: boolean) {
  const prog = programOf(file);
  const digest = new Digest();
  const byType: Record<string, number> = {};
  const res = runProgram(await loadCore(variant), prog, {
    trace,
    debugVm,
    onEvents: (b) => {
      const copy = b.slice();
      const v = new DataView(copy.buffer);
      for (let o = 0; o < copy.length; o += 32) {
        const raw = v.getUint16(o, true),
          t = raw & EV_TYPE_MASK;
        byType[EVENTS[t]] = (byType[EVENTS[t]] ?? 0) + 1;
        v.setUint16(o, (raw & ~EV_TYPE_MASK) | NAME_CODE[t], true);
      }
      digest.add(copy);
    },
  });
  return {
    status: res.status,
    error: res.error?.message ?? null,
    steps: res.steps,
    counters: res.counters as Record<string, number>,
    model: res.model as Record<string, number>,
    tasks: res.tasks as Record<string, Record<string, number>>,
    ...(trace
      ? { events: { total: digest.n, digest: digest.hex(), byType: Object.fromEntries(Object.entries(byType).sort()) } }
      : {}),
  };
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
      if (g.digest !== r.digest && out.length === 0)
        out.push(
          `event stream digest ${g.digest} -> ${r.digest}: the same counts of each kind, but fields or order changed`,
        );
    }
  }
  return out;
}

const update = process.env.UPDATE_GOLDEN === '1';

describe('golden summaries', () => {
  for (const file of shippedScenarios()) {
    const big = file.includes('/seed/');
    it(file, async () => {
      const got = await summarise(file, 'release', !big, false);
      expect(got.status).toBe('ok');
      const golden = `${repo}wasm-core/tests/golden/${file.replace(/^scenarios\//, '').replace(/\.(ya?ml|json)$/, '.json')}`;
      if (update || !existsSync(golden)) {
        if (!update)
          throw new Error(`no golden summary for ${file}: run UPDATE_GOLDEN=1 npx vitest run --project core golden`);
        mkdirSync(dirname(golden), { recursive: true });
        writeFileSync(golden, `${JSON.stringify(got, null, 2)}\n`);
      }
      const diff = changes(JSON.parse(readFileSync(golden, 'utf8')) as Summary, got);
      expect(
        diff,
        `${file} changed (if on purpose: UPDATE_GOLDEN=1 npx vitest run --project core golden, and say why in the commit):\n  ${diff.join('\n  ')}`,
      ).toEqual([]);
      if (!big) {
        const debug = await summarise(file, 'debug', true, true);
        expect(debug).toEqual(got);
      }
    });
  }
});
