// Writes scenarios/fault-around/seed/*.yaml: rows of the three synthetic
// tables of the fault-around series (Kirill Shutemov, February 2014), one
// scenario per row (every table's one-thread row, and random access with 8
// threads). Each runs at the default order (4, 64 KiB) and expects the model
// value of docs/kernel.md, "Fault-around" there. It carries the letter's row
// twice, from this one table: as `reference:` data, so that its sweep over
// fault_around_bytes draws the seven numbers beside the model's, and as its
// `letter:`, one column per order (minor faults, and the time the model
// does not have), checked by wasm-core/test/letters.test.ts. It declares the
// baseline (4 KiB, no fault-around) as its natural comparison. Run it again
// only to change the set on purpose: node scripts/gen-seed-scenarios.mjs. The
// model's figures, worked by hand here, go to wasm-core/test/seed-model.json
// for letters.test.ts to hold the model to.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';

const orders = [
  { key: 'base', label: 'baseline (no fault-around)', bytes: 4096, k: 0, column: 'Baseline' },
  { key: 'order-1', column: '1', label: 'order 1 (2 pages)', bytes: 8192, k: 1 },
  { key: 'order-3', column: '3', label: 'order 3 (8 pages)', bytes: 32768, k: 3 },
  { key: 'order-4', column: '4', label: 'order 4 (16 pages, the default)', bytes: 65536, k: 4 },
  { key: 'order-5', column: '5', label: 'order 5 (32 pages)', bytes: 131072, k: 5 },
  { key: 'order-7', column: '7', label: 'order 7 (128 pages)', bytes: 524288, k: 7 },
  { key: 'order-9', column: '9', label: 'order 9 (512 pages, a whole page table)', bytes: 2097152, k: 9 },
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
    time: [7.250461742, 6.461711074, 5.493859139, 5.488488147, 5.707213983, 5.898510832, 5.109232856],
    within: 2,
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
    time: [15.351890914, 16.613802482, 16.569227308, 15.179220992, 16.557356122, 16.578247824, 15.365266994],
    within: 6,
    why: "at orders 7 and 9 the model's 2,048 and 512 faults are the file's alone; the benchmark's own (start-up, its libraries, about a thousand) are a large share of the letter's 3,451 and 1,222",
    formula: 'N / 2^k with N = 262,144 pages (independent of the order of access)',
  },
  {
    key: 'random-1g-8t',
    title: 'Random access 1GiB file',
    threads: 8,
    size: '1GiB',
    memory: '2GiB',
    access: '{ task: bench.*, map: [m0, m1, m2, m3, m4, m5, m6, m7], op: read, pattern: random }',
    model: [2097152, 1048576, 262144, 131072, 65536, 16384, 4096],
    seed: [2098948, 1061871, 273690, 154501, 87110, 25663, 7384],
    time: [15.040026343, 15.0969335, 14.474757288, 14.289129964, 14.411537468, 14.296316837, 14.395635804],
    within: 5,
    why: "the model's threads take turns and never meet a page another thread is mapping, so each fault maps its whole window: T·N/2^k (8 × 262,144 / 2^k) is a lower bound. The letter's 8 threads raced: filemap_map_pages() takes each page with trylock_page() and skips one another thread holds, and every skip is a fault later (+18% at order 4, +80% at order 9; an inference, the letter does not say)",
    formula: '8 · N / 2^k with N = 262,144 pages: a lower bound, each thread taking its turn',
  },
  {
    key: 'one-per-page-table-16g',
    title: 'Touch only one page in page table in 16GiB file',
    size: '16GiB',
    memory: '17GiB',
    access: '{ task: bench, map: m, op: read, pattern: sequential, stride: 2MiB }',
    model: [8192, 8192, 8192, 8192, 8192, 8192, 8192],
    seed: [8372, 8324, 8270, 8260, 8249, 8239, 8237],
    time: [0.039892712, 0.045369149, 0.051846126, 0.063681685, 0.079095975, 0.17652406, 0.541213386],
    work: true,
    within: 3,
    formula: 'N / 512 = 8,192 for every order: the window never reaches another page table',
  },
  {
    key: 'one-per-page-table-16g-8t',
    title: 'Touch only one page in page table in 16GiB file',
    threads: 8,
    size: '16GiB',
    memory: '17GiB',
    access: '{ task: bench.*, map: [m0, m1, m2, m3, m4, m5, m6, m7], op: read, pattern: sequential, stride: 2MiB }',
    model: [65536, 65536, 65536, 65536, 65536, 65536, 65536],
    seed: [65731, 65681, 65628, 65620, 65608, 65599, 65596],
    time: [0.124159196, 0.488600638, 0.156854426, 0.191901957, 0.242631486, 0.543569456, 1.677303984],
    work: true,
    within: 1,
    formula: '8 · N / 512 = 65,536 for every order: the window never leaves its page table, so no thread meets another',
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
  const T = t.threads ?? 1;
  const mmaps =
    T === 1
      ? '  - mmap:   { task: bench, name: m, file: data, prot: read, shared: true }'
      : Array.from(
          { length: T },
          (_, i) => `  - mmap:   { task: bench.${i}, name: m${i}, file: data, prot: read, shared: true }`,
        ).join('\n');
  const columns = orders.map((o) => `    - ${JSON.stringify(o.column)}: { fault_around_bytes: ${o.bytes} }`).join('\n');
  const who = T === 1 ? '1 thread' : `${T} threads`;
  const rows = [
    `    - row: ${who}, minor-faults
      unit: faults
      seed: [${t.seed.join(', ')}]
      model: pgfault
      check: value
      within: ${t.within}${t.why ? `\n      why: ${JSON.stringify(t.why)}` : ''}`,
    t.work
      ? `    - row: ${who}, time, seconds
      unit: s
      seed: [${t.time.join(', ')}]
      model: fault_around_mapped
      check: change
      instead: the pages fault-around mapped (fault_around_mapped), the work that grows with the order as the letter's time does`
      : `    - row: ${who}, time, seconds
      unit: s
      seed: [${t.time.join(', ')}]
      instead: the model counts faults, not time
      why: the model has no clock`,
  ];
  writeFileSync(
    file,
    `name: "Seed: ${t.title}${T > 1 ? `, ${T} threads` : ''}"
about: |
  The ${who} row of "${t.title}" in the fault-around series
  (Kirill A. Shutemov, 2014): minor faults for FAULT_AROUND_ORDER 0 (no
  fault-around) to 9. The Seed vs model view sets the letter's seven
  numbers beside the model's (${t.formula}); sweep fault_around_bytes to
  chart them. At the default order 4 the letter measured ${n(t.seed[d])} and
  the model gives ${n(t.model[d])}.${T > 1 ? ` The threads share the file and each maps it; they take turns, one page each.` : ` The difference is the benchmark process's own faults (start-up, libraries), which a model of the mechanism does not have.`} See docs/mechanisms/fault-around.md.
seed: 1
kernel:
  fault_around_bytes: 65536
machine:
  memory: ${t.memory}
files:
  data: { size: ${t.size}, cached: all }
processes:
  bench: { threads: ${T} }
compare: { fault_around_bytes: 4096 }
reference:
  source: '${SOURCE}, table "${t.title}", ${who}: minor faults'
  x: fault_around_bytes
  y: pgfault
  points: [${orders.map((o, i) => `[${o.bytes}, ${t.seed[i]}]`).join(', ')}]
letter:
  source: '${SOURCE}, table "${t.title}", ${who}'
  note: >-
    FAULT_AROUND_ORDER k is fault_around_bytes = 4 KiB x 2^k; Baseline is no fault-around (4 KiB).
    The letter's machine had 4 sockets, 120 threads and 128 GiB.
  columns:
${columns}
  rows:
${rows.join('\n')}
steps:
${mmaps}
  - access: ${t.access}
  - expect: { pgfault: ${t.model[d]}, pgmajfault: 0 }
`,
  );
}
/* the model's numbers per order, worked by hand (docs/kernel.md, "Fault-around"), for the test that checks them */
writeFileSync(
  'wasm-core/test/seed-model.json',
  `${JSON.stringify(Object.fromEntries(tables.map((t) => [t.key, Object.fromEntries(orders.map((o, i) => [o.bytes, t.model[i]]))])), null, 2)}\n`,
);
console.log(`wrote ${tables.length} scenarios to scenarios/fault-around/seed/ and wasm-core/test/seed-model.json`);
