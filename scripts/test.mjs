// npm test: every test, installing what is missing first.
//
//   npm test                 every stage below
//   npm test -- quick        the edit-test loop: lint, type check, native tests, the fast vitest projects
//   npm test -- NAME         the stages whose name starts with NAME (lint, type, core, TypeScript, production, browser)
//
//   lint, type check, the native C tests (ASan, UBSan, the invariant checker) and the production build
//   with the offline single file start together; the TypeScript tests (vitest: loader, golden traces,
//   parity, engine, store; then the CLI, hostile inputs, fuzzing) start when the native tests have built
//   what the fuzzer runs; the browser tests (Playwright in Debian's Chromium, against the production
//   build) start when everything else has ended, alone on the machine (some of them time the page).
//
// A stage starts when the stages it comes after have passed, and no stage starts after a failure. A
// stage running beside others keeps its output until it runs alone (then prints it and goes on live) or
// ends. Each stage's time is printed at the end.
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
  { name: 'lint (Biome, clang-format)', cmd: [node, 'scripts/lint.mjs'] },
  { name: 'type check', cmd: [node, 'node_modules/typescript/bin/tsc', '-p', '.'] },
  { name: 'core: native tests (ASan, UBSan)', cmd: ['make', '-s', '-j2', '-C', 'wasm-core', 'test'] },
  {
    name: 'production build',
    full: true,
    cmd: [node, 'node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
  },
  {
    name: 'production build: the offline single file',
    full: true,
    after: ['production build'],
    cmd: [node, 'scripts/build-offline.mjs'],
  },
  {
    name: 'TypeScript tests (vitest)',
    /* the fuzzer runs the native tests' ASan build */
    after: ['core: native tests (ASan, UBSan)'],
    cmd: quick ? [...VITEST, ...QUICK_PROJECTS.flatMap((p) => ['--project', p])] : VITEST,
  },
  {
    name: 'browser tests (Playwright, Chromium)',
    full: true,
    after: 'all',
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

/** stages running now: one alone prints as it goes; beside others its output is kept */
const running = new Set();

/** the stage running alone, if one is: it prints what it kept and goes on live */
function goLive() {
  if (running.size !== 1) return;
  const [r] = running;
  if (r.live) return;
  r.live = true;
  console.log(`\n=== ${r.stage.name}`);
  for (const [stream, d] of r.out) (stream === 1 ? process.stdout : process.stderr).write(d);
}

/** one stage, resolved with its result when it ends */
function run(stage) {
  const t = Date.now();
  return new Promise((resolve) => {
    const r = { stage, out: [], live: false };
    running.add(r);
    const [cmd, ...args] = stage.cmd;
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    /* kept either way: a failure's lines are printed again under the summary, where a CI log's tail shows them */
    for (const [n, stream] of [
      [1, child.stdout],
      [2, child.stderr],
    ])
      stream.on('data', (d) => {
        r.out.push([n, d]);
        if (r.live) (n === 1 ? process.stdout : process.stderr).write(d);
      });
    child.on('close', (code, signal) => {
      const ms = Date.now() - t;
      running.delete(r);
      const all = Buffer.concat(r.out.map(([, d]) => d));
      if (!r.live) {
        console.log(`\n=== ${stage.name}`);
        process.stdout.write(all);
      }
      const ok = code === 0;
      console.log(`=== ${stage.name}: ${ok ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`} (${secs(ms)})`);
      resolve({ stage, ok, ms, why: ok ? [] : failureLines(all.toString()) });
    });
  });
}

/* each stage starts once what it comes after (of the stages chosen) has passed; 'all': every other one */
const results = [];
const started = new Map();
const passed = (name) => results.some((r) => r.ok && r.stage.name === name);
const before = (s) => (s.after === 'all' ? chosen.filter((o) => o !== s).map((o) => o.name) : (s.after ?? []));
await new Promise((done) => {
  const next = () => {
    if (results.some((r) => !r.ok)) {
      goLive();
      if (results.length === started.size) done();
      return;
    }
    for (const s of chosen)
      if (!started.has(s) && before(s).every((n) => !chosen.some((o) => o.name === n) || passed(n)))
        started.set(
          s,
          run(s).then((r) => {
            results.push(r);
            next();
          }),
        );
    goLive();
    if (results.length === chosen.length) done();
  };
  next();
});
results.sort((a, b) => chosen.indexOf(a.stage) - chosen.indexOf(b.stage));

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
