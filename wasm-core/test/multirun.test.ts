import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../ts/compile.js';
import { counterDiff, expectCheck, expectNoteIssues, expectNotes, judgeExpects } from '../ts/judge.js';
import { changedTunables, kernelRunLabels, parseSweepArg, splitValues } from '../ts/multirun.js';
import { planCompare, planSweep } from '../ts/plan.js';
import { runProgram, type RunResult } from '../ts/runner.js';
import { applyOverrides } from '../ts/overrides.js';
import { parseScenario } from '../ts/load/index.js';
import { ScenarioErrors } from '../ts/errors.js';
import type { Scenario } from '../ts/scenario.js';
import { loadCore, repo } from './helpers.js';

const FILE = 'scenarios/fault-around/sequential.yaml';
const own = (): Scenario => parseScenario(readFileSync(`${repo}${FILE}`, 'utf8'), FILE);

async function run(s: Scenario): Promise<RunResult> {
  return runProgram(await loadCore(), compile(s));
}

function errorsOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ScenarioErrors);
    return (e as Error).message;
  }
  throw new Error('expected ScenarioErrors');
}

describe('kernelRunLabels', () => {
  const lf = (): Scenario =>
    parseScenario(readFileSync(`${repo}scenarios/large-folios/fork.yaml`, 'utf8'), 'scenarios/large-folios/fork.yaml');
  it.each([
    [
      own,
      { fault_around_bytes: '4KiB' },
      '3.15 \u00b7 fault_around_bytes 64 KiB',
      '3.14 \u00b7 fault_around_bytes 4 KiB',
    ],
    [lf, { large_mapcount: 'false' }, '6.10 \u00b7 large_mapcount true', '6.9 \u00b7 large_mapcount false'],
  ])('names the kernel each run stands for, with the key beside it', (base, set, a, b) => {
    const s = base();
    expect(kernelRunLabels(s, applyOverrides(s, set))).toEqual({ a, b });
  });
  it('keeps the keys alone where a value names no kernel', () => {
    const s = own();
    expect(kernelRunLabels(s, applyOverrides(s, { fault_around_bytes: '32KiB' }))).toEqual({
      a: 'fault_around_bytes 64 KiB',
      b: 'fault_around_bytes 32 KiB',
    });
  });
});

describe('changedTunables', () => {
  it('is empty for the scenario itself and for an override to its own value', () => {
    const s = own();
    expect(changedTunables(s, s)).toEqual([]);
    expect(changedTunables(s, applyOverrides(s, { fault_around_bytes: '64KiB', seed: '1' }))).toEqual([]);
  });

  it('names kernel tunables, machine settings and the seed that differ, in that order', () => {
    const s = own();
    const r = applyOverrides(s, {
      seed: '7',
      'machine.memory': '512MiB',
      vmacache: 'mm-wide',
      fault_around_bytes: '4096',
    });
    expect(changedTunables(s, r)).toEqual(['fault_around_bytes', 'vmacache', 'machine.memory', 'seed']);
  });

  it('compares lists by value', () => {
    const s = own();
    const a = applyOverrides(s, { mthp: '[16KiB, 64KiB]' });
    expect(changedTunables(s, a)).toEqual(['mthp']);
    expect(changedTunables(a, applyOverrides(s, { mthp: '[16384, 65536]' }))).toEqual([]);
    expect(changedTunables(a, applyOverrides(s, { mthp: '[16KiB]' }))).toEqual(['mthp']);
  });
});

describe('planCompare', () => {
  it('B is A plus the compares, each labelled by the tunables that differ', () => {
    const a = own();
    const p = planCompare(a, { fault_around_bytes: '4096' });
    expect(p.a).toBe(a);
    expect(p.b.kernel.fault_around_bytes).toBe(4096);
    expect(a.kernel.fault_around_bytes).toBe(65536); /* A is not touched */
    expect(p.label).toEqual({ a: 'fault_around_bytes 64 KiB', b: 'fault_around_bytes 4 KiB' });
    const two = planCompare(a, { vmacache: 'mm-wide', readahead_kb: '256' });
    expect(two.label).toEqual({
      a: 'readahead_kb 128 KiB, vmacache per-thread',
      b: 'readahead_kb 256 KiB, vmacache mm-wide',
    });
  });

  it('rejects what --set rejects', () => {
    expect(errorsOf(() => planCompare(own(), { fault_arround_bytes: '4096' }))).toContain(
      "(did you mean 'fault_around_bytes'?)",
    );
    expect(errorsOf(() => planCompare(own(), { vmacache: 'mm' }))).toMatch(/vmacache: .*per-thread, mm-wide/);
  });
});

describe('planSweep', () => {
  it('defaults to the sweep domain: every power of two of fault_around_bytes', () => {
    const runs = planSweep(own(), 'fault_around_bytes');
    expect(runs.map((r) => r.value)).toEqual([
      4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152,
    ]);
    expect(runs.map((r) => r.scenario.kernel.fault_around_bytes)).toEqual(runs.map((r) => r.value));
    expect(runs[0].raw).toBe('4096');
    expect(runs[4].label).toBe('64 KiB');
    expect(planSweep(own(), 'vmacache').map((r) => r.value)).toEqual(['per-thread', 'mm-wide', 'off']);
    expect(planSweep(own(), 'large_mapcount').map((r) => r.value)).toEqual([false, true]);
  });

  it('runs the given values in the given order, in any spelling the loader reads', () => {
    const runs = planSweep(own(), 'fault_around_bytes', ['64KiB', '4096', '2MiB']);
    expect(runs.map((r) => r.value)).toEqual([65536, 4096, 2097152]);
    expect(runs.map((r) => r.raw)).toEqual(['64KiB', '4096', '2MiB']);
    expect(planSweep(own(), 'mthp', ['[]', '[16KiB, 64KiB]']).map((r) => r.value)).toEqual([[], [16384, 65536]]);
    expect(planSweep(own(), 'seed', ['1', '2']).map((r) => r.scenario.seed)).toEqual([1, 2]);
  });

  it("throws the loader's errors for unknown keys and bad values, all of them", () => {
    expect(errorsOf(() => planSweep(own(), 'fault_around_byte'))).toMatch(
      /unknown tunable 'fault_around_byte' \(did you mean 'fault_around_bytes'\?\)/,
    );
    const bad = errorsOf(() => planSweep(own(), 'fault_around_bytes', ['3', '4096', '5000']));
    expect(bad).toContain('must be at least 4 KiB');
    expect(bad).toMatch(/power of two/);
    expect(errorsOf(() => planSweep(own(), 'seed'))).toContain('seed has no default sweep domain');
    expect(errorsOf(() => planSweep(own(), 'anon_prefault_cap'))).toContain(
      'anon_prefault_cap has no default sweep domain',
    );
  });

  it('reads key, key=v1,v2 and key:v1,v2; commas inside brackets belong to the value', () => {
    expect(parseSweepArg('fault_around_bytes')).toEqual({ key: 'fault_around_bytes' });
    expect(parseSweepArg('fault_around_bytes=4096,65536')).toEqual({
      key: 'fault_around_bytes',
      values: ['4096', '65536'],
    });
    expect(parseSweepArg('vmacache:mm-wide, per-thread')).toEqual({
      key: 'vmacache',
      values: ['mm-wide', 'per-thread'],
    });
    expect(parseSweepArg('machine.memory=1GiB')).toEqual({ key: 'machine.memory', values: ['1GiB'] });
    expect(splitValues('[16KiB, 64KiB],[],[2MiB]')).toEqual(['[16KiB, 64KiB]', '[]', '[2MiB]']);
  });
});

describe('expect notes', () => {
  it("a run with the scenario's own tunables has failures, not notes", async () => {
    const s = own();
    const res = await run(s);
    expect(res.expectFailures).toEqual([]);
    expect(expectNotes(s, s, res)).toEqual([]);
  });

  it('a changed tunable turns the failures into neutral notes with expected and actual', async () => {
    const s = own();
    const off = applyOverrides(s, { fault_around_bytes: '4096' });
    const res = await run(off);
    expect(res.status).toBe('expect-failed');
    expect(res.expectFailures).toHaveLength(1);
    expect(expectCheck(res.expectFailures[0])).toMatchObject({ item: 'pgfault', expected: '256', actual: '4,096' });
    expect(expectNotes(s, off, res)).toEqual([
      'the scenario expected pgfault 256 with fault_around_bytes 64 KiB; this run (fault_around_bytes 4 KiB) gives 4,096',
    ]);
    const [note] = expectNoteIssues(s, off, res);
    expect(note.at?.line).toBe(s.source.split('\n').findIndex((l) => /^\s*- expect:.*pgfault: 256/.test(l)) + 1);
    expect(note.at?.path).toBe('steps[5].expect.pgfault');
    const j = judgeExpects(s, off, res);
    expect(j).toMatchObject({ changed: ['fault_around_bytes'], failures: [] });
    expect(j.notes).toHaveLength(1);
    /* the same failures count when the tunables are the scenario's own */
    expect(judgeExpects(off, off, res).failures).toBe(res.expectFailures);
  });

  it('uses the expected/actual values the runner records, not its sentence', () => {
    const s = own();
    const r = applyOverrides(s, { seed: '9' });
    const f = {
      at: null,
      step: 5,
      message: 'anything',
      expect: { item: 'app pgfault', expected: '256', actual: '300' },
    };
    expect(expectNotes(s, r, { expectFailures: [f] })).toEqual([
      'the scenario expected app pgfault 256 with seed 1; this run (seed 9) gives 300',
    ]);
  });
});

describe('counterDiff', () => {
  it('is b − a over every vmstat and model counter both report', async () => {
    const s = own();
    const [a, b] = [await run(s), await run(applyOverrides(s, { fault_around_bytes: '4096' }))];
    const d = counterDiff(a, b);
    expect(d.pgfault).toBe(4096 - 256);
    expect(d.fault_around_calls).toBe(-256);
    expect(d.touches).toBe(0);
    expect(Object.keys(d).sort()).toEqual([...Object.keys(a.counters), ...Object.keys(a.model)].sort());
    expect(
      counterDiff({ counters: { x: 1, y: 5 }, model: { m: 2 } }, { counters: { x: 4 }, model: { m: 1, n: 9 } }),
    ).toEqual({ x: 3, m: -1 });
  });
});
