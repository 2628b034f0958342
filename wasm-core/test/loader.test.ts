import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../ts/compile.js';
import { runProgram } from '../ts/runner.js';
import { applyOverrides, parseScenario, ScenarioErrors, type Scenario } from '../ts/scenario.js';
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

interface Case { name: string; src: string; line: number; path: string; text: string }

const step = (s: string) => BASE.replace('  - access: { task: app, map: m, op: read }\n', `  - ${s}\n`);

const CASES: Case[] = [
  { name: 'YAML syntax error', src: 'name: t\nsteps: [\n', line: 3, path: '', text: 'YAML:' },
  { name: 'not a mapping', src: '- a\n- b\n', line: 1, path: '', text: 'a scenario is a mapping' },
  { name: 'missing name', src: BASE.replace('name: t\n', ''), line: 1, path: '', text: "missing required key 'name'" },
  { name: 'missing steps', src: 'name: t\n', line: 1, path: '', text: "missing required key 'steps'" },
  { name: 'unknown top-level key', src: `${BASE}stepz: []\n`, line: 9, path: 'stepz', text: "unknown key 'stepz' (did you mean 'steps'?)" },
  { name: 'unknown tunable', src: `kernel:\n  fault_around_byte: 4096\n${BASE}`, line: 2, path: 'kernel.fault_around_byte', text: "did you mean 'fault_around_bytes'?" },
  { name: 'window not a power of two', src: `kernel:\n  fault_around_bytes: 5000\n${BASE}`, line: 2, path: 'kernel.fault_around_bytes', text: 'must be a power of two' },
  { name: 'window too large', src: `kernel:\n  fault_around_bytes: 4MiB\n${BASE}`, line: 2, path: 'kernel.fault_around_bytes', text: 'must be at most 2 MiB' },
  { name: 'bad enum', src: `kernel:\n  vmacache: per-cpu\n${BASE}`, line: 2, path: 'kernel.vmacache', text: 'must be one of per-thread, mm-wide' },
  { name: 'bad size text', src: BASE.replace('size: 1MiB', 'size: 16 gigs'), line: 3, path: 'files.data.size', text: 'expected a size' },
  { name: 'fractional size', src: BASE.replace('size: 1MiB', 'size: 1.5GiB'), line: 3, path: 'files.data.size', text: 'expected a size' },
  { name: 'bad cached value', src: BASE.replace('cached: all', 'cached: some'), line: 3, path: 'files.data.cached', text: 'must be one of all, none' },
  { name: 'bad file name', src: BASE.replace('  data:', '  Data:'), line: 3, path: 'files.Data', text: 'expected a name' },
  { name: 'zero threads', src: BASE.replace('threads: 2', 'threads: 0'), line: 5, path: 'processes.app.threads', text: 'must be between 1 and 1024' },
  { name: 'unknown step kind', src: step('mmapp: { task: app }'), line: 8, path: 'steps[1].mmapp', text: "unknown step kind 'mmapp' (did you mean 'mmap'?)" },
  { name: 'two kinds in one step', src: step('say: hi\n    access: { task: app, map: m, op: read }'), line: 8, path: 'steps[1]', text: 'a step has exactly one kind' },
  { name: 'mmap without prot', src: BASE.replace(', prot: read }', ' }'), line: 7, path: 'steps[0].mmap', text: "missing required key 'prot'" },
  { name: 'unknown file', src: BASE.replace('file: data', 'file: dat'), line: 7, path: 'steps[0].mmap.file', text: "no file 'dat' (did you mean 'data'?)" },
  { name: 'unknown map', src: step('access: { task: app, map: mm, op: read }'), line: 8, path: 'steps[1].access.map', text: "no mmap step before this one creates a map named 'mm'" },
  { name: 'unknown process', src: step('access: { task: ap, map: m, op: read }'), line: 8, path: 'steps[1].access.task', text: "no process 'ap' (did you mean 'app'?)" },
  { name: 'thread out of range', src: step('access: { task: app.5, map: m, op: read }'), line: 8, path: 'steps[1].access.task', text: "has 2 threads (0 .. 1), so 'app.5' does not exist" },
  { name: 'stride not page sized', src: step('access: { task: app, map: m, op: read, stride: 1000 }'), line: 8, path: 'steps[1].access.stride', text: 'must be a multiple of 4 KiB' },
  { name: 'offset beyond mapping', src: step('access: { task: app, map: m, op: read, offset: 2MiB }'), line: 8, path: 'steps[1].access.offset', text: 'beyond the end of the mapping (1 MiB)' },
  { name: 'range past the end', src: step('access: { task: app, map: m, op: read, offset: 512KiB, length: 1MiB }'), line: 8, path: 'steps[1].access', text: 'runs past the end of the mapping' },
  { name: 'uniform without count', src: step('access: { task: app, map: m, op: read, pattern: uniform }'), line: 8, path: 'steps[1].access', text: "pattern 'uniform' needs count" },
  { name: 'list page out of range', src: step('access: { task: app, map: m, op: read, pattern: list, pages: [1, 256] }'), line: 8, path: 'steps[1].access.pages', text: 'page 256 is beyond the range touched (256 pages)' },
  { name: 'count with the wrong pattern', src: step('access: { task: app, map: m, op: read, count: 5 }'), line: 8, path: 'steps[1].access.count', text: "count applies to pattern 'uniform' only" },
  { name: 'unknown counter', src: step('expect: { pgfaults: 5 }'), line: 8, path: 'steps[1].expect.pgfaults', text: "unknown key 'pgfaults' (did you mean 'pgfault'?)" },
  { name: 'negative counter', src: step('expect: { pgfault: -1 }'), line: 8, path: 'steps[1].expect.pgfault', text: 'must be between 0 and' },
  { name: 'anonymous mapping without length', src: step('mmap: { task: app, name: a, prot: read }'), line: 8, path: 'steps[1].mmap', text: 'an anonymous mapping (no file) needs a length' },
  { name: 'unaligned address', src: step('mmap: { task: app, name: a, length: 4KiB, prot: read, addr: "0x7f0000000100" }'), line: 8, path: 'steps[1].mmap.addr', text: 'is not page aligned' },
  { name: 'address outside user space', src: step('mmap: { task: app, name: a, length: 4KiB, prot: read, addr: "0xffff800000000000" }'), line: 8, path: 'steps[1].mmap.addr', text: 'outside user space' },
  { name: 'name mapped twice', src: step('mmap: { task: app, name: m, file: data, prot: read }'), line: 8, path: 'steps[1].mmap.name', text: "already has a mapping named 'm'" },
  { name: 'fork onto an existing name', src: step('fork: { task: app, child: app }'), line: 8, path: 'steps[1].fork.child', text: "a process named 'app' already exists" },
  { name: 'process used after exit', src: step('exit: { task: app }\n  - access: { task: app, map: m, op: read }'), line: 9, path: 'steps[2].access.task', text: "process 'app' has exited (line 8)" },
  { name: 'map list length', src: step('access: { task: "app.*", map: [m], op: read }'), line: 8, path: 'steps[1].access.map', text: 'one map per thread: process \'app\' has 2 threads, the list has 1' },
  { name: 'map list for one task', src: step('access: { task: app, map: [m, m], op: read }'), line: 8, path: 'steps[1].access.map', text: "the task must name every thread ('app.*')" },
  { name: 'every thread where one is needed', src: step('munmap: { task: "app.*", map: m }'), line: 8, path: 'steps[1].munmap.task', text: "names every thread" },
  { name: 'cache larger than memory', src: `machine:\n  memory: 64MiB\n${BASE.replace('size: 1MiB', 'size: 1GiB')}`, line: 5, path: 'files.data.cached', text: 'more than machine.memory (64 MiB) can hold' },
  { name: 'mmap inside a repeat', src: step('repeat: { times: 3, steps: [ { mmap: { task: app, name: r, length: 4KiB, prot: read } } ] }'), line: 8, path: 'steps[1].repeat.steps[0].mmap', text: 'inside a repeat of 3' },
  { name: 'munmap inside a repeat', src: step('repeat: { times: 2, steps: [ { access: { task: app, map: m, op: read } }, { munmap: { task: app, map: m } } ] }'), line: 8, path: 'steps[1].repeat.steps[1].munmap', text: "the second iteration would unmap 'm' again" },
  { name: 'say with a mapping', src: step('say: { text: hi }'), line: 8, path: 'steps[1].say', text: 'expected text' },
  { name: 'duplicate key', src: BASE.replace('name: t\n', 'name: t\nname: u\n'), line: 2, path: '', text: 'YAML: Map keys must be unique' },
  { name: 'steps not a list', src: 'name: t\nsteps: { mmap: {} }\n', line: 2, path: 'steps', text: 'expected a list of steps' },
  { name: 'folio fields without folio', src: step('expect: { mapcount: 1 }'), line: 8, path: 'steps[1].expect', text: 'describe a folio: add folio: { task, map, offset }' },
  { name: 'readahead_kb as text', src: `kernel:\n  readahead_kb: lots\n${BASE}`, line: 2, path: 'kernel.readahead_kb', text: "expected a whole number, got 'lots'" },
  { name: 'shared anonymous', src: step('mmap: { task: app, name: a, length: 4KiB, prot: read, shared: true }'), line: 8, path: 'steps[1].mmap.shared', text: 'shared anonymous mappings are shmem' },
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
  const re = new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g');
  for (let m = re.exec(md); m; m = re.exec(md)) out.push(m[1]);
  return out;
}

describe('scenario-format.md', () => {
  const md = readFileSync(`${repo}../shared/docs/scenario-format.md`, 'utf8');
  const blocks = codeBlocks(md, 'yaml');

  it('has its examples where we expect them', () => expect(blocks.length).toBe(2));

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
${blocks[1].replace(/^(?=.)/gm, '  ')}`;
    const s = parseScenario(src, 'scenario-format.md');
    const ex = s.steps.filter((x) => x.kind === 'expect');
    expect(ex).toHaveLength(2);
    expect(ex[1]).toMatchObject({ kind: 'expect', folio: { map: 'm', offset: 0 } });
    expect((ex[1] as { fields: { name: string; value: number }[] }).fields.map((f) => [f.name, f.value])).toEqual([
      ['mapcount', 31], ['entire_mapcount', 0], ['likely_mapped_shared', 1], ['order', 4],
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
      fault_around_bytes: 65536, vmacache: 'mm-wide', anon_prefault: 'anticipatory', anon_prefault_cap: 14,
      thp: 'madvise', mthp: [16384, 65536], large_mapcount: false, fadvise_dontneed: 'invalidate-only',
      readahead_kb: 256,
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
      'mmap', 'mmap', 'mmap', 'munmap', 'madvise', 'madvise', 'madvise', 'madvise', 'madvise', 'access', 'access',
      'access', 'access', 'read', 'write', 'fadvise', 'fadvise', 'fsync', 'fork', 'access', 'exit', 'repeat', 'expect', 'say',
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
    const s = parseScenario(JSON.stringify({
      name: 'json', files: { data: { size: '1MiB', cached: 'all' } }, processes: { app: { threads: 1 } },
      steps: [{ mmap: { task: 'app', name: 'm', file: 'data', prot: 'read' } }],
    }));
    expect(s.files[0].size).toBe(2 ** 20);
  });
});

describe('overrides (--set, UI controls)', () => {
  const s: Scenario = parseScenario(BASE);
  it('applies tunables, seed and machine keys with the same validation', () => {
    const o = applyOverrides(s, { fault_around_bytes: '4096', mthp: '[16KiB]', large_mapcount: 'false', seed: '9', 'machine.memory': '2GiB' });
    expect(o.kernel.fault_around_bytes).toBe(4096);
    expect(o.kernel.mthp).toEqual([16384]);
    expect(o.kernel.large_mapcount).toBe(false);
    expect(o.seed).toBe(9);
    expect(o.machine.memory).toBe(2 ** 31);
    expect(s.kernel.fault_around_bytes).toBe(65536); /* the original is untouched */
  });
  it('refuses unknown keys and bad values by name', () => {
    expect(() => applyOverrides(s, { fault_around: '4096' })).toThrow("--set fault_around: unknown tunable 'fault_around' (did you mean 'fault_around_bytes'?)");
    expect(() => applyOverrides(s, { fault_around_bytes: '5000' })).toThrow('--set fault_around_bytes: must be a power of two');
    expect(() => applyOverrides(s, { thp: 'sometimes' })).toThrow('--set thp: must be one of never, madvise, always');
  });
});
