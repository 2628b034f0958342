/**
 * Time travel in the playground's engine: record a run of about 100,000
 * events, then step back (cursor - 1) and seek to random cursors, timing
 * each frame as the browser's worker computes it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Core } from '../ts/core.js';
import { compile } from '../ts/compile.js';
import { Engine } from '../ts/engine.js';
import { parseScenario } from '../ts/scenario.js';

export interface TimeTravelFigures {
  scenario: string; events: number; interval: number; snapshots: number; snapshotBytes: number;
  firstRunS: number; backMedianMs: number; backWorstMs: number; seekMedianMs: number; seekWorstMs: number;
}

export async function benchTimeTravel(core: Core): Promise<TimeTravelFigures> {
  const file = fileURLToPath(new URL('./timetravel-100k.yaml', import.meta.url));
  const prog = compile(parseScenario(readFileSync(file, 'utf8'), file));
  const t0 = performance.now();
  const eng = new Engine(core, prog);
  const tl = eng.recordAll();
  const firstRunS = (performance.now() - t0) / 1000;
  let x = 12345;
  const rand = (n: number) => { x = (x * 1103515245 + 12345) % 2 ** 31; return x % n; };
  const back: number[] = [], seek: number[] = [];
  for (let i = 0; i < 200; i++) {
    const c = 1 + rand(tl.nEvents);
    eng.frame(c);
    const t1 = performance.now();
    eng.frame(c - 1);
    back.push(performance.now() - t1);
    const t2 = performance.now();
    eng.frame(rand(tl.nEvents + 1));
    seek.push(performance.now() - t2);
  }
  eng.destroy();
  const med = (a: number[]) => [...a].sort((p, q) => p - q)[a.length >> 1];
  return {
    scenario: 'wasm-core/bench/timetravel-100k.yaml', events: tl.nEvents, interval: tl.interval, snapshots: tl.snapshots,
    snapshotBytes: tl.snapshotBytes, firstRunS, backMedianMs: med(back), backWorstMs: Math.max(...back),
    seekMedianMs: med(seek), seekWorstMs: Math.max(...seek),
  };
}
