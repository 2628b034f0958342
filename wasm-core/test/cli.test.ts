import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUIRED_COUNTERS } from '../ts/abi.js';
import { sim, simProcess } from './cli-run.js';
import { repo } from './helpers.js';

/* where sequential.yaml expects pgfault 256 (its line moves as the scenario is edited) */
const SEQ_EXPECT = `scenarios/fault-around/sequential.yaml:${
  readFileSync(join(repo, 'scenarios/fault-around/sequential.yaml'), 'utf8')
    .split('\n')
    .findIndex((l) => /^\s*- expect:.*pgfault: 256/.test(l)) + 1
}: steps[5].expect.pgfault`;

const dir = mkdtempSync(join(tmpdir(), 'mmplay-cli-'));
function scenario(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const OK = `name: ok
files:
  data: { size: 1MiB, cached: all }
processes:
  app: {}
steps:
  - mmap: { task: app, name: m, file: data, prot: read }
  - access: { task: app, map: m, op: read }
`;

describe('npm run sim', () => {
  it('--json prints the contract object and exits 0', () => {
    const r = sim('scenarios/fault-around/sequential.yaml', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(Object.keys(j)).toEqual(expect.arrayContaining(['name', 'kernel', 'counters', 'tasks', 'steps']));
    expect(j.name).toBe('Sequential read of a cached file');
    for (const c of REQUIRED_COUNTERS) expect(typeof j.counters[c]).toBe('number');
    expect(j.kernel).toMatchObject({ fault_around_bytes: 65536, vmacache: 'per-thread', readahead_kb: 128 });
    expect(Object.keys(j.tasks)).toEqual(['app.0']);
    // one find_vma per fault; only the first misses (the cache starts empty)
    expect(j.tasks['app.0']).toMatchObject({ pgfault: 256, vmacache_find_calls: 256, vmacache_find_hits: 255 });
    expect(j.steps).toBe(6);
  });

  it('acceptance: pgfault = 64 KiB windows of the file, and pages with fault-around off', () => {
    const on = JSON.parse(sim('scenarios/fault-around/sequential.yaml', '--json').out);
    expect(on.counters.pgfault).toBe((16 * 2 ** 20) / 65536);
    const off = sim('scenarios/fault-around/sequential.yaml', '--json', '--set', 'fault_around_bytes=4096');
    /* the scenario's own expect (256) is about its own 64 KiB: with --set it is a note, not a failure */
    expect(off.code).toBe(0);
    const j = JSON.parse(off.out);
    expect(j.counters.pgfault).toBe((16 * 2 ** 20) / 4096);
    expect(j.kernel.fault_around_bytes).toBe(4096);
    expect(j.status).toBe('ok');
    expect(j.expect_failures).toEqual([]);
    expect(j.expect_notes).toEqual([
      `${SEQ_EXPECT}: the scenario expected pgfault 256 with fault_around_bytes 64 KiB; this run (fault_around_bytes 4 KiB) gives 4,096`,
    ]);
    expect(off.err).toBe(''); /* --json: the notes are in the object */
  });

  it('--set with informational expects: exit 0, the note on stderr', () => {
    const r = sim('scenarios/fault-around/sequential.yaml', '--set', 'fault_around_bytes=4096');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^pgfault\s+4,096$/m);
    expect(r.err).toContain(
      `note: ${SEQ_EXPECT}: the scenario expected pgfault 256 with fault_around_bytes 64 KiB; this run (fault_around_bytes 4 KiB) gives 4,096`,
    );
    expect(r.err).not.toContain('failed');
    /* --set to the scenario's own value keeps its expects binding */
    const same = sim(
      scenario('fail-set.yaml', `${OK}  - expect: { pgfault: 15 }\n`),
      '--set',
      'fault_around_bytes=64KiB',
    );
    expect(same.code).toBe(1);
  });

  it('refuses a page cache too big for the simulator before filling it (exit 2, at the cached key)', () => {
    const f = scenario(
      'huge.yaml',
      `name: huge
machine: { memory: 600GiB }
files:
  data: { size: 512GiB, cached: all }
processes:
  app: {}
steps:
  - mmap: { task: app, name: m, file: data, prot: read }
`,
    );
    const t0 = performance.now();
    const r = sim(f, '--json');
    expect(performance.now() - t0).toBeLessThan(5_000); /* it took 18 s of filling before */
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    /* the limits (limits.ts) refuse it from the scenario alone, at the cached key */
    expect(r.err).toContain(
      `${f}:4:25: files.data.cached: this scenario needs about 6.7 × 10⁷ operations, about 7 s of work, over the limit of 5 × 10⁷`,
    );
    expect(r.err).toContain(
      `${f}:4:25: files.data.cached: this scenario may need up to 7.6 GiB of simulator memory (1.3 × 10⁸ pages, most of them the page cache cached: all fills), over the limit of 768 MiB for simulator memory (limit memory: the most it can be is 3.5 GiB)`,
    );
    /* raised as far as it goes, memory still refuses it, before any filling */
    const raisedRun = sim(f, '--json', '--limit', 'operations=2e8', '--limit', 'memory=3.5GiB');
    expect(raisedRun.code).toBe(2);
    expect(raisedRun.err.trim().split('\n')).toEqual([
      `${f}:4:25: files.data.cached: this scenario may need up to 7.6 GiB of simulator memory (1.3 × 10⁸ pages, most of them the page cache cached: all fills), over the limit of 3.5 GiB for simulator memory (limit memory: the most it can be is 3.5 GiB)`,
    ]);
  });

  it('--events prints one sentence per event', () => {
    const r = sim('scenarios/fault-around/cold-sequential.yaml', '--events');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^#\d+ step 2 app\.0 {2}page_cache_sync_ra {2}readahead of data: 32 pages from page 0/m);
    expect(r.out).toMatch(/PG_readahead set on page 24 of data/);
    expect(r.out).toContain('retried (FAULT_FLAG_TRIED) page fault at 0x7f0000000000');
    expect(r.out).toMatch(/^pgfault\s+65$/m);
  });

  it('prints a readable table without --json', () => {
    const r = sim(scenario('ok.yaml', OK));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^pgfault\s+16$/m);
    expect(r.out).toContain("the model's own (no kernel counter)");
  });

  it('exits 1 when an expect fails, naming the key line and expected vs actual', () => {
    const r = sim(scenario('fail.yaml', `${OK}  - expect:\n      pgfault: 15\n      pgmajfault: 0\n`));
    expect(r.code).toBe(1);
    expect(r.err).toContain('fail.yaml:10: steps[2].expect.pgfault: expected pgfault = 15, got 16');
    expect(r.err).toContain('1 expect check failed');
  });

  it('exits 2 on invalid input with file, line and key', () => {
    const r = sim(scenario('bad.yaml', OK.replace('op: read', 'op: reed')));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /bad\.yaml:8:\d+: steps\[1\]\.access\.op: must be one of read, write; got 'reed' \(did you mean 'read'\?\)/,
    );
    expect(r.out).toBe('');
  });

  it('exits 2 on an impossible request found while running (SIGSEGV after munmap)', () => {
    const r = sim(
      scenario(
        'segv.yaml',
        `${OK}  - munmap: { task: app, map: m, offset: 512KiB }\n  - access: { task: app, map: m, op: read }\n`,
      ),
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /segv\.yaml:10: steps\[3\]\.access: SIGSEGV: app\.0 touched 0x7f0000080000, where no VMA is mapped/,
    );
  });

  it('exits 2 when the machine runs out of memory', () => {
    const r = sim(
      scenario(
        'oom.yaml',
        `name: oom
machine: { memory: 4MiB }
processes:
  app: {}
steps:
  - mmap: { task: app, name: h, length: 16MiB, prot: read-write }
  - access: { task: app, map: h, op: write }
`,
      ),
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/oom\.yaml:7: steps\[1\]\.access: out of memory: machine\.memory \(4 MiB\) is exhausted/);
  });

  it('exits 2 for a mapping the core does not run yet, at its line', () => {
    const r = sim(
      scenario('later.yaml', `${OK}  - mmap: { task: app, name: s, length: 4KiB, prot: read-write, shared: true }\n`),
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /later\.yaml:9:65: steps\[2\]\.mmap\.shared: shared anonymous mappings are shmem, which the model does not run yet/,
    );
  });

  it('exits 2 on a missing file, a bad option or a bad --set', () => {
    expect(sim('no/such.yaml').code).toBe(2);
    expect(sim('no/such.yaml').err).toContain('no/such.yaml: cannot read: ENOENT');
    const opt = sim('scenarios/fault-around/sequential.yaml', '--jsn');
    expect(opt.code).toBe(2);
    expect(opt.err).toContain("unknown option '--jsn'");
    const set = sim('scenarios/fault-around/sequential.yaml', '--set', 'fault_around_bytes=3');
    expect(set.code).toBe(2);
    expect(set.err).toContain('--set fault_around_bytes: must be at least 4 KiB');
    expect(sim().code).toBe(2);
  });

  it('--help lists the new flags and every tunable from the description', () => {
    const r = sim('--help');
    expect(r.code).toBe(0);
    for (const flag of ['--compare key=value', '--sweep key', '--sweep key=v1,v2,...', '--csv'])
      expect(r.out).toContain(flag);
    expect(r.out).toMatch(/^ {2}fault_around_bytes +power of two, 4 KiB \.\. 2 MiB +default 64 KiB$/m);
    expect(r.out).toMatch(/^ {2}vmacache +per-thread \| mm-wide \| off +default off$/m);
    expect(r.out).toMatch(/^ {2}machine\.io_latency +0 \.\. 1000000 operations +default 0 operations$/m);
    expect(r.out).toMatch(/^ {2}machine\.writeback_latency +1 \.\. 1000000 operations +default 20 operations$/m);
    expect(r.out).toMatch(/^ {2}seed +a whole number +default 1$/m);
  });
});

/*
 * The tests above and below run the CLI in this process (cli-run.ts); these run it as docs/cli.md does, a
 * process per run: the script, the bundle it builds, the process's streams and exit status. Every kind
 * of outcome gives the same output and status both ways.
 */
describe('npm run sim as a process', () => {
  const ways: [string, number, string[]][] = [
    ['a table', 0, ['scenarios/vma-cache/boot.yaml']],
    ['a note on stderr', 0, ['scenarios/fault-around/sequential.yaml', '--set', 'fault_around_bytes=4096']],
    ['--events beside --json (to stderr)', 0, ['scenarios/fault-around/cold-sequential.yaml', '--json', '--events']],
    ['--compare', 0, ['scenarios/fault-around/sequential.yaml', '--compare', 'vmacache=mm-wide']],
    [
      '--sweep --csv',
      0,
      ['scenarios/fault-around/sequential.yaml', '--sweep', 'fault_around_bytes=4096,65536', '--csv'],
    ],
    ['an exercise graded', 1, ['scenarios/fault-around/window.tour.yaml', '--seed', '2', '--check', 'faults=3']],
    ['--help', 0, ['--help']],
    ['a missing file', 2, ['no/such.yaml']],
    ['an unknown option', 2, ['scenarios/fault-around/sequential.yaml', '--jsn']],
    ['no file', 2, []],
  ];
  for (const [what, code, args] of ways)
    it(`${what}, exit ${code}: the same output and exit status as in a test's process`, () => {
      /* setup's own lines (a core rebuilt after a C change) are the script's, not the CLI's */
      const run = simProcess(...args);
      const p = { ...run, err: run.err.replace(/^\[setup\].*\n/gm, '') };
      expect(p.err).not.toContain('internal error');
      expect(p.code, p.err).toBe(code);
      expect(p).toEqual(sim(...args));
    });

  it('an expect that fails exits 1 (the process exit status)', () => {
    const r = simProcess(scenario('fail-process.yaml', `${OK}  - expect:\n      pgfault: 15\n`));
    expect(r.code).toBe(1);
    expect(r.err).toContain('fail-process.yaml:10: steps[2].expect.pgfault: expected pgfault = 15, got 16');
  });
});

describe('npm run sim --compare / --sweep', () => {
  const SEQ = 'scenarios/fault-around/sequential.yaml';

  it("--compare fault_around_bytes=4096 --json: A, B and B-A; B's expect is a note", () => {
    const r = sim(SEQ, '--compare', 'fault_around_bytes=4096', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(Object.keys(j)).toEqual(['a', 'b', 'diff']);
    for (const x of [j.a, j.b]) {
      expect(Object.keys(x)).toEqual(expect.arrayContaining(['name', 'kernel', 'counters', 'tasks', 'steps']));
      for (const c of REQUIRED_COUNTERS) expect(typeof x.counters[c]).toBe('number');
    }
    expect(j.a.kernel.fault_around_bytes).toBe(65536);
    expect(j.b.kernel.fault_around_bytes).toBe(4096);
    expect(j.a.counters.pgfault).toBe(256);
    expect(j.b.counters.pgfault).toBe(4096);
    expect(j.diff.pgfault).toBe(3840);
    expect(j.diff.fault_around_calls).toBe(-256);
    expect(j.diff.touches).toBe(0);
    expect(j.a.expect_notes).toEqual([]);
    expect(j.a.status).toBe('ok');
    expect(j.b.status).toBe('ok');
    expect(j.b.expect_notes[0]).toContain(
      'the scenario expected pgfault 256 with fault_around_bytes 64 KiB; this run (fault_around_bytes 4 KiB) gives 4,096',
    );
  });

  it('--compare prints a table of A, B and B-A, marking the differences', () => {
    const r = sim(SEQ, '--compare', 'fault_around_bytes=4096');
    expect(r.code).toBe(0);
    expect(r.out).toContain('A: fault_around_bytes 64 KiB\nB: fault_around_bytes 4 KiB');
    expect(r.out).toMatch(/^pgfault\s+256\s+4,096\s+\+3,840\s+\*$/m);
    expect(r.out).toMatch(/^touches\s+4,096\s+4,096\s+0$/m);
    expect(r.out).toMatch(/counters 0 in both runs not shown/);
    expect(r.out).not.toMatch(/^pgmajfault/m); /* 0 in both: folded */
    expect(r.err).toContain(`run B: note: ${SEQ_EXPECT}: the scenario expected pgfault 256`);
  });

  it('--compare applies on top of --set, and A with a --set has notes too', () => {
    const r = sim(SEQ, '--set', 'fault_around_bytes=4096', '--compare', 'fault_around_bytes=16KiB', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect([j.a.counters.pgfault, j.b.counters.pgfault, j.diff.pgfault]).toEqual([4096, 1024, -3072]);
    expect(j.a.expect_notes).toHaveLength(1);
    expect(j.b.expect_notes).toHaveLength(1);
  });

  it('--sweep fault_around_bytes --csv: one line per power of two, plain numbers', () => {
    const r = sim(SEQ, '--sweep', 'fault_around_bytes', '--csv');
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    const head = lines[0].split(',');
    expect(head.slice(0, 3)).toEqual(['value', 'pgfault', 'pgmajfault']);
    expect(head).toEqual(expect.arrayContaining([...REQUIRED_COUNTERS, 'touches', 'fault_around_calls']));
    const rows = lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [head[i], Number(v)])));
    expect(rows.map((x) => x.value)).toEqual([
      4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152,
    ]);
    expect(rows[0].pgfault).toBe(4096);
    expect(rows[4].pgfault).toBe(256);
    for (const x of rows) expect(x.pgfault).toBe((16 * 2 ** 20) / x.value);
    expect(r.err).toContain('run fault_around_bytes 4 KiB: note:'); /* not a failure */
  });

  it('--sweep fault_around_bytes=4096,65536 --json: the runs in that order', () => {
    const r = sim(SEQ, '--sweep', 'fault_around_bytes=4096,65536', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(Array.isArray(j)).toBe(true);
    expect(j).toHaveLength(2);
    expect(j.map((x: { kernel: { fault_around_bytes: number } }) => x.kernel.fault_around_bytes)).toEqual([
      4096, 65536,
    ]);
    expect(j.map((x: { counters: { pgfault: number } }) => x.counters.pgfault)).toEqual([4096, 256]);
    expect(j[0].expect_notes).toHaveLength(1);
    expect(j[1].expect_notes).toEqual([]);
    expect(j[1].status).toBe('ok');
    /* key:v1,v2 is the same sweep */
    expect(
      JSON.parse(sim(SEQ, '--sweep', 'fault_around_bytes:65536,4096', '--json').out).map(
        (x: { counters: { pgfault: number } }) => x.counters.pgfault,
      ),
    ).toEqual([256, 4096]);
  });

  it('--sweep prints a row per value with the headline counters', () => {
    const r = sim(SEQ, '--sweep', 'fault_around_bytes=4KiB,64KiB,2MiB');
    expect(r.code).toBe(0);
    // every fault looks its VMA up once: find_vma calls follow pgfault, and all but the first hit
    expect(r.out).toMatch(
      /^fault_around_bytes\s+pgfault\s+pgmajfault\s+vmacache_find_calls\s+vmacache_find_hits\s+fault_around_calls\s+fault_around_mapped$/m,
    );
    expect(r.out).toMatch(/^4 KiB\s+4,096\s+0\s+4,096\s+4,095\s+0\s+0$/m);
    expect(r.out).toMatch(/^64 KiB \*\s+256\s+0\s+256\s+255\s+256\s+3,840$/m);
    expect(r.out).toMatch(/^2 MiB\s+8\s+0\s+8\s+7\s+8\s+4,088$/m);
    expect(r.out).toContain('the same in every run: ');
  });

  it("exits 1 when a run with the scenario's own tunables fails an expect, naming the run", () => {
    const f = scenario('wrong.yaml', `${OK}  - expect: { pgfault: 15 }\n`);
    const c = sim(f, '--compare', 'fault_around_bytes=4096');
    expect(c.code).toBe(1);
    expect(c.err).toContain(`run A: ${f}:9: steps[2].expect.pgfault: expected pgfault = 15, got 16`);
    expect(c.err).toContain(
      `run B: note: ${f}:9: steps[2].expect.pgfault: the scenario expected pgfault 15 with fault_around_bytes 64 KiB; this run (fault_around_bytes 4 KiB) gives 256`,
    );
    const s = sim(f, '--sweep', 'fault_around_bytes=4096,65536', '--json');
    expect(s.code).toBe(1);
    const j = JSON.parse(s.out);
    expect(j[1].status).toBe('expect-failed');
    expect(j[1].expect_failures).toEqual([`${f}:9: steps[2].expect.pgfault: expected pgfault = 15, got 16`]);
    expect(j[0].expect_failures).toEqual([]);
    expect(s.err).toContain(
      `run fault_around_bytes 64 KiB: ${f}:9: steps[2].expect.pgfault: expected pgfault = 15, got 16`,
    );
  });

  it('exits 2 on an unknown sweep key (with the list and a suggestion), a bad value, or --compare with --sweep', () => {
    const nope = sim(SEQ, '--sweep', 'nope');
    expect(nope.code).toBe(2);
    expect(nope.out).toBe('');
    expect(nope.err).toContain("--sweep nope: unknown tunable 'nope'; tunables: version, fault_around_bytes, ");
    expect(sim(SEQ, '--sweep', 'fault_around_byte').err).toContain("(did you mean 'fault_around_bytes'?)");
    const bad = sim(SEQ, '--sweep', 'fault_around_bytes=4096,3');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--sweep fault_around_bytes: must be at least 4 KiB');
    const cmp = sim(SEQ, '--compare', 'vmacache=mm-wid');
    expect(cmp.code).toBe(2);
    expect(cmp.err).toMatch(/^--compare vmacache: .*per-thread, mm-wide/m);
    const both = sim(SEQ, '--compare', 'fault_around_bytes=4096', '--sweep', 'vmacache');
    expect(both.code).toBe(2);
    expect(both.err).toContain('--compare and --sweep do not go together');
    expect(sim(SEQ, '--csv').code).toBe(2);
    expect(sim(SEQ, '--sweep', 'seed').err).toContain('seed has no default sweep domain');
  });
});

describe('npm run sim: the VMA cache', () => {
  it("ebizzy --json --compare vmacache=mm-wide: per-task calls and hits of both runs, the seed's contrast", () => {
    const r = sim('scenarios/vma-cache/ebizzy.yaml', '--json', '--compare', 'vmacache=mm-wide');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.a.kernel.vmacache).toBe('per-thread');
    expect(j.b.kernel.vmacache).toBe('mm-wide');
    const tasks = Object.keys(j.a.tasks);
    expect(tasks).toEqual(['ebizzy.0', 'ebizzy.1', 'ebizzy.2', 'ebizzy.3']);
    for (const t of tasks) {
      /* the same lookups in both runs (the fault path and munmap do not depend on the cache) */
      expect(j.a.tasks[t].vmacache_find_calls).toBe(7184);
      expect(j.b.tasks[t].vmacache_find_calls).toBe(7184);
      /* per-thread: one miss per thread per round, plus munmap's; mm-wide: every lookup misses */
      expect(j.a.tasks[t].vmacache_find_hits).toBeGreaterThanOrEqual(7160);
      expect(j.b.tasks[t].vmacache_find_hits).toBe(0);
      expect(j.a.vmacache_hit_rate.tasks[t]).toBeGreaterThan(0.995);
    }
    expect(j.a.vmacache_hit_rate.all).toBeCloseTo(28648 / 28736, 6);
    expect(j.b.vmacache_hit_rate.all).toBe(0);
    expect(j.diff.vmacache_find_hits).toBe(-28648);
    const table = sim('scenarios/vma-cache/ebizzy.yaml', '--compare', 'vmacache=mm-wide');
    expect(table.out).toMatch(/^all tasks +99\.69% +0\.00%$/m);
  });

  it("docs/mechanisms/vma-cache.md's table gives every scenario's counts under both settings", () => {
    const readme = readFileSync(join(repo, 'docs/mechanisms/vma-cache.md'), 'utf8');
    const dir = join(repo, 'scenarios/vma-cache');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml') && !f.endsWith('.tour.yaml'))
      .sort();
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const f of files) {
      const j = JSON.parse(sim(`scenarios/vma-cache/${f}`, '--json', '--compare', 'vmacache=mm-wide').out);
      const pctOf = (r: { counters: Record<string, number> }) =>
        `${((100 * r.counters.vmacache_find_hits) / r.counters.vmacache_find_calls).toFixed(2)}%`;
      const cells = [
        j.a.counters.vmacache_find_calls,
        j.b.counters.vmacache_find_hits,
        pctOf(j.b),
        j.a.counters.vmacache_find_hits,
        pctOf(j.a),
      ].map((x) => (typeof x === 'number' ? x.toLocaleString('en-US') : x));
      const row = `| [\`${f.replace(/\.yaml$/, '')}\`](../../scenarios/vma-cache/${f}) | ${cells.join(' | ')} |`;
      expect(readme, `docs row for ${f}`).toContain(row);
    }
  });
});

describe('npm run sim: the LRU and fadvise(DONTNEED)', () => {
  const BACKUP = 'scenarios/lru/backup.yaml';
  const run = () => JSON.parse(sim(BACKUP, '--json', '--compare', 'fadvise_dontneed=invalidate-only').out);

  it("backup: 2.6.39's deactivation keeps the working set, 2.6.38 loses it: the seed's direction", () => {
    const j = run();
    const a = j.a.counters,
      b = j.b.counters;
    expect(j.a.kernel.fadvise_dontneed).toBe('deactivate');
    expect(j.b.kernel.fadvise_dontneed).toBe('invalidate-only');
    /* the working set read again: from the cache with 2.6.39, from disk with 2.6.38 */
    expect(a.pgmajfault).toBe(0);
    expect(b.pgmajfault).toBeGreaterThan(1000);
    /* fewer pages scanned and stolen (seed: -45%) */
    expect(a.pgscan).toBeLessThan(b.pgscan * 0.8);
    expect(a.pgsteal).toBeLessThan(b.pgsteal * 0.8);
    /* the seed's profiling counters exist only with the deactivation */
    expect(b.pginvalidate).toBe(0);
    expect(a.pginvalidate).toBeGreaterThan(0);
    /* the rotation identity: pgrotated ≈ (pginvalidate - pgreclaim) + the PG_reclaim pages whose writeback ended */
    expect(a.pgrotated).toBeLessThanOrEqual(a.pginvalidate);
    expect(a.pgrotated).toBeGreaterThanOrEqual(a.pginvalidate - a.pgreclaim + 0.99 * a.pgreclaim);
    expect(b.pgrotated).toBe(0);
  });

  it("docs/mechanisms/lru.md's table gives the backup's counters under both settings", () => {
    const readme = readFileSync(join(repo, 'docs/mechanisms/lru.md'), 'utf8');
    const j = run();
    for (const k of [
      'pgmajfault',
      'pgscan',
      'pgsteal',
      'pgactivate',
      'pgdeactivate',
      'pgrotated',
      'pginvalidate',
      'pgreclaim',
      'workingset_refault',
    ]) {
      const row = `| \`${k}\` | ${j.b.counters[k].toLocaleString('en-US')} | ${j.a.counters[k].toLocaleString('en-US')} |`;
      expect(readme, `docs row for ${k}`).toContain(row);
    }
  });
});

describe('npm run sim: large folios', () => {
  const FILE = 'wasm-core/test/large-folios/likely-shared.yaml';

  it('the old folio_likely_mapped_shared says "not shared" where 6.10 says "shared"; 6.9 reads every page to count', () => {
    const j = JSON.parse(sim(FILE, '--json', '--compare', 'large_mapcount=false').out);
    expect(j.a.kernel.large_mapcount).toBe(true);
    expect(j.b.kernel.large_mapcount).toBe(false);
    /* 6.10: every field as expected */
    expect(j.a.status).toBe('ok');
    expect(j.a.expect_failures).toEqual([]);
    /* 6.9: the same folio, the false negative told as a note (the scenario's expects are written for 6.10) */
    expect(j.b.expect_notes.join('\n')).toContain(
      'likely_mapped_shared true with large_mapcount true; this run (large_mapcount false) gives false',
    );
    expect(j.b.expect_notes.join('\n')).not.toContain('mapcount: the scenario expected');
    /* fork: 4 page atomics + 1 large (6.10); the child's munmap of one page: 1 + 1; the 6.9 loop read 4 pages once */
    expect(j.a.model.rmap_atomic_page_mapcount).toBe(5);
    expect(j.a.model.rmap_atomic_large_mapcount).toBe(2);
    expect(j.b.model.rmap_atomic_large_mapcount).toBe(0);
    expect(j.a.model.folio_mapcount_pages_visited).toBe(0);
    expect(j.b.model.folio_mapcount_pages_visited).toBe(4);
    expect(j.a.counters.anon_fault_alloc).toBe(1);
  });
});

describe('npm run sim: the mapcount arithmetic, fork and munmap of 1 GiB of folios of one order', () => {
  const MTHP = 'wasm-core/test/large-folios/fork-munmap-1g.yaml',
    THP = 'wasm-core/test/large-folios/fork-munmap-1g-thp.yaml';
  /* the scenario without its last step (the child's munmap): what fork alone made */
  const forkOnly = (file: string, edit = (t: string) => t) => {
    const text = edit(readFileSync(join(repo, file), 'utf8'));
    return {
      all: scenario(`all-${file.replace(/\W/g, '_')}-${text.length}.yaml`, text),
      fork: scenario(
        `fork-${file.replace(/\W/g, '_')}-${text.length}.yaml`,
        text.replace(/\n {2}- munmap: \{ task: child, map: m \}\n$/, '\n'),
      ),
    };
  };
  const atomics = (file: string, ...set: string[]) => {
    const r = sim(file, '--json', ...set.flatMap((x) => ['--set', x]));
    expect(r.code, r.err).toBe(0);
    const m = JSON.parse(r.out).model;
    return {
      page: m.rmap_atomic_page_mapcount,
      large: m.rmap_atomic_large_mapcount,
      entire: m.rmap_atomic_entire_mapcount,
      nr: m.rmap_atomic_nr_pages_mapped,
    };
  };
  const noRemap = (t: string) => t.replace(/ {2}- repeat:[\s\S]*?advice: nohugepage \}\n/, '');
  const cases = [
    { label: 'order 2 (16 KiB mTHP)', order: 2, file: MTHP, set: ['mthp=[16KiB]'], edit: undefined, pmd: false },
    { label: 'order 4 (64 KiB mTHP)', order: 4, file: MTHP, set: ['mthp=[64KiB]'], edit: undefined, pmd: false },
    { label: 'order 8 (1 MiB mTHP)', order: 8, file: MTHP, set: ['mthp=[1MiB]'], edit: undefined, pmd: false },
    { label: 'order 9 (THP remapped by PTEs)', order: 9, file: THP, set: [], edit: undefined, pmd: false },
    { label: 'order 9 (THP, one PMD each)', order: 9, file: THP, set: [], edit: noRemap, pmd: true },
  ];
  const readme = readFileSync(join(repo, 'docs/mechanisms/large-folios.md'), 'utf8');
  const f = (n: number) => n.toLocaleString('en-US');

  for (const c of cases) {
    it(`${c.label}: fork and munmap each make 2^18 page atomics (a PMD: one entire) and, in 6.10 only, 2^(18-k) large ones; docs/mechanisms/large-folios.md says so`, () => {
      const files = forkOnly(c.file, c.edit);
      for (const lm of ['true', 'false']) {
        const set = [...c.set, `large_mapcount=${lm}`];
        const all = atomics(files.all, ...set),
          fork = atomics(files.fork, ...set);
        /* the remap, when there is one, comes before fork: take it out */
        const pre =
          c.file === THP && !c.pmd
            ? /* per THP: 512 _nr_pages_mapped incs (6.9, 6.10: one per page) and ENTIRELY_MAPPED off */
              { page: 2 ** 18, large: lm === 'true' ? 2 * 512 : 0, entire: 512, nr: 512 * (512 + 1) }
            : { page: 0, large: 0, entire: 0, nr: 0 };
        const forkA = {
          page: fork.page - pre.page,
          large: fork.large - pre.large,
          entire: fork.entire - pre.entire,
          nr: fork.nr - pre.nr,
        };
        const munA = {
          page: all.page - fork.page,
          large: all.large - fork.large,
          entire: all.entire - fork.entire,
          nr: all.nr - fork.nr,
        };
        const batches = 2 ** (18 - c.order);
        for (const op of [forkA, munA]) {
          expect(op.page).toBe(c.pmd ? 0 : 2 ** 18);
          expect(op.entire).toBe(c.pmd ? batches : 0);
          expect(op.large).toBe(lm === 'true' ? batches : 0);
          expect(op.nr).toBe(0); /* the parent still maps every page: no page is mapped first or unmapped last */
        }
        if (lm === 'true') {
          const row = `| ${c.label} | ${c.pmd ? `0 (+${f(batches)} \`_entire_mapcount\`)` : f(forkA.page)} | ${f(forkA.large)} | ${c.pmd ? `0 (+${f(batches)} \`_entire_mapcount\`)` : f(munA.page)} | ${f(munA.large)} |`;
          expect(readme, `docs row for ${c.label}`).toContain(row);
        }
      }
    });
  }
});

describe('npm run sim: the anticipatory prefault against THP and mTHP (1 GiB written in order)', () => {
  const FILE = 'scenarios/prefault/sequential.yaml';
  const faults = (...set: string[]) => {
    const r = sim(FILE, '--json', ...set.flatMap((x) => ['--set', x]));
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out).counters.pgfault as number;
  };
  it('traps: 262,144 off, 18,947 with the prefault (cap 14), 512 with THP, 16,384 with 64 KiB mTHP; docs/mechanisms/prefault.md says so', () => {
    const rows: [string, number, string[]][] = [
      ['no prefault (2.6.10, and every kernel since for 4 KiB pages)', 262144, ['anon_prefault=off']],
      ['the anticipatory prefault, V1 (cap 14)', 18947, []],
      ["the prefault with the cover letter's cap of 8", 32771, ['anon_prefault_cap=8']],
      ['THP (`thp: always`)', 512, ['anon_prefault=off', 'thp=always']],
      ['64 KiB mTHP (`mthp: [64KiB]`)', 16384, ['anon_prefault=off', 'mthp=[64KiB]']],
    ];
    const readme = readFileSync(join(repo, 'docs/mechanisms/prefault.md'), 'utf8');
    for (const [label, want, set] of rows) {
      const n = faults(...set);
      expect(n, label).toBe(want);
      expect(readme, `docs row for ${label}`).toContain(`| ${label} | ${n.toLocaleString('en-US')} |`);
    }
  });
});

describe("npm run sim: the seeds' letters, read right", () => {
  const json = (...args: string[]) => {
    const r = sim(...args, '--json');
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out);
  };
  it('nr_pages_mapped_batching: unmapping 4,096 pages of order-2 folios costs 4,096 updates (6.9, 6.10) or 1,024 (6.12)', () => {
    for (const [batching, want] of [
      ['false', 4096],
      ['true', 1024],
    ] as const)
      for (const lm of ['true', 'false']) {
        const j = json(
          'scenarios/large-folios/munmap.yaml',
          '--set',
          `nr_pages_mapped_batching=${batching}`,
          '--set',
          `large_mapcount=${lm}`,
        );
        /* the write faults are plain stores: every _nr_pages_mapped atomic is the unmap's */
        expect(j.model.rmap_atomic_nr_pages_mapped, `batching ${batching}, large_mapcount ${lm}`).toBe(want);
      }
  });

  it('vmacache=off: no hits, and find_vma_nodes (in the model block) above the per-thread cache', () => {
    const off = json('scenarios/vma-cache/ebizzy-arena.yaml', '--set', 'vmacache=off');
    const on = json('scenarios/vma-cache/ebizzy-arena.yaml');
    expect(off.counters.vmacache_find_hits).toBe(0);
    expect(off.counters.vmacache_find_calls).toBe(on.counters.vmacache_find_calls);
    expect(off.model.find_vma_nodes).toBeGreaterThan(on.model.find_vma_nodes);
  });

  it("every group has a scenario whose --json carries the letter's cells: the letter's figure, the model's, a verdict", () => {
    for (const f of [
      'scenarios/fault-around/seed/random-1g.yaml',
      'scenarios/vma-cache/boot.yaml',
      'scenarios/lru/backup-stress.yaml',
      'scenarios/large-folios/fork.yaml',
      'scenarios/prefault/sequential.yaml',
    ]) {
      const ref = json(f).reference as { row: string; column: string; seed: number; model: number; agrees: boolean }[];
      expect(ref?.length, f).toBeGreaterThan(0);
      expect(
        ref.some((c) => c.agrees === true && typeof c.seed === 'number' && typeof c.model === 'number'),
        f,
      ).toBe(true);
    }
  });

  it("the LRU's first comparison is the letter's: rsync without fadvise (NRS) against with it (PRS), one kernel", () => {
    const text = readFileSync(join(repo, 'scenarios/lru/backup-stress.yaml'), 'utf8');
    expect(text).toMatch(/^compare: \{ without: \[fadvise\] \}$/m);
    const r = sim('scenarios/lru/backup-stress.yaml', '--compare', 'without=fadvise');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^A: with fadvise$/m);
    expect(r.out).toMatch(/^B: without fadvise$/m);
    const cells = json('scenarios/lru/backup-stress.yaml').reference as {
      row: string;
      column: string;
      agrees: boolean;
    }[];
    const scan = cells.find((c) => c.row.startsWith('pgscan_kswapd') && c.column === 'NRS → PRS');
    expect(scan?.agrees).toBe(true);
    /* nothing shipped labels the letter's columns as kernel versions ("seed, 2.6.38") */
    for (const f of ['scenarios/lru/backup.yaml', 'scenarios/lru/backup-stress.yaml', 'docs/mechanisms/lru.md'])
      expect(readFileSync(join(repo, f), 'utf8'), f).not.toMatch(/(seed|letter), 2\.6\.3[89]|NR?S \(2\.6|PR?S \(2\.6/);
  });
});
