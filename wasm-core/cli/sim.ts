/**
 * mmplay's command line:  npm run --silent sim -- FILE [--set key=value ...] [--json]
 *
 * Runs a scenario headless on the same WebAssembly core the browser uses.
 * Exit status: 0 success, 1 an expect failed, 2 invalid input (bad YAML,
 * unknown key, bad size, unknown map or task, an impossible request).
 * Errors go to stderr and name the file, the line and the key path.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Core } from '../ts/core.js';
import { compile, type Program } from '../ts/compile.js';
import { decodeEvent, describeEvent, type SimEvent } from '../ts/events.js';
import { runProgram, ProgramError, locate, type RunResult } from '../ts/runner.js';
import { applyOverrides, parseScenario, ScenarioErrors, formatSize, type Scenario } from '../ts/scenario.js';

const USAGE = `usage: npm run --silent sim -- FILE [--set key=value ...] [--json]

  FILE             a scenario (YAML or JSON), e.g. scenarios/fault-around/sequential.yaml
  --set key=value  override a kernel tunable (fault_around_bytes, vmacache, anon_prefault,
                   anon_prefault_cap, thp, mthp, large_mapcount, fadvise_dontneed,
                   readahead_kb), seed, machine.memory or machine.io_latency
  --json           print one JSON object instead of a table
  --events         print every event first, one sentence each (to stderr with --json)
  --debug-vm       run the invariant checker after every step (slow)

exit status: 0 ok, 1 an expect failed, 2 invalid input`;

function fail(msg: string): never {
  process.stderr.write(`${msg}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]) {
  const sets: Record<string, string> = {};
  let file: string | undefined;
  let json = false, debugVm = false, events = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--debug-vm') debugVm = true;
    else if (a === '--events') events = true;
    else if (a === '--help' || a === '-h') { process.stdout.write(`${USAGE}\n`); process.exit(0); }
    else if (a === '--set' || a.startsWith('--set=')) {
      const kv = a === '--set' ? argv[++i] : a.slice(6);
      const eq = kv?.indexOf('=') ?? -1;
      if (!kv || eq <= 0) fail(`--set needs key=value, got '${kv ?? ''}'\n\n${USAGE}`);
      sets[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else if (a.startsWith('-')) fail(`unknown option '${a}'\n\n${USAGE}`);
    else if (file) fail(`one scenario at a time (got '${file}' and '${a}')\n\n${USAGE}`);
    else file = a;
  }
  if (!file) fail(USAGE);
  return { file, sets, json, debugVm, events };
}

export function kernelJson(s: Scenario) {
  return { ...s.kernel };
}

function table(res: RunResult, s: Scenario): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines: string[] = [];
  lines.push(s.name);
  const k = s.kernel;
  lines.push(`kernel: fault_around_bytes=${k.fault_around_bytes} vmacache=${k.vmacache} anon_prefault=${k.anon_prefault} thp=${k.thp} readahead_kb=${k.readahead_kb} large_mapcount=${k.large_mapcount}`);
  lines.push(`machine: memory=${formatSize(s.machine.memory)}  steps run: ${res.steps}  touches: ${n(res.model.touches)}`);
  lines.push('');
  const w = Math.max(...Object.keys(res.counters).map((x) => x.length));
  lines.push(`${'counter'.padEnd(w)}  ${'value'.padStart(14)}`);
  for (const [name, v] of Object.entries(res.counters)) lines.push(`${name.padEnd(w)}  ${n(v).padStart(14)}`);
  lines.push('');
  lines.push('the model\'s own (no kernel counter):');
  for (const [name, v] of Object.entries(res.model)) lines.push(`${name.padEnd(w)}  ${n(v).padStart(14)}`);
  lines.push('');
  const tasks = Object.entries(res.tasks);
  const cols = Object.keys(tasks[0]?.[1] ?? {});
  lines.push(`${'task'.padEnd(12)}${cols.map((c) => c.padStart(21)).join('')}`);
  for (const [t, c] of tasks) lines.push(`${t.padEnd(12)}${cols.map((x) => n(c[x]).padStart(21)).join('')}`);
  return lines.join('\n');
}

/** --events: "#12 step 3 app.0  page_fault_user  read fault at 0x7f0000028000 ..." */
function eventPrinter(prog: Program, toStderr: boolean) {
  const out = toStderr ? process.stderr : process.stdout;
  let index = 0;
  let op: SimEvent[] = [];
  return (batch: Uint8Array) => {
    const lines: string[] = [];
    for (let off = 0; off < batch.length; off += 32) {
      const e = decodeEvent(batch, off, index++);
      if (e.opStart) op = [];
      const d = describeEvent(e, prog, op);
      op.push(e);
      const who = e.task !== null ? prog.tasks[e.task] ?? '' : '';
      lines.push(`#${e.index} ${e.step !== null ? `step ${e.step + 1}` : ''} ${who}  ${e.name}  ${d.text}`);
    }
    if (lines.length) out.write(`${lines.join('\n')}\n`);
  };
}

async function main() {
  const { file, sets, json, debugVm, events } = parseArgs(process.argv.slice(2));
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    fail(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let scenario: Scenario;
  try {
    scenario = applyOverrides(parseScenario(source, file), sets);
  } catch (e) {
    if (e instanceof ScenarioErrors) fail(e.message);
    throw e;
  }
  const prog = compile(scenario);
  const wasm = fileURLToPath(new URL('../build/wasm/mmsim.wasm', import.meta.url));
  const core = await Core.fromBytes(readFileSync(wasm));
  let res: RunResult;
  try {
    res = runProgram(core, prog, { debugVm, trace: events, onEvents: events ? eventPrinter(prog, json) : undefined });
  } catch (e) {
    if (e instanceof ProgramError) fail(e.message);
    throw e;
  }
  if (json) {
    process.stdout.write(`${JSON.stringify({
      name: scenario.name,
      kernel: kernelJson(scenario),
      counters: res.counters,
      tasks: res.tasks,
      steps: res.steps,
      machine: scenario.machine,
      seed: scenario.seed,
      model: res.model,
      status: res.status,
      expect_failures: res.expectFailures.map((f) => locate(prog, f.at, f.message)),
      error: res.error ? locate(prog, res.error.at, res.error.message) : null,
    })}\n`);
  } else {
    process.stdout.write(`${table(res, scenario)}\n`);
  }
  for (const f of res.expectFailures) process.stderr.write(`${locate(prog, f.at, f.message)}\n`);
  if (res.error) {
    process.stderr.write(`${locate(prog, res.error.at, res.error.message)}\n`);
    process.exit(2);
  }
  if (res.expectFailures.length) {
    if (!json) process.stderr.write(`${res.expectFailures.length} expect check${res.expectFailures.length > 1 ? 's' : ''} failed\n`);
    process.exit(1);
  }
}

main().catch((e) => {
  process.stderr.write(`internal error: ${(e as Error).stack ?? e}\n`);
  process.exit(3);
});
