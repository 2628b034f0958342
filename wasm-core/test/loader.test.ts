import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../ts/compile.js';
import { runProgram } from '../ts/runner.js';
import { parse as parseYaml } from 'yaml';
import { applyOverrides } from '../ts/overrides.js';
import { parseScenario } from '../ts/load/index.js';
import { scenarioJsonSchema, STEP_KINDS, TUNABLE_KEYS } from '../ts/load/schema.js';
import { ScenarioErrors } from '../ts/errors.js';
import type { Scenario } from '../ts/scenario.js';
import { completionsAt, docAt } from '../ts/schema/assist.js';
import { VALIDATORS } from '../ts/gen/validate-scenario.js';
import { TUNABLES } from '../ts/abi.js';
import { loadCore, repo } from './helpers.js';

/* A valid scenario; each malformed case below changes one thing. Line numbers are of this text. */
const BASE = `name: t
files:
  data: { size: 1MiB, cached: all }
processes:
  app: { threads: 2 }
steps:
  - mmap: { task: app, name: m, file: data, prot: read }
  - access: { task: app, map: m, op: read }
`;

function errorsOf(src: string, file = 'bad.yaml') {
  try {
    parseScenario(src, file);
  } catch (e) {
    if (e instanceof ScenarioErrors) return e.errors;
    throw e;
  }
  throw new Error('expected the scenario to be rejected');
}

interface Case {
  name: string;
  src: string;
  line: number;
  path: string;
  text: string;
}

const step = (s: string) => BASE.replace('  - access: { task: app, map: m, op: read }\n', `  - ${s}\n`);

const CASES: Case[] = [
  { name: 'YAML syntax error', src: 'name: t\nsteps: [\n', line: 3, path: '', text: 'YAML:' },
  { name: 'not a mapping', src: '- a\n- b\n', line: 1, path: '', text: 'a scenario is a mapping' },
  { name: 'missing name', src: BASE.replace('name: t\n', ''), line: 1, path: '', text: "missing required key 'name'" },
  { name: 'missing steps', src: 'name: t\n', line: 1, path: '', text: "missing required key 'steps'" },
  {
    name: 'unknown top-level key',
    src: `${BASE}stepz: []\n`,
    line: 9,
    path: 'stepz',
    text: "unknown key 'stepz' (did you mean 'steps'?)",
  },
  {
    name: 'unknown tunable',
    src: `kernel:\n  fault_around_byte: 4096\n${BASE}`,
    line: 2,
    path: 'kernel.fault_around_byte',
    text: "did you mean 'fault_around_bytes'?",
  },
  {
    name: 'window not a power of two',
    src: `kernel:\n  fault_around_bytes: 5000\n${BASE}`,
    line: 2,
    path: 'kernel.fault_around_bytes',
    text: 'must be a power of two',
  },
  {
    name: 'window too large',
    src: `kernel:\n  fault_around_bytes: 4MiB\n${BASE}`,
    line: 2,
    path: 'kernel.fault_around_bytes',
    text: 'must be at most 2 MiB',
  },
  {
    name: 'bad enum',
    src: `kernel:\n  vmacache: per-cpu\n${BASE}`,
    line: 2,
    path: 'kernel.vmacache',
    text: 'must be one of per-thread, mm-wide',
  },
  {
    name: 'bad size text',
    src: BASE.replace('size: 1MiB', 'size: 16 gigs'),
    line: 3,
    path: 'files.data.size',
    text: 'expected a size',
  },
  {
    name: 'fractional size',
    src: BASE.replace('size: 1MiB', 'size: 1.5GiB'),
    line: 3,
    path: 'files.data.size',
    text: 'expected a size',
  },
  {
    name: 'bad cached value',
    src: BASE.replace('cached: all', 'cached: some'),
    line: 3,
    path: 'files.data.cached',
    text: 'must be one of all, none',
  },
  {
    name: 'bad file name',
    src: BASE.replace('  data:', '  Data:'),
    line: 3,
    path: 'files.Data',
    text: 'expected a name',
  },
  {
    name: 'zero threads',
    src: BASE.replace('threads: 2', 'threads: 0'),
    line: 5,
    path: 'processes.app.threads',
    text: 'must be between 1 and 1024',
  },
  {
    name: 'unknown step kind',
    src: step('mmapp: { task: app }'),
    line: 8,
    path: 'steps[1].mmapp',
    text: "unknown step kind 'mmapp' (did you mean 'mmap'?)",
  },
  {
    name: 'two kinds in one step',
    src: step('say: hi\n    access: { task: app, map: m, op: read }'),
    line: 8,
    path: 'steps[1]',
    text: 'a step has exactly one kind',
  },
  {
    name: 'mmap without prot',
    src: BASE.replace(', prot: read }', ' }'),
    line: 7,
    path: 'steps[0].mmap',
    text: "missing required key 'prot'",
  },
  {
    name: 'unknown file',
    src: BASE.replace('file: data', 'file: dat'),
    line: 7,
    path: 'steps[0].mmap.file',
    text: "no file 'dat' (did you mean 'data'?)",
  },
  {
    name: 'unknown map',
    src: step('access: { task: app, map: mm, op: read }'),
    line: 8,
    path: 'steps[1].access.map',
    text: "no mmap step before this one creates a map named 'mm'",
  },
  {
    name: 'unknown process',
    src: step('access: { task: ap, map: m, op: read }'),
    line: 8,
    path: 'steps[1].access.task',
    text: "no process 'ap' (did you mean 'app'?)",
  },
  {
    name: 'thread out of range',
    src: step('access: { task: app.5, map: m, op: read }'),
    line: 8,
    path: 'steps[1].access.task',
    text: "has 2 threads (0 .. 1), so 'app.5' does not exist",
  },
  {
    name: 'stride not page sized',
    src: step('access: { task: app, map: m, op: read, stride: 1000 }'),
    line: 8,
    path: 'steps[1].access.stride',
    text: 'must be a multiple of 4 KiB',
  },
  {
    name: 'offset beyond mapping',
    src: step('access: { task: app, map: m, op: read, offset: 2MiB }'),
    line: 8,
    path: 'steps[1].access.offset',
    text: 'beyond the end of the mapping (1 MiB)',
  },
  {
    name: 'range past the end',
    src: step('access: { task: app, map: m, op: read, offset: 512KiB, length: 1MiB }'),
    line: 8,
    path: 'steps[1].access',
    text: 'runs past the end of the mapping',
  },
  {
    name: 'uniform without count',
    src: step('access: { task: app, map: m, op: read, pattern: uniform }'),
    line: 8,
    path: 'steps[1].access',
    text: "pattern 'uniform' needs count",
  },
  {
    name: 'list page out of range',
    src: step('access: { task: app, map: m, op: read, pattern: list, pages: [1, 256] }'),
    line: 8,
    path: 'steps[1].access.pages',
    text: 'page 256 is beyond the range touched (256 pages)',
  },
  {
    name: 'count with the wrong pattern',
    src: step('access: { task: app, map: m, op: read, count: 5 }'),
    line: 8,
    path: 'steps[1].access.count',
    text: "count applies to pattern 'uniform' only",
  },
  {
    name: 'unknown counter',
    src: step('expect: { pgfaults: 5 }'),
    line: 8,
    path: 'steps[1].expect.pgfaults',
    text: "unknown key 'pgfaults' (did you mean 'pgfault'?)",
  },
  {
    name: 'negative counter',
    src: step('expect: { pgfault: -1 }'),
    line: 8,
    path: 'steps[1].expect.pgfault',
    text: 'must be between 0 and',
  },
  {
    name: 'anonymous mapping without length',
    src: step('mmap: { task: app, name: a, prot: read }'),
    line: 8,
    path: 'steps[1].mmap',
    text: 'an anonymous mapping (no file) needs a length',
  },
  {
    name: 'unaligned address',
    src: step('mmap: { task: app, name: a, length: 4KiB, prot: read, addr: "0x7f0000000100" }'),
    line: 8,
    path: 'steps[1].mmap.addr',
    text: 'is not page aligned',
  },
  {
    name: 'address outside user space',
    src: step('mmap: { task: app, name: a, length: 4KiB, prot: read, addr: "0xffff800000000000" }'),
    line: 8,
    path: 'steps[1].mmap.addr',
    text: 'outside user space',
  },
  {
    name: 'name mapped twice',
    src: step('mmap: { task: app, name: m, file: data, prot: read }'),
    line: 8,
    path: 'steps[1].mmap.name',
    text: "already has a mapping named 'm'",
  },
  {
    name: 'fork onto an existing name',
    src: step('fork: { task: app, child: app }'),
    line: 8,
    path: 'steps[1].fork.child',
    text: "a process named 'app' already exists",
  },
  {
    name: 'process used after exit',
    src: step('exit: { task: app }\n  - access: { task: app, map: m, op: read }'),
    line: 9,
    path: 'steps[2].access.task',
    text: "process 'app' has exited (line 8)",
  },
  {
    name: 'map list length',
    src: step('access: { task: "app.*", map: [m], op: read }'),
    line: 8,
    path: 'steps[1].access.map',
    text: "one map per thread: process 'app' has 2 threads, the list has 1",
  },
  {
    name: 'map list for one task',
    src: step('access: { task: app, map: [m, m], op: read }'),
    line: 8,
    path: 'steps[1].access.map',
    text: "the task must name every thread ('app.*')",
  },
  {
    name: 'every thread where one is needed',
    src: step('munmap: { task: "app.*", map: m }'),
    line: 8,
    path: 'steps[1].munmap.task',
    text: 'names every thread',
  },
  {
    name: 'cache larger than memory',
    src: `machine:\n  memory: 64MiB\n${BASE.replace('size: 1MiB', 'size: 1GiB')}`,
    line: 5,
    path: 'files.data.cached',
    text: 'more than machine.memory (64 MiB) can hold',
  },
  {
    name: 'mmap inside a repeat',
    src: step('repeat: { times: 3, steps: [ { mmap: { task: app, name: r, length: 4KiB, prot: read } } ] }'),
    line: 8,
    path: 'steps[1].repeat.steps[0].mmap',
    text: 'inside a repeat of 3',
  },
  {
    name: 'munmap inside a repeat',
    src: step(
      'repeat: { times: 2, steps: [ { access: { task: app, map: m, op: read } }, { munmap: { task: app, map: m } } ] }',
    ),
    line: 8,
    path: 'steps[1].repeat.steps[1].munmap',
    text: "the second iteration would unmap 'm' again",
  },
  { name: 'say with a mapping', src: step('say: { text: hi }'), line: 8, path: 'steps[1].say', text: 'expected text' },
  {
    name: 'duplicate key',
    src: BASE.replace('name: t\n', 'name: t\nname: u\n'),
    line: 2,
    path: '',
    text: 'YAML: Map keys must be unique',
  },
  {
    name: 'steps not a list',
    src: 'name: t\nsteps: { mmap: {} }\n',
    line: 2,
    path: 'steps',
    text: 'expected a list of steps',
  },
  {
    name: 'folio fields without folio',
    src: step('expect: { mapcount: 1 }'),
    line: 8,
    path: 'steps[1].expect',
    text: 'describe a folio: add folio: { task, map, offset }',
  },
  {
    name: 'readahead_kb as text',
    src: `kernel:\n  readahead_kb: lots\n${BASE}`,
    line: 2,
    path: 'kernel.readahead_kb',
    text: "expected a whole number, got 'lots'",
  },
  {
    name: 'shared anonymous',
    src: step('mmap: { task: app, name: a, length: 4KiB, prot: read, shared: true }'),
    line: 8,
    path: 'steps[1].mmap.shared',
    text: 'shared anonymous mappings are shmem',
  },
  { name: 'bad JSON', src: '{"name": "t", "steps": [}', line: 1, path: '', text: 'YAML:' },
];

describe('malformed scenarios are refused with file, line and key', () => {
  it('has at least 25 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(25));
  for (const c of CASES)
    it(c.name, () => {
      const errs = errorsOf(c.src);
      const hit = errs.find((e) => e.detail.includes(c.text));
      expect(hit, `errors were:\n${errs.map((e) => e.message).join('\n')}`).toBeDefined();
      expect(hit!.line).toBe(c.line);
      expect(hit!.path).toBe(c.path);
      expect(hit!.file).toBe('bad.yaml');
      expect(hit!.message).toMatch(new RegExp(`^bad\\.yaml:${c.line}:\\d+: `));
    });

  it('reports every error, not just the first', () => {
    const errs = errorsOf(BASE.replace('size: 1MiB', 'size: x').replace('threads: 2', 'threads: -1'));
    expect(errs.map((e) => e.path)).toEqual(['files.data.size', 'processes.app.threads']);
  });
});

function codeBlocks(md: string, lang: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g');
  for (let m = re.exec(md); m; m = re.exec(md)) out.push(m[1]);
  return out;
}

describe('scenario-format.md', () => {
  const md = readFileSync(`${repo}docs/scenario-format.md`, 'utf8');
  const blocks = codeBlocks(md, 'yaml');

  it('has its examples where we expect them', () => expect(blocks.length).toBe(7));

  it('explains every top-level key, file and process key and step kind the schema has', () => {
    const S = scenarioJsonSchema() as {
      properties: Record<string, { additionalProperties?: { properties?: Record<string, unknown> } }>;
    };
    /* named in a code span: `fs`, `fs: tmpfs`, `name: { threads: N }` */
    const spans = md.match(/`[^`\n]+`/g) ?? [];
    const named = (k: string) => spans.some((c) => new RegExp(`\\b${k}\\b`).test(c));
    const keys = [
      ...Object.keys(S.properties),
      ...Object.keys(S.properties.files.additionalProperties?.properties ?? {}),
      ...Object.keys(S.properties.processes.additionalProperties?.properties ?? {}),
      ...STEP_KINDS,
    ];
    expect(keys.filter((k) => !named(k))).toEqual([]);
  });

  it('every example is a scenario or a piece of one that loads', () => {
    const maps = ['app', 'parent'].map((p) => `  - mmap: { task: ${p}, name: m, length: 1GiB, prot: read-write }\n`);
    for (const b of blocks.slice(1)) {
      const src = /^- /.test(b)
        ? `name: x\nprocesses: { app: {}, parent: {} }\nsteps:\n${maps.join('')}${b.replace(/^(?=.)/gm, '  ')}`
        : `name: x\nsteps: []\n${b}`;
      expect(() => parseScenario(src, 'scenario-format.md')).not.toThrow();
    }
  });

  it('the full example parses, compiles and runs: 256 MiB / 64 KiB = 4096 faults', async () => {
    const s = parseScenario(blocks[0], 'scenario-format.md');
    expect(s.name).toBe('Sequential read of a cached file');
    expect(s.kernel.fault_around_bytes).toBe(65536);
    expect(s.machine.memory).toBe(2 ** 30);
    expect(s.files).toMatchObject([{ name: 'data', size: 256 * 2 ** 20, cached: true }]);
    const res = runProgram(await loadCore(), compile(s));
    expect(res.status).toBe('ok');
    expect(res.counters.pgfault).toBe(4096);
  });

  it('the expect example parses as steps', () => {
    const src = `name: expect example
files:
  data: { size: 1MiB, cached: all }
processes:
  parent: {}
steps:
  - mmap: { task: parent, name: m, file: data, prot: read }
${blocks.find((b) => b.includes('folio:'))!.replace(/^(?=.)/gm, '  ')}`;
    const s = parseScenario(src, 'scenario-format.md');
    const ex = s.steps.filter((x) => x.kind === 'expect');
    expect(ex).toHaveLength(2);
    expect(ex[1]).toMatchObject({ kind: 'expect', folio: { map: 'm', offset: 0 } });
    expect((ex[1] as { fields: { name: string; value: number }[] }).fields.map((f) => [f.name, f.value])).toEqual([
      ['mapcount', 31],
      ['entire_mapcount', 0],
      ['likely_mapped_shared', 1],
      ['order', 4],
    ]);
  });

  it('every kernel tunable of the table is accepted', () => {
    const s = parseScenario(`name: t
kernel:
  fault_around_bytes: 65536
  vmacache: mm-wide
  anon_prefault: anticipatory
  anon_prefault_cap: 14
  thp: madvise
  mthp: [16KiB, 64KiB]
  large_mapcount: false
  fadvise_dontneed: invalidate-only
  readahead_kb: 256
steps: []
`);
    expect(s.kernel).toEqual({
      fault_around_bytes: 65536,
      vmacache: 'mm-wide',
      anon_prefault: 'anticipatory',
      anon_prefault_cap: 14,
      thp: 'madvise',
      mthp: [16384, 65536],
      large_mapcount: false,
      fadvise_dontneed: 'invalidate-only',
      readahead_kb: 256,
      /* the rest at their defaults: today's kernel (6.18), as the scenario names no version */
      version: '6.18',
      pagecache_large_folios: true,
      nr_pages_mapped_batching: true,
      large_folio_reuse: true,
      deferred_split_stats: 'per-size',
      unmap_drain: 'after',
      workingset: true,
      min_free_kbytes: 0,
      dirty_background_ratio: 10,
      dirty_ratio: 20,
    });
  });

  it('every step kind of the table parses, and tasks, sizes, addresses take every documented form', () => {
    const s = parseScenario(`name: all steps
files:
  data: { size: 1G }
  log: { size: 4096 }
processes:
  app: { threads: 3 }
  other:
steps:
  - mmap: { task: app, name: m, file: data, offset: 4K, length: 64M, prot: read-write, shared: true, addr: "0x7f0000000000" }
  - mmap: { task: app.1, name: a, length: 2MiB, prot: read-write, addr: 140737354137600 }
  - mmap: { task: other, name: b, length: 2MiB, prot: read }
  - munmap: { task: app, map: a, offset: 1MiB, length: 4KiB }
  - madvise: { task: app, map: m, advice: hugepage }
  - madvise: { task: app, map: m, advice: nohugepage, offset: 0, length: 4KiB }
  - madvise: { task: app, map: m, advice: random }
  - madvise: { task: app, map: m, advice: sequential }
  - madvise: { task: app, map: m, advice: dontneed, length: 8KiB }
  - access: { task: "app.*", map: m, op: read, pattern: sequential, offset: 0, length: 1MiB, stride: 8KiB }
  - access: { task: "app.*", map: [m, m, m], op: write, pattern: random }
  - access: { task: app.2, map: m, op: read, pattern: uniform, count: 100 }
  - access: { task: app, map: m, op: read, pattern: list, pages: [0, 7, 3] }
  - read: { task: app, file: data, offset: 100, length: 5000 }
  - write: { task: app, file: log, offset: 0, length: 10 }
  - fadvise: { task: app, file: data, advice: dontneed }
  - fadvise: { task: app, file: data, advice: dontneed, offset: 4096, length: 0 }
  - fsync: { task: app, file: log }
  - fork: { task: app, child: kid }
  - access: { task: kid, map: m, op: read }
  - exit: { task: kid }
  - repeat:
      times: 4
      stride: 64KiB
      steps:
        - access: { task: app, map: m, op: read, length: 64KiB }
        - expect: { pgfault: 1 }
  - expect: { task: app.1, pgfault: 0, maj_flt: 0 }
  - say: done
`);
    expect(s.steps.map((x) => x.kind)).toEqual([
      'mmap',
      'mmap',
      'mmap',
      'munmap',
      'madvise',
      'madvise',
      'madvise',
      'madvise',
      'madvise',
      'access',
      'access',
      'access',
      'access',
      'read',
      'write',
      'fadvise',
      'fadvise',
      'fsync',
      'fork',
      'access',
      'exit',
      'repeat',
      'expect',
      'say',
    ]);
    expect(s.steps[0]).toMatchObject({ offset: 4096, length: 64 * 2 ** 20, addr: 0x7f0000000000, shared: true });
    expect(s.steps[1]).toMatchObject({ addr: 140737354137600, task: { proc: 'app', thread: 1 } });
    expect(compile(s).steps).toHaveLength(26); /* 24 steps, and the repeat's 2 */
  });

  it('a repeat may map and unmap, as will-it-scale loops do, and each pass faults afresh', async () => {
    const s = parseScenario(`name: loop
files:
  data: { size: 1MiB, cached: all }
processes:
  app: {}
steps:
  - repeat:
      times: 3
      stride: 0
      steps:
        - mmap: { task: app, name: m, file: data, prot: read, shared: true }
        - access: { task: app, map: m, op: read }
        - munmap: { task: app, map: m }
        - mmap: { task: app, name: m, file: data, prot: read, shared: true }
        - munmap: { task: app, map: m }
`);
    const r = runProgram(await loadCore(), compile(s));
    /* 256 pages / 16 per 64 KiB window = 16 faults a pass */
    expect(r.counters.pgfault).toBe(3 * 16);
  });

  it('JSON is YAML', () => {
    const s = parseScenario(
      JSON.stringify({
        name: 'json',
        files: { data: { size: '1MiB', cached: 'all' } },
        processes: { app: { threads: 1 } },
        steps: [{ mmap: { task: 'app', name: 'm', file: 'data', prot: 'read' } }],
      }),
    );
    expect(s.files[0].size).toBe(2 ** 20);
  });
});

describe('overrides (--set, UI controls)', () => {
  const s: Scenario = parseScenario(BASE);
  it('applies tunables, seed and machine keys with the same validation', () => {
    const o = applyOverrides(s, {
      fault_around_bytes: '4096',
      mthp: '[16KiB]',
      large_mapcount: 'false',
      seed: '9',
      'machine.memory': '2GiB',
    });
    expect(o.kernel.fault_around_bytes).toBe(4096);
    expect(o.kernel.mthp).toEqual([16384]);
    expect(o.kernel.large_mapcount).toBe(false);
    expect(o.seed).toBe(9);
    expect(o.machine.memory).toBe(2 ** 31);
    expect(s.kernel.fault_around_bytes).toBe(65536); /* the original is untouched */
  });
  it('refuses unknown keys and bad values by name', () => {
    expect(() => applyOverrides(s, { fault_around: '4096' })).toThrow(
      "--set fault_around: unknown tunable 'fault_around' (did you mean 'fault_around_bytes'?)",
    );
    expect(() => applyOverrides(s, { fault_around_bytes: '5000' })).toThrow(
      '--set fault_around_bytes: must be a power of two',
    );
    expect(() => applyOverrides(s, { thp: 'sometimes' })).toThrow('--set thp: must be one of never, madvise, always');
  });
});

describe('extension: compare', () => {
  it('parses tunables and machine keys by their --set key, with sizes in bytes', () => {
    const s = parseScenario(
      `${BASE}compare:\n  fault_around_bytes: 4KiB\n  machine.io_latency: 30\n  mthp: [16KiB]\n  thp: always\n`,
    );
    expect(s.compare).toEqual({ fault_around_bytes: 4096, 'machine.io_latency': 30, mthp: [16384], thp: 'always' });
    expect(s.compareAt).toMatchObject({ line: 9, col: 1, path: 'compare' });
    expect(parseScenario(BASE).compare).toBeUndefined();
  });
  it('checks values exactly like kernel: and machine:', () => {
    const errs = errorsOf(
      `${BASE}compare: { fault_around_bytes: 5000, thp: sometimes, machine.memory: 1000, fault_around: 4096 }\n`,
    );
    expect(errs.map((e) => [e.line, e.path, e.detail])).toEqual([
      [9, 'compare.fault_around_bytes', 'must be a power of two from 4096 to 2097152, got 5000'],
      [9, 'compare.thp', "must be one of never, madvise, always; got 'sometimes'"],
      [9, 'compare.machine.memory', 'must be a multiple of 4 KiB (4096 bytes), got 1000'],
      [
        9,
        'compare.fault_around',
        expect.stringContaining("unknown key 'fault_around' (did you mean 'fault_around_bytes'?)"),
      ],
    ]);
    expect(errs[0].message).toMatch(/^bad\.yaml:9:32: compare\.fault_around_bytes: must be a power of two/);
  });
  it('refuses an empty comparison and one that changes nothing', () => {
    expect(errorsOf(`${BASE}compare: {}\n`)[0].detail).toContain('expected the tunables run B sets');
    const e = errorsOf(`kernel:\n  fault_around_bytes: 4096\n${BASE}compare: { fault_around_bytes: 4KiB }\n`);
    expect(e).toHaveLength(1);
    expect(e[0]).toMatchObject({ line: 11, path: 'compare' });
    expect(e[0].detail).toContain('run B would be run A');
  });
});

describe('extension: reference', () => {
  const ref = (body: string) => `${BASE}reference:\n${body}`;
  it('parses points, x written as a size for a size tunable', () => {
    const s = parseScenario(
      ref(
        `  source: "Shutemov, 2014"\n  x: fault_around_bytes\n  y: pgfault\n  points: [[4KiB, 262636], [65536, 17299], [2MiB, 1222.5]]\n`,
      ),
    );
    expect(s.reference).toEqual({
      source: 'Shutemov, 2014',
      x: 'fault_around_bytes',
      y: 'pgfault',
      points: [
        { x: 4096, y: 262636 },
        { x: 65536, y: 17299 },
        { x: 2 ** 21, y: 1222.5 },
      ],
      at: { line: 9, col: 1, path: 'reference' },
    });
  });
  it('x is a numeric tunable key, y a counter, points a non-empty list of [x, y]', () => {
    const errs = errorsOf(
      ref('  source: s\n  x: fault_around\n  y: pgfaults\n  points: [[4KiB, 1], [1, 2, 3], [x, 1], [4096, many]]\n'),
    );
    expect(errs.map((e) => [e.line, e.path])).toEqual([
      [11, 'reference.x'],
      [12, 'reference.y'],
      [13, 'reference.points[1]'],
      [13, 'reference.points[2][0]'],
      [13, 'reference.points[3][1]'],
    ]);
    expect(errs[0].detail).toContain("(did you mean 'fault_around_bytes'?)");
    expect(errs[1].detail).toContain("(did you mean 'pgfault'?)");
    expect(errs[2].detail).toBe('expected a point [x, y], got a list');
    expect(errs[4].detail).toBe("expected a number, got 'many'");
    expect(errorsOf(ref('  source: s\n  x: thp\n  y: pgfault\n  points: []\n')).map((e) => e.path)).toEqual([
      'reference.x',
      'reference.points',
    ]);
    expect(errorsOf(ref('  x: readahead_kb\n')).map((e) => e.detail)).toEqual([
      "missing required key 'source'",
      "missing required key 'y'",
      "missing required key 'points'",
    ]);
  });
  it('a size is refused as x of a tunable that is not a size', () => {
    const e = errorsOf(ref('  source: s\n  x: readahead_kb\n  y: pgfault\n  points: [[128, 5], [4KiB, 3]]\n'));
    expect(e).toHaveLength(1);
    expect(e[0]).toMatchObject({ line: 13, path: 'reference.points[1][0]' });
    expect(e[0].detail).toContain('readahead_kb is not a size');
  });
});

describe('schema errors map back to the YAML', () => {
  it('a deep ajv path names its line, column and key path', () => {
    const src = `${BASE}  - say: hello
  - repeat:
      times: 2
      steps:
        - access:
            task: app
            map: m
            op: read
            stride: 6KiB
        - say: done
`;
    const errs = errorsOf(src);
    expect(errs).toHaveLength(1);
    expect(errs[0].path).toBe('steps[3].repeat.steps[0].access.stride');
    expect(errs[0].message).toBe(
      'bad.yaml:17:21: steps[3].repeat.steps[0].access.stride: must be a multiple of 4 KiB (4096 bytes), got 6144',
    );
  });

  it('in flow style too, and two levels of repeat down', () => {
    const line =
      '  - repeat: { times: 2, steps: [ { repeat: { times: 1, steps: [ { access: { task: app, map: m, op: reed } } ] } } ] }';
    const errs = errorsOf(step(line.slice(4)));
    expect(errs.map((e) => [e.line, e.col, e.path])).toEqual([
      [8, line.indexOf('reed') + 1, 'steps[1].repeat.steps[0].repeat.steps[0].access.op'],
    ]);
    expect(errs[0].detail).toBe("must be one of read, write; got 'reed' (did you mean 'read'?)");
  });

  const ONE: [string, string, string][] = [
    ['a name that is a number', step('mmap: { task: app, name: 5, length: 4KiB, prot: read }'), 'steps[1].mmap.name'],
    ['a map that is a number', step('access: { task: app, map: 5, op: read }'), 'steps[1].access.map'],
    ['an empty map list', step('access: { task: "app.*", map: [], op: read }'), 'steps[1].access.map'],
    ['two kinds, both with errors inside', step('say: [1]\n    access: { task: 5, mapp: m }'), 'steps[1]'],
    ['an unknown step kind with a bad body', step('acess: { task: 5 }'), 'steps[1].acess'],
    ['an unknown counter', step('expect: { pgfaults: 5 }'), 'steps[1].expect.pgfaults'],
    ['a per-task counter that is not one', step('expect: { task: app, pgmajfault: 1 }'), 'steps[1].expect.pgmajfault'],
    ['a bad file name', BASE.replace('  data:', '  Data:'), 'files.Data'],
    ['kernel: as a list', `kernel: [thp]\n${BASE}`, 'kernel'],
    ['a folio without its map', step('expect: { folio: { task: app }, mapcount: 1 }'), 'steps[1].expect.folio'],
    ['a process that is not a mapping', BASE.replace('{ threads: 2 }', '5'), 'processes.app'],
    ['a step that is text', step('exit'), 'steps[1]'],
  ];
  for (const [name, src, path] of ONE)
    it(`one problem, one error: ${name}`, () => {
      const errs = errorsOf(src);
      expect(
        errs.map((e) => e.path),
        errs.map((e) => e.message).join('\n'),
      ).toEqual([path]);
    });

  it('collects every problem, in document order', () => {
    const errs = errorsOf(
      `kernel: { thp: sometimes }\n${BASE.replace('threads: 2', 'threads: x')}compare: { vmacache: per-cpu }\n`,
    );
    expect(errs.map((e) => e.path)).toEqual(['kernel.thp', 'processes.app.threads', 'compare.vmacache']);
  });
});

describe('the JSON Schema', () => {
  const schema = scenarioJsonSchema() as {
    properties: Record<string, { properties: Record<string, unknown> }>;
    $defs: { step: { properties: Record<string, unknown> } };
  };
  it('has every tunable (generated from the description) and every step kind', () => {
    expect(Object.keys(schema.properties.kernel.properties)).toEqual(TUNABLE_KEYS);
    expect(Object.keys(schema.properties.compare.properties)).toEqual([...TUNABLES.map((t) => t.key), 'without']);
    expect(Object.keys(schema.$defs.step.properties).sort()).toEqual([...STEP_KINDS].sort());
  });
  it("accepts the format document's example as plain JSON", () => {
    const md = readFileSync(`${repo}docs/scenario-format.md`, 'utf8');
    const v = VALIDATORS.scenario;
    expect(v(parseYaml(codeBlocks(md, 'yaml')[0])), JSON.stringify(v.errors)).toBe(true);
  });
});

describe('editor assistance from the schema', () => {
  const S = scenarioJsonSchema();
  const at = (t: string) => [t.replace('|', ''), t.indexOf('|')] as const;
  const labels = (t: string) => completionsAt(S, ...at(t)).map((o) => o.label);
  it('completes keys at every level, step kinds, tunables and values', () => {
    expect(labels('name: t\n|')).toEqual([
      'about',
      'seed',
      'kernel',
      'machine',
      'files',
      'processes',
      'steps',
      'compare',
      'reference',
      'letter',
    ]);
    expect(labels('kernel:\n  thp: never\n  fa|\nsteps: []\n')).toEqual(TUNABLE_KEYS.filter((k) => k !== 'thp'));
    expect(labels('steps:\n  - |\n')).toEqual(STEP_KINDS);
    expect(labels('steps:\n  - access: { task: app, | }\n')).toEqual([
      'map',
      'op',
      'pattern',
      'offset',
      'length',
      'stride',
      'count',
      'pages',
    ]);
    expect(
      labels('steps:\n  - repeat:\n      times: 2\n      steps:\n        - access:\n            pattern: |\n'),
    ).toEqual(['sequential', 'random', 'uniform', 'list']);
    expect(labels('compare: { machine.io_latency: 3, | }')).toContain('fault_around_bytes');
    expect(labels('kernel: { large_mapcount: | }')).toEqual(['true', 'false']);
    expect(labels('steps:\n  - expect: { task: app, | }')).toContain('maj_flt');
    expect(labels('steps:\n  - expect: { | }')).not.toContain('maj_flt');
  });
  it('documents tunables from the description, and steps', () => {
    const d = docAt(S, ...at('kernel:\n  fault_a|round_bytes: 4096\n'));
    expect(d?.doc.title).toBe('fault_around_bytes');
    expect(d?.doc.lines).toEqual(
      expect.arrayContaining([
        TUNABLES.find((t) => t.key === 'fault_around_bytes')!.desc,
        'default: 64 KiB',
        'kernel: 3.15',
        'mechanism: Fault-around',
      ]),
    );
    expect(docAt(S, ...at('steps:\n  - acc|ess: { task: app }\n'))?.doc).toEqual({
      title: 'step: access',
      lines: ['touch memory from user space, one byte per touched page'],
    });
    expect(docAt(S, ...at('compare: { machine.io_la|tency: 3 }'))?.doc.title).toBe('machine.io_latency');
  });
});

describe('the README', () => {
  it('shows scenarios/fault-around/sequential.yaml as shipped (less its about:)', () => {
    const readme = readFileSync(`${repo}README.md`, 'utf8');
    const shown = parseYaml(codeBlocks(readme, 'yaml')[0]);
    const { about: _, ...shipped } = parseYaml(readFileSync(`${repo}scenarios/fault-around/sequential.yaml`, 'utf8'));
    expect(shown).toEqual(shipped);
  });
});

describe('docs/reference.md', () => {
  it('is the reference the loader writes from its descriptions (node scripts/gen-interface.mjs)', async () => {
    const { referenceMarkdown } = await import('../ts/load/reference.js');
    const doc = readFileSync(`${repo}docs/reference.md`, 'utf8');
    const want = referenceMarkdown();
    const a = doc.split('\n'),
      b = want.split('\n');
    const i = a.findIndex((line, k) => line !== b[k]);
    expect(
      i < 0 && a.length === b.length ? null : `line ${i + 1}: has\n  ${a[i]}\nshould be\n  ${b[i]}`,
      'docs/reference.md is stale: run node scripts/gen-interface.mjs',
    ).toBeNull();
  });
});
