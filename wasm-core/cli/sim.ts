/**
 * mmplay's command line:
 *   npm run --silent sim -- FILE [--set key=value ...] [--json]
 *   npm run --silent sim -- FILE [--set ...] --compare key=value ... [--json]
 *   npm run --silent sim -- FILE [--set ...] --sweep key[=v1,v2,...] [--json | --csv]
 *
 * Runs a scenario headless on the same WebAssembly core the browser uses;
 * --compare runs it twice (A, and B = A plus the compares) and prints B − A,
 * --sweep runs it once per value of one tunable.
 * Exit status: 0 success, 1 an expect failed in a run that kept the
 * scenario's own tunables, 2 invalid input (bad YAML, unknown key, bad size,
 * unknown map or task, an impossible request). A run that changes a tunable
 * reports its expect checks as notes and never fails on them.
 * Errors go to stderr and name the file, the line and the key path.
 */
import { STEPS, STRUCTURAL_KINDS, type StepArg } from '../interface/steps.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Core } from '../ts/core.js';
import { compile, type Program } from '../ts/compile.js';
import { decodeEvent, describeEvent, type SimEvent } from '../ts/events.js';
import { allCounters, counterDiff, judgeExpects } from '../ts/judge.js';
import { formatValue, parseSweepArg, tunableValue } from '../ts/multirun.js';
import type { Letter, ReferenceCell } from '../ts/letter.js';
import { runLetter } from '../ts/letter-run.js';
import { checkSweepWork, planCompare, planSweep } from '../ts/plan.js';
import { runProgram, ProgramError, locate, type RunIssue, type RunResult } from '../ts/runner.js';
import { applyOverrides } from '../ts/overrides.js';
import { parseScenario } from '../ts/load/index.js';
import { ScenarioErrors } from '../ts/errors.js';
import { formatSize } from '../ts/units.js';
import type { Scenario } from '../ts/scenario.js';
import { checkLimits, DEFAULT_LIMITS, formatFigure, LIMIT_DEFS, parseLimit, type Limits } from '../ts/limits.js';
import { formatTunable, KERNEL_TUNABLES, MACHINE_SETTINGS, type TunableInfo } from '../ts/tunables.js';
import { parseSeed } from '../ts/load/params.js';
import { runQuiz } from './quiz.js';
import { CliExit, type CliIo, exit, fail, io, processIo, withIo } from './io.js';

/* ------------------------------------------------------------------ usage */

/** "power of two, 4 KiB .. 2 MiB", "per-thread | mm-wide", "1 .. 512 pages" */
function domainText(t: TunableInfo): string {
  const b = (n: number) => formatSize(n);
  switch (t.type) {
    case 'size':
      return `${t.pow2 ? 'power of two, ' : t.page ? 'multiple of 4 KiB, ' : ''}${b(t.min!)} .. ${b(t.max!)}`;
    case 'sizes':
      return `list of powers of two, ${b(t.min!)} .. ${b(t.max!)}, e.g. [16KiB,64KiB]`;
    case 'int':
      return `${t.min} .. ${t.max}${t.unit ? ` ${t.unit}` : ''}`;
    case 'choice':
      return t.choices!.join(' | ');
    case 'bool':
      return 'true | false';
  }
}

function tunablesHelp(): string {
  const rows = [...KERNEL_TUNABLES, ...MACHINE_SETTINGS].map((t) => [
    t.key,
    domainText(t),
    formatTunable(t, t.default),
  ]);
  rows.push(['seed', 'a whole number', '1']);
  const w0 = Math.max(...rows.map((r) => r[0].length)),
    w1 = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([k, d, def]) => `  ${k.padEnd(w0)}  ${d.padEnd(w1)}  default ${def}`).join('\n');
}

/** each step kind with its keys (required ones first), from the step kinds' description */
function stepsHelp(): string {
  const rows = Object.entries(STEPS).map(([kind, d]): [string, string] => {
    const args = Object.entries(d.args as Record<string, StepArg>);
    const keys = [...args.filter(([, a]) => a.required), ...args.filter(([, a]) => !a.required)].map(([k, a]) =>
      a.required ? k : `[${k}]`,
    );
    return [kind, `${d.doc}: ${keys.join(' ')}`];
  });
  for (const [kind, d] of Object.entries(STRUCTURAL_KINDS)) rows.push([kind, d.doc]);
  const w = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([k, d]) => `  ${k.padEnd(w)}  ${d}`).join('\n');
}

function limitsHelp(): string {
  const w = Math.max(...LIMIT_DEFS.map((d) => d.key.length));
  return LIMIT_DEFS.map((d) => `  ${d.key.padEnd(w)}  ${formatFigure(d.key, d.default).padEnd(11)}  ${d.what}`).join(
    '\n',
  );
}

const USAGE = () => `usage: npm run --silent sim -- FILE [--set key=value ...] [--json]
       npm run --silent sim -- FILE [--set ...] --compare key=value ... [--json]
       npm run --silent sim -- FILE [--set ...] --sweep key[=v1,v2,...] [--json | --csv]
       npm run --silent sim -- EXERCISE.tour.yaml --quiz [--seed N] [--answers] [--json]
       npm run --silent sim -- EXERCISE.tour.yaml [--seed N] --check id=value ...

  FILE               a scenario (YAML or JSON), e.g. scenarios/fault-around/sequential.yaml
  --set key=value    override a tunable (below) for every run; repeatable
  --compare key=value
                     run twice: A (the scenario with the --sets) and B (A plus every
                     --compare; repeatable); prints A, B and B-A for every counter
  --sweep key        run once per value of the tunable's sweep domain (every power of
                     two of fault_around_bytes, every choice, both booleans), or
  --sweep key=v1,v2,...  once per value given, in that order (key:v1,v2 also works)
  --json             print JSON instead of a table: one run's object; with --compare
                     {"a": run, "b": run, "diff": {counter: b-a}}; with --sweep an array
  --csv              with --sweep: a header value,<counter>,... and one line per run
  --events           print every event first, one sentence each (to stderr with --json)
  --debug-vm         run the invariant checker after every step (slow)
  --limit key=value  raise (or lower) a limit, below; repeatable, e.g. --limit operations=3e9

exercises (a tour whose beats ask; docs/exercises.md):
  --quiz             print the questions, with this seed's numbers
  --seed N           the student's variant: draws the exercise's parameters (default 1)
  --answers          with --quiz: each question's answer, computed by running the model
  --check id=value   grade an answer (repeatable); exit 0 only when every question is right

tunables (key, values, built-in default; the scenario's own value is the default for a run):
${tunablesHelp()}

steps (each '- kind: { key: value, ... }'; [optional]; docs/scenario-format.md has every key):
${stepsHelp()}

limits (checked before any work, from the scenario alone; key, default, what):
${limitsHelp()}

A run whose tunables differ from the scenario's own (--set, B of --compare, a sweep
value) reports its failed expect checks as notes: they state what the scenario
expects with its own tunables, and do not fail the run.

exit status: 0 ok, 1 an expect failed in a run with the scenario's own tunables,
2 invalid input or a limit`;

/* ------------------------------------------------------------------ options */

function keyValue(flag: string, kv: string | undefined, into: Record<string, string>) {
  const eq = kv?.indexOf('=') ?? -1;
  if (!kv || eq <= 0) fail(`${flag} needs key=value, got '${kv ?? ''}'\n\n${USAGE()}`);
  const key = kv.slice(0, eq).trim();
  /* the same key twice: which one was meant is not for us to guess */
  if (key in into) fail(`${flag} ${key} is given twice (${into[key]} and ${kv.slice(eq + 1)}): give it once`);
  into[key] = kv.slice(eq + 1);
}

function parseArgs(argv: string[]) {
  /* keyed by user text: no prototype (a key named __proto__ or constructor is just a key) */
  const sets: Record<string, string> = Object.create(null);
  const compares: Record<string, string> = Object.create(null);
  const limits: Limits = { ...DEFAULT_LIMITS };
  let file: string | undefined, sweep: string | undefined;
  const checks: [string, string][] = [];
  let quiz = false,
    answers = false,
    seed: number | undefined;
  let json = false,
    csv = false,
    debugVm = false,
    events = false;
  const value = (a: string, flag: string, i: number): [string | undefined, number] =>
    a === flag ? [argv[i + 1], i + 1] : [a.slice(flag.length + 1), i];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    let v: string | undefined;
    if (a === '--json') json = true;
    else if (a === '--csv') csv = true;
    else if (a === '--debug-vm') debugVm = true;
    else if (a === '--events') events = true;
    else if (a === '--quiz') quiz = true;
    else if (a === '--answers') answers = true;
    else if (a === '--seed' || a.startsWith('--seed=')) {
      [v, i] = value(a, '--seed', i);
      const s = parseSeed(v ?? '');
      if (typeof s !== 'number') fail(`--seed: ${s.error}`);
      seed = s;
    } else if (a === '--check' || a.startsWith('--check=')) {
      [v, i] = value(a, '--check', i);
      const kv: Record<string, string> = Object.create(null);
      keyValue('--check', v, kv);
      checks.push(...Object.entries(kv));
    } else if (a === '--help' || a === '-h') {
      io().out(`${USAGE()}\n`);
      exit(0);
    } else if (a === '--set' || a.startsWith('--set=')) {
      [v, i] = value(a, '--set', i);
      keyValue('--set', v, sets);
    } else if (a === '--compare' || a.startsWith('--compare=')) {
      [v, i] = value(a, '--compare', i);
      keyValue('--compare', v, compares);
    } else if (a === '--limit' || a.startsWith('--limit=')) {
      [v, i] = value(a, '--limit', i);
      const kv: Record<string, string> = Object.create(null);
      keyValue('--limit', v, kv);
      for (const [k, x] of Object.entries(kv)) {
        const bad = parseLimit(k, x, limits);
        if (bad) fail(bad);
      }
    } else if (a === '--sweep' || a.startsWith('--sweep=')) {
      [v, i] = value(a, '--sweep', i);
      if (!v) fail(`--sweep needs a tunable: --sweep key or --sweep key=v1,v2,...\n\n${USAGE()}`);
      if (sweep !== undefined)
        fail(`one --sweep at a time (got '${sweep}' and '${v}'); use --set for the other tunables`);
      sweep = v;
    } else if (a.startsWith('-')) fail(`unknown option '${a}'\n\n${USAGE()}`);
    else if (file) fail(`one scenario at a time (got '${file}' and '${a}')\n\n${USAGE()}`);
    else file = a;
  }
  if (!file) fail(USAGE());
  const exercise = quiz || answers || checks.length > 0 || seed !== undefined;
  if (exercise) {
    if (!file.endsWith('.tour.yaml'))
      fail(`--quiz, --answers, --seed and --check take an exercise (a .tour.yaml whose beats ask), got '${file}'`);
    if (answers && !quiz) fail('--answers goes with --quiz (the questions, then their answers)');
    if (checks.length && (quiz || answers)) fail('--check grades answers: not with --quiz or --answers');
    if (sweep !== undefined || Object.keys(compares).length || csv || events || debugVm)
      fail('an exercise takes --seed, --quiz, --answers, --check, --set, --limit and --json only');
  } else if (file.endsWith('.tour.yaml'))
    fail(`${file} is a tour: open it in the playground (?tour=...), or give --quiz if it is an exercise`);
  const quizArgs = exercise ? { seed: seed ?? 1, answers, checks } : null;
  const comparing = Object.keys(compares).length > 0;
  if (comparing && sweep !== undefined)
    fail(
      '--compare and --sweep do not go together: compare two runs, or sweep one tunable (use --set to fix the others)',
    );
  if (csv && sweep === undefined)
    fail('--csv goes with --sweep (one line per run); for one run or --compare use --json');
  if (csv && json) fail('--csv or --json, not both');
  if (events && (comparing || sweep !== undefined))
    fail("--events prints one run's events: not with --compare or --sweep");
  return { file, sets, compares: comparing ? compares : null, sweep, json, csv, debugVm, events, limits, quizArgs };
}

/** ScenarioErrors from applyOverrides name the flag --set; say which flag it was */
function overrideErrors(e: unknown, flag: string): never {
  if (e instanceof ScenarioErrors)
    fail(
      e.errors.map((x) => (x.file === '--set' && !x.line ? `${flag} ${x.path}: ${x.detail}` : x.message)).join('\n'),
    );
  throw e;
}

export function kernelJson(s: Scenario) {
  return { ...s.kernel };
}

/* ------------------------------------------------------------------ one run */

interface Run {
  /** '' for a single run; 'A', 'B'; the sweep value ("64 KiB") */
  name: string;
  /** how stderr names the run: "A", "fault_around_bytes 64 KiB" */
  tag: string;
  scenario: Scenario;
  prog: Program;
  res: RunResult;
  changed: string[];
  failures: RunIssue[];
  notes: RunIssue[];
}

const n = (x: number) => x.toLocaleString('en-US');

/**
 * The VMA cache's hit rate, vmacache_find_hits / vmacache_find_calls, for
 * the run and per task (null where no find_vma was called): the seed's
 * figure, counted the >= 4.9 way (every call).
 */
function hitRates(res: RunResult): { all: number | null; tasks: Record<string, number | null> } {
  const rate = (c: Record<string, number>) =>
    c.vmacache_find_calls ? c.vmacache_find_hits / c.vmacache_find_calls : null;
  return {
    all: rate(res.counters),
    tasks: Object.fromEntries(Object.entries(res.tasks).map(([t, c]) => [t, rate(c)])),
  };
}
const pct = (r: number | null) => (r === null ? '-' : `${(100 * r).toFixed(2)}%`);

function table(res: RunResult, s: Scenario): string {
  const lines: string[] = [];
  lines.push(s.name);
  const k = s.kernel;
  lines.push(
    `kernel: version=${k.version} fault_around_bytes=${k.fault_around_bytes} vmacache=${k.vmacache} anon_prefault=${k.anon_prefault} thp=${k.thp} readahead_kb=${k.readahead_kb} large_mapcount=${k.large_mapcount}`,
  );
  lines.push(
    `machine: memory=${formatSize(s.machine.memory)}  steps run: ${res.steps}  touches: ${n(res.model.touches)}`,
  );
  lines.push('');
  const w = Math.max(...Object.keys(res.counters).map((x) => x.length));
  lines.push(`${'counter'.padEnd(w)}  ${'value'.padStart(14)}`);
  for (const [name, v] of Object.entries(res.counters)) lines.push(`${name.padEnd(w)}  ${n(v).padStart(14)}`);
  lines.push('');
  lines.push("the model's own (no kernel counter):");
  for (const [name, v] of Object.entries(res.model)) lines.push(`${name.padEnd(w)}  ${n(v).padStart(14)}`);
  lines.push('');
  const tasks = Object.entries(res.tasks);
  const cols = Object.keys(tasks[0]?.[1] ?? {});
  lines.push(`${'task'.padEnd(12)}${cols.map((c) => c.padStart(21)).join('')}`);
  for (const [t, c] of tasks) lines.push(`${t.padEnd(12)}${cols.map((x) => n(c[x]).padStart(21)).join('')}`);
  const r = hitRates(res);
  if (r.all !== null) {
    lines.push('', `VMA-cache hit rate (vmacache_find_hits / vmacache_find_calls): ${pct(r.all)}`);
    for (const [t, x] of Object.entries(r.tasks)) if (x !== null) lines.push(`  ${t.padEnd(12)}${pct(x).padStart(9)}`);
  }
  return lines.join('\n');
}

/** the single-run object of the contract (scenario-format.md), plus the project's fields */
function runJson(r: Run) {
  const { scenario, prog, res } = r;
  return {
    name: scenario.name,
    kernel: kernelJson(scenario),
    counters: res.counters,
    tasks: res.tasks,
    steps: res.steps,
    machine: scenario.machine,
    seed: scenario.seed,
    model: res.model,
    status: res.error ? 'error' : r.failures.length ? 'expect-failed' : 'ok',
    expect_failures: r.failures.map((f) => locate(prog, f.at, f.message)),
    /* a run that changed a tunable: what the scenario expects with its own tunables */
    expect_notes: r.notes.map((f) => locate(prog, f.at, f.message)),
    error: res.error ? locate(prog, res.error.at, res.error.message) : null,
    /* derived: the VMA cache's hit rate, run and tasks (null: no find_vma call) */
    vmacache_hit_rate: hitRates(res),
  };
}

/** --events: "#12 step 3 app.0  page_fault_user  read fault at 0x7f0000028000 ..." */
function eventPrinter(prog: Program, toStderr: boolean) {
  const write = toStderr ? io().err : io().out;
  let index = 0;
  let op: SimEvent[] = [];
  return (batch: Uint8Array) => {
    const lines: string[] = [];
    for (let off = 0; off < batch.length; off += 32) {
      const e = decodeEvent(batch, off, index++);
      if (e.opStart) op = [];
      const d = describeEvent(e, prog, op);
      op.push(e);
      const who = e.task !== null ? (prog.tasks[e.task] ?? '') : '';
      lines.push(`#${e.index} ${e.step !== null ? `step ${e.step + 1}` : ''} ${who}  ${e.name}  ${d.text}`);
    }
    if (lines.length) write(`${lines.join('\n')}\n`);
  };
}

/** "run 3/10 (fault_around_bytes 16 KiB) 40%" on a terminal's stderr, overwritten in place */
class Progress {
  private readonly on = io().tty;
  private last = 0;
  show(text: string, done?: number, total?: number) {
    if (!this.on) return;
    const now = performance.now();
    if (done !== undefined && now - this.last < 200) return;
    this.last = now;
    const pct = done !== undefined && total ? ` ${Math.floor((100 * done) / total)}%` : '';
    io().err(`\r\x1b[K${text}${pct}`);
  }
  clear() {
    if (this.on) io().err('\r\x1b[K');
  }
}

/* ------------------------------------------------------------------ several runs */

function sign(d: number): string {
  return d > 0 ? `+${n(d)}` : n(d);
}

function compareTable(a: Run, b: Run, label: { a: string; b: string }): string {
  const lines: string[] = [
    a.scenario.name,
    `A: ${label.a}`,
    `B: ${label.b}`,
    `machine: memory=${formatSize(a.scenario.machine.memory)} / ${formatSize(b.scenario.machine.memory)}  steps run: ${a.res.steps} / ${b.res.steps}`,
    '',
  ];
  const groups: [string, Record<string, number>, Record<string, number>][] = [
    ['counter', a.res.counters, b.res.counters],
    ["the model's own (no kernel counter)", a.res.model, b.res.model],
  ];
  for (const [task, ca] of Object.entries(a.res.tasks)) {
    const cb = b.res.tasks[task];
    if (cb) groups.push([`task ${task}`, ca, cb]);
  }
  const names = groups.flatMap(([, ca]) => Object.keys(ca));
  const w = Math.max(...groups.map(([g]) => g.length), ...names.map((x) => x.length));
  const nums = groups.flatMap(([, ca, cb]) =>
    Object.keys(ca)
      .filter((k) => k in cb)
      .flatMap((k) => [n(ca[k]), n(cb[k]), sign(cb[k] - ca[k])]),
  );
  const cw = Math.max(12, ...nums.map((x) => x.length));
  let folded = 0;
  for (const [g, ca, cb] of groups) {
    const rows: string[] = [];
    for (const k of Object.keys(ca)) {
      if (!(k in cb)) continue;
      if (ca[k] === 0 && cb[k] === 0) {
        folded++;
        continue;
      }
      const d = cb[k] - ca[k];
      rows.push(
        `${k.padEnd(w)}  ${n(ca[k]).padStart(cw)}  ${n(cb[k]).padStart(cw)}  ${sign(d).padStart(cw)}${d ? '  *' : ''}`,
      );
    }
    if (!rows.length) continue;
    lines.push(`${g.padEnd(w)}  ${'A'.padStart(cw)}  ${'B'.padStart(cw)}  ${'B-A'.padStart(cw)}`, ...rows, '');
  }
  const ra = hitRates(a.res),
    rb = hitRates(b.res);
  if (ra.all !== null || rb.all !== null) {
    const g = 'VMA-cache hit rate (hits / calls)';
    lines.push(
      `${g.padEnd(w)}  ${'A'.padStart(cw)}  ${'B'.padStart(cw)}`,
      `${'all tasks'.padEnd(w)}  ${pct(ra.all).padStart(cw)}  ${pct(rb.all).padStart(cw)}`,
    );
    for (const t of Object.keys(ra.tasks))
      if (ra.tasks[t] !== null || rb.tasks[t] != null)
        lines.push(`${t.padEnd(w)}  ${pct(ra.tasks[t]).padStart(cw)}  ${pct(rb.tasks[t] ?? null).padStart(cw)}`);
    lines.push('');
  }
  lines.push(
    `* B differs from A${folded ? `; ${folded} counter${folded > 1 ? 's' : ''} 0 in both runs not shown` : ''}`,
  );
  return lines.join('\n');
}

/** a sweep value for CSV: plain numbers (65536), words, and quoted lists */
function csvValue(v: unknown): string {
  const s = Array.isArray(v) ? `[${v.join(', ')}]` : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function sweepCsv(key: string, runs: Run[]): string {
  const names = Object.keys(allCounters(runs[0].res));
  const lines = [['value', ...names].join(',')];
  for (const r of runs) {
    const c = allCounters(r.res);
    lines.push([csvValue(tunableValue(r.scenario, key)), ...names.map((k) => String(c[k] ?? ''))].join(','));
  }
  return lines.join('\n');
}

function sweepTable(key: string, own: Scenario, runs: Run[]): string {
  const all = runs.map((r) => allCounters(r.res));
  const names = Object.keys(all[0]);
  const varies = (k: string) => all.some((c) => c[k] !== all[0][k]);
  const cols = ['pgfault', 'pgmajfault', ...names.filter((k) => k !== 'pgfault' && k !== 'pgmajfault' && varies(k))];
  const rows = runs.map((r, i) => [r.name + (r.changed.length ? '' : ' *'), ...cols.map((k) => n(all[i][k]))]);
  const head = [key, ...cols];
  const w = head.map((h, j) => Math.max(h.length, ...rows.map((r) => r[j].length)));
  const fmt = (r: string[]) => r.map((x, j) => (j ? x.padStart(w[j]) : x.padEnd(w[j]))).join('  ');
  const lines = [
    `${own.name}: sweep of ${key} (the scenario's own: ${formatValue(key, tunableValue(own, key))})`,
    '',
    fmt(head),
    ...rows.map(fmt),
    '',
  ];
  if (runs.some((r) => !r.changed.length)) lines.push("* the scenario's own tunables");
  const constant = names.filter((k) => !cols.includes(k) && all[0][k] !== 0);
  if (constant.length) lines.push(`the same in every run: ${constant.map((k) => `${k} ${n(all[0][k])}`).join(', ')}`);
  return lines.join('\n');
}

/* ------------------------------------------------------------------ the letter */

/** the letter's cells (../ts/letter-run.ts), with the CLI's progress line and errors */
function letterCells(core: Core, base: Scenario, first: Run, limits: Limits, progress: Progress): ReferenceCell[] {
  try {
    return runLetter(core, base, {
      limits,
      own: first.res,
      onProgress: (i, label, d, t) =>
        progress.show(`letter column ${i + 1}/${base.letter!.columns.length} (${label})`, d, t),
    });
  } catch (e) {
    progress.clear();
    if (e instanceof ProgramError || e instanceof ScenarioErrors || e instanceof Error) fail(e.message);
    throw e;
  } finally {
    progress.clear();
  }
}

/** the letter's cells as a table: row, column, the letter's figure, the model's, the verdict */
function letterTable(letter: Letter, cells: ReferenceCell[]): string {
  const n = (x: number | null, unit: string, change: boolean) =>
    x === null
      ? '-'
      : `${change && x > 0 ? '+' : ''}${x.toLocaleString('en-US', { maximumFractionDigits: 2 })}${unit === '%' ? '%' : ''}`;
  const rows = cells.map((c) => [
    c.row,
    c.column,
    n(c.seed, c.unit, c.change),
    n(c.model, c.unit, c.change),
    c.agrees === null ? '' : c.agrees ? 'agrees' : 'differs',
  ]);
  const head = ['letter row', 'column', 'letter', 'model', ''];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((x, i) => (i >= 2 && i <= 3 ? x.padStart(w[i]) : x.padEnd(w[i])))
      .join('  ')
      .trimEnd();
  const whys = [...new Set(cells.filter((c) => c.why && c.agrees !== true).map((c) => `  ${c.row}: ${c.why}`))];
  return [
    `the letter beside the model: ${letter.source}`,
    line(head),
    ...rows.map(line),
    ...(whys.length ? ['', ...whys] : []),
  ].join('\n');
}

/* ------------------------------------------------------------------ main */

/** the core, compiled once per process: a test's hundreds of runs instantiate it without compiling again */
let compiled: WebAssembly.Module | undefined;
function loadCore(): Core {
  compiled ??= new WebAssembly.Module(
    readFileSync(fileURLToPath(new URL('../build/wasm/mmsim.wasm', import.meta.url))),
  );
  return Core.fromModule(compiled);
}

/**
 * One run of the command line: argv without node and the script, written to io's streams; returns the
 * exit status. Synchronous, so that runs in one process (the tests') never interleave.
 */
export function runCli(argv: string[], streams: CliIo = processIo): number {
  return withIo(streams, () => {
    try {
      main(argv);
      return 0;
    } catch (e) {
      if (e instanceof CliExit) return e.code;
      io().err(`internal error: ${(e as Error).stack ?? e}\n`);
      return 3;
    }
  });
}

function main(argv: string[]) {
  const { file, sets, compares, sweep, json, csv, debugVm, events, limits, quizArgs } = parseArgs(argv);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    fail(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (quizArgs) {
    runQuiz(loadCore(), { file, source, json, sets, limits, ...quizArgs });
    return;
  }
  let own: Scenario, base: Scenario;
  try {
    own = parseScenario(source, file, limits);
  } catch (e) {
    if (e instanceof ScenarioErrors) fail(e.message);
    throw e;
  }
  try {
    base = applyOverrides(own, sets);
  } catch (e) {
    overrideErrors(e, '--set');
  }

  /* what to run */
  let planned: { name: string; tag: string; scenario: Scenario }[];
  let labels: { a: string; b: string } | null = null;
  let sweepKey = '';
  if (compares) {
    let plan: ReturnType<typeof planCompare>;
    try {
      plan = planCompare(base, compares);
    } catch (e) {
      overrideErrors(e, '--compare');
    }
    labels = plan.label;
    planned = [
      { name: 'A', tag: 'A', scenario: plan.a },
      { name: 'B', tag: 'B', scenario: plan.b },
    ];
  } else if (sweep !== undefined) {
    const { key, values } = parseSweepArg(sweep);
    sweepKey = key;
    let plan: ReturnType<typeof planSweep>;
    try {
      plan = planSweep(base, key, values);
      checkSweepWork(base, key, plan, limits);
    } catch (e) {
      overrideErrors(e, '--sweep');
    }
    planned = plan.map((p) => ({ name: p.label, tag: `${key} ${p.label}`, scenario: p.scenario }));
  } else planned = [{ name: '', tag: '', scenario: base }];

  const core = loadCore();
  const progress = new Progress();
  const runs: Run[] = [];
  /*
   * every run is checked against the limits before any runs; each is compiled just before it runs, so
   * that a sweep holds one program at a time (80 values of a big scenario compiled at once ran Node out
   * of memory)
   */
  const compileRun = (p: (typeof planned)[0]): Program => {
    try {
      return compile(p.scenario, limits);
    } catch (e) {
      if (e instanceof ScenarioErrors) fail(`${p.tag ? `run ${p.tag}: ` : ''}${e.message}`);
      throw e;
    }
  };
  const first = compileRun(planned[0]);
  for (const p of planned.slice(1))
    try {
      checkLimits(p.scenario, limits);
    } catch (e) {
      if (e instanceof ScenarioErrors) fail(`${p.tag ? `run ${p.tag}: ` : ''}${e.message}`);
      throw e;
    }
  for (const [i, p] of planned.entries()) {
    const prog = i === 0 ? first : compileRun(p);
    const what =
      planned.length > 1
        ? `run ${i + 1}/${planned.length} (${compares ? `${p.tag}: ${p.tag === 'A' ? labels!.a : labels!.b}` : p.tag})`
        : '';
    if (what) progress.show(what);
    let res: RunResult;
    try {
      res = runProgram(core, prog, {
        debugVm,
        trace: events,
        onEvents: events ? eventPrinter(prog, json) : undefined,
        onProgress: what ? (done, total) => progress.show(what, done, total) : undefined,
      });
    } catch (e) {
      progress.clear();
      if (e instanceof ProgramError) fail(`${p.tag ? `run ${p.tag}: ` : ''}${e.message}`);
      throw e;
    }
    runs.push({ name: p.name, tag: p.tag, scenario: p.scenario, prog, res, ...judgeExpects(own, p.scenario, res) });
  }
  progress.clear();

  /* what they gave */
  if (compares) {
    const [a, b] = runs;
    if (json) io().out(`${JSON.stringify({ a: runJson(a), b: runJson(b), diff: counterDiff(a.res, b.res) })}\n`);
    else io().out(`${compareTable(a, b, labels!)}\n`);
  } else if (sweep !== undefined) {
    if (json) io().out(`${JSON.stringify(runs.map(runJson))}\n`);
    else if (csv) io().out(`${sweepCsv(sweepKey, runs)}\n`);
    else io().out(`${sweepTable(sweepKey, own, runs)}\n`);
  } else {
    /* the cover letter's table, when the scenario has one: each column a run (the first one already ran) */
    const reference = base.letter ? letterCells(core, base, runs[0], limits, progress) : null;
    if (json) io().out(`${JSON.stringify({ ...runJson(runs[0]), ...(reference ? { reference } : {}) })}\n`);
    else {
      io().out(`${table(runs[0].res, runs[0].scenario)}\n`);
      if (reference) io().out(`\n${letterTable(base.letter!, reference)}\n`);
    }
  }

  /* expect failures, notes and errors, per run */
  let failed = false,
    errored = false;
  for (const r of runs) {
    const pre = r.tag ? `run ${r.tag}: ` : '';
    for (const f of r.failures) io().err(`${pre}${locate(r.prog, f.at, f.message)}\n`);
    if (!json) for (const f of r.notes) io().err(`${pre}note: ${locate(r.prog, f.at, f.message)}\n`);
    if (r.res.error) {
      io().err(`${pre}${locate(r.prog, r.res.error.at, r.res.error.message)}\n`);
      errored = true;
    }
    if (r.failures.length) {
      failed = true;
      if (!json) io().err(`${pre}${r.failures.length} expect check${r.failures.length > 1 ? 's' : ''} failed\n`);
    }
  }
  if (!json && runs.some((r) => r.notes.length)) {
    const keys = [...new Set(runs.flatMap((r) => (r.notes.length ? r.changed : [])))];
    io().err(`(notes, not failures: the scenario's expect checks are written for its own ${keys.join(', ')})\n`);
  }
  if (errored) exit(2);
  if (failed) exit(1);
}
