// Writes scenarios/fault-around/seed/*.yaml: the single-thread rows of the
// three synthetic tables of the fault-around series (Kirill Shutemov, February 2014),
// one scenario per table row. Each runs at the default order (4, 64 KiB) and
// expects the model value of docs/kernel.md, "Fault-around" there; it carries the
// seed's seven measured numbers as `reference:` data, so that its sweep over
// fault_around_bytes draws them beside the model's, and declares the
// baseline (4 KiB, no fault-around) as its natural comparison. The model
// values per order are checked by wasm-core/test/seed.test.ts. Run it again
// only to change the set on purpose: node scripts/gen-seed-scenarios.mjs
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';

const orders = [
  { key: 'base', label: 'baseline (no fault-around)', bytes: 4096, k: 0 },
  { key: 'order-1', label: 'order 1 (2 pages)', bytes: 8192, k: 1 },
  { key: 'order-3', label: 'order 3 (8 pages)', bytes: 32768, k: 3 },
  { key: 'order-4', label: 'order 4 (16 pages, the default)', bytes: 65536, k: 4 },
  { key: 'order-5', label: 'order 5 (32 pages)', bytes: 131072, k: 5 },
  { key: 'order-7', label: 'order 7 (128 pages)', bytes: 524288, k: 7 },
  { key: 'order-9', label: 'order 9 (512 pages, a whole page table)', bytes: 2097152, k: 9 },
];
const tables = [
  {
    key: 'sequential-16g',
    title: 'Sequential access 16GiB file',
    size: '16GiB',
    memory: '17GiB',
    access: '{ task: bench, map: m, op: read, pattern: sequential }',
    // docs/kernel.md, "Fault-around": N/W with N = 4,194,304
    model: [4194304, 2097152, 524288, 262144, 131072, 32768, 8192],
    seed: [4195437, 2098275, 525068, 262251, 131170, 32856, 8282],
    formula: 'N / 2^k with N = 4,194,304 pages',
  },
  {
    key: 'random-1g',
    title: 'Random access 1GiB file',
    size: '1GiB',
    memory: '2GiB',
    access: '{ task: bench, map: m, op: read, pattern: random }',
    model: [262144, 131072, 32768, 16384, 8192, 2048, 512],
    seed: [262636, 132743, 34369, 17299, 8527, 3451, 1222],
    formula: 'N / 2^k with N = 262,144 pages (independent of the order of access)',
  },
  {
    key: 'one-per-page-table-16g',
    title: 'Touch only one page in page table in 16GiB file',
    size: '16GiB',
    memory: '17GiB',
    access: '{ task: bench, map: m, op: read, pattern: sequential, stride: 2MiB }',
    model: [8192, 8192, 8192, 8192, 8192, 8192, 8192],
    seed: [8372, 8324, 8270, 8260, 8249, 8239, 8237],
    formula: 'N / 512 = 8,192 for every order: the window never reaches another page table',
  },
];
const n = (x) => x.toLocaleString('en-US');
const SOURCE =
  'Kirill A. Shutemov, cover letter of the faultaround patchset (8c6e50b029 "mm: introduce vm_ops->map_pages()", Linux 3.15, 2014)';
mkdirSync('scenarios/fault-around/seed', { recursive: true });
for (const f of readdirSync('scenarios/fault-around/seed')) rmSync(`scenarios/fault-around/seed/${f}`);
for (const t of tables) {
  const d = orders.findIndex((o) => o.key === 'order-4');
  const file = `scenarios/fault-around/seed/${t.key}.yaml`;
  writeFileSync(
    file,
    `name: "Seed: ${t.title}"
about: |
  The single-thread row of "${t.title}" in the fault-around series
  (Kirill A. Shutemov, 2014): minor faults for FAULT_AROUND_ORDER 0 (no
  fault-around) to 9. Sweep fault_around_bytes to see the seed's seven
  numbers beside the model's (${t.formula}). At the default order 4 the
  seed measured ${n(t.seed[d])} and the model gives ${n(t.model[d])}; the
  difference is the benchmark process's own faults (start-up, libraries),
  which a model of the mechanism does not have (docs/mechanisms/fault-around.md).
seed: 1
kernel:
  fault_around_bytes: 65536
machine:
  memory: ${t.memory}
files:
  data: { size: ${t.size}, cached: all }
processes:
  bench: { threads: 1 }
compare: { fault_around_bytes: 4096 }
reference:
  source: '${SOURCE}, table "${t.title}", 1 thread: minor faults'
  x: fault_around_bytes
  y: pgfault
  points: [${orders.map((o, i) => `[${o.bytes}, ${t.seed[i]}]`).join(', ')}]
steps:
  - mmap:   { task: bench, name: m, file: data, prot: read, shared: true }
  - access: ${t.access}
  - expect: { pgfault: ${t.model[d]}, pgmajfault: 0 }
`,
  );
}
/* the model's numbers per order, for the test that checks them */
writeFileSync(
  'wasm-core/test/seed-model.json',
  `${JSON.stringify(Object.fromEntries(tables.map((t) => [t.key, Object.fromEntries(orders.map((o, i) => [o.bytes, t.model[i]]))])), null, 2)}\n`,
);
console.log(`wrote ${tables.length} scenarios to scenarios/fault-around/seed/ and wasm-core/test/seed-model.json`);
