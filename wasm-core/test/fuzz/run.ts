/**
 * `npm run fuzz`: the fuzz target (fuzz.ts) as a command of its own, with a
 * time budget, outside vitest (whose 600 s test limit a long run nearly
 * reached). Runs seeds from --from until --seeds of them ran or --minutes
 * passed, prints progress every 10 s, keeps each finding in findings/ as a
 * regression scenario (npm test runs them all) and exits 1 if there was one.
 *
 *   npm run fuzz                         10 minutes from seed 1
 *   npm run fuzz -- --minutes 60 --from 100000
 *   npm run fuzz -- --seeds 5000         5,000 seeds, however long they take
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Core } from '../../ts/core.js';
import { fuzzOne, keepFinding } from './fuzz.js';

const repo = join(import.meta.dirname, '../../..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const num = (name: string, dflt: number, integer = true) => {
  const v = arg(name);
  const n = v === undefined ? dflt : Number(v);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
    console.error(`npm run fuzz: ${name} takes a number${integer ? ' (whole)' : ''}, got '${v}'`);
    console.error('usage: npm run fuzz -- [--minutes M] [--seeds N] [--from S]');
    process.exit(2);
  }
  return n;
};
const seeds = arg('--seeds') !== undefined ? num('--seeds', 0) : Number.POSITIVE_INFINITY;
const minutes = num('--minutes', arg('--seeds') !== undefined ? Number.POSITIVE_INFINITY : 10, false);
const from = num('--from', 1);

const native = join(repo, 'wasm-core/build/asan/mmsim-run');
const core = await Core.fromBytes(readFileSync(join(repo, 'wasm-core/build/wasm/mmsim.wasm')));
const tmp = mkdtempSync(join(tmpdir(), 'mmplay-fuzz-'));
const findingsDir = join(import.meta.dirname, 'findings');
const counts = { ran: 0, refused: 0, finding: 0 };
const t0 = performance.now();
const deadline = t0 + minutes * 60_000;
let last = t0,
  s = from;
const line = () =>
  `seeds ${from}..${s - 1}: ${counts.ran} ran on both builds, ${counts.refused} refused by the loader, ${counts.finding} findings, ${((performance.now() - t0) / 1000).toFixed(0)} s`;
console.log(
  `fuzz: from seed ${from}, ${Number.isFinite(seeds) ? `${seeds} seeds` : ''}${Number.isFinite(seeds) && Number.isFinite(minutes) ? ' or ' : ''}${Number.isFinite(minutes) ? `${minutes} minutes` : ''} (loader, wasm with the invariant checker, native ASan/UBSan)`,
);
for (; s < from + seeds && performance.now() < deadline; s++) {
  const o = fuzzOne(s, core, native, tmp);
  counts[o.kind]++;
  if (o.kind === 'finding')
    console.log(`finding: seed ${s}: ${o.detail.split('\n')[0]} -> ${keepFinding(o, findingsDir)}`);
  if (performance.now() - last > 10_000) {
    last = performance.now();
    console.log(line());
  }
}
console.log(`fuzz: ${line()}`);
if (counts.finding)
  console.log(
    'Each finding is kept in wasm-core/test/fuzz/findings/ and runs in npm test: fix the model, then commit it.',
  );
process.exit(counts.finding ? 1 : 0);
