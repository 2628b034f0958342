/**
 * The fuzz target in `npm test`: a short, fixed range of seeds (FUZZ_SEEDS,
 * default 250, from FUZZ_FROM, default 1) through the loader, the wasm core with
 * the invariant checker, and the native ASan/UBSan build, which must agree
 * (fuzz/fuzz.ts); and every past finding (fuzz/findings/) as a regression
 * scenario. A new finding is written to fuzz/findings/seed-N.yaml.
 *
 *   npm run fuzz -- --minutes 10                  a longer run, outside vitest (fuzz/run.ts)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzOne, keepFinding, type FuzzOutcome } from './fuzz/fuzz.js';
import { loadCore, repo } from './helpers.js';

const SEEDS = Number(process.env.FUZZ_SEEDS ?? 250);
const FROM = Number(process.env.FUZZ_FROM ?? 1);
const native = `${repo}wasm-core/build/asan/mmsim-run`;
const findingsDir = join(import.meta.dirname, 'fuzz/findings');
const tmp = mkdtempSync(join(tmpdir(), 'mmplay-fuzz-'));

describe('fuzz: random scenarios, loader + wasm (invariants) + native ASan agree', () => {
  it(`seeds ${FROM} .. ${FROM + SEEDS - 1}`, async () => {
    expect(existsSync(native), `${native} is built by make -C wasm-core test (npm test's native stage)`).toBe(true);
    const core = await loadCore('release');
    const counts = { ran: 0, refused: 0, finding: 0 };
    const findings: FuzzOutcome[] = [];
    const t0 = performance.now();
    for (let s = FROM; s < FROM + SEEDS; s++) {
      const o = fuzzOne(s, core, native, tmp);
      counts[o.kind]++;
      if (o.kind === 'finding') {
        findings.push(o);
        keepFinding(o, findingsDir);
      }
    }
    const secs = (performance.now() - t0) / 1000;
    console.log(
      `fuzz: ${SEEDS} executions in ${secs.toFixed(1)} s: ${counts.ran} ran on both builds, ${counts.refused} refused by the loader, ${counts.finding} findings`,
    );
    /* the generator must mostly produce runnable scenarios, or it tests only the loader */
    expect(counts.ran).toBeGreaterThan(SEEDS * 0.7);
    expect(findings.map((f) => `seed ${f.seed}: ${f.detail}`)).toEqual([]);
  }, 600_000);

  const kept = existsSync(findingsDir)
    ? readdirSync(findingsDir)
        .filter((f) => f.endsWith('.yaml'))
        .sort()
    : [];
  for (const f of kept)
    it(`regression: ${f}`, async () => {
      const seed = Number(/seed-(\d+)/.exec(f)?.[1]);
      /* the finding as it was found (its scenario is kept whole: a new tunable changes what the generator draws) */
      const source = readFileSync(join(findingsDir, f), 'utf8').split('\n').slice(1).join('\n');
      const o = fuzzOne(seed, await loadCore('release'), native, tmp, source);
      expect(o.kind, o.detail).not.toBe('finding');
    });
});
