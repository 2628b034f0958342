/**
 * The fuzz target: random scenarios, as YAML text, through the whole path a
 * user's file takes (loader, limits, compiler, core), checked three ways:
 *
 *   1. the loader either accepts a text or refuses it with ScenarioErrors
 *      (never another exception: that would be exit 3 in the CLI);
 *   2. an accepted scenario runs on the wasm core with events and the
 *      invariant checker after every step (debug_vm), and must not break
 *      an invariant;
 *   3. the native build (ASan, UBSan, the invariant checker) runs the same
 *      program and must give the same counters, per-task counters, steps,
 *      error and event stream (digest).
 *
 * The generator covers every step kind and tunable, repeats (nested, with
 * strides), fixed and overlapping addresses, unaligned sizes, forks and
 * exits, threads taking turns, expects (mostly failing ones: fine) and
 * some invalid input. It is deterministic per seed.
 *
 *   npm run fuzz -- --seeds 10000 [--from 1]     a longer run (scripts/fuzz.mjs)
 *
 * Every finding is written to test/fuzz/findings/ as a regression scenario,
 * which fuzz.test.ts runs on every `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COUNTERS, ErrorCode, FOLIO_FIELDS, TASK_COUNTERS } from '../../ts/abi.js';
import type { Core } from '../../ts/core.js';
import { compile, type Program } from '../../ts/compile.js';
import { ProgramError, type RunResult, runProgram } from '../../ts/runner.js';
import { parseScenario } from '../../ts/load/index.js';
import { ScenarioErrors } from '../../ts/errors.js';
import { TUNABLES, type TunableInfo } from '../../ts/tunables.js';
import { applyOverrides } from '../../ts/overrides.js';
import { planCompare, planSweep } from '../../ts/plan.js';
import { parseSweepArg, settingsText } from '../../ts/multirun.js';
import type { Scenario } from '../../ts/scenario.js';
import { Digest } from '../helpers.js';

/* ------------------------------------------------------------------ the generator */

/** mulberry32: small, fast, deterministic */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

type R = ReturnType<typeof rng>;
const PAGE = 4096;

function tunableValue(r: R, t: TunableInfo): string {
  switch (t.type) {
    case 'size': {
      if (t.pow2) return String(2 ** r.int(Math.log2(t.min!), Math.log2(t.max!)));
      const pages = r.int(Math.ceil(t.min! / PAGE), Math.min(Math.floor(t.max! / PAGE), 2 ** 18));
      return `${pages * 4}KiB`;
    }
    /* mostly small, and one in five anywhere in the range (min_free_kbytes of GiBs, latencies of 10^6) */
    case 'int':
      return r.chance(0.2)
        ? String(Math.min(t.max!, t.min! + Math.floor(2 ** (r.next() * Math.log2(t.max! - t.min! + 1)))))
        : String(r.int(t.min!, Math.min(t.max!, t.min! + 600)));
    case 'bool':
      return r.chance(0.5) ? 'true' : 'false';
    /* THP needs `always` (or madvise ranges) and a whole 2 MiB block: lean on it, or PMD leaves are rare */
    case 'choice':
      return t.key === 'thp' && r.chance(0.5) ? 'always' : r.pick(t.choices!);
    case 'sizes': {
      const n = r.int(0, 3),
        out = new Set<number>();
      for (let i = 0; i < n; i++) out.add(2 ** r.int(Math.log2(t.min!), Math.log2(t.max!)));
      return `[${[...out].join(', ')}]`;
    }
  }
}

interface Proc {
  name: string;
  threads: number;
  maps: Map<string, { len: number; rw: boolean }>;
  alive: boolean;
}

/** a random scenario's text, mostly valid (so that the core runs it), sometimes not */
export function generate(seed: number): string {
  const r = rng(seed * 2654435761 + 1);
  /* one scenario in six has invalid input somewhere (the loader must refuse it cleanly); the rest run */
  const bad = r.chance(1 / 6);
  const out: string[] = [`name: fuzz ${seed}`, `seed: ${r.int(0, 1e6)}`];
  const kernel = TUNABLES.filter((t) => t.scope === 'kernel' && r.chance(0.6));
  if (kernel.length) out.push('kernel:', ...kernel.map((t) => `  ${t.key}: ${tunableValue(r, t)}`));
  const memMiB = r.pick([2, 8, 64, 256, 1024]);
  out.push(
    'machine:',
    `  memory: ${memMiB}MiB`,
    `  io_latency: ${r.chance(0.1) ? r.int(1000, 1_000_000) : r.int(0, 50)}`,
    `  writeback_latency: ${r.chance(0.1) ? r.int(1000, 1_000_000) : r.int(1, 60)}`,
  );
  const files: { name: string; size: number }[] = [];
  const nf = r.int(0, 3);
  if (nf) out.push('files:');
  for (let i = 0; i < nf; i++) {
    /* small, unaligned, up to 2 MiB, and now and then 2-64 MiB */
    const size = r.chance(0.3)
      ? r.int(1, 40) * PAGE + r.int(0, 4095)
      : r.chance(0.1)
        ? r.int(513, 16384) * PAGE
        : r.int(1, 512) * PAGE;
    files.push({ name: `f${i}`, size });
    const fs = r.pick(['disk', 'disk', 'tmpfs']);
    const sparse = fs === 'disk' && r.chance(0.3) ? ', sparse: true' : '';
    out.push(
      `  f${i}: { size: ${size}, cached: ${r.chance(0.3) && size < memMiB * 2 ** 19 ? 'all' : 'none'}, fs: ${fs}${sparse} }`,
    );
  }
  const procs: Proc[] = [];
  const np = r.int(1, 3);
  out.push('processes:');
  for (let i = 0; i < np; i++) {
    const p: Proc = {
      name: `p${i}`,
      threads: r.chance(0.1) ? r.int(5, 64) : r.int(1, 4),
      maps: new Map(),
      alive: true,
    };
    procs.push(p);
    // sometimes an mm seqnum a few invalidations short of the 32-bit wrap (vmacache_flush_all)
    const seq = r.chance(0.15) ? `, vmacache_seqnum: ${2 ** 32 - r.int(1, 4)}` : '';
    out.push(`  ${p.name}: { threads: ${p.threads}${seq} }`);
  }
  /* the scenario's own comparison: a kernel tunable's other value (sometimes the same one: refused) */
  if (r.chance(0.15)) {
    const t = r.pick(TUNABLES.filter((x) => x.scope === 'kernel'));
    out.push(`compare: { ${t.key}: ${tunableValue(r, t)} }`);
  }
  out.push('steps:');
  let mapSeq = 0,
    kidSeq = 0;
  const live = () => procs.filter((p) => p.alive);
  const task = (p: Proc, all = false) =>
    all && p.threads > 1 && r.chance(0.4)
      ? `${p.name}.*`
      : r.chance(0.5)
        ? p.name
        : `${p.name}.${r.int(0, p.threads - 1)}`;
  /* sometimes unaligned (refused); sometimes 2-6 MiB, so that THP has whole PMD blocks to map */
  const len = () =>
    bad && r.chance(0.1) ? r.int(1, 9000) : r.chance(0.2) ? r.int(512, 1536) * PAGE : r.int(1, 96) * PAGE;

  /* offset and length within a mapping of mlen bytes, page-aligned; past its end now and then */
  const rangeOf = (mlen: number) => {
    const pages = Math.max(1, mlen / PAGE);
    const off = r.int(0, pages - 1);
    const n = bad && r.chance(0.2) ? r.int(1, pages + 4) : r.int(1, pages - off);
    return `, offset: ${off * PAGE}, length: ${n * PAGE}`;
  };
  const step = (ind: string, inLoop: boolean, depth: number): string[] => {
    const ps = live();
    if (!ps.length) return [`${ind}- say: everyone exited`];
    const p = r.pick(ps);
    const names = [...p.maps.keys()];
    const k = r.next();
    if (k < 0.22 || !names.length) {
      const name = `m${mapSeq++}`;
      const f = files.length && r.chance(0.5) ? r.pick(files) : null;
      const l = f && r.chance(0.5) ? undefined : len();
      const fixed = r.chance(0.2)
        ? `, addr: ${r.pick(['0x100000000', '0x100010000', '0x7f0000000000', `0x${(0x200000000 + r.int(0, 64) * PAGE).toString(16)}`])}`
        : '';
      const shared = f && r.chance(0.4) ? ', shared: true' : '';
      const offPages = f && r.chance(0.3) ? r.int(0, 8) : 0;
      const off = offPages ? `, offset: ${offPages * PAGE}` : '';
      /* without a length, the mapping runs from the offset to the end of the file */
      const mapped = l ?? (f ? Math.max(PAGE, Math.ceil(f.size / PAGE) * PAGE - offPages * PAGE) : PAGE);
      const rw = r.chance(0.6);
      if (!inLoop) p.maps.set(name, { len: mapped, rw });
      const lines = [
        `${ind}- mmap: { task: ${task(p)}, name: ${name}${f ? `, file: ${f.name}` : ''}${l !== undefined ? `, length: ${l}` : ''}${off}, prot: ${rw ? 'read-write' : 'read'}${shared}${fixed} }`,
      ];
      if (inLoop) {
        /* a loop body leaves the mappings as it found them */
        lines.push(
          `${ind}- access: { task: ${task(p, false)}, map: ${name}, op: ${rw && r.chance(0.5) ? 'write' : 'read'} }`,
        );
        lines.push(`${ind}- munmap: { task: ${task(p)}, map: ${name} }`);
      }
      return lines;
    }
    if (files.length && r.chance(0.15)) {
      /* read(2), write(2) (within the file: files do not grow), fadvise(DONTNEED), fsync */
      const f = r.pick(files);
      const off = r.int(0, f.size - 1),
        n = r.int(1, Math.min(f.size - off, 96 * PAGE));
      switch (r.pick(['read', 'read', 'write', 'write', 'fadvise', 'fsync'])) {
        case 'read':
          return [`${ind}- read: { task: ${task(p)}, file: ${f.name}, offset: ${off}, length: ${n} }`];
        case 'write':
          return [
            `${ind}- write: { task: ${task(p)}, file: ${f.name}, offset: ${inLoop ? 0 : off}, length: ${inLoop ? Math.min(n, 2048) : n} }`,
          ];
        case 'fadvise':
          return [
            `${ind}- fadvise: { task: ${task(p)}, file: ${f.name}, advice: dontneed${r.chance(0.5) ? `, offset: ${off}, length: ${r.chance(0.3) ? 0 : n}` : ''} }`,
          ];
        default:
          return [`${ind}- fsync: { task: ${task(p)}, file: ${f.name} }`];
      }
    }
    const name = r.pick(names);
    const { len: mlen, rw } = p.maps.get(name)!;
    /* writes to read-only mappings (SIGSEGV) now and then, not in most runs */
    const op = () => (rw || (bad && r.chance(0.2)) ? r.pick(['read', 'write']) : 'read');
    if (k < 0.55) {
      const pattern = r.pick(['sequential', 'random', 'uniform', 'list']);
      const extra =
        pattern === 'uniform'
          ? `, count: ${r.int(0, 300)}`
          : pattern === 'list'
            ? `, pages: [${Array.from({ length: r.int(1, 8) }, () => r.int(0, Math.max(0, mlen / PAGE - 1))).join(', ')}]`
            : '';
      const stride = r.chance(0.2) ? `, stride: ${r.pick([8, 16, 64])}KiB` : '';
      const all = p.threads > 1 && r.chance(0.3);
      const map = all && r.chance(0.3) ? `[${Array(p.threads).fill(name).join(', ')}]` : name;
      /* a range of the mapping (sometimes past its end, refused or a SIGSEGV: fine) */
      const range = pattern !== 'list' && r.chance(0.3) ? rangeOf(mlen) : '';
      return [
        `${ind}- access: { task: ${all ? `${p.name}.*` : task(p)}, map: ${map}, op: ${op()}, pattern: ${pattern}${extra}${stride}${range} }`,
      ];
    }
    if (k < 0.62) {
      const part = r.chance(0.5) && mlen > PAGE ? `, offset: ${r.int(0, mlen / PAGE - 1) * PAGE}, length: ${PAGE}` : '';
      if (!part && !inLoop) p.maps.delete(name);
      if (!part && inLoop) return [`${ind}- say: no whole munmap inside a loop`];
      return [`${ind}- munmap: { task: ${task(p)}, map: ${name}${part} }`];
    }
    if (k < 0.7)
      return [
        `${ind}- madvise: { task: ${task(p)}, map: ${name}, advice: ${r.pick(['hugepage', 'nohugepage', 'random', 'sequential', 'dontneed'])}${r.chance(0.4) ? rangeOf(mlen) : ''} }`,
      ];
    if (k < 0.76 && !inLoop && procs.length < 8) {
      const child = { name: `k${kidSeq++}`, threads: 1, maps: new Map(p.maps), alive: true };
      procs.push(child);
      return [`${ind}- fork: { task: ${task(p)}, child: ${child.name} }`];
    }
    if (k < 0.79 && !inLoop && ps.length > 1) {
      p.alive = false;
      return [`${ind}- exit: { task: ${task(p)} }`];
    }
    if (k < 0.88 && depth < 3) {
      const body: string[] = [];
      for (let i = r.int(0, 3); i > 0; i--) body.push(...step(`${ind}      `, true, depth + 1));
      return [
        `${ind}- repeat:`,
        `${ind}    times: ${r.int(0, 5)}`,
        `${ind}    stride: ${r.pick([0, 0, 4096, 65536])}`,
        `${ind}    steps:${body.length ? '' : ' []'}`,
        ...body,
      ];
    }
    if (k < 0.95) {
      /* a counter, a task's counters, or a folio's fields at a page of a mapping */
      const e = r.next();
      if (e < 0.5) return [`${ind}- expect: { ${r.pick(COUNTERS)}: ${r.int(0, 50)} }`];
      if (e < 0.75) return [`${ind}- expect: { task: ${task(p)}, ${r.pick(TASK_COUNTERS)}: ${r.int(0, 50)} }`];
      const fields = Array.from(
        new Set(Array.from({ length: r.int(1, 3) }, () => r.pick(FOLIO_FIELDS))),
        (f) => `${f}: ${f === 'likely_mapped_shared' ? r.pick(['true', 'false']) : r.int(0, 600)}`,
      );
      return [
        `${ind}- expect:`,
        `${ind}    folio: { task: ${task(p)}, map: ${name}, offset: ${r.int(0, Math.max(0, mlen / PAGE - 1) + (bad ? 2 : 0)) * PAGE} }`,
        ...fields.map((f) => `${ind}    ${f}`),
      ];
    }
    if (k < 0.97 || !bad) return [`${ind}- say: "step ${r.int(0, 99)} <b>&amp;</b>"`];
    /* invalid on purpose: unknown keys, bad sizes, unknown maps */
    return [
      r.pick([
        `${ind}- access: { task: ${p.name}, map: nosuch, op: read }`,
        `${ind}- mmap: { task: ${p.name}, name: x${mapSeq++}, length: 4.5KiB, prot: read }`,
        `${ind}- bogus: {}`,
        `${ind}- access: { task: ${p.name}, map: ${name}, op: read, stride: 100 }`,
      ]),
    ];
  };
  for (let i = r.int(1, 30); i > 0; i--) out.push(...step('  ', false, 0));
  return `${out.join('\n')}\n`;
}

/* ------------------------------------------------------------------ one execution */

export interface FuzzOutcome {
  seed: number;
  /** refused: the loader's ScenarioErrors (fine); ran: both builds agreed; finding: something to fix */
  kind: 'refused' | 'ran' | 'finding';
  detail: string;
  source: string;
}

/** values a user might type after --set key= that are not the tunable's: each must be refused, never thrown */
const JUNK = ['', '!!str 4096', '[', '{a: 1}', 'NaN', '-1', '1e99', '4.5KiB', '0x10', 'true', '*x', '[4096, 8192]'];

/**
 * What the CLI's flags make of a scenario, drawn from the seed: --set, --compare or --sweep with one of
 * the tunables (a value of its own, or junk), through the same functions the CLI and the page use. Each
 * run they plan is checked as the scenario's own; a refusal must be ScenarioErrors.
 */
function flagRuns(seed: number, s: Scenario): { tag: string; scenario: Scenario }[] {
  const r = rng(seed * 7919 + 3);
  const t = r.pick(TUNABLES);
  const value = () => (r.chance(0.8) ? tunableValue(r, t) : r.pick(JUNK));
  const k = r.next();
  if (k < 0.2) {
    const v = value();
    return [{ tag: `--set ${t.key}=${v}`, scenario: applyOverrides(s, { [t.key]: v }) }];
  }
  if (k < 0.35) {
    const v = value();
    return [{ tag: `--compare ${t.key}=${v}`, scenario: planCompare(s, { [t.key]: v }).b }];
  }
  if (k < 0.45) {
    const arg = r.chance(0.4) ? t.key : `${t.key}=${value()},${value()}`;
    const { key, values } = parseSweepArg(arg);
    const runs = planSweep(s, key, values);
    /* the first and the last value: the plan is checked whole, two runs are enough to run */
    return [...new Set([runs[0], runs[runs.length - 1]])]
      .filter(Boolean)
      .map((x) => ({ tag: `--sweep ${arg}: ${x.raw}`, scenario: x.scenario }));
  }
  return [];
}

export function fuzzOne(seed: number, core: Core, nativeBin: string, tmp: string, given?: string): FuzzOutcome {
  /* the seed's scenario, or one given (a kept finding: the generator's draws change as the description grows) */
  const source = given ?? generate(seed);
  const file = `fuzz-${seed}.yaml`;
  const finding = (detail: string): FuzzOutcome => ({ seed, kind: 'finding', detail, source });
  const threw = (e: unknown) => `${(e as Error).name}: ${(e as Error).message}`;
  let scenario: Scenario;
  let prog: Program;
  try {
    scenario = parseScenario(source, file);
    prog = compile(scenario);
  } catch (e) {
    if (e instanceof ScenarioErrors) return { seed, kind: 'refused', detail: e.errors[0]?.detail ?? '', source };
    return finding(`loader threw ${threw(e)}`);
  }
  const first = runBoth(seed, 'A', prog, core, nativeBin, tmp);
  if (first.finding) return finding(first.finding);
  /* run B of the scenario's own compare:, and the runs the CLI's flags plan */
  const more: { tag: string; scenario: Scenario }[] = [];
  try {
    if (scenario.compare)
      more.push({ tag: 'B (compare:)', scenario: applyOverrides(scenario, settingsText(scenario.compare)) });
  } catch (e) {
    if (!(e instanceof ScenarioErrors)) return finding(`compare: threw ${threw(e)}`);
  }
  try {
    more.push(...flagRuns(seed, scenario));
  } catch (e) {
    if (!(e instanceof ScenarioErrors)) return finding(`a flag threw ${threw(e)}`);
  }
  for (const m of more) {
    let p: Program;
    try {
      p = compile(m.scenario);
    } catch (e) {
      if (e instanceof ScenarioErrors) continue;
      return finding(`${m.tag}: compile threw ${threw(e)}`);
    }
    const o = runBoth(seed, m.tag, p, core, nativeBin, tmp);
    if (o.finding) return finding(`${m.tag}: ${o.finding}`);
  }
  return { seed, kind: 'ran', detail: first.detail, source };
}

/** one program on the wasm core (invariants after every step) and the native ASan/UBSan build: they must agree */
function runBoth(
  seed: number,
  tag: string,
  prog: Program,
  core: Core,
  nativeBin: string,
  tmp: string,
): { finding: string | null; detail: string } {
  const finding = (detail: string) => ({ finding: detail, detail });
  const digest = new Digest();
  let w: RunResult;
  try {
    w = runProgram(core, prog, { trace: true, debugVm: true, onEvents: (b) => digest.add(b) });
  } catch (e) {
    /* the core refused to start it (ProgramError: a located message, exit 2 in the CLI): a clean refusal */
    if (e instanceof ProgramError) return { finding: null, detail: `refused at load: ${e.message}` };
    return finding(`wasm run threw: ${(e as Error).message}`);
  }
  if (w.error?.code === ErrorCode.EINVARIANT) return finding(`wasm: ${w.error!.message}`);
  const bin = join(tmp, `prog-${seed}-${tag.replace(/[^a-zA-Z0-9]+/g, '_').slice(0, 40)}.bin`);
  writeFileSync(bin, prog.bytes);
  /* mmsim-run's JSON result */
  let n: {
    counters: Record<string, number>;
    tasks: Record<string, number>[];
    steps: number;
    error: { code: number };
    events: number;
    event_digest: string;
  };
  const env = {
    ...process.env,
    ASAN_OPTIONS: 'exitcode=86',
    UBSAN_OPTIONS: 'halt_on_error=1:exitcode=87:print_stacktrace=1',
  };
  const r = spawnSync(nativeBin, ['--trace', '--debug-vm', bin], { encoding: 'utf8', env, maxBuffer: 1 << 26 });
  /* mmsim-run exits 1 for a run that ended in an error (its JSON is on stdout); anything else, or a sanitizer's word, is a finding */
  if ((r.status !== 0 && r.status !== 1) || r.stderr)
    return finding(`native (ASan, UBSan) exited ${r.status ?? r.signal}: ${r.stderr.slice(0, 2000)}`);
  try {
    n = JSON.parse(r.stdout);
  } catch {
    return finding(`native printed no result: ${r.stdout.slice(0, 500)}`);
  }
  const all = { ...w.counters, ...w.model };
  for (const c of COUNTERS)
    if (all[c] !== n.counters[c]) return finding(`native != wasm: ${c} ${n.counters[c]} vs ${all[c]}`);
  for (const [i, t] of prog.tasks.entries())
    for (const c of TASK_COUNTERS)
      if (w.tasks[t][c] !== n.tasks[i][c])
        return finding(`native != wasm: ${t} ${c} ${n.tasks[i][c]} vs ${w.tasks[t][c]}`);
  if (w.steps !== n.steps) return finding(`native != wasm: steps ${n.steps} vs ${w.steps}`);
  if ((w.error?.code ?? 0) !== n.error.code)
    return finding(`native != wasm: error ${n.error.code} vs ${w.error?.code ?? 0}`);
  if (n.error.code === ErrorCode.EINVARIANT) return finding(`native: invariant broken`);
  if (digest.n !== n.events || digest.hex() !== n.event_digest)
    return finding(`native != wasm: events ${n.events}/${n.event_digest} vs ${digest.n}/${digest.hex()}`);
  return { finding: null, detail: w.error ? `stopped: ${w.error.message}` : w.status };
}

/** a finding kept as a regression scenario: findings/seed-N.yaml, the finding in its first comment */
export function keepFinding(o: FuzzOutcome, dir: string): string {
  const file = join(dir, `seed-${o.seed}.yaml`);
  writeFileSync(file, `# fuzz finding, seed ${o.seed}: ${o.detail.split('\n')[0]}\n${o.source}`);
  return file;
}
