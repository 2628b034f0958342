// Install what mmplay needs, or stop with the exact command to run.
//
//   node scripts/setup.mjs [--browser]     (npm run setup)
//
// Used by npm start, npm test, npm run sim and npm run bench. Only Node
// built-ins here: this runs before node_modules exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const say = (msg) => process.stderr.write(`[setup] ${msg}\n`);

export function die(msg) {
  process.stderr.write(`\n[setup] ${msg}\n\n`);
  process.exit(1);
}

function which(bin) {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).status === 0;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: opts.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', cwd: root, ...opts });
  if (r.status !== 0) {
    if (opts.quiet) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    die(`'${cmd} ${args.join(' ')}' failed (exit ${r.status}).`);
  }
  return r;
}

export function checkNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) die(`Node.js ${process.versions.node} is too old: install Node.js 20 or newer.`);
}

let aptUpdated = false;

/** Debian packages for the binaries that are missing; installs them when we are root. */
export function ensureTools(tools) {
  const missing = tools.filter(([bin]) => !which(bin));
  if (!missing.length) return;
  const pkgs = [...new Set(missing.map(([, pkg]) => pkg))];
  const cmd = `apt-get install -y --no-install-recommends ${pkgs.join(' ')}`;
  const isRoot = process.getuid?.() === 0;
  if (!which('apt-get'))
    die(
      `Missing: ${missing.map(([b]) => b).join(', ')}. Install the packages ${pkgs.join(', ')} with your system's package manager (on Debian/Ubuntu: sudo ${cmd}).`,
    );
  if (!isRoot)
    die(
      `Missing: ${missing.map(([b]) => b).join(', ')}. Install them with:\n\n    sudo ${cmd}\n\nthen run the command again.`,
    );
  say(`installing ${pkgs.join(', ')} with apt-get (one time, a few minutes)...`);
  if (!aptUpdated) {
    run('apt-get', ['update', '-qq'], { quiet: true, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    aptUpdated = true;
  }
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], {
    quiet: true,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const still = missing.filter(([bin]) => !which(bin));
  if (still.length)
    die(`apt-get installed ${pkgs.join(' ')} but ${still.map(([b]) => b).join(', ')} is still not on PATH.`);
}

/** npm packages: `npm ci` when node_modules is missing or older than package-lock.json */
export function ensureNpm() {
  const lock = join(root, 'package-lock.json');
  const stamp = join(root, 'node_modules', '.mmplay-lock-hash');
  const hash = createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  say('installing npm packages (npm ci)...');
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { quiet: true });
  writeFileSync(stamp, hash);
}

/**
 * The generated interface files (scripts/gen-interface.mjs) from the one
 * description in wasm-core/interface/: regenerated when it changed; under
 * CI=true only checked, so that a description committed without its
 * regenerated files fails CI instead of being silently fixed there.
 */
/** the files under a directory of the tree (recursively) whose path inside it passes `keep`, as full paths */
function filesUnder(dir, keep) {
  return readdirSync(join(root, dir), { recursive: true })
    .map(String)
    .filter(keep)
    .map((f) => join(root, dir, f));
}

export function ensureInterface() {
  const check = !!process.env.CI;
  /* up to date when the last generation (its stamp) is newer than the description and the generator:
     no process spawned, since the CLI runs this on every start */
  const inputs = [
    join(root, 'scripts/gen-interface.mjs'),
    ...filesUnder('wasm-core/interface', (f) => /\.(mjs|ts)$/.test(f)),
    /* docs/reference.md and the validators are made from the loader's schemas and descriptions */
    ...filesUnder('wasm-core/ts', (f) => f.endsWith('.ts') && !f.startsWith('gen/')),
  ];
  /* under CI too: the stamp (never committed) is only written once a check has passed in this tree */
  const stamp = join(root, 'wasm-core/build/interface.stamp');
  if (existsSync(stamp) && inputs.every((f) => statSync(f).mtimeMs <= statSync(stamp).mtimeMs)) return;
  const r = spawnSync(process.execPath, [join(root, 'scripts/gen-interface.mjs'), ...(check ? ['--check'] : [])], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0)
    die(
      check
        ? 'the generated interface files are stale (see above)'
        : 'could not generate the interface files (see above)',
    );
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

/** the C core: native runner and both wasm builds (make is incremental) */
export function ensureCore({ native = true } = {}) {
  if (coreUpToDate(native)) return;
  ensureTools([
    ['make', 'make'],
    ['gcc', 'gcc'],
    ['emcc', 'emscripten'],
  ]);
  const targets = native ? ['wasm', 'native'] : ['wasm'];
  const upToDate =
    spawnSync('make', ['-q', '-C', 'wasm-core', ...targets], { cwd: root, stdio: 'ignore' }).status === 0;
  if (upToDate) return;
  say(`building the core (${targets.join(', ')})...`);
  /* the two wasm builds and the native runner (three targets) side by side: one after another 12.5 s here,
     7.5 s at -j2 */
  run('make', ['-s', `-j${availableParallelism()}`, '-C', 'wasm-core', ...targets], { quiet: true });
}

/*
 * The builds newer than every source (make's own rule, read with stat): the CLI runs setup on every start,
 * and spawning make and three `command -v` cost each run about 40 ms.
 */
function coreUpToDate(native) {
  const dir = join(root, 'wasm-core');
  const outputs = [
    'build/wasm/mmsim.wasm',
    'build/wasm/mmsim-debug.wasm',
    ...(native ? ['build/native/mmsim-run'] : []),
  ];
  const inputs = [
    'Makefile',
    'exports.txt',
    ...['src', 'include'].flatMap((d) =>
      readdirSync(join(dir, d))
        .filter((f) => /\.[ch]$/.test(f))
        .map((f) => `${d}/${f}`),
    ),
    ...(native ? ['tools/mmsim-run.c'] : []),
  ];
  const mtime = (f) => (existsSync(join(dir, f)) ? statSync(join(dir, f)).mtimeMs : Number.NaN);
  const oldest = Math.min(...outputs.map(mtime));
  return !Number.isNaN(oldest) && inputs.every((f) => mtime(f) < oldest);
}

/**
 * The CLI as one JavaScript file (wasm-core/build/sim.mjs), bundled by
 * esbuild when a TypeScript source is newer: transpiling on the fly (tsx)
 * cost every `npm run sim` about 0.25 s before the scenario even loaded.
 */
export function ensureCli() {
  const out = join(root, 'wasm-core', 'build', 'sim.mjs');
  const sources = ['wasm-core/cli', 'wasm-core/ts', 'wasm-core/interface'].flatMap((d) =>
    filesUnder(d, (f) => f.endsWith('.ts')),
  );
  const built = existsSync(out) ? statSync(out).mtimeMs : 0;
  if (sources.every((f) => statSync(f).mtimeMs < built)) return out;
  const esbuild = createRequire(import.meta.url)(join(root, 'node_modules', 'esbuild'));
  const { outputFiles } = esbuild.buildSync({
    entryPoints: [join(root, 'wasm-core/cli/main.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
    write: false,
  });
  /* written whole, then renamed: parallel test workers may start the CLI at the same moment */
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, outputFiles[0].contents);
  renameSync(tmp, out);
  return out;
}

/* the browser (the benchmark, the seed charts) and its headless shell (the browser tests: playwright.config.ts) */
export function ensureBrowser() {
  ensureTools([
    ['chromium', 'chromium'],
    ['chromium-headless-shell', 'chromium-headless-shell'],
  ]);
}

export function chromiumPath() {
  return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
}

export function setup({ browser = false, native = true, lint = false } = {}) {
  checkNode();
  ensureNpm();
  if (lint) ensureTools([['clang-format', 'clang-format']]);
  ensureInterface();
  ensureCore({ native });
  ensureCli();
  if (browser) ensureBrowser();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  setup({ browser: process.argv.includes('--browser') });
  say('ready.');
}
