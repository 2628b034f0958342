// tools/kernel-check/cases.mjs - the kreplay cases and their model equivalents.
//
// Every case is what kreplay.c does on the real kernel, written as an mmplay
// scenario. A case has one or more phases; the kernel reports maj/min faults
// (getrusage) per phase, and the model's per-phase numbers are the
// differences of the task counters between scenarios that stop after phase
// 1, 2, ... (scenarioYaml(c, k) = setup + phases 1..k). Plain Node ESM, no
// dependencies. Used by compare.mjs; not part of `npm test`.

export const PAGE = 4096;
const MIB = 1024 * 1024;

/** "2 MiB aligned" address for mappings kreplay places with map_aligned()
 *  where the model would otherwise choose a page-aligned start (tmpfs). */
const ALIGNED_ADDR = '0x7f0000400000';

const mmap = (name, o = {}) => ({ mmap: { task: 'app', name, file: 'data', prot: 'read', shared: true, ...o } });
const list = (map, pages, op = 'read') => ({ access: { task: 'app', map, op, pattern: 'list', pages } });
/** pages from..to (inclusive) in increasing order */
const seq = (map, from, to, op = 'read') => ({
  access: { task: 'app', map, op, pattern: 'sequential', offset: from * PAGE, length: (to - from + 1) * PAGE },
});
const disk = (pages, cached = 'none') => ({ data: { size: pages * PAGE, cached } });

function K1() {
  return {
    id: 'K1',
    what: 'cold 4 MiB file (1024 pages): read 0..1023 in order',
    files: disk(1024),
    phases: [[mmap('m'), seq('m', 0, 1023)]],
  };
}

function K2() {
  return {
    id: 'K2',
    what: 'cold 1024-page file: mapping W touches 40, 300, 700 → a second mapping M of the same fd reads 0..1023',
    files: disk(1024),
    phases: [
      [mmap('w'), list('w', [40, 300, 700])],
      [mmap('m'), seq('m', 0, 1023)],
    ],
  };
}

function K3(v, P) {
  const n = 1024;
  const base = { id: `K3 ${v} ${P}`, files: disk(n) };
  switch (v) {
    case 'a':
      return {
        ...base,
        what: `cold 1024-page file: touch ${P} → read 0..1023`,
        phases: [[mmap('m'), list('m', [P])], [seq('m', 0, n - 1)]],
      };
    case 'b':
      return {
        ...base,
        what: `cold 1024-page file: touch ${P} → read ${P + 1}..1023`,
        phases: [[mmap('m'), list('m', [P])], [seq('m', P + 1, n - 1)]],
      };
    case 'c':
      return { ...base, what: `cold 1024-page file: read ${P}..1023`, phases: [[mmap('m'), seq('m', P, n - 1)]] };
    case 'd':
      return {
        ...base,
        what: `cold 1024-page file: touch ${P} → read ${P}..1023`,
        phases: [[mmap('m'), list('m', [P])], [seq('m', P, n - 1)]],
      };
  }
  throw new Error(`K3: bad variant ${v}`);
}

function K4(N, pre) {
  if (pre)
    return {
      id: `K4 ${N} pre`,
      what: `cold ${N}-page file: touch ${N - 5} → read 0..${N - 1}`,
      files: disk(N),
      phases: [[mmap('m'), list('m', [N - 5])], [seq('m', 0, N - 1)]],
    };
  return {
    id: `K4 ${N}`,
    what: `cold ${N}-page file: read 0..${N - 1}`,
    files: disk(N),
    phases: [[mmap('m'), seq('m', 0, N - 1)]],
  };
}

function K5(v) {
  if (v === 'sparse')
    return {
      id: 'K5 sparse',
      memory: '256MiB',
      placement: 'm',
      what: 'tmpfs, 4 MiB file made by ftruncate (no pages), shared read-only, 2 MiB aligned: read all',
      files: { data: { size: 4 * MIB, cached: 'none', fs: 'tmpfs' } },
      phases: [[mmap('m', { addr: ALIGNED_ADDR }), seq('m', 0, 1023)]],
    };
  const n = (256 * MIB) / PAGE;
  const m = {
    i: { o: {}, what: 'shared, NULL hint' },
    ii: { o: { addr: ALIGNED_ADDR }, what: 'shared, 2 MiB aligned' },
    iii: { o: { shared: false }, what: 'private, NULL hint' },
  }[v];
  if (!m) throw new Error(`K5: bad variant ${v}`);
  return {
    id: `K5 ${v}`,
    memory: '1GiB',
    placement: 'm',
    what: `tmpfs, 256 MiB file written with write(), mapped read-write ${m.what}: read all → write all`,
    files: { data: { size: 256 * MIB, cached: 'all', fs: 'tmpfs' } },
    phases: [[mmap('m', { prot: 'read-write', ...m.o }), seq('m', 0, n - 1)], [seq('m', 0, n - 1, 'write')]],
  };
}

function K6() {
  return {
    id: 'K6',
    sigbus: true,
    what: 'cached 3-page file mapped as 4 pages: touch 0 → touch 3 (beyond EOF: SIGBUS)',
    files: disk(3, 'all'),
    phases: [[mmap('m', { length: 4 * PAGE }), list('m', [0])], [list('m', [3])]],
  };
}

function K8(N, P) {
  return {
    id: `K8 ${N} ${P}`,
    what: `cold ${N}-page file: touch ${P} → read ${P + 1}..${N - 1}`,
    files: disk(N),
    phases: [[mmap('m'), list('m', [P])], [seq('m', P + 1, N - 1)]],
  };
}

/** Every case, in the order of the table. `id` is the kreplay argument list
 *  after DIR and RUNS, as printed on its "== kreplay ... case: ID" line. */
export const CASES = [
  K1(),
  K2(),
  ...[17, 40, 100, 200, 513].flatMap((P) => ['a', 'b', 'c', 'd'].map((v) => K3(v, P))),
  ...[20, 40, 72, 100, 150, 300, 333, 1000, 1025, 1030].map((N) => K4(N, false)),
  ...[100, 300, 1030].map((N) => K4(N, true)),
  ...['i', 'ii', 'iii', 'sparse'].map(K5),
  K6(),
  ...[50, 60, 63, 70, 100, 108, 120, 333].flatMap((N) => [17, 40].map((P) => K8(N, P))),
  K8(1024, 17),
];

// ---------------------------------------------------------------- YAML

function scalar(v) {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(scalar).join(', ')}]`;
  return /^[a-z][a-z0-9_-]*$/i.test(v) && !/^(true|false|null|yes|no|on|off)$/i.test(v) ? v : JSON.stringify(v);
}
const flow = (o) =>
  `{ ${Object.entries(o)
    .map(([k, v]) => `${k}: ${scalar(v)}`)
    .join(', ')} }`;

/** the case as a scenario that runs setup + phases 1..k (default: all) */
export function scenarioYaml(c, k = c.phases.length) {
  const lines = [
    `name: ${JSON.stringify(`kernel-check ${c.id}${k < c.phases.length ? ` (phases 1..${k})` : ''}`)}`,
    `about: ${JSON.stringify(`Generated by tools/kernel-check/cases.mjs: ${c.what}`)}`,
    'seed: 1',
    `machine: { memory: ${c.memory ?? '256MiB'} }`,
    'files:',
    /* the kernel side mounts ext4 data=journal: order-0 page-cache folios (tmpfs is huge=never) */
    ...Object.entries(c.files).map(
      ([name, f]) => `  ${name}: ${flow(f.fs === 'tmpfs' ? f : { ...f, large_folios: false })}`,
    ),
    'processes:',
    '  app: { threads: 1 }',
    'steps:',
  ];
  c.phases.slice(0, k).forEach((steps, i) => {
    lines.push(`  - say: ${JSON.stringify(`phase ${i + 1}`)}`);
    for (const st of steps) {
      const [kind, body] = Object.entries(st)[0];
      lines.push(`  - ${kind}: ${flow(body)}`);
    }
  });
  return `${lines.join('\n')}\n`;
}

/** a scenario with the case's first mmap only: run with --events to learn where the model places it */
export function placementYaml(c) {
  const first = c.phases[0].find((st) => st.mmap && st.mmap.name === c.placement);
  return scenarioYaml({ ...c, phases: [[first]] }, 1);
}

/** the mapping's start address from the --events output of placementYaml() */
export function parsePlacement(eventsText) {
  const m = /mmsim_vma_add\s+new VMA \[(0x[0-9a-f]+),/.exec(eventsText);
  return m ? BigInt(m[1]) : null;
}

/**
 * Per-phase numbers from the model's --json outputs of scenarioYaml(c, 1..n)
 * (in that order). Task app.0's maj_flt/min_flt are what getrusage reports;
 * `pgfault` is the global vmstat counter (it also counts faults that end in
 * SIGBUS, which the task counters do not).
 */
export function modelPhases(outs) {
  const prev = { maj: 0, min: 0, pgfault: 0 };
  return outs.map((o) => {
    const t = o.tasks?.['app.0'] ?? {};
    const cur = { maj: t.maj_flt ?? 0, min: t.min_flt ?? 0, pgfault: o.counters?.pgfault ?? 0 };
    const d = { maj: cur.maj - prev.maj, min: cur.min - prev.min, pgfault: cur.pgfault - prev.pgfault };
    Object.assign(prev, cur);
    return d;
  });
}
