/**
 * Every field the interface description gives a query's output struct is
 * filled in by the C query. The queries clear their output first, so a field
 * no C writes reads 0 forever: each query runs at several points of
 * scenarios that reach every kind of state (a THP and its split, the LRU
 * under reclaim with writeback in flight, a process that exited, four
 * threads' VMA caches and predictions), for several tasks, mms, files, lists
 * and pages, and every described field must be non-zero at least once.
 */
import { describe, expect, it } from 'vitest';
import { decodeEvent, EXPORTS, RunStatus, STRUCTS, type StructName } from '../ts/abi.js';
import type { Sim } from '../ts/core.js';
import { ProgramError, startProgram } from '../ts/runner.js';
import { readdirSync } from 'node:fs';
import { loadCore, programOf, repo, shippedScenarios } from './helpers.js';

/** the queries: exports with a struct mmsim_<name> *out parameter */
const QUERIES = EXPORTS.flatMap((e) => {
  const out = e.params.findIndex((p) => p.name === 'out');
  const m = /[^t] struct mmsim_(\w+) \*out/.exec(e.proto);
  return out > 0 && m ? [{ e, out, struct: m[1] as StructName }] : [];
});

/* the probes: every shipped scenario (the VMA cache's also with 3.14's mm-wide cache), the past fuzz findings
   (random mixes of every setting), and probes of states no scenario reaches */
const SCENARIOS: [string, Record<string, string>][] = [
  ...shippedScenarios()
    .filter((f) => !f.includes('/seed/'))
    .flatMap((f): [string, Record<string, string>][] =>
      f.includes('/vma-cache/')
        ? [
            [f, {}],
            [f, { vmacache: 'mm-wide' }],
          ]
        : [[f, {}]],
    ),
  /* states no shipped scenario reaches (a congested disk queue) */
  ...readdirSync(`${repo}wasm-core/test/probes`).map((f): [string, Record<string, string>] => [
    `wasm-core/test/probes/${f}`,
    {},
  ]),
  ...readdirSync(`${repo}wasm-core/test/fuzz/findings`)
    .filter((f) => f.endsWith('.yaml'))
    .map((f): [string, Record<string, string>] => [`wasm-core/test/fuzz/findings/${f}`, {}]),
];

/** the argument lists a query is called with at a probe: every combination of a few values per parameter */
function argLists(names: string[], pages: { pfn: number; addr: number }[]): number[][] {
  const values = (n: string): number[][] => {
    switch (n) {
      case 'pfn':
        return pages.map((p) => [p.pfn]);
      case 'addr':
        return [[-1]]; /* paired with pfn's page below */
      case 'list':
        return [[0], [1], [2], [3], [4]];
      case 'nbands':
      case 'max':
      case 'max_depth':
        return [[8]];
      default:
        return [[0], [1], [2], [3]]; /* task, mm, file */
    }
  };
  let lists: number[][] = [[]];
  for (const n of names) lists = lists.flatMap((l) => values(n).map((v) => [...l, ...v]));
  /* an address goes with a page: the page mapped there */
  if (names.includes('addr')) lists = pages.map((p) => names.map((n) => (n === 'addr' ? p.addr : 0)));
  return lists;
}

describe('the queries fill every field the description gives their structs', () => {
  it('every described field is non-zero at some probe', async () => {
    const core = await loadCore('release');
    const filled = new Map<string, Set<string>>(QUERIES.map((q) => [q.e.name, new Set<string>()]));
    for (const [file, sets] of SCENARIOS) {
      let prog: ReturnType<typeof programOf>;
      try {
        prog = programOf(file, sets);
      } catch {
        continue; /* a fuzz finding the loader refuses */
      }
      try {
        startProgram(core, prog).destroy();
      } catch (e) {
        if (e instanceof ProgramError) continue; /* a fuzz finding the core refuses to start (seed 22285) */
        throw e;
      }
      for (const frac of [0.2, 0.5, 0.8, 1]) {
        const sim: Sim = startProgram(core, prog, { trace: true });
        const total = sim.workTotal;
        /* run to the probe, keeping the last pages mapped (their pfn and address) */
        const pages: { pfn: number; addr: number }[] = [];
        while (!sim.finished && sim.workDone < total * frac) {
          const st = sim.run(Math.max(1, Math.ceil(total / 64)));
          if (st === RunStatus.Error || st === RunStatus.Done) break;
          const ev = sim.drainEvents();
          const v = new DataView(ev.buffer);
          for (let o = 0; o < ev.length; o += 32) {
            const e = decodeEvent(v, o, 0);
            if (e.name === 'mm_set_pte' && e.pfn) pages.push({ pfn: e.pfn, addr: e.address });
            else if (e.name === 'mmsim_set_pmd' && e.head) pages.push({ pfn: e.head, addr: e.address });
            if (pages.length > 8) pages.shift();
          }
        }
        for (const q of QUERIES) {
          const size = STRUCTS[q.struct].size;
          const p = sim.core.malloc(size * 8);
          const f = sim.core.ex[q.e.name as keyof typeof sim.core.ex] as unknown as (
            ...x: (number | bigint)[]
          ) => number;
          for (const a of argLists(
            q.e.params.slice(1, q.out).map((x) => x.name),
            pages,
          )) {
            const after = q.e.params.slice(q.out + 1).map((x) => (x.name === 'max' ? 8 : 0));
            const typed = [...a, p, ...after].map((x, i) => (q.e.params[i + 1].wasm === 'i64' ? BigInt(x) : x));
            const r = f(sim.ptr, ...typed) >>> 0;
            /* an int query answers 0 when it filled its struct; a counting one, how many it filled */
            const n = /^int /.test(q.e.proto) ? (r === 0 ? 1 : 0) : Math.min(r, 8);
            const v = sim.core.view();
            for (let k = 0; k < n; k++)
              for (const [name, fl] of Object.entries(STRUCTS[q.struct].fields) as [
                string,
                { offset: number; type: string; n: number },
              ][]) {
                const w = { u8: 1, u16: 2, u32: 4, i32: 4, u64: 8, i64: 8 }[fl.type]! * fl.n;
                for (let b = 0; b < w; b++)
                  if (v.getUint8(p + k * size + fl.offset + b)) {
                    filled.get(q.e.name)!.add(name);
                    break;
                  }
              }
          }
          sim.core.ex.free(p);
        }
        sim.destroy();
      }
    }
    const never: string[] = [];
    for (const q of QUERIES)
      for (const name of Object.keys(STRUCTS[q.struct].fields))
        if (name !== 'reserved' && !filled.get(q.e.name)!.has(name))
          never.push(`${q.struct}.${name}: described, but ${q.e.name} never filled it in`);
    expect(QUERIES.length).toBeGreaterThanOrEqual(15);
    expect(never, never.join('\n')).toEqual([]);
  });
});
