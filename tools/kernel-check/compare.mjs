#!/usr/bin/env node
// tools/kernel-check/compare.mjs - check the model against the real kernel.
//
//   sudo node tools/kernel-check/compare.mjs [options]        (from the repo root)
//
// Runs run.sh (kreplay on this machine's kernel; needs root and loop devices)
// or reads an existing raw file, runs the model on the equivalent scenario of
// every case (cases.mjs) at machine.io_latency 0 and 30, and writes
// compare.md: one table, kernel median vs model, plus a summary.
// Not part of `npm test`. Plain Node ESM, no dependencies.
//
// Options:
//   --raw FILE       use this kreplay output instead of running run.sh (no root needed)
//   --raw-out FILE   where run.sh writes its raw output (default tools/kernel-check/results-raw.txt)
//   --out FILE       where to write the report (default tools/kernel-check/compare.md)
//   --no-build       do not check/build the model first; use wasm-core/build/sim.mjs as it is
//   --readme         also copy the table into tools/kernel-check/README.md (between its markers)
//   --keep           keep the generated scenarios (the directory is printed)
//   --jobs N         model runs in parallel (default: number of CPUs)
//   --only REGEX     only the cases whose id matches (e.g. '^K3 a')
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CASES, modelPhases, parsePlacement, placementYaml, scenarioYaml } from './cases.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const IO_LATENCIES = [0, 30];

function usage(msg) {
  if (msg) process.stderr.write(`compare.mjs: ${msg}\n\n`);
  const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8')
    .split('\n')
    .slice(1);
  const head = lines.slice(
    0,
    lines.findIndex((l) => !l.startsWith('//')),
  );
  process.stderr.write(`${head.map((l) => l.replace(/^\/\/ ?/, '')).join('\n')}\n`);
  process.exit(msg ? 2 : 0);
}

function parseArgs(argv) {
  const o = {
    raw: null,
    rawOut: join(HERE, 'results-raw.txt'),
    out: join(HERE, 'compare.md'),
    build: true,
    readme: false,
    keep: false,
    jobs: os.availableParallelism?.() ?? os.cpus().length,
    only: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
    if (a === '--raw') o.raw = val();
    else if (a === '--raw-out') o.rawOut = val();
    else if (a === '--out') o.out = val();
    else if (a === '--no-build') o.build = false;
    else if (a === '--readme') o.readme = true;
    else if (a === '--keep') o.keep = true;
    else if (a === '--jobs') o.jobs = Math.max(1, Number(val()) || 1);
    else if (a === '--only') o.only = new RegExp(val());
    else if (a === '-h' || a === '--help') usage();
    else usage(`unknown argument '${a}'`);
  }
  return o;
}

// ------------------------------------------------------------ kernel side

/** run.sh -> raw file. Needs root. */
function runKernel(rawOut) {
  if (process.getuid?.() !== 0)
    usage('running the kernel cases needs root (loop device, mount, drop_caches): use sudo, or --raw FILE');
  process.stderr.write(`compare.mjs: running run.sh on kernel ${os.release()} (about 10 s)...\n`);
  const r = spawnSync('bash', [join(HERE, 'run.sh'), rawOut], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    const tail = existsSync(rawOut) ? readFileSync(rawOut, 'utf8').split('\n').slice(-15).join('\n') : '';
    process.stderr.write(`compare.mjs: run.sh failed (exit ${r.status}). Last lines of ${rawOut}:\n${tail}\n`);
    process.exit(1);
  }
}

/**
 * kreplay's raw output -> { env, cases: Map(id -> { runs: Map(run -> phases[]), ... }) }.
 * A case id is the argument list printed on its "== kreplay ... case: ID" line;
 * if an id appears more than once (e.g. trace sections of an older file), the
 * first block is used.
 */
export function parseRaw(text) {
  const env = { date: null, uname: null, storage: [], fault_around: null, thp: null, shmemThp: null };
  const cases = new Map();
  const dup = new Set();
  let cur = null;
  for (const line of text.split('\n')) {
    let m;
    if ((m = /^### kernel-check raw output, (.*)$/.exec(line))) env.date = m[1];
    else if (!env.date && (m = /^### ((Mon|Tue|Wed|Thu|Fri|Sat|Sun) .*)$/.exec(line))) env.date = m[1];
    else if ((m = /^uname -r: (.*)$/.exec(line))) env.uname = m[1];
    else if ((m = /^storage (.*)$/.exec(line))) env.storage.push(m[1]);
    else if ((m = /^fault_around_bytes: (.*)$/.exec(line))) env.fault_around = m[1];
    else if ((m = /^THP enabled: (.*)$/.exec(line))) env.thp = m[1];
    else if ((m = /^THP shmem_enabled: (.*)$/.exec(line))) env.shmemThp = m[1];
    if ((m = /^== kreplay dir=\S+ runs=\d+ case: (.*)$/.exec(line))) {
      const id = m[1].trim();
      if (cases.has(id)) {
        dup.add(id);
        cur = null;
        continue;
      }
      cur = {
        id,
        runs: new Map(),
        notCold: 0,
        maxHead: 0,
        maxTail: 0,
        addrs: new Set(),
        sigbus: [],
        nullPhase: [],
        failed: false,
      };
      cases.set(id, cur);
      continue;
    }
    if ((m = /^### FAILED: kreplay \S+ \d+ (.*) \(exit/.exec(line))) {
      const c = cases.get(m[1].trim());
      if (c) c.failed = true;
      else
        cases.set(m[1].trim(), {
          id: m[1].trim(),
          runs: new Map(),
          failed: true,
          addrs: new Set(),
          sigbus: [],
          nullPhase: [],
        });
      continue;
    }
    if (line.startsWith('###')) {
      cur = null;
      continue;
    }
    if (!cur) continue;
    if (
      (m =
        /^.+? run=(\d+) ph(\d+)\[.*\] maj=(-?\d+) min=(-?\d+) total=-?\d+ \| vmstat pgfault=(-?\d+) pgmajfault=(-?\d+)$/.exec(
          line,
        ))
    ) {
      const run = Number(m[1]);
      if (!cur.runs.has(run)) cur.runs.set(run, []);
      cur.runs.get(run)[Number(m[2]) - 1] = { maj: +m[3], min: +m[4], vpgf: +m[5], vpgmaj: +m[6] };
    } else if (line.includes('*** NOT COLD ***')) cur.notCold++;
    else if ((m = / folios: .*head=(\d+) tail=(\d+)/.exec(line))) {
      cur.maxHead = Math.max(cur.maxHead, +m[1]);
      cur.maxTail = Math.max(cur.maxTail, +m[2]);
    } else if ((m = / addr=(0x[0-9a-f]+) mod64K=(0x[0-9a-f]+)/.exec(line))) cur.addrs.add(m[2]);
    else if ((m = / sigbus_delivered=(\d+)/.exec(line))) cur.sigbus.push(+m[1]);
    else if ((m = /^null-phase maj=(\d+) min=(\d+)/.exec(line))) cur.nullPhase.push(+m[1] + +m[2]);
  }
  return { env, cases, duplicates: [...dup] };
}

const lowerMedian = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** per phase: median maj/min over the runs, their range, vmstat pgfault median/range */
function summarizeKernel(k, nPhases) {
  const runs = [...(k?.runs.values() ?? [])].filter((ph) => ph.length === nPhases && ph.every(Boolean));
  if (!runs.length) return null;
  const phases = [];
  for (let p = 0; p < nPhases; p++) {
    const col = (f) => runs.map((r) => r[p][f]);
    const [maj, min, vpgf] = [col('maj'), col('min'), col('vpgf')];
    phases.push({
      maj: lowerMedian(maj),
      min: lowerMedian(min),
      majLo: Math.min(...maj),
      majHi: Math.max(...maj),
      minLo: Math.min(...min),
      minHi: Math.max(...min),
      vpgf: lowerMedian(vpgf),
      vpgfLo: Math.min(...vpgf),
      vpgfHi: Math.max(...vpgf),
    });
  }
  return { n: runs.length, phases };
}

// ------------------------------------------------------------- model side

/**
 * The CLI bundle and the wasm core, copied into `dir` so that every model run
 * uses the same build even if someone rebuilds the repository meanwhile
 * (node_modules is linked for the bundle's external packages).
 */
async function modelCli(build, dir) {
  let bundle = join(ROOT, 'wasm-core', 'build', 'sim.mjs');
  const wasm = join(ROOT, 'wasm-core', 'build', 'wasm', 'mmsim.wasm');
  if (build) {
    // what `npm run sim` does before it runs: npm packages, the wasm core, the CLI bundle
    const setup = await import(pathToFileURL(join(ROOT, 'scripts', 'setup.mjs')).href);
    setup.setup({ native: false });
    bundle = setup.ensureCli();
  } else if (!existsSync(bundle) || !existsSync(wasm))
    usage(
      `--no-build: ${relative(ROOT, bundle)} or the wasm core is missing; run 'npm run sim -- scenarios/fault-around/sequential.yaml' once`,
    );
  const built = statSync(wasm).mtime;
  const tsNewer = ['wasm-core/cli', 'wasm-core/ts'].flatMap((d) =>
    readdirSync(join(ROOT, d)).filter(
      (f) => f.endsWith('.ts') && statSync(join(ROOT, d, f)).mtimeMs > statSync(bundle).mtimeMs,
    ),
  );
  if (tsNewer.length)
    process.stderr.write(
      `compare.mjs: warning: ${relative(ROOT, bundle)} is older than ${tsNewer.join(', ')} (--no-build: using it as it is)\n`,
    );
  const snap = join(dir, 'model', 'build');
  mkdirSync(join(snap, 'wasm'), { recursive: true });
  copyFileSync(bundle, join(snap, 'sim.mjs'));
  copyFileSync(wasm, join(snap, 'wasm', 'mmsim.wasm'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'model', 'node_modules'));
  return { cli: join(snap, 'sim.mjs'), bundle, built };
}

function runCli(bundle, file, sets, events) {
  return new Promise((resolve) => {
    const args = [bundle, file, '--json', ...sets.flatMap((s) => ['--set', s]), ...(events ? ['--events'] : [])];
    const p = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '',
      err = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.on('close', (code) => {
      let json = null;
      try {
        json = JSON.parse(out);
      } catch {
        /* reported below */
      }
      resolve({ code, json, stderr: err });
    });
  });
}

async function pool(jobs, n) {
  const results = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]();
      }
    }),
  );
  return results;
}

/** every case at every io_latency: per-phase {maj, min, pgfault} or {error} */
async function runModel(cases, bundle, dir, jobs) {
  const tasks = [];
  const model = new Map(cases.map((c) => [c.id, { byIo: {}, placement: null }]));
  for (const c of cases) {
    const slug = c.id.replace(/\s+/g, '_');
    const files = c.phases.map((_, i) => {
      const f = join(dir, `${slug}.p${i + 1}.yaml`);
      writeFileSync(f, scenarioYaml(c, i + 1));
      return f;
    });
    for (const io of IO_LATENCIES)
      tasks.push(async () => {
        const outs = [];
        for (const [i, f] of files.entries()) {
          const r = await runCli(bundle, f, [`machine.io_latency=${io}`], false);
          const last = i === files.length - 1;
          const sigbusOk = c.sigbus && last && r.json?.status === 'error' && /SIGBUS/.test(r.json?.error ?? '');
          if (!r.json || (r.code !== 0 && !sigbusOk)) {
            const why = (r.json?.error ?? r.stderr.trim().split('\n').pop() ?? `exit ${r.code}`) || `exit ${r.code}`;
            model.get(c.id).byIo[io] = { error: why, file: f };
            return;
          }
          outs.push(r.json);
        }
        const phases = modelPhases(outs);
        const lastOut = outs[outs.length - 1];
        model.get(c.id).byIo[io] = { phases, sigbus: c.sigbus ? /SIGBUS/.test(lastOut.error ?? '') : undefined };
      });
    if (c.placement) {
      const f = join(dir, `${slug}.placement.yaml`);
      writeFileSync(f, placementYaml(c));
      tasks.push(async () => {
        const r = await runCli(bundle, f, [], true);
        model.get(c.id).placement = parsePlacement(r.stderr);
      });
    }
  }
  await pool(tasks, jobs);
  return model;
}

// ---------------------------------------------------------------- report

const fmt = (p) => `${p.maj}/${p.min}`;

function kernelCell(ks) {
  return ks.phases
    .map((p) => {
      if (p.majLo === p.majHi && p.minLo === p.minHi) return fmt(p);
      return `${fmt(p)} (${p.majLo}/${p.minLo}–${p.majHi}/${p.minHi})`;
    })
    .join(' → ');
}

/** sum over phases of |Δmaj| + |Δmin| */
const distance = (ks, mp) =>
  ks.phases.reduce((s, p, i) => s + Math.abs(p.maj - mp[i].maj) + Math.abs(p.min - mp[i].min), 0);
const hex = (v) => `0x${v.toString(16)}`;

function buildReport({ env, kcases, model, cases, opts, bundle, duplicates }) {
  const rows = [];
  const stats = Object.fromEntries(IO_LATENCIES.map((io) => [io, { exact: 0, near: 0, errors: 0 }]));
  const far = [];
  let compared = 0;
  const problems = [];
  for (const c of cases) {
    const k = kcases.get(c.id);
    const ks = summarizeKernel(k, c.phases.length);
    const m = model.get(c.id);
    let kcell;
    if (!ks) {
      kcell = k?.failed ? 'kreplay failed' : 'no data';
      problems.push(`${c.id}: ${kcell}`);
    } else {
      compared++;
      kcell = kernelCell(ks);
      if (ks.n !== 5) kcell += ` (${ks.n} runs)`;
    }
    if (c.placement && k?.addrs.size) kcell += `; addr mod 64 KiB: ${[...k.addrs].join(', ')}`;
    if (c.sigbus && ks) {
      const last = ks.phases[ks.phases.length - 1];
      kcell += `; SIGBUS in ${k.sigbus.filter((x) => x > 0).length}/${k.sigbus.length} runs`;
      kcell += `; vmstat pgfault in phase ${ks.phases.length}: +${last.vpgf}${last.vpgfLo !== last.vpgfHi ? ` (${last.vpgfLo}–${last.vpgfHi})` : ''}`;
    }
    const mcells = [];
    const dists = [];
    for (const io of IO_LATENCIES) {
      const r = m.byIo[io];
      if (!r || r.error) {
        stats[io].errors++;
        mcells.push(`error: ${(r?.error ?? 'not run').replace(/\|/g, '\\|')}`);
        dists.push(Infinity);
        continue;
      }
      let cell = r.phases.map(fmt).join(' → ');
      if (ks) {
        const d = distance(ks, r.phases);
        dists.push(d);
        if (d === 0) {
          stats[io].exact++;
          stats[io].near++;
          cell += ' ✓';
        } else if (d <= 1) {
          stats[io].near++;
          cell += ' ≈';
        }
      }
      if (c.placement && m.placement !== null) cell += `; addr mod 64 KiB: ${hex(m.placement % 65536n)}`;
      if (c.sigbus)
        cell += `; ${r.sigbus ? 'SIGBUS' : 'no SIGBUS'}; global pgfault in phase ${r.phases.length}: +${r.phases[r.phases.length - 1].pgfault}`;
      mcells.push(cell);
    }
    if (ks && dists.every((d) => d > 1)) far.push({ c, ks, m, dists });
    rows.push(`| ${c.id} | ${c.what} | ${kcell} | ${mcells.join(' | ')} |`);
  }

  const table = [
    `| case | what it does | kernel maj/min (median of ${opts.runsLabel}) | model io_latency ${IO_LATENCIES[0]} | model io_latency ${IO_LATENCIES[1]} |`,
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  const pct = (x) => `${x}/${compared}`;
  const summary =
    `**Summary** (${compared} cases): io_latency ${IO_LATENCIES[0]} matches ${pct(stats[0].exact)} exactly and ${pct(stats[0].near)} within ±1 fault; ` +
    `io_latency ${IO_LATENCIES[1]} matches ${pct(stats[30].exact)} exactly and ${pct(stats[30].near)} within ±1 fault` +
    `${stats[0].errors + stats[30].errors ? ` (model errors: ${stats[0].errors} at 0, ${stats[30].errors} at 30)` : ''}.`;

  // sanity checks of the kernel run
  const ext4 = cases
    .filter((c) => !c.id.startsWith('K5'))
    .map((c) => kcases.get(c.id))
    .filter(Boolean);
  const notCold = ext4.reduce((s, k) => s + (k.notCold ?? 0), 0);
  const large = ext4.filter((k) => k.maxHead || k.maxTail).map((k) => k.id);
  const nullBad = [...kcases.values()].filter((k) => k.nullPhase?.some((x) => x)).map((k) => k.id);
  const varying = cases
    .filter((c) => {
      const ks = summarizeKernel(kcases.get(c.id), c.phases.length);
      return ks?.phases.some((p) => p.majLo !== p.majHi || p.minLo !== p.minHi);
    })
    .map((c) => c.id);

  let bundleInfo = `${relative(ROOT, bundle.bundle)} + wasm-core/build/wasm/mmsim.wasm built ${bundle.built.toISOString().replace(/\.\d+Z$/, 'Z')}`;
  try {
    bundleInfo += `, repository HEAD ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()} (plus any uncommitted changes)`;
  } catch {
    /* not a git checkout */
  }

  const dups = duplicates.filter((id) => cases.some((c) => c.id === id));
  const farText = far.map(({ c, ks, m }) => {
    const per = IO_LATENCIES.map((io) => {
      const r = m.byIo[io];
      return r?.phases
        ? `io_latency ${io}: ${r.phases.map(fmt).join(' → ')} (off by ${distance(ks, r.phases)})`
        : `io_latency ${io}: ${r?.error ?? 'not run'}`;
    }).join('; ');
    return `* **${c.id}** (${c.what}): kernel ${kernelCell(ks)}; model ${per}.`;
  });

  const md = `# Model vs kernel: page-fault counts

Generated by \`tools/kernel-check/compare.mjs\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}.
Kernel run: ${env.date ?? '?'}, \`uname -r\` = \`${env.uname ?? '?'}\`${opts.raw ? ` (raw file ${opts.raw})` : ''}.
THP: \`${env.thp ?? '?'}\`, shmem THP: \`${env.shmemThp ?? '?'}\`; fault_around_bytes: ${env.fault_around ?? '?'}.

Storage: disk cases (K1-K4, K6, K8) on ext4 in a 512 MiB image file on a loop device with
\`--direct-io=on\` and \`read_ahead_kb\` 128, mounted \`data=journal\` (order-0 page-cache folios);
K5 on a tmpfs mounted \`huge=never,size=1G\`. As recorded by run.sh:
${env.storage.map((s) => `* \`${s}\``).join('\n')}

Model: \`${bundleInfo}\`.

${summary}

${table}

Columns: **kernel** is getrusage maj/min per phase (phases separated by →), the median of the runs,
with the range over the runs in parentheses when they differ. **model** cells are the task's
maj_flt/min_flt per phase (the difference between a scenario that stops after phase k and one that
stops after phase k-1) at \`machine.io_latency\` 0 and 30. ✓ = every phase equals the kernel median;
≈ = off by exactly 1 fault in total (sum over phases of |Δmaj| + |Δmin| = 1). "addr mod 64 KiB" is
where the mapping starts (K5: the kernel's NULL-hint tmpfs mappings are not 64 KiB aligned, neither
are the model's). K6: the SIGBUS fault is not in the task's counters (getrusage, model task
pgfault) but it is in the global pgfault (kernel /proc/vmstat delta, system-wide, so noisy).

Kernel-run checks: ${notCold === 0 ? 'every disk-case run started cold (mincore: 0 pages resident)' : `**${notCold} disk-case runs were NOT cold**`};
${large.length ? `**large folios seen in ${large.join(', ')}**` : 'every mapped ext4 page was an order-0 folio (kpageflags: no compound head/tail)'};
${nullBad.length ? `**the empty phase counted faults in ${nullBad.join(', ')}**` : 'empty (null) phases counted 0/0'}.
Cases whose runs differed: ${varying.length ? varying.join(', ') : 'none'}.
${dups.length ? `Cases that appeared more than once in the raw file (first block used): ${dups.join(', ')}.\n` : ''}${problems.length ? `Problems: ${problems.join('; ')}.\n` : ''}
## Both model settings off by more than 1 fault

${farText.length ? farText.join('\n') : 'None.'}
`;
  return { md, table, summary, far: farText };
}

function updateReadme(text) {
  const f = join(HERE, 'README.md');
  const s = readFileSync(f, 'utf8');
  const a = '<!-- BEGIN compare.md table -->',
    b = '<!-- END compare.md table -->';
  const i = s.indexOf(a),
    j = s.indexOf(b);
  if (i < 0 || j < i) {
    process.stderr.write('compare.mjs: README.md has no table markers; not updated\n');
    return;
  }
  writeFileSync(f, `${s.slice(0, i + a.length)}\n${text}\n${s.slice(j)}`);
}

// ------------------------------------------------------------------ main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const cases = opts.only ? CASES.filter((c) => opts.only.test(c.id)) : CASES;
  if (!cases.length) usage('--only matches no case');
  let rawFile = opts.raw;
  if (!rawFile) {
    runKernel(opts.rawOut);
    rawFile = opts.rawOut;
  }
  if (!existsSync(rawFile)) usage(`no such file: ${rawFile}`);
  const { env, cases: kcases, duplicates } = parseRaw(readFileSync(rawFile, 'utf8'));
  const runCounts = new Set([...kcases.values()].map((k) => k.runs.size).filter(Boolean));
  opts.runsLabel =
    runCounts.size === 1 ? `${[...runCounts][0]} runs, range if runs differ` : 'the runs, range if runs differ';

  const dir = mkdtempSync(join(os.tmpdir(), 'kernel-check-model-'));
  const bundle = await modelCli(opts.build, dir);
  process.stderr.write(
    `compare.mjs: running the model on ${cases.length} cases × io_latency ${IO_LATENCIES.join(', ')}...\n`,
  );
  const t0 = Date.now();
  const model = await runModel(cases, bundle.cli, dir, opts.jobs);
  process.stderr.write(`compare.mjs: model done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  if (opts.keep) process.stderr.write(`compare.mjs: scenarios kept in ${dir}\n`);
  else rmSync(dir, { recursive: true, force: true });

  const rep = buildReport({ env, kcases, model, cases, opts: { ...opts, raw: opts.raw }, bundle, duplicates });
  writeFileSync(opts.out, rep.md);
  if (opts.readme) updateReadme(`${rep.summary}\n\n${rep.table}`);
  process.stdout.write(`${rep.summary.replace(/\*\*/g, '')}\nwrote ${relative(process.cwd(), opts.out) || opts.out}\n`);
  if (rep.far.length)
    process.stdout.write(`both settings off by more than 1 fault:\n${rep.far.join('\n').replace(/\*\*/g, '')}\n`);
}

main().catch((e) => {
  process.stderr.write(`compare.mjs: ${e.stack ?? e}\n`);
  process.exit(3);
});
