/**
 * Kernel versions as a setting (kernel: version:): each tunable's default under each kernel, derived from
 * its `versions` map in wasm-core/interface/; a key set explicitly wins; --set version= re-derives the keys
 * nobody set; runs that differ in version are named by it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../ts/compile.js';
import { ScenarioErrors } from '../ts/errors.js';
import { parseScenario } from '../ts/load/index.js';
import { changedTunables, kernelRunLabels } from '../ts/multirun.js';
import { applyOverrides } from '../ts/overrides.js';
import { runProgram } from '../ts/runner.js';
import {
  compareVersions,
  DEFAULT_VERSION,
  followsVersion,
  KERNEL_TUNABLES,
  KERNEL_VERSIONS,
  kernelOf,
  versionDefault,
} from '../ts/tunables.js';
import { loadCore, repo, shippedScenarios } from './helpers.js';

const at = (v: string) => kernelOf(v);

describe('each tunable under each kernel', () => {
  it('lists the kernels oldest first, today last', () => {
    expect([...KERNEL_VERSIONS]).toEqual([...KERNEL_VERSIONS].sort(compareVersions));
    expect(DEFAULT_VERSION).toBe(KERNEL_VERSIONS[KERNEL_VERSIONS.length - 1]);
    expect(compareVersions('2.6.39', '3.14')).toBeLessThan(0);
    expect(compareVersions('6.9', '6.10')).toBeLessThan(0);
  });
  it.each([
    ['2.6.38', 4096, 'mm-wide', 'invalidate-only', false, false, false],
    ['2.6.39', 4096, 'mm-wide', 'deactivate', false, false, false],
    ['3.14', 4096, 'mm-wide', 'deactivate', false, false, false],
    ['3.15', 65536, 'per-thread', 'deactivate', true, false, false],
    ['6.9', 65536, 'off', 'deactivate', true, false, false],
    ['6.10', 65536, 'off', 'try-invalidate', true, true, false],
    ['6.12', 65536, 'off', 'try-invalidate', true, true, true],
    ['6.18', 65536, 'off', 'try-invalidate', true, true, true],
  ])('%s', (v, fab, vmacache, fadvise, workingset, largeMapcount, batching) => {
    const k = at(v);
    expect(k.version).toBe(v);
    expect(k.fault_around_bytes).toBe(fab);
    expect(k.vmacache).toBe(vmacache);
    expect(k.fadvise_dontneed).toBe(fadvise);
    expect(k.workingset).toBe(workingset);
    expect(k.large_mapcount).toBe(largeMapcount);
    expect(k.nr_pages_mapped_batching).toBe(batching);
    /* the 2004 prefault was never merged: off in every version */
    expect(k.anon_prefault).toBe('off');
    /* 6.11's per-size split statistics, 6.15's large-folio reuse */
    expect(k.deferred_split_stats).toBe(compareVersions(v, '6.11') >= 0 ? 'per-size' : 'global');
    expect(k.large_folio_reuse).toBe(compareVersions(v, '6.15') >= 0);
    expect(k.unmap_drain).toBe(compareVersions(v, '6.12') >= 0 ? 'after' : 'before');
  });
  it("the description's default of each such key is today's value (the C header's defaults use it)", () => {
    for (const t of KERNEL_TUNABLES.filter(followsVersion))
      expect(t.default, `${t.key}'s default in wasm-core/interface/`).toEqual(versionDefault(t, DEFAULT_VERSION));
  });
});

const src = (kernel: string) => `name: t/v\nkernel: { ${kernel} }\nprocesses: { app: {} }\nsteps: []\n`;

describe('the scenario names its kernel', () => {
  it('reads a version as written: 6.10 is "6.10", not 6.1', () => {
    expect(parseScenario(src('version: 6.10')).kernel.version).toBe('6.10');
    expect(parseScenario(src("version: '2.6.38'")).kernel.fadvise_dontneed).toBe('invalidate-only');
  });
  it('names no kernel: today', () => {
    expect(parseScenario(src('thp: never')).kernel).toEqual(at(DEFAULT_VERSION));
  });
  it('a key set explicitly wins over the version, and over a later --set version', () => {
    const s = parseScenario(src('version: 3.14, fault_around_bytes: 64KiB'));
    expect(s.kernel.fault_around_bytes).toBe(65536);
    expect(s.kernel.vmacache).toBe('mm-wide');
    const today = applyOverrides(s, { version: '6.18' });
    expect(today.kernel.version).toBe('6.18');
    expect(today.kernel.fault_around_bytes).toBe(65536);
    expect(today.kernel.vmacache).toBe('off');
    expect(today.kernel.workingset).toBe(true);
    /* a key set by --set with the version stays as set */
    expect(applyOverrides(s, { version: '6.18', vmacache: 'per-thread' }).kernel.vmacache).toBe('per-thread');
  });
  it('refuses a kernel it does not model, with the file, line and key', () => {
    try {
      parseScenario(src('version: 5.4'), 'x.yaml');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioErrors);
      expect((e as Error).message).toMatch(/x\.yaml:2:\d+: kernel\.version: .*2\.6\.38.*6\.18/);
    }
    expect(() => applyOverrides(parseScenario(src('thp: never')), { version: '6.1' })).toThrow(
      /--set version: must be one of/,
    );
  });
  it('every shipped scenario names its kernel', () => {
    for (const f of shippedScenarios()) {
      const text = readFileSync(`${repo}${f}`, 'utf8');
      expect(parseScenario(text, f).kernelGiven.version, f).toBeDefined();
    }
  });
});

describe('two kernels side by side', () => {
  const seq = () =>
    parseScenario(
      readFileSync(`${repo}scenarios/fault-around/sequential.yaml`, 'utf8'),
      'scenarios/fault-around/sequential.yaml',
    );
  it('are named by their versions, and the keys the version rules are not changes of their own', () => {
    const a = seq();
    const b = applyOverrides(a, { version: '3.14' });
    /* sequential.yaml sets fault_around_bytes itself: it stays 64 KiB under 3.14 */
    expect(changedTunables(a, b)).toEqual(['version']);
    expect(kernelRunLabels(a, b)).toEqual({ a: '3.15', b: '3.14' });
    const c = applyOverrides(a, { version: '6.18', fault_around_bytes: '4KiB' });
    expect(kernelRunLabels(a, c)).toEqual({
      a: '3.15 \u00b7 fault_around_bytes 64 KiB',
      b: '6.18 \u00b7 fault_around_bytes 4 KiB',
    });
  });
  it('run by their own rules: the VMA cache 3.15 keeps is gone in 6.18', async () => {
    const core = await loadCore();
    const a = runProgram(core, compile(seq()));
    const b = runProgram(core, compile(applyOverrides(seq(), { version: '6.18' })));
    const hits = (r: typeof a) => r.counters.vmacache_find_hits;
    expect(hits(a)).toBeGreaterThan(0);
    expect(hits(b)).toBe(0);
    /* fault-around is the scenario's own: the faults are the same */
    expect(b.counters.pgfault).toBe(a.counters.pgfault);
  });
});
