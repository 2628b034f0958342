#!/usr/bin/env node
// tools/kernel-check/check.mjs - `npm run kernel-check`: the model beside the kernel this machine runs.
//
//   sudo npm run kernel-check [-- --runs N] [-- --skip-fault-around]
//
// Needs root: it sets the THP and mTHP knobs, attaches a loop device, mounts
// ext4 and tmpfs and drops caches, and puts every setting back as it found it,
// also on an error or Ctrl-C. Two parts:
//
//   1. fault-around and readahead (57 cases, kreplay.c and cases.mjs, through
//      compare.mjs): per-phase major/minor faults on order-0 ext4 and tmpfs;
//   2. anonymous memory and fadvise (kanon.c, this file): THP and mTHP faults,
//      the write after fork and the child's exit, partial unmaps and their
//      deferred splits, per-thread fault counts, fadvise(DONTNEED) residency.
//
// The model runs the same cases as plain scenarios that name no version: they
// follow 6.18's rules. The summary counts exact matches only; a tolerance or a
// second setting is listed apart. The report goes to docs/kernel-check.md (and
// fault-around's table to docs/kernel-check-fault-around.md), with the kernel
// version and the date. Not part of `npm test`. Plain Node ESM.
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const THP = '/sys/kernel/mm/transparent_hugepage';
const OUT = join(ROOT, 'docs', 'kernel-check.md');

const say = (m) => process.stderr.write(`kernel-check: ${m}\n`);
function refuse(why, fix) {
  say(`${why}\n  ${fix}`);
  process.exit(2);
}

/* ------------------------------------------------------------ what the machine must allow */

function preflight() {
  if (process.getuid?.() !== 0)
    refuse(
      'needs root: it changes the THP settings, attaches a loop device, mounts file systems and drops caches.',
      'Run it as root: sudo npm run kernel-check',
    );
  if (!existsSync(`${THP}/enabled`))
    refuse('this kernel has no transparent hugepages (no /sys/kernel/mm/transparent_hugepage).', 'Nothing to check.');
  if (!existsSync('/dev/loop-control'))
    refuse(
      'no loop devices here (/dev/loop-control is missing; many containers have none).',
      'Run it on a machine or VM that allows loop devices.',
    );
  for (const t of ['gcc', 'losetup', 'mkfs.ext4', 'mount', 'umount'])
    if (spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0)
      refuse(`'${t}' is not installed.`, `Install it (Debian: apt-get install -y gcc util-linux e2fsprogs mount).`);
}

/* ------------------------------------------------------------ settings, restored */

/** the selected value of a sysfs choice file: "always [madvise] never" -> madvise */
const chosen = (path) => /\[([^\]]+)\]/.exec(readFileSync(path, 'utf8'))?.[1] ?? null;

const saved = new Map();
const mounts = [];
let loop = null;
let work = null;

function setKnob(path, value) {
  if (!existsSync(path)) return false;
  if (!saved.has(path)) saved.set(path, chosen(path));
  writeFileSync(path, value);
  return true;
}

/** every setting back as it was found, every mount and loop device gone (sync: also from 'exit') */
function restore() {
  for (const [path, v] of saved)
    try {
      if (v) writeFileSync(path, v);
    } catch (e) {
      say(`could not restore ${path} to ${v}: ${e.message}`);
    }
  saved.clear();
  while (mounts.length) spawnSync('umount', [mounts.pop()]);
  if (loop) spawnSync('losetup', ['-d', loop]);
  loop = null;
  if (work) rmSync(work, { recursive: true, force: true });
  work = null;
}
process.on('exit', restore);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(sig, () => {
    say(`${sig}: putting every setting back`);
    restore();
    process.exit(130);
  });

/** the THP knobs a case wants: PMD THP and one mTHP size (64 KiB) each always or never */
function knobs({ thp = 'never', mthp64 = 'never' }) {
  setKnob(`${THP}/enabled`, thp);
  /* 2 MiB follows the top-level knob (inherit); 64 KiB is set by itself */
  setKnob(`${THP}/hugepages-2048kB/enabled`, 'inherit');
  setKnob(`${THP}/hugepages-64kB/enabled`, mthp64);
}

/* ------------------------------------------------------------ the two sides */

/* children run asynchronously, so that a signal is handled at once and everything put back */
const run = promisify(execFile);

async function kernelRuns(bin, args, runs) {
  const all = [];
  for (let i = 0; i < runs; i++) {
    const { stdout: out } = await run(bin, args, { encoding: 'utf8' });
    all.push(
      Object.fromEntries(
        out
          .trim()
          .split('\n')
          .map((l) => l.split(' '))
          .map(([k, v]) => [k, Number(v)]),
      ),
    );
  }
  return all;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function modelRun(yaml, dir, name) {
  const f = join(dir, `${name}.yaml`);
  writeFileSync(f, yaml);
  const r = await run(process.execPath, [join(ROOT, 'scripts', 'sim.mjs'), f, '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  }).catch((e) => e);
  const j = JSON.parse(r.stdout);
  if (j.status !== 'ok') throw new Error(`the model's ${name}: ${j.error ?? j.status}`);
  return j;
}

/** the model's counters over the last phase: the full scenario minus the one that stops before it */
async function modelDelta(head, setup, phase, dir, name) {
  const a = await modelRun(`${head}steps:\n${setup}`, dir, `${name}-setup`);
  const b = await modelRun(`${head}steps:\n${setup}${phase}`, dir, name);
  const d = {};
  for (const k of Object.keys(b.counters)) d[k] = b.counters[k] - (a.counters[k] ?? 0);
  d.tasks = b.tasks;
  return d;
}

/* the model's counters over one write of `length` of anonymous memory, one byte per page */
const writeDelta = (kernel, length, dir, name) =>
  modelDelta(
    head(kernel),
    `  - mmap: { task: app, name: m, length: ${length}, prot: read-write }\n`,
    '  - access: { task: app, map: m, op: write, pattern: sequential }\n',
    dir,
    name,
  );

const head = (kernel, extra = '') =>
  `name: kernel-check\nseed: 1\nkernel: { ${kernel} }\nmachine: { memory: 2GiB }\n${extra}processes:\n  app: {}\n`;

/*
 * The anonymous-memory and fadvise cases: what kanon runs, the knobs it runs under, the scenario the model
 * runs, and the figures compared (kanon's key -> the model's counter).
 */
const ANON = [
  {
    mech: 'large-folios',
    id: 'A1',
    what: "write 1 GiB of anonymous memory, THP and mTHP off (the prefault letter's write, today)",
    knobs: {},
    args: ['write', '1024'],
    model: (dir) => writeDelta('thp: never', '1GiB', dir, 'A1'),
    figures: { 'write.minflt': 'pgfault', 'write.thp_fault_alloc': 'thp_fault_alloc' },
  },
  {
    mech: 'large-folios',
    id: 'A2',
    what: 'write 1 GiB, THP always: one fault per 2 MiB',
    knobs: { thp: 'always' },
    args: ['write', '1024'],
    model: (dir) => writeDelta('thp: always', '1GiB', dir, 'A2'),
    figures: { 'write.minflt': 'pgfault', 'write.thp_fault_alloc': 'thp_fault_alloc' },
  },
  {
    mech: 'large-folios',
    id: 'A3',
    what: 'write 1 GiB, mTHP 64 KiB always: one fault per 64 KiB folio',
    knobs: { mthp64: 'always' },
    args: ['write', '1024'],
    model: (dir) => writeDelta('mthp: [64KiB]', '1GiB', dir, 'A3'),
    figures: { 'write.minflt': 'pgfault', 'write.anon_fault_alloc_64kB': 'anon_fault_alloc' },
  },
  {
    mech: 'large-folios',
    id: 'A4',
    what: 'mTHP 64 KiB: write 1 MiB, fork, the child exits, one byte into each folio (6.15+ reuses it)',
    knobs: { mthp64: 'always' },
    args: ['fork-exit-cow', '1', '64'],
    model: (dir) =>
      modelDelta(
        head('mthp: [64KiB]'),
        '  - mmap: { task: app, name: m, length: 1MiB, prot: read-write }\n' +
          '  - access: { task: app, map: m, op: write, pattern: sequential }\n' +
          '  - fork: { task: app, child: child }\n  - exit: { task: child }\n',
        '  - access: { task: app, map: m, op: write, pattern: sequential, stride: 64KiB }\n',
        dir,
        'A4',
      ),
    figures: {
      'cow.minflt': 'pgfault',
      'cow.pgreuse': 'pgreuse',
      'cow.thp_deferred_split_page': 'thp_deferred_split_page',
      'cow.split_deferred_64kB': 'split_deferred',
    },
  },
  {
    mech: 'large-folios',
    id: 'A5',
    what: 'mTHP 64 KiB: write 16 MiB, then drop the first 4 KiB of every folio (deferred splits by size)',
    knobs: { mthp64: 'always' },
    args: ['partial', '16', '64'],
    model: (dir) =>
      modelDelta(
        head('mthp: [64KiB]'),
        '  - mmap: { task: app, name: m, length: 16MiB, prot: read-write }\n' +
          '  - access: { task: app, map: m, op: write, pattern: sequential }\n',
        '  - repeat:\n      times: 256\n      stride: 64KiB\n      steps:\n' +
          '        - madvise: { task: app, map: m, advice: dontneed, offset: 0, length: 4KiB }\n',
        dir,
        'A5',
      ),
    figures: {
      'partial.thp_deferred_split_page': 'thp_deferred_split_page',
      'partial.split_deferred_64kB': 'split_deferred',
    },
  },
  {
    mech: 'large-folios',
    id: 'A6',
    what: 'THP always: write 8 MiB, then drop the first 4 KiB of every 2 MiB (PMD splits, deferred splits)',
    knobs: { thp: 'always' },
    args: ['partial', '8', '2048'],
    model: (dir) =>
      modelDelta(
        head('thp: always'),
        '  - mmap: { task: app, name: m, length: 8MiB, prot: read-write }\n' +
          '  - access: { task: app, map: m, op: write, pattern: sequential }\n',
        '  - repeat:\n      times: 4\n      stride: 2MiB\n      steps:\n' +
          '        - madvise: { task: app, map: m, advice: dontneed, offset: 0, length: 4KiB }\n',
        dir,
        'A6',
      ),
    figures: {
      'partial.thp_split_pmd': 'thp_split_pmd',
      'partial.thp_deferred_split_page': 'thp_deferred_split_page',
      'partial.split_deferred_2048kB': 'split_deferred',
    },
  },
  {
    mech: 'anonymous faults, per thread',
    id: 'A7',
    what: 'four threads, one after another, each writes its own 4 MiB mapping: faults per thread',
    knobs: {},
    args: ['threads', '4', '4'],
    model: async (dir) => {
      const steps = [0, 1, 2, 3]
        .map(
          (t) =>
            `  - mmap: { task: app.${t}, name: m${t}, length: 4MiB, prot: read-write }\n` +
            `  - access: { task: app.${t}, map: m${t}, op: write, pattern: sequential }\n`,
        )
        .join('');
      const j = await modelRun(
        `${head('thp: never').replace('app: {}', 'app: { threads: 4 }')}steps:\n${steps}`,
        dir,
        'A7',
      );
      return Object.fromEntries([0, 1, 2, 3].map((t) => [`thread${t}`, j.tasks[`app.${t}`].min_flt]));
    },
    figures: {
      'thread0.minflt': 'thread0',
      'thread1.minflt': 'thread1',
      'thread2.minflt': 'thread2',
      'thread3.minflt': 'thread3',
    },
  },
  {
    mech: 'lru',
    id: 'F1',
    what: 'write 256 pages to a tmpfs file, fadvise(DONTNEED): pages still cached (6.18 ignores it on tmpfs)',
    knobs: {},
    dir: 'tmpfs',
    args: (d) => ['fadvise-tmpfs', d, '256'],
    model: async (dir) => {
      const j = await modelRun(
        `${head('thp: never', 'files:\n  f: { size: 1MiB, fs: tmpfs }\n')}steps:\n` +
          '  - write: { task: app, file: f, offset: 0, length: 1MiB }\n' +
          '  - fadvise: { task: app, file: f, advice: dontneed }\n',
        dir,
        'F1',
      );
      return { resident: j.counters.nr_shmem };
    },
    figures: { 'after.resident': 'resident' },
  },
  {
    mech: 'lru',
    id: 'F2',
    what: 'write 256 pages to an ext4 file, fadvise(DONTNEED) at once: pages under writeback stay cached',
    knobs: {},
    dir: 'ext4',
    args: (d) => ['fadvise-written', d, '256'],
    model: async (dir) => {
      const j = await modelRun(
        `${head('thp: never', 'files:\n  f: { size: 1MiB, sparse: true }\n')}steps:\n` +
          '  - write: { task: app, file: f, offset: 0, length: 1MiB }\n' +
          '  - fadvise: { task: app, file: f, advice: dontneed }\n',
        dir,
        'F2',
      );
      return { resident: j.counters.nr_file_pages };
    },
    figures: { 'after.resident': 'resident' },
  },
  ...[
    ['L1', 16, 2560, 0, false, 152],
    ['L2', 64, 2560, 0, false, 200],
    ['L3', 16, 128, 0, false, 133],
    ['L4', 16, 2560, 8, true, 190],
    ['L5', 16, 2560, 264, true, 193],
  ].map(([id, mib, ra, off, warm]) => ({
    mech: 'large page-cache folios (ext4, read faults)',
    id,
    what:
      `read ${mib} MiB of a ${warm ? 'cached' : 'cold'} ext4 file through a shared mapping` +
      `${off ? ` ${off} pages past 2 MiB` : ''}, read_ahead_kb ${ra}: large page-cache folios`,
    knobs: {},
    dir: 'ext4',
    ra,
    args: (d) => ['mapread', d, String(mib), String(off), warm ? '1' : '0'],
    model: async (dir) => {
      const map = (name, addr) =>
        `  - mmap: { task: app, name: ${name}, file: f, prot: read, shared: true${addr ? `, addr: ${addr}` : ''} }\n`;
      const setup = warm
        ? `${map('w')}  - access: { task: app, map: w, op: read }\n  - munmap: { task: app, map: w }\n`
        : '';
      const d = await modelDelta(
        head(`thp: never, readahead_kb: ${ra}`, `files:\n  f: { size: ${mib}MiB, cached: none }\n`),
        `${setup}${map('m', `"0x${(0x7f0000400000 + off * 4096).toString(16)}"`)}`,
        '  - access: { task: app, map: m, op: read }\n',
        dir,
        id,
      );
      return { pgfault: d.pgfault, pgmajfault: d.pgmajfault };
    },
    figures: { 'read.faults': 'pgfault', 'read.majflt': 'pgmajfault' },
  })),
];

/* ------------------------------------------------------------ storage for the fadvise cases */

function storage() {
  work = mkdtempSync(join(process.env.KCHECK_TMP ?? '/var/tmp', 'kernel-check-'));
  const img = join(work, 'img.ext4');
  const ext4 = join(work, 'ext4');
  const tmpfs = join(work, 'tmpfs');
  execFileSync('truncate', ['-s', '256M', img]);
  execFileSync('mkfs.ext4', ['-q', '-F', img]);
  loop = execFileSync('losetup', ['-f', '--show', img], { encoding: 'utf8' }).trim();
  execFileSync('mkdir', ['-p', ext4, tmpfs]);
  execFileSync('mount', [loop, ext4]);
  mounts.push(ext4);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'huge=never,size=64M', 'tmpfs', tmpfs]);
  mounts.push(tmpfs);
  return { ext4, tmpfs };
}

/* ------------------------------------------------------------ main */

async function main() {
  const argv = process.argv.slice(2);
  const runs = Number(argv[argv.indexOf('--runs') + 1]) || 5;
  const skipFa = argv.includes('--skip-fault-around');
  preflight();
  const before = snapshotSettings();
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const lines = [];

  /* part 1: fault-around, through compare.mjs (run.sh restores its own loop device and mounts) */
  let fa = null;
  if (!skipFa) {
    say('part 1: fault-around and readahead (run.sh, then the model; about two minutes)');
    const r = await new Promise((resolve) => {
      const p = spawn(
        process.execPath,
        [join(HERE, 'compare.mjs'), '--out', join(ROOT, 'docs', 'kernel-check-fault-around.md')],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let stdout = '';
      p.stdout.on('data', (d) => {
        stdout += d;
      });
      p.on('close', (status) => resolve({ status, stdout }));
    });
    process.stderr.write(r.stdout);
    const m =
      /\((\d+) cases\): io_latency 0 matches (\d+)\/\d+ exactly and (\d+)\/\d+ within ±1 fault; io_latency 30 matches (\d+)\/\d+ exactly and (\d+)\/\d+/.exec(
        r.stdout,
      );
    if (r.status !== 0 || !m) say(`part 1 failed (exit ${r.status}); part 2 goes on`);
    else fa = { n: +m[1], exact: +m[2], near: +m[3], exact30: +m[4], near30: +m[5] };
  }

  /* part 2: anonymous memory and fadvise */
  say(`part 2: anonymous memory and fadvise (${ANON.length} cases × ${runs} runs)`);
  const dirs = storage();
  const raPath = `/sys/block/${loop.replace('/dev/', '')}/queue/read_ahead_kb`;
  const raFound = readFileSync(raPath, 'utf8').trim();
  /* the loop device's readahead window, for the large-folio cases (the loop goes away at the end) */
  const readAhead = (kb) => writeFileSync(raPath, `${kb}\n`);
  const bin = join(work, 'kanon');
  execFileSync('gcc', ['-O2', '-Wall', '-static', '-pthread', '-o', bin, join(HERE, 'kanon.c')]);
  const mdir = join(work, 'model');
  execFileSync('mkdir', ['-p', mdir]);
  const rows = [];
  for (const c of ANON) {
    knobs(c.knobs);
    readAhead(c.ra ?? raFound);
    const args = typeof c.args === 'function' ? c.args(dirs[c.dir]) : c.args;
    if (c.dir) spawnSync('sh', ['-c', 'sync; echo 3 > /proc/sys/vm/drop_caches']);
    const k = await kernelRuns(bin, args, runs);
    const m = await c.model(mdir);
    for (const [kk, mk] of Object.entries(c.figures)) {
      const xs = k.map((r) => r[kk]).filter((x) => x !== undefined && !Number.isNaN(x));
      const kv = xs.length ? median(xs) : null;
      const lo = Math.min(...xs),
        hi = Math.max(...xs);
      const mv = m[mk];
      /* "cow.pgreuse" reads "pgreuse"; a thread's count keeps its thread: "thread2.minflt" */
      const figure = /^thread/.test(kk) ? kk : kk.replace(/^[a-z0-9]+\./, '');
      rows.push({ ...c, figure, model: mk, kv, lo, hi, mv, exact: kv === mv });
    }
    say(`${c.id} done`);
  }
  restore();
  const after = snapshotSettings();

  /* the report */
  const byMech = new Map();
  for (const r of rows) {
    const s = byMech.get(r.mech) ?? { n: 0, exact: 0 };
    s.n++;
    if (r.exact) s.exact++;
    byMech.set(r.mech, s);
  }
  lines.push(
    '# The model beside the kernel: `npm run kernel-check`',
    '',
    `Generated by \`tools/kernel-check/check.mjs\` on ${date}, on Linux \`${os.release()}\` (${os.cpus().length} CPUs).`,
    "The model runs every case as a plain scenario that names no version: 6.18's rules. Only exact matches",
    'count; a tolerance or a second setting is listed apart, never in the headline.',
    '',
    '## Exact matches',
    '',
    '| mechanism | rows | exact |',
    '|---|---:|---:|',
  );
  if (fa)
    lines.push(
      `| fault-around, readahead (per-phase faults, [its table](kernel-check-fault-around.md)) | ${fa.n} | ${fa.exact} |`,
    );
  for (const [mech, s] of byMech) lines.push(`| ${mech} | ${s.n} | ${s.exact} |`);
  lines.push('');
  if (fa)
    lines.push(
      `Listed apart: fault-around within ±1 fault, ${fa.near}/${fa.n}; with the model's \`machine.io_latency\` at 30`,
      `(a second setting, not today's default), ${fa.exact30}/${fa.n} exact and ${fa.near30}/${fa.n} within ±1.`,
      '',
    );
  lines.push(
    '## Anonymous memory, fadvise and large page-cache folios',
    '',
    `Kernel: the median of ${runs} runs of \`kanon\` (the range where runs differ); vmstat and the mTHP statistics`,
    'are system-wide, so another process on the machine can add to them.',
    '',
    '| case | what | figure | kernel | model | |',
    '|---|---|---|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.id} | ${r.what} | \`${r.figure}\` | ${r.kv ?? 'n/a'}${r.lo !== r.hi ? ` (${r.lo}–${r.hi})` : ''} | ${r.mv} | ${r.exact ? '✓' : '✗'} |`,
    ),
    '',
    '## Settings before and after',
    '',
    '| setting | before | after |',
    '|---|---|---|',
    ...Object.keys(before).map((k) => `| \`${k}\` | ${before[k]} | ${after[k]} |`),
    '',
  );
  writeFileSync(OUT, `${lines.join('\n')}`);
  const same = Object.keys(before).every((k) => before[k] === after[k]);
  process.stdout.write(
    `${[
      fa ? `fault-around: ${fa.exact}/${fa.n} exact` : null,
      ...[...byMech].map(([m, s]) => `${m}: ${s.exact}/${s.n} exact`),
    ]
      .filter(Boolean)
      .join(
        '; ',
      )}\nsettings ${same ? 'restored: every THP knob and block device as found' : 'DIFFER from before: see the report'}\nwrote ${relative(process.cwd(), OUT)}\n`,
  );
  if (!same) process.exitCode = 1;
}

/** the THP knobs and the loop devices in use, as text: compared before and after */
function snapshotSettings() {
  const out = { [`${THP}/enabled`]: chosen(`${THP}/enabled`), [`${THP}/defrag`]: chosen(`${THP}/defrag`) };
  for (const s of ['64kB', '2048kB']) {
    const p = `${THP}/hugepages-${s}/enabled`;
    if (existsSync(p)) out[p] = chosen(p);
  }
  const attached = execFileSync('losetup', ['-a'], { encoding: 'utf8' }).trim();
  out['losetup -a'] = attached ? `${attached.split('\n').length} attached` : 'none attached';
  return out;
}

main().catch((e) => {
  say(e.stack ?? String(e));
  process.exit(3);
});
