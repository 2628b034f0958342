// npm test: every test, installing what is missing first.
//
//   npm test                 every stage below
//   npm test -- quick        the edit-test loop: lint, type check, native tests, the fast vitest projects
//   npm test -- NAME         the stages whose name starts with NAME (lint, type, core, TypeScript, production, browser)
//
//   1. lint, type check, the native C tests (ASan, UBSan, the invariant checker) and the production
//      build with the offline single file, side by side
//   2. TypeScript: vitest (loader, golden traces, parity, engine, store; then the CLI, hostile inputs, fuzzing)
//   3. the browser: Playwright in Debian's Chromium, against the production build
//
// Stages in one group run at the same time (their output is printed whole as each ends); the groups
// run in order, and the first failure stops the run. Each stage's time is printed at the end.
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { root, setup } from './setup.mjs';

const node = process.execPath;
const arg = process.argv[2];
const quick = arg === 'quick';
const only = quick ? null : arg;

const VITEST = [node, 'node_modules/vitest/vitest.mjs', 'run'];
/* the quick loop's vitest projects; the full run adds the CLI's end-to-end tests, hostile inputs and fuzzing */
const QUICK_PROJECTS = ['core', 'web'];

const STAGES = [
  { group: 1, name: 'lint (Biome, clang-format)', cmd: [node, 'scripts/lint.mjs'] },
  { group: 1, name: 'type check', cmd: [node, 'node_modules/typescript/bin/tsc', '-p', '.'] },
  { group: 1, name: 'core: native tests (ASan, UBSan)', cmd: ['make', '-s', '-j2', '-C', 'wasm-core', 'test'] },
  {
    group: 1,
    name: 'production build',
    full: true,
    cmd: [node, 'node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
  },
  {
    group: 1,
    name: 'production build: the offline single file',
    full: true,
    follows: true,
    cmd: [node, 'scripts/build-offline.mjs'],
  },
  {
    group: 2,
    name: 'TypeScript tests (vitest)',
    cmd: quick ? [...VITEST, ...QUICK_PROJECTS.flatMap((p) => ['--project', p])] : VITEST,
  },
  {
    group: 3,
    name: 'browser tests (Playwright, Chromium)',
    full: true,
    cmd: [node, 'node_modules/@playwright/test/cli.js', 'test'],
  },
];

const chosen = STAGES.filter((s) => (quick ? !s.full : !only || s.name.startsWith(only)));
if (!chosen.length) {
  console.error(
    `npm test: no stage named '${only}'. Stages: quick, ${STAGES.map((s) => s.name.split(/[ :(]/)[0]).join(', ')}`,
  );
  process.exit(2);
}

const t0 = Date.now();
setup({
  browser: chosen.some((s) => s.name.startsWith('browser')),
  native: true,
  lint: chosen.some((s) => s.name.startsWith('lint')),
});
const tSetup = Date.now() - t0;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
/* MMPLAY_QUICK: the quick loop; a test that leaves a slow second pass to the full run reads it (golden.test.ts) */
const env = { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1', ...(quick ? { MMPLAY_QUICK: '1' } : {}) };

/** the lines of a stage's output that name what failed (vitest, Playwright, the native tests, lint) */
function failureLines(text) {
  const lines = stripVTControlCharacters(text)
    .split('\n')
    .filter((l) => /^\s*(FAIL\b|×|✘|\d+\) )|AssertionError|Error: |error:|FAILED|not ok /.test(l))
    .map((l) => l.trimEnd());
  const unique = [...new Set(lines)];
  return unique.length > 40 ? [...unique.slice(0, 40), `… and ${unique.length - 40} more`] : unique;
}

/** one stage; alone it prints as it goes, beside others its output is kept and printed whole when it ends */
function run(stage, alone) {
  const t = Date.now();
  if (alone) console.log(`\n=== ${stage.name}`);
  return new Promise((resolve) => {
    const [cmd, ...args] = stage.cmd;
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    /* kept either way: a failure's lines are printed again under the summary, where a CI log's tail shows them */
    child.stdout.on('data', (d) => {
      out.push(d);
      if (alone) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      out.push(d);
      if (alone) process.stderr.write(d);
    });
    child.on('close', (code, signal) => {
      const ms = Date.now() - t;
      if (!alone) {
        console.log(`\n=== ${stage.name}`);
        process.stdout.write(Buffer.concat(out));
      }
      const ok = code === 0;
      console.log(`=== ${stage.name}: ${ok ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`} (${secs(ms)})`);
      resolve({ stage, ok, ms, why: ok ? [] : failureLines(Buffer.concat(out).toString()) });
    });
  });
}

const results = [];
for (const group of [...new Set(chosen.map((s) => s.group))]) {
  const stages = chosen.filter((s) => s.group === group);
  /* a stage marked `follows` runs after the one before it in its group */
  const chains = [];
  for (const s of stages)
    if (s.follows && chains.length) chains[chains.length - 1].push(s);
    else chains.push([s]);
  const alone = chains.length === 1;
  const done = await Promise.all(
    chains.map(async (chain) => {
      const rs = [];
      for (const s of chain) {
        const r = await run(s, alone);
        rs.push(r);
        if (!r.ok) break;
      }
      return rs;
    }),
  );
  results.push(...done.flat());
  if (results.some((r) => !r.ok)) break;
}

const failed = results.filter((r) => !r.ok);
const width = Math.max(...STAGES.map((s) => s.name.length));
console.log(`\n${'stage'.padEnd(width)}  time`);
console.log(`${'setup (what was missing)'.padEnd(width)}  ${secs(tSetup).padStart(7)}`);
for (const r of results)
  console.log(`${r.stage.name.padEnd(width)}  ${secs(r.ms).padStart(7)}${r.ok ? '' : '  FAILED'}`);
const total = secs(Date.now() - t0);
if (failed.length) {
  for (const r of failed) if (r.why.length) console.error(`\nwhat failed in ${r.stage.name}:\n${r.why.join('\n')}`);
  console.error(`\nFAILED: ${failed.map((r) => r.stage.name).join(', ')} (after ${total})`);
  process.exit(1);
}
console.log(`\n${quick ? 'quick tests' : only ? `'${only}' stages` : 'all tests'} passed in ${total}`);
