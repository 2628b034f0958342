/**
 * The drift test: what the C compiler made of the interface description
 * (sizeof, offsetof, enum and flag values, read back from the wasm's layout
 * table) must equal what the TypeScript side uses (gen/interface.ts), and
 * the wasm's exports must be exactly the described ones, with the described
 * number of parameters. Both sides are generated from wasm-core/interface/,
 * so a failure here means a generated file was edited by hand, the compiler
 * padded a struct, or a build is stale. It also fails if a generated file is
 * older than the description.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as gen from '../ts/gen/interface.js';
import {
  COUNTERS,
  decodeEvent,
  EVENT_FIELDS,
  EVENTS,
  EXPORTS,
  LAYOUT_ORDER,
  MM_COUNTERS,
  type STRUCTS,
  TASK_COUNTERS,
} from '../ts/abi.js';
import { loadCore, repo, wasmPath } from './helpers.js';

const SZ = { u8: 1, u16: 2, u32: 4, i32: 4, u64: 8, i64: 8 } as const;

/** [kind, a, b, value, name] rows, in the order interface_gen.c lays them out, from the TypeScript side */
export function expectedRows(g: typeof gen = gen): [number, number, number, number, string][] {
  const rows: [number, number, number, number, string][] = [];
  LAYOUT_ORDER.structs.forEach((name, si) => {
    const s = g.STRUCTS[name as keyof typeof STRUCTS];
    rows.push([1, si, 0, s.size, `sizeof ${name}`]);
    (Object.entries(s.fields) as [string, { offset: number; type: keyof typeof SZ; n: number }][]).forEach(
      ([f, l], fi) => {
        rows.push([2, si, fi, l.offset, `${name}.${f} offset`]);
        rows.push([3, si, fi, SZ[l.type] * l.n, `${name}.${f} size`]);
      },
    );
  });
  const members = (o: Record<string, unknown>) =>
    Object.entries(o).filter(([k, v]) => typeof v === 'number' && !/^\d+$/.test(k)) as [string, number][];
  LAYOUT_ORDER.enums.forEach((e, ei) => {
    members((g as unknown as Record<string, Record<string, unknown>>)[e]).forEach(([n, v], mi) => {
      rows.push([4, ei, mi, v >>> 0, `${e}.${n}`]);
    });
  });
  LAYOUT_ORDER.flags.forEach((f, fi) => {
    Object.entries((g as unknown as Record<string, Record<string, number | bigint>>)[f]).forEach(([n, v], mi) => {
      rows.push([5, fi, mi, Number(BigInt(v) & 0xffffffffn), `${f}.${n}`]);
      rows.push([6, fi, mi, Number(BigInt(v) >> 32n), `${f}.${n} (high)`]);
    });
  });
  LAYOUT_ORDER.constants.forEach((c, ci) => {
    rows.push([7, ci, 0, (g as unknown as Record<string, number>)[c] >>> 0, c]);
  });
  rows.push(
    [8, 0, 0, COUNTERS.length, 'counters'],
    [8, 1, 0, EVENTS.length, 'events'],
    [8, 2, 0, TASK_COUNTERS.length, 'task counters'],
    [8, 3, 0, MM_COUNTERS.length, 'mm counters'],
  );
  return rows;
}

export async function wasmRows(): Promise<number[][]> {
  const core = await loadCore('release');
  const p = core.ex.mmsim_layout() >>> 0,
    n = core.ex.mmsim_layout_len();
  const v = core.view();
  return Array.from({ length: n }, (_, i) => [0, 1, 2, 3].map((j) => v.getUint32(p + (i * 5 + j) * 4, true)));
}

/** the differences, by name: '' if none */
export function drift(expected: ReturnType<typeof expectedRows>, got: number[][]): string[] {
  const out: string[] = [];
  if (expected.length !== got.length)
    out.push(
      `the wasm's layout table has ${got.length} rows, the TypeScript side ${expected.length}: rebuild the core`,
    );
  expected.forEach(([k, a, b, v, name], i) => {
    const r = got[i];
    if (!r) return;
    if (r[0] !== k || r[1] !== a || r[2] !== b)
      out.push(`row ${i} (${name}) is a different item in the wasm: rebuild the core`);
    else if (r[3] !== v) out.push(`${name}: ${v} in TypeScript, ${r[3]} in the wasm`);
  });
  return out;
}

describe('the interface, C against TypeScript', () => {
  it('every struct size and field offset, enum and flag value and constant agree', async () => {
    const d = drift(expectedRows(), await wasmRows());
    expect(d, d.join('\n')).toEqual([]);
  });

  it('a swapped pair of offsets is caught, by name', async () => {
    const g = structuredClone({ ...gen, STRUCTS: gen.STRUCTS }) as unknown as typeof gen;
    const f = g.STRUCTS.vma_info.fields as unknown as Record<string, { offset: number }>;
    [f.vm_start.offset, f.vm_end.offset] = [f.vm_end.offset, f.vm_start.offset];
    const d = drift(expectedRows(g), await wasmRows());
    expect(d).toEqual([
      'vma_info.vm_start offset: 8 in TypeScript, 0 in the wasm',
      'vma_info.vm_end offset: 0 in TypeScript, 8 in the wasm',
    ]);
  });

  it('the wasm exports exactly the described functions, with their arity', async () => {
    const mod = new WebAssembly.Module(readFileSync(wasmPath('release')));
    const fns = WebAssembly.Module.exports(mod)
      .filter((e) => e.kind === 'function')
      .map((e) => e.name);
    const core = await loadCore('release');
    for (const e of EXPORTS) {
      expect(fns, `export ${e.name}`).toContain(e.name);
      const fn = (core.ex as unknown as Record<string, (...a: unknown[]) => unknown>)[e.name];
      expect(fn.length, `${e.name}'s parameters`).toBe(e.params.length);
    }
    const described = new Set(EXPORTS.map((e) => e.name));
    expect(
      fns.filter((n) => n.startsWith('mmsim_') && !described.has(n)),
      'exported but not described',
    ).toEqual([]);
  });

  it('the generated files are those of the current description', async () => {
    const { generate } = await import(`${repo}scripts/gen-interface.mjs`);
    const { stale } = await generate({ check: true });
    expect(stale, 'run node scripts/gen-interface.mjs').toEqual([]);
  });
});

describe('docs/limits.md', () => {
  it('holds the limits table as limits.ts describes them', async () => {
    const { limitsMarkdown } = await import('../ts/limits.js');
    const doc = readFileSync(new URL('../../docs/limits.md', import.meta.url), 'utf8');
    const m = /<!-- limits:begin[^>]*-->\n([\s\S]*?)\n<!-- limits:end -->/.exec(doc);
    expect(m, 'docs/limits.md has the limits:begin/end markers').not.toBeNull();
    expect(
      m![1],
      "docs/limits.md's table differs from limitsMarkdown() (wasm-core/ts/limits.ts): paste its output",
    ).toBe(limitsMarkdown());
  });
});

/* the sentinel mmsim_trace_selftest() gives field j of event type k (scripts/gen-interface.mjs: sentinel()) */
function sentinel(k: number, j: number, f: (typeof EVENT_FIELDS)[number][number]): number | boolean {
  if (f.type === 'bool') return true;
  if (f.bits < 32) return ((k * 7 + j * 3) % (2 ** f.bits - 1)) + 1;
  if (f.type === 'addr' || f.type === 'u64') return 0x1234_0000_0000 + k * 256 + j + 1;
  return 0x5a00_0000 + k * 256 + j + 1;
}

type FieldLayout = (typeof EVENT_FIELDS)[number][number];

/** a field read from a record by its layout alone (the generated decoder is checked against this too) */
function readField(v: DataView, o: number, f: FieldLayout): number | boolean {
  const w =
    f.type === 'addr' || f.type === 'u64'
      ? v.getUint32(o + f.offset + 4, true) * 2 ** 32 + v.getUint32(o + f.offset, true)
      : v.getUint32(o + f.offset, true);
  const x = f.bits < 32 ? (w >>> f.shift) & (2 ** f.bits - 1) : w;
  return f.type === 'bool' ? x !== 0 : x;
}

/** for each event kind the C helpers emitted, the fields that did not read back as their sentinel, by name */
export function eventDrift(events: Uint8Array, fields: typeof EVENT_FIELDS = EVENT_FIELDS): string[] {
  const out: string[] = [];
  const n = events.length / 32;
  if (n !== fields.length) out.push(`the C helpers emitted ${n} events, the description has ${fields.length} kinds`);
  const v = new DataView(events.buffer, events.byteOffset, events.byteLength);
  for (let k = 0; k < Math.min(n, fields.length); k++) {
    const e = decodeEvent(v, k * 32, k) as unknown as Record<string, number | boolean>;
    if (e.type !== k) out.push(`event ${k}: type ${e.type}, expected ${EVENTS[k]}`);
    fields[k].forEach((f, j) => {
      const want = sentinel(k, j, f),
        byLayout = readField(v, k * 32, f);
      if (byLayout !== want)
        out.push(
          `${EVENTS[k]}.${f.name}: the C helper wrote ${String(want)}, byte ${f.offset} holds ${String(byLayout)}`,
        );
      else if (e[f.name] !== want)
        out.push(`${EVENTS[k]}.${f.name}: the C helper wrote ${String(want)}, the decoder reads ${String(e[f.name])}`);
    });
  }
  return out;
}

describe("the events' fields, C against the description", () => {
  async function emitted(): Promise<Uint8Array> {
    const sim = (await loadCore('release')).createSim({ trace: true });
    sim.core.ex.mmsim_trace_selftest(sim.ptr);
    const events = sim.drainEvents();
    sim.destroy();
    return events;
  }

  it('every field of every event kind, emitted through its generated C helper, reads back by name as written', async () => {
    const d = eventDrift(await emitted());
    expect(d, d.join('\n')).toEqual([]);
  });

  it('two swapped fields are caught, naming the kind and the fields', async () => {
    const fields = EVENT_FIELDS.map((l) => l.map((f) => ({ ...f })));
    const set = fields[EVENTS.indexOf('mm_set_pte')];
    const pfn = set.find((f) => f.name === 'pfn')!,
      pgoff = set.find((f) => f.name === 'pgoff')!;
    [pfn.offset, pgoff.offset] = [pgoff.offset, pfn.offset];
    const k = EVENTS.indexOf('mm_set_pte');
    expect(eventDrift(await emitted(), fields)).toEqual([
      `mm_set_pte.pfn: the C helper wrote ${0x5a00_0000 + k * 256 + 2}, byte 20 holds ${0x5a00_0000 + k * 256 + 3}`,
      `mm_set_pte.pgoff: the C helper wrote ${0x5a00_0000 + k * 256 + 3}, byte 16 holds ${0x5a00_0000 + k * 256 + 2}`,
    ]);
  });
});
