// npm run lint: Biome (TypeScript, scripts, CSS: format and lint) and clang-format (C).
//   node scripts/lint.mjs         check; exit 1 on any finding (npm test's first stage)
//   node scripts/lint.mjs --fix   format and apply Biome's safe fixes (npm run fix)
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkNode, ensureNpm, ensureTools, root } from './setup.mjs';

const fix = process.argv.includes('--fix');

/** the hand-written C: the generated files (*_gen.*) are checked by their generator */
function cFiles() {
  const dirs = [
    'wasm-core/src',
    'wasm-core/include',
    'wasm-core/test/native',
    'wasm-core/tools',
    'wasm-core/bench',
    'tools/kernel-check',
  ];
  return dirs
    .flatMap((d) => readdirSync(join(root, d), { recursive: true }).map((f) => join(root, d, String(f))))
    .filter((f) => /\.[ch]$/.test(f) && !/_gen\.[ch]$/.test(f))
    .sort();
}

function run(what, cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const out = `${r.stdout}${r.stderr}`.trim();
  if (r.status !== 0) {
    process.stderr.write(`${out}\n\n${what}: failed. \`npm run fix\` formats the tree and applies the safe fixes.\n`);
    return false;
  }
  if (out && fix) process.stdout.write(`${out}\n`);
  return true;
}

/* run alone on a fresh clone too: installs the packages it needs, as npm test does */
checkNode();
ensureNpm();
ensureTools([['clang-format', 'clang-format']]);
const biome = join(root, 'node_modules/@biomejs/biome/bin/biome');
const c = cFiles();
const ok = [
  run('Biome', process.execPath, [biome, fix ? 'check' : 'ci', ...(fix ? ['--write'] : []), '--colors=off', '.']),
  run('clang-format', 'clang-format', fix ? ['-i', ...c] : ['--dry-run', '--Werror', ...c]),
  run('the import rules (dependency-cruiser)', process.execPath, [
    join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
    'wasm-core/interface',
    'wasm-core/ts',
    'wasm-core/cli',
    'web/src',
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'err',
  ]),
].every(Boolean);
if (!ok) process.exit(1);
console.log(
  `${fix ? 'formatted' : 'checked'}: TypeScript, scripts and CSS (Biome), ${c.length} C files (clang-format), the import rules`,
);
