/**
 * npm run bench - speed and memory of the core, native and WebAssembly side
 * by side, on the seed's 16 GiB sequential scenario with fault-around off
 * (order 0) and on (order 4). Prints figures; asserts nothing (the targets
 * are checked and reported, not enforced).
 *
 * "Touches per second" times the access step only; filling the page cache
 * (cached: all, 4 Mi pages) is timed apart as "preload".
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COUNTERS, RunStatus } from '../ts/abi.js';
import { Core } from '../ts/core.js';
import { compile, type Program } from '../ts/compile.js';
import { parseScenario } from '../ts/scenario.js';
import { benchTimeTravel } from './timetravel.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);

interface Figures {
  preloadS: number; runS: number; touches: number; faults: number; mapped: number;
  simBytes: number; simPeak: number; rss: number; wasmMemory?: number;
}

function program(file: string): Program {
  return compile(parseScenario(readFileSync(`${repo}${file}`, 'utf8'), file));
}

function cachedPages(p: Program): number {
  return p.scenario.files.filter((f) => f.cached).reduce((a, f) => a + Math.ceil(f.size / 4096), 0);
}

function nativeRun(p: Program): Figures {
  const dir = mkdtempSync(join(tmpdir(), 'mmplay-bench-'));
  const bin = join(dir, 'prog.bin');
  writeFileSync(bin, p.bytes);
  const j = JSON.parse(execFileSync(`${repo}wasm-core/build/native/mmsim-run`,
    ['--repeat', String(REPEAT), '--split', String(cachedPages(p)), bin], { encoding: 'utf8' }));
  return {
    preloadS: j.preload_seconds, runS: j.run_seconds, touches: j.counters.touches, faults: j.counters.pgfault,
    mapped: j.counters.nr_mapped, simBytes: j.sim_bytes, simPeak: j.sim_peak_bytes, rss: j.max_rss_bytes,
  };
}

async function wasmRun(core: Core, p: Program): Promise<Figures> {
  let best: Figures | null = null;
  for (let r = 0; r < REPEAT; r++) {
    const sim = core.createSim({ trace: false });
    sim.load(p.bytes);
    const t0 = performance.now();
    let st = sim.run(cachedPages(p));
    const t1 = performance.now();
    if (st === RunStatus.Work) st = sim.run();
    const t2 = performance.now();
    if (st !== RunStatus.Done) throw new Error(`run ended with status ${st}`);
    const c = (n: (typeof COUNTERS)[number]) => sim.counter(COUNTERS.indexOf(n));
    const f: Figures = {
      preloadS: (t1 - t0) / 1000, runS: (t2 - t1) / 1000, touches: c('touches'), faults: c('pgfault'), mapped: c('nr_mapped'),
      simBytes: sim.memBytes, simPeak: sim.memPeak, rss: process.memoryUsage().rss, wasmMemory: core.memoryBytes,
    };
    sim.destroy();
    if (!best || f.preloadS + f.runS < best.preloadS + best.runS) best = f;
  }
  return best!;
}

const M = (x: number) => `${(x / 1e6).toFixed(1)} M/s`;
const MiB = (x: number) => `${(x / 2 ** 20).toFixed(0)} MiB`;
const s = (x: number) => `${(x * 1000).toFixed(0)} ms`;
const row = (label: string, a: string, b: string, c = '') =>
  console.log(`  ${label.padEnd(34)}${a.padStart(12)}${b.padStart(12)}${c.padStart(14)}`);

async function main() {
  const core = await Core.fromBytes(readFileSync(`${repo}wasm-core/build/wasm/mmsim.wasm`));
  const gcc = execFileSync('gcc', ['-dumpfullversion'], { encoding: 'utf8' }).trim();
  let emcc = '?';
  try { emcc = execFileSync('emcc', ['--version'], { encoding: 'utf8' }).split('\n')[0].replace(/.*\) /, '').replace(/ .*/, ''); } catch { /* not on PATH */ }
  console.log(`mmplay benchmark: Node ${process.versions.node} (V8 ${process.versions.v8}), gcc ${gcc} -O2, emcc ${emcc} -O3, best of ${REPEAT}`);
  console.log('');
  console.log('16 GiB file, fully cached, read sequentially one byte per page (4,194,304 touches)');
  row('', 'native', 'wasm', 'wasm/native');
  const results: Record<string, { n: Figures; w: Figures }> = {};
  for (const [key, label] of [['base', 'fault-around off (baseline)'], ['order-4', 'fault-around on (order 4, 64 KiB)']] as const) {
    const p = program(`scenarios/fault-around/seed/sequential-16g-${key}.yaml`);
    const n = nativeRun(p);
    const w = await wasmRun(core, p);
    results[key] = { n, w };
    console.log(` ${label}`);
    row('preload: fill the page cache', s(n.preloadS), s(w.preloadS), `${(w.preloadS / n.preloadS).toFixed(2)}x`);
    row('page touches per second', M(n.touches / n.runS), M(w.touches / w.runS), `${(w.runS / n.runS).toFixed(2)}x`);
    row('faults per second', M(n.faults / n.runS), M(w.faults / w.runS), `${(w.runS / n.runS).toFixed(2)}x`);
    row('faults', n.faults.toLocaleString('en-US'), w.faults.toLocaleString('en-US'));
  }
  const on = results['order-4'];
  console.log(' memory (fault-around on, every page cached and mapped)');
  row('simulator memory per 4 KiB page', `${(on.n.simBytes / on.n.mapped).toFixed(1)} B`, `${(on.w.simBytes / on.w.mapped).toFixed(1)} B`);
  row('simulator memory, peak', MiB(on.n.simPeak), MiB(on.w.simPeak));
  row('process peak RSS', MiB(on.n.rss), MiB(on.w.rss));
  row('wasm linear memory', '-', MiB(on.w.wasmMemory ?? 0));
  console.log('');

  const tt = await benchTimeTravel(core);
  console.log(`time travel (the playground's engine, wasm): ${tt.events.toLocaleString('en-US')} events, a snapshot every ${tt.interval.toLocaleString('en-US')} events (${tt.snapshots} snapshots, ${MiB(tt.snapshotBytes)})`);
  console.log(`  record the run (events, snapshots)    ${s(tt.firstRunS)}`);
  console.log(`  step back, 200 random points         median ${tt.backMedianMs.toFixed(1)} ms, worst ${tt.backWorstMs.toFixed(1)} ms`);
  console.log(`  seek to a random event, 200 times    median ${tt.seekMedianMs.toFixed(1)} ms, worst ${tt.seekWorstMs.toFixed(1)} ms`);
  console.log('');

  const worst = Math.min(results.base.w.touches / results.base.w.runS, on.w.touches / on.w.runS);
  const ratio = Math.max(results.base.w.runS / results.base.n.runS, on.w.runS / on.n.runS);
  const perPage = on.w.simBytes / on.w.mapped;
  const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log('targets');
  console.log(`  wasm >= 10 M page touches per second   ${check(worst >= 10e6)}  (slowest: ${M(worst)})`);
  console.log(`  wasm within 1.5x of native             ${check(ratio <= 1.5)}  (worst: ${ratio.toFixed(2)}x)`);
  console.log(`  <= 64 bytes per cached, mapped page     ${check(perPage <= 64)}  (${perPage.toFixed(1)} B)`);
  console.log(`  step back < 50 ms in ~100,000 events    ${check(tt.backWorstMs < 50)}  (worst ${tt.backWorstMs.toFixed(1)} ms)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
