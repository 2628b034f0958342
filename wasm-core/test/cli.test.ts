import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUIRED_COUNTERS } from '../ts/abi.js';
import { repo } from './helpers.js';

/* the CLI exactly as the README runs it: npm run --silent sim -- ... calls scripts/sim.mjs */
function sim(...args: string[]) {
  const r = spawnSync(process.execPath, ['scripts/sim.mjs', ...args], { cwd: repo, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

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
    expect(j.tasks['app.0']).toMatchObject({ pgfault: 256, vmacache_find_calls: 0, vmacache_find_hits: 0 });
    expect(j.steps).toBe(6);
  });

  it('acceptance: pgfault = 64 KiB windows of the file, and pages with fault-around off', () => {
    const on = JSON.parse(sim('scenarios/fault-around/sequential.yaml', '--json').out);
    expect(on.counters.pgfault).toBe((16 * 2 ** 20) / 65536);
    const off = sim('scenarios/fault-around/sequential.yaml', '--json', '--set', 'fault_around_bytes=4096');
    /* the scenario's own expect (256) now fails: exit 1, and the count is one per page */
    expect(off.code).toBe(1);
    expect(JSON.parse(off.out).counters.pgfault).toBe((16 * 2 ** 20) / 4096);
    expect(JSON.parse(off.out).kernel.fault_around_bytes).toBe(4096);
    expect(off.err).toContain('scenarios/fault-around/sequential.yaml:24: steps[5].expect.pgfault: expected pgfault = 256, got 4,096');
  });

  it('refuses a page cache too big for the simulator before filling it (exit 2, at the cached key)', () => {
    const f = scenario('huge.yaml', `name: huge
machine: { memory: 600GiB }
files:
  data: { size: 512GiB, cached: all }
processes:
  app: {}
steps:
  - mmap: { task: app, name: m, file: data, prot: read }
`);
    const t0 = performance.now();
    const r = sim(f, '--json');
    expect(performance.now() - t0).toBeLessThan(5_000); /* it took 18 s of filling before */
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(`${f}:4: files.data.cached: cached: all needs about 4.6 GiB of simulator memory for a 512 GiB page cache`);
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
    expect(r.err).toMatch(/bad\.yaml:8:\d+: steps\[1\]\.access\.op: must be one of read, write; got 'reed' \(did you mean 'read'\?\)/);
    expect(r.out).toBe('');
  });

  it('exits 2 on an impossible request found while running (SIGSEGV after munmap)', () => {
    const r = sim(scenario('segv.yaml', `${OK}  - munmap: { task: app, map: m, offset: 512KiB }\n  - access: { task: app, map: m, op: read }\n`));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/segv\.yaml:10: steps\[3\]\.access: SIGSEGV: app\.0 touched 0x7f0000080000, where no VMA is mapped/);
  });

  it('exits 2 when the machine runs out of memory', () => {
    const r = sim(scenario('oom.yaml', `name: oom
machine: { memory: 4MiB }
processes:
  app: {}
steps:
  - mmap: { task: app, name: h, length: 16MiB, prot: read-write }
  - access: { task: app, map: h, op: write }
`));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/oom\.yaml:7: steps\[1\]\.access: out of memory: machine\.memory \(4 MiB\) is exhausted/);
  });

  it('exits 2 for a step the core does not run yet, at its line', () => {
    const r = sim(scenario('later.yaml', `${OK}  - fsync: { task: app, file: data }\n`));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/later\.yaml:9: steps\[2\]\.fsync: read, write, fadvise and fsync steps are not modelled yet/);
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
});
