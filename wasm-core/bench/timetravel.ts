/**
 * Time travel in the playground's engine: record a run, then step back
 * (cursor - 1) and seek to random cursors, timing each frame as the
 * browser's worker computes it; for a run of about 100,000 events and one
 * of about 1,000,000 (the largest the engine records).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Core } from '../ts/core.js';
import { compile } from '../ts/compile.js';
import { Engine } from '../../web/src/frames/engine.js';
import { parseScenario } from '../ts/load/index.js';
import { stat, type Stat } from './stats.js';

export interface TimeTravelFigures {
  scenario: string;
  events: number;
  interval: number;
  snapshots: number;
  snapshotBytes: number;
  firstRunS: number;
  back: Stat;
  seek: Stat;
}

async function one(core: Core, name: string): Promise<TimeTravelFigures> {
  const file = fileURLToPath(new URL(`./${name}`, import.meta.url));
  const prog = compile(parseScenario(readFileSync(file, 'utf8'), file));
  const t0 = performance.now();
  const eng = new Engine(core, prog);
  const tl = eng.recordAll();
  const firstRunS = (performance.now() - t0) / 1000;
  let x = 12345;
  const rand = (n: number) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
  const back: number[] = [],
    seek: number[] = [];
  eng.frame(1); /* the first frame builds the page history once */
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
  return {
    scenario: `wasm-core/bench/${name}`,
    events: tl.nEvents,
    interval: tl.interval,
    snapshots: tl.snapshots,
    snapshotBytes: tl.snapshotBytes,
    firstRunS,
    back: stat(back),
    seek: stat(seek),
  };
}

export async function benchTimeTravel(core: Core): Promise<TimeTravelFigures[]> {
  return [await one(core, 'timetravel-100k.yaml'), await one(core, 'timetravel-1m.yaml')];
}
