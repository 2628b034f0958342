// Generate both sides of the core's interface from wasm-core/interface/ (the one description).
//
//   node scripts/gen-interface.mjs          write the generated files that changed
//   node scripts/gen-interface.mjs --check  exit 1 (naming them) if any is stale
//
// Outputs: the C header and tables (wasm-core/include/mmsim_gen.h,
// src/interface_gen.c, src/trace_gen.h, exports.txt), the TypeScript side
// (wasm-core/ts/gen/, web/src/gen/), docs/reference.md and the validators
// compiled from the JSON Schemas (wasm-core/ts/gen/validate-*.ts). setup() runs this before any
// build, so npm start / test / build never use a stale one; under CI=true it
// checks instead, so a forgotten regeneration fails CI rather than passing.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const SIZES = { u8: 1, u16: 2, u32: 4, i32: 4, u64: 8, i64: 8 };
const CTYPE = { u8: 'uint8_t', u16: 'uint16_t', u32: 'uint32_t', i32: 'int32_t', u64: 'uint64_t', i64: 'int64_t' };
const upperSnake = (s) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** FNV-1a, 32 bits */
function fnv(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/*
 * An event kind's fields, laid out in its 32-byte record (struct mmsim_event):
 * 'addr' fields take the u64 addr word; the others fill the u32 words a..d in
 * order (opts.word pins one), u64 taking two; opts.bits packs fields side by
 * side in one word, low bits first.
 */
const EVENT_WORD = { a: 0, b: 1, c: 2, d: 3 };
const EVENT_TYPES = ['addr', 'u32', 'i32', 'bool', 'u64'];
function layoutEvent(name, fields, fail) {
  if (!Array.isArray(fields)) fail(`event ${name}: no fields described`);
  const out = [];
  const seen = new Set();
  let word = 0,
    bit = 0,
    addr = false;
  for (const [fname, type, doc, opts = {}] of fields) {
    const what = `event ${name}.${fname}`;
    if (!/^[a-z][a-z0-9_]*$/.test(fname)) fail(`${what}: a field name is snake_case`);
    if (seen.has(fname) || ['index', 'type', 'name', 'task', 'step', 'opStart'].includes(fname))
      fail(`${what}: named twice, or named like a record field`);
    seen.add(fname);
    if (!EVENT_TYPES.includes(type)) fail(`${what}: unknown type ${type}`);
    if (!doc) fail(`${what}: no doc`);
    const f = { name: fname, type, doc, enum: opts.enum ?? null, flags: opts.flags ?? null, unit: opts.unit ?? null };
    if (type === 'addr') {
      if (addr) fail(`${what}: a second field in the addr word`);
      addr = true;
      out.push({ ...f, offset: 8, shift: 0, bits: 64 });
      continue;
    }
    if (opts.word !== undefined) {
      const w = EVENT_WORD[opts.word];
      if (w === undefined || w < word + (bit ? 1 : 0)) fail(`${what}: word ${opts.word} is taken or unknown`);
      word = w;
      bit = 0;
    }
    if (opts.bits) {
      if (type !== 'u32') fail(`${what}: only u32 fields pack`);
      if (bit + opts.bits > 32) {
        word++;
        bit = 0;
      }
      if (word > 3) fail(`${what}: the record has no room left`);
      out.push({ ...f, offset: 16 + 4 * word, shift: bit, bits: opts.bits });
      bit += opts.bits;
      continue;
    }
    if (bit) {
      word++;
      bit = 0;
    }
    const n = type === 'u64' ? 2 : 1;
    if (word + n > 4) fail(`${what}: the record has no room left`);
    out.push({ ...f, offset: 16 + 4 * word, shift: 0, bits: 32 * n });
    word += n;
  }
  return out;
}

/* a TypeScript module of the tree, bundled by esbuild and imported */
async function importTs(rel) {
  const esbuild = createRequire(import.meta.url)(join(root, 'node_modules', 'esbuild'));
  const { outputFiles } = await esbuild.build({
    entryPoints: [join(root, rel)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
    /* its packages (yaml) stay imports, resolved from node_modules: a bundled CommonJS one cannot require */
    packages: 'external',
    /* the validators are among this script's outputs: while generating, the loaders get a stand-in */
    plugins: [
      {
        name: 'validators-being-generated',
        setup(b) {
          b.onResolve({ filter: /\/gen\/validate-[a-z]+\.js$/ }, (a) => ({ path: a.path, namespace: 'generating' }));
          b.onLoad({ filter: /.*/, namespace: 'generating' }, () => ({
            contents:
              "export const VALIDATORS = new Proxy({}, { get() { throw new Error('the validators are being generated'); } });",
          }));
        },
      },
    ],
  });
  /* a file beside the tree's node_modules (not a data: URL), so that errors name lines and packages resolve */
  const dir = join(root, 'node_modules', '.cache', 'gen-interface');
  mkdirSync(dir, { recursive: true });
  /*
   * One file per process: CLI runs started side by side (the tests start
   * many) each check the generated files, and one writing a shared name
   * while another imports it gave "referenceMarkdown is not a function".
   */
  const file = join(dir, `${fnv(root).toString(16)}-${rel.replace(/[/.]/g, '_')}-${process.pid}.mjs`);
  writeFileSync(file, outputFiles[0].contents);
  try {
    return await import(`${pathToFileURL(file).href}?${Date.now()}`);
  } finally {
    rmSync(file, { force: true });
  }
}

/*
 * The mechanisms: every wasm-core/interface/mechanisms/<id>.mjs, each a
 * mechanism's manifest and its part of the interface, in their `order`
 * (which numbers counters, events and the header's tunable fields: a new
 * mechanism takes the next). Its other parts are found by its id:
 * web/src/mechanisms/<id>/ (index.ts; frame.ts and views.tsx if it has
 * them), wasm-core/ts/describe/<id>.ts (its events' sentences, if it has
 * events), scenarios/<id>/.
 */
async function loadMechanisms(fail) {
  const dir = join(root, 'wasm-core/interface/mechanisms');
  const ms = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.mjs'))
    .sort()) {
    const m = (await import(pathToFileURL(join(dir, f)).href)).default;
    if (`${m.id}.mjs` !== f) fail(`mechanisms/${f}: its id is '${m.id}' (one spelling: the file is <id>.mjs)`);
    for (const k of ['order', 'title', 'seed', 'kernels', 'core', 'tests', 'aliases'])
      if (m[k] === undefined) fail(`mechanisms/${f}: the manifest has no ${k}`);
    for (const rel of [...m.core, ...m.tests])
      if (!existsSync(join(root, 'wasm-core', rel))) fail(`mechanisms/${f}: wasm-core/${rel} does not exist`);
    for (const rel of [`web/src/mechanisms/${m.id}/index.ts`, `scenarios/${m.id}`])
      if (!existsSync(join(root, rel))) fail(`mechanisms/${f}: ${rel} does not exist`);
    ms.push(m);
  }
  ms.sort((a, b) => a.order - b.order);
  for (let i = 1; i < ms.length; i++)
    if (ms[i].order === ms[i - 1].order) fail(`mechanisms ${ms[i - 1].id} and ${ms[i].id} have the same order`);
  return ms;
}

export async function resolve() {
  const fail = (m) => {
    throw new Error(`wasm-core/interface: ${m}`);
  };
  const core = await import(pathToFileURL(join(root, 'wasm-core/interface/core.mjs')).href);
  const { ABI_VERSION } = core;
  const mechanisms = await loadMechanisms(fail);
  const { STEPS, STRUCTURAL_KINDS } = await importTs('wasm-core/interface/steps.ts');

  /* counters: vmstat events, then gauges, then the model's own; stable within */
  const allCounters = [
    ...core.counters.map((c) => [...c, 'core']),
    ...mechanisms.flatMap((m) => (m.counters ?? []).map((c) => [...c, m.id])),
  ];
  const rank = (c) => (c[2].model ? 2 : c[2].gauge ? 1 : 0);
  const counters = allCounters
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => ({
      id: c[0],
      name: c[1],
      gauge: !!c[2].gauge,
      model: !!c[2].model,
      required: !!c[2].required,
      doc: c[2].doc ?? '',
      mechanism: c[3],
    }));
  const events = [
    ...core.events.map((e) => [...e, 'core']),
    ...mechanisms.flatMap((m) => (m.events ?? []).map((e) => [...e, m.id])),
  ].map(([id, name, doc, fields, mech]) => ({
    id,
    name,
    doc,
    mechanism: mech,
    fields: layoutEvent(name, fields, fail),
  }));

  /* tunables: each mechanism's (the kernel section), then the machine's */
  const tunables = [];
  for (const t of core.kernel ?? [])
    tunables.push({ ...t, scope: 'kernel', mechanism: 'core', field: t.field ?? t.key, ctype: t.ctype ?? 'u32' });
  for (const m of mechanisms)
    for (const t of m.tunables ?? [])
      tunables.push({
        ...t,
        scope: 'kernel',
        mechanism: m.id,
        field: t.field ?? t.key,
        ctype: t.ctype ?? 'u32',
      });
  for (const t of core.machine) tunables.push({ ...t, scope: 'machine', mechanism: 'core', ctype: t.ctype ?? 'u32' });
  /* a mechanism's machine settings (e.g. the LRU's writeback time) follow the core's */
  for (const m of mechanisms)
    for (const t of m.machine ?? [])
      tunables.push({ ...t, scope: 'machine', mechanism: m.id, ctype: t.ctype ?? 'u32' });
  for (const t of tunables) {
    if (!['size', 'int', 'bool', 'choice', 'sizes'].includes(t.type)) fail(`tunable ${t.key}: unknown type ${t.type}`);
    if (!t.desc) fail(`tunable ${t.key}: no desc`);
    if (t.default === undefined) fail(`tunable ${t.key}: no default`);
  }
  const names = new Set();
  for (const n of [
    ...counters.map((c) => `counter ${c.name}`),
    ...events.map((e) => `event ${e.name}`),
    ...tunables.map((t) => `tunable ${t.key}`),
  ]) {
    if (names.has(n)) fail(`${n} is described twice`);
    names.add(n);
  }

  /* enums: the core's and one per choice tunable */
  /* the core's enums, then each mechanism's own (its event fields' values) */
  /* enum mmsim_op: Nop, the step kinds in their description's order, then the structural ones */
  const ops = {
    ts: 'Op',
    c: 'mmsim_op',
    prefix: 'MMSIM_OP_',
    count: 'MMSIM_NR_OPS',
    doc: 'mmsim_step.op: the step kinds (wasm-core/interface/steps.ts), in order',
    members: [
      ['Nop', 0, 'no operation'],
      ...[...Object.entries(STEPS), ...Object.entries(STRUCTURAL_KINDS)].map(([kind, k], i) => [k.op, i + 1, kind]),
    ],
  };
  /* the step kinds whose task argument names one thread (no 'app.*') */
  const oneTaskOps = Object.values(STEPS)
    .filter((k) => Object.values(k.args).some((a) => a.type === 'task' && !a.all))
    .map((k) => k.op);
  const enums = [ops, ...core.enums, ...mechanisms.flatMap((m) => m.enums ?? [])].map((e) => ({
    ...e,
    members: e.members.map(([name, value, doc, cname]) => ({
      name,
      value,
      doc: doc ?? '',
      c: cname
        ? cname.startsWith('MMSIM_')
          ? cname
          : e.prefix + cname
        : e.prefix + (e.keepCase ? name : upperSnake(name)),
    })),
  }));
  for (const t of tunables.filter((x) => x.type === 'choice'))
    enums.push({
      ts: `${t.key.replace(/(^|_)([a-z])/g, (_, __, ch) => ch.toUpperCase())}Mode`,
      c: t.cEnum,
      prefix: t.cPrefix,
      tunable: t.key,
      members: t.choices.map((ch, i) => ({
        name: ch,
        value: i,
        doc: '',
        c: t.cPrefix + ch.replace(/[-.]/g, '_').toUpperCase(),
      })),
    });

  /* structs, laid out */
  const expand = (f) =>
    typeof f[3] === 'string'
      ? { taskCounters: core.taskCounters.length, mmCounters: core.mmCounters.length }[f[3]]
      : (f[3] ?? 1);
  /* the core's structs and exports, then each mechanism's (its queries), in registry order */
  const structs = [...core.structs, ...mechanisms.flatMap((m) => m.structs ?? [])].map((s) => {
    const fields = [];
    for (const f of s.fields) {
      if (f.tunables) {
        for (const t of tunables)
          if (t.ctype === 'u32')
            fields.push({
              name: t.field,
              type: 'u32',
              n: 1,
              doc: `${t.key} (${t.type === 'choice' ? `enum ${t.cEnum}` : t.type === 'sizes' ? 'bit n: order n enabled' : t.type === 'bool' ? '0/1' : (t.unit ?? '')})`,
            });
      } else
        fields.push({
          name: f[0],
          type: f[1],
          doc: f[2] ?? '',
          n: expand(f),
          nName: typeof f[3] === 'string' ? f[3] : null,
        });
    }
    let off = 0,
      align = 1;
    for (const f of fields) {
      const sz = SIZES[f.type];
      if (!sz) fail(`struct ${s.name}.${f.name}: unknown type ${f.type}`);
      if (off % sz)
        fail(
          `struct ${s.name}.${f.name} would need ${sz - (off % sz)} bytes of padding before it: reorder or add a reserved field`,
        );
      f.offset = off;
      off += sz * f.n;
      align = Math.max(align, sz);
    }
    if (off % align) {
      if (s.name !== 'prog_header') fail(`struct ${s.name} would need tail padding: add a reserved field`);
      fields.push({
        name: 'reserved',
        type: 'u32',
        n: (align - (off % align)) / 4,
        doc: 'padding to 8 bytes',
        offset: off,
      });
      off += align - (off % align);
    }
    return { name: s.name, doc: s.doc ?? '', fields, size: off };
  });

  /* exports, parsed from their prototypes */
  const exportsList = [...core.exports, ...mechanisms.flatMap((m) => m.exports ?? [])].map(([proto, doc, opts]) => {
    const m = /^(.*?)\b(\w+)\((.*)\)$/.exec(proto);
    if (!m) fail(`export: cannot parse '${proto}'`);
    const wasm = (t) =>
      /\*/.test(t) || (/\b(size_t|int|u?int(8|16|32)_t|char)\b/.test(t) && !/int64_t/.test(t))
        ? 'i32'
        : /int64_t/.test(t)
          ? 'i64'
          : t.trim() === 'void'
            ? 'void'
            : fail(`export ${m[2]}: type '${t}'`);
    const params =
      m[3] === 'void'
        ? []
        : m[3].split(',').map((p) => {
            const pm = /^(.*?)(\w+)$/.exec(p.trim());
            return { name: pm[2], c: pm[1].trim(), wasm: wasm(pm[1]) };
          });
    return { name: m[2], ret: m[1].trim(), retWasm: wasm(m[1]), params, doc, proto, libc: !!opts?.libc };
  });

  const desc = {
    oneTaskOps,
    abi: ABI_VERSION,
    constants: [...core.constants, ...mechanisms.flatMap((m) => m.constants ?? [])],
    enums,
    flags: [...core.flags, ...mechanisms.flatMap((m) => m.flags ?? [])],
    counters,
    taskCounters: core.taskCounters,
    mmCounters: core.mmCounters,
    events,
    tunables,
    structs,
    exports: exportsList,
    mechanisms: mechanisms.map((m) => ({
      id: m.id,
      title: m.title,
      order: m.order,
      seed: m.seed,
      kernels: m.kernels,
      core: m.core,
      tests: m.tests,
      aliases: m.aliases,
      describer: existsSync(join(root, `wasm-core/ts/describe/${m.id}.ts`)),
      frames: existsSync(join(root, `web/src/mechanisms/${m.id}/frame.ts`)),
      views: existsSync(join(root, `web/src/mechanisms/${m.id}/views.tsx`)),
    })),
  };
  desc.hash = fnv(JSON.stringify(desc, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)));
  return desc;
}

/* ------------------------------------------------------------------ C */

const cComment = (s) => (s ? ` /* ${s.replace(/\*\//g, '* /')} */` : '');

function genHeader(d) {
  const L = [];
  L.push('/* Generated by scripts/gen-interface.mjs from wasm-core/interface/: do not edit. */');
  L.push('#ifndef MMSIM_GEN_H', '#define MMSIM_GEN_H', '', '#include <stddef.h>', '#include <stdint.h>', '');
  L.push(
    `#define MMSIM_ABI_VERSION ${d.abi}`,
    `#define MMSIM_INTERFACE_HASH 0x${d.hash.toString(16).padStart(8, '0')}u`,
  );
  for (const [n, v, doc] of d.constants)
    L.push(`#define MMSIM_${n} ${typeof v === 'number' && v > 0xffff ? `0x${v.toString(16)}u` : v}${cComment(doc)}`);
  L.push('#define MMSIM_UNLIMITED UINT64_MAX', '');
  for (const e of d.enums) {
    if (e.doc) L.push(`/* ${e.doc} */`);
    L.push(`enum ${e.c} {`);
    for (const m of e.members) L.push(`\t${m.c} = ${m.value},${cComment(m.doc)}`);
    if (e.count) L.push(`\t${e.count}`);
    L.push('};');
  }
  L.push('#define MMSIM_PG_readahead MMSIM_PG_reclaim', '');
  L.push(
    "/* the step kinds whose task is one thread (their task argument takes no 'app.*'): steps.ts */",
    `#define MMSIM_OP_ONE_TASK(op) ((1u << (op)) & (${d.oneTaskOps.map((o) => `1u << MMSIM_OP_${upperSnake(o)}`).join(' | ')}))`,
    '',
  );
  for (const f of d.flags) {
    L.push(`/* ${f.doc} */`);
    for (const [n, v, doc] of f.members)
      L.push(
        `#define ${f.prefix}${n} ${f.u64 ? `0x${BigInt(v).toString(16)}ull` : `0x${Number(v).toString(16)}u`}${cComment(doc)}`,
      );
  }
  L.push('#define MMSIM_VM_FAULT_ERROR (MMSIM_VM_FAULT_OOM | MMSIM_VM_FAULT_SIGBUS | MMSIM_VM_FAULT_SIGSEGV)', '');
  L.push("/* Global counters: /proc/vmstat names, gauges after the event counts, the model's own last. */");
  L.push('#define MMSIM_COUNTERS(X) \\');
  L.push(d.counters.map((c) => `\tX(${c.id}, "${c.name}")`).join(' \\\n'));
  L.push(
    'enum mmsim_counter {',
    '#define MMSIM_X_ENUM(id, name) MMSIM_##id,',
    '\tMMSIM_COUNTERS(MMSIM_X_ENUM)',
    '#undef MMSIM_X_ENUM',
    '\tMMSIM_NR_COUNTERS',
    '};',
  );
  L.push(`#define MMSIM_FIRST_GAUGE MMSIM_${d.counters.find((c) => c.gauge).id}`);
  L.push(`#define MMSIM_FIRST_MODEL_COUNTER MMSIM_${d.counters.find((c) => c.model).id}`, '');
  L.push('#define MMSIM_TASK_COUNTERS(X) \\', d.taskCounters.map(([id, n]) => `\tX(${id}, "${n}")`).join(' \\\n'));
  L.push(
    'enum mmsim_task_counter {',
    '#define MMSIM_X_ENUM(id, name) MMSIM_##id,',
    '\tMMSIM_TASK_COUNTERS(MMSIM_X_ENUM)',
    '#undef MMSIM_X_ENUM',
    '\tMMSIM_NR_TASK_COUNTERS',
    '};',
  );
  L.push(
    'enum mmsim_mm_counter {',
    ...d.mmCounters.map(([id, n], i) => `\tMMSIM_${id} = ${i}, /* ${n} */`),
    '\tMMSIM_NR_MM_COUNTERS',
    '};',
    '',
  );
  L.push('/* Events: 32-byte records (struct mmsim_event); a..d per type. */');
  L.push('#define MMSIM_EVENTS(X) \\');
  L.push(d.events.map((e) => `\t/* ${e.doc.replace(/\*\//g, '')} */ \\\n\tX(${e.id}, "${e.name}")`).join(' \\\n'));
  L.push(
    'enum mmsim_event_type {',
    '#define MMSIM_X_ENUM(id, name) MMSIM_EV_##id,',
    '\tMMSIM_EVENTS(MMSIM_X_ENUM)',
    '#undef MMSIM_X_ENUM',
    '\tMMSIM_NR_EVENT_TYPES',
    '};',
    '',
  );
  for (const s of d.structs) {
    L.push(`struct mmsim_${s.name} {${cComment(`${s.size} bytes${s.doc ? `: ${s.doc}` : ''}`)}`);
    for (const f of s.fields) {
      const n =
        f.nName === 'taskCounters'
          ? '[MMSIM_NR_TASK_COUNTERS]'
          : f.nName === 'mmCounters'
            ? '[MMSIM_NR_MM_COUNTERS]'
            : f.n > 1
              ? `[${f.n}]`
              : '';
      L.push(`\t${CTYPE[f.type]} ${f.name}${n};${cComment(f.doc)}`);
    }
    L.push('};');
  }
  /* the layout the description computed, checked by the compiler: a field added here by hand fails the build */
  L.push('', '/* the layout computed from the description, checked at compile time */');
  for (const st of d.structs) {
    L.push(
      `_Static_assert(sizeof(struct mmsim_${st.name}) == ${st.size}, "struct mmsim_${st.name}: ${st.size} bytes");`,
    );
    for (const f of st.fields)
      L.push(
        `_Static_assert(offsetof(struct mmsim_${st.name}, ${f.name}) == ${f.offset}, "mmsim_${st.name}.${f.name} at ${f.offset}");`,
      );
  }
  L.push('', 'struct mmsim;', '');
  for (const e of d.exports.filter((x) => !x.libc)) {
    if (e.doc) L.push(`/* ${e.doc} */`);
    L.push(`${e.proto};`);
  }
  L.push("/* the tunables' ranges, from the description: NULL if the header is sound, else why not */");
  L.push('const char *mmsim_tunables_check(const struct mmsim_prog_header *h);');
  /* every tunable's default as the header stores it (native tests and tools build headers with it) */
  const cDefault = (t) =>
    t.type === 'choice'
      ? t.choices.indexOf(t.default)
      : t.type === 'bool'
        ? t.default
          ? 1
          : 0
        : t.type === 'sizes'
          ? t.default.reduce((m, sz) => m | (1 << Math.log2(sz / 4096)), 0)
          : t.default;
  L.push("/* the header's tunables at their defaults */", '#define MMSIM_HEADER_DEFAULTS(h) do { \\');
  for (const t of d.tunables) L.push(`\t(h)->${t.field} = ${cDefault(t)}${t.ctype === 'u64' ? 'ull' : 'u'}; \\`);
  L.push('} while (0)');
  L.push('', '#endif /* MMSIM_GEN_H */', '');
  return L.join('\n');
}

const C_ARG = { addr: 'uint64_t', u32: 'uint32_t', i32: 'int32_t', bool: 'bool', u64: 'uint64_t' };

/* src/trace_gen.h: one emit helper per event kind, its fields as arguments */
function genTraceHelpers(d) {
  const L = [];
  L.push(
    '/* Generated by scripts/gen-interface.mjs from wasm-core/interface/: do not edit. */',
    '/*',
    ' * trace_<event>(sim, fields...): one emit helper per event kind, its fields',
    " * as arguments in the description's order, placed in the record's words as",
    ' * described (so a call site names what it reports and cannot fill the wrong',
    ' * word). Included by internal.h after trace().',
    ' */',
    '#ifndef MMSIM_TRACE_GEN_H',
    '#define MMSIM_TRACE_GEN_H',
    '',
  );
  for (const e of d.events) {
    const args = e.fields.map((f) => `${C_ARG[f.type]} ${f.name}`);
    L.push(`/* ${e.doc.replace(/\*\//g, '')} */`);
    L.push(`static inline void trace_${e.name}(struct mmsim *sim${args.map((a) => `, ${a}`).join('')})`, '{');
    const words = ['0', '0', '0', '0'];
    let addr = '0';
    for (const f of e.fields) {
      if (f.type === 'addr') {
        addr = f.name;
        continue;
      }
      const w = (f.offset - 16) / 4;
      if (f.type === 'u64') {
        words[w] = `(uint32_t)${f.name}`;
        words[w + 1] = `(uint32_t)(${f.name} >> 32)`;
      } else if (f.bits < 32) {
        L.push(`	MMSIM_TRACE_FITS(${f.name}, ${f.bits});`);
        const v = `(uint32_t)${f.name}${f.shift ? ` << ${f.shift}` : ''}`;
        words[w] = words[w] === '0' ? v : `${words[w]} | ${v}`;
      } else words[w] = `(uint32_t)${f.name}`;
    }
    L.push(`	trace(sim, MMSIM_EV_${e.id}, ${addr}, ${words.join(', ')});`, '}', '');
  }
  L.push('#endif /* MMSIM_TRACE_GEN_H */', '');
  return L.join('\n');
}

/*
 * The sentinel value the self-test emits for field j of event type k: distinct per field, nonzero,
 * within the field's width. The TypeScript test computes the same from EVENT_FIELDS and decodes.
 */
function sentinel(k, j, f) {
  if (f.type === 'bool') return 1;
  if (f.bits < 32) return ((k * 7 + j * 3) % (2 ** f.bits - 1)) + 1;
  if (f.type === 'addr' || f.type === 'u64') return 0x1234_0000_0000 + k * 256 + j + 1;
  return 0x5a00_0000 + k * 256 + j + 1;
}

/* interface_gen.c's mmsim_trace_selftest(): every event kind once, through its helper, with sentinels */
function genSelftest(d) {
  const L = [
    '',
    '/* every event kind once, through its trace_<event>() helper, each field a sentinel (interface.test.ts) */',
  ];
  L.push('void mmsim_trace_selftest(struct mmsim *sim)', '{');
  d.events.forEach((e, k) => {
    const args = e.fields.map((f, j) => {
      const v = sentinel(k, j, f);
      return f.type === 'bool'
        ? 'true'
        : f.type === 'addr' || f.type === 'u64'
          ? `0x${v.toString(16)}ull`
          : `0x${v.toString(16)}u`;
    });
    L.push(`	trace_${e.name}(sim${args.map((a) => `, ${a}`).join('')});`);
  });
  L.push('}', '');
  return L.join('\n');
}

function layoutRows(d) {
  /* [kind, a, b, value-expression-in-C, name] : kind 1 struct size, 2 field offset, 3 field size,
     4 enum member, 5 flag low 32 bits, 6 flag high 32 bits, 7 constant */
  const rows = [];
  d.structs.forEach((s, si) => {
    rows.push([1, si, 0, `sizeof(struct mmsim_${s.name})`, s.size, `sizeof ${s.name}`]);
    s.fields.forEach((f, fi) => {
      rows.push([2, si, fi, `offsetof(struct mmsim_${s.name}, ${f.name})`, f.offset, `${s.name}.${f.name} offset`]);
      rows.push([
        3,
        si,
        fi,
        `sizeof(((struct mmsim_${s.name} *)0)->${f.name})`,
        SIZES[f.type] * f.n,
        `${s.name}.${f.name} size`,
      ]);
    });
  });
  d.enums.forEach((e, ei) => {
    e.members.forEach((m, mi) => {
      rows.push([4, ei, mi, `(uint32_t)${m.c}`, m.value >>> 0, `${e.ts}.${m.name}`]);
    });
  });
  d.flags.forEach((f, fi) => {
    f.members.forEach(([n, v], mi) => {
      rows.push([5, fi, mi, `(uint32_t)(${f.prefix}${n})`, Number(BigInt(v) & 0xffffffffn), `${f.ts}.${n}`]);
      rows.push([
        6,
        fi,
        mi,
        `(uint32_t)((uint64_t)(${f.prefix}${n}) >> 32)`,
        Number(BigInt(v) >> 32n),
        `${f.ts}.${n} (high)`,
      ]);
    });
  });
  d.constants.forEach(([n, v], ci) => {
    rows.push([7, ci, 0, `(uint32_t)MMSIM_${n}`, v >>> 0, n]);
  });
  rows.push(
    [8, 0, 0, 'MMSIM_NR_COUNTERS', d.counters.length, 'counters'],
    [8, 1, 0, 'MMSIM_NR_EVENT_TYPES', d.events.length, 'events'],
    [8, 2, 0, 'MMSIM_NR_TASK_COUNTERS', d.taskCounters.length, 'task counters'],
    [8, 3, 0, 'MMSIM_NR_MM_COUNTERS', d.mmCounters.length, 'mm counters'],
  );
  return rows;
}

function genC(d) {
  const L = [];
  L.push(
    '/*',
    ' * interface_gen.c - generated by scripts/gen-interface.mjs from wasm-core/interface/: do not edit.',
    ' *',
  );
  L.push(
    ' * The layout table holds what the C compiler made of the description (sizeof,',
    ' * offsetof, enum values), five u32 per row: kind, a, b, value, 0. The',
  );
  L.push(
    ' * TypeScript drift test reads it back from the wasm and compares it with the',
    ' * offsets and values the TypeScript side uses.',
    ' */',
  );
  L.push('#include "internal.h"', '');
  L.push('static const uint32_t layout[][5] = {');
  for (const r of layoutRows(d)) L.push(`\t{ ${r[0]}, ${r[1]}, ${r[2]}, ${r[3]}, 0 },`);
  L.push('};', '');
  L.push('const uint32_t *mmsim_layout(void) { return &layout[0][0]; }');
  L.push('uint32_t mmsim_layout_len(void) { return (uint32_t)(sizeof(layout) / sizeof(layout[0])); }');
  L.push(`uint32_t mmsim_interface_hash(void) { return MMSIM_INTERFACE_HASH; }`, '');
  L.push('const char *mmsim_tunables_check(const struct mmsim_prog_header *h)', '{');
  for (const t of d.tunables) {
    const v = `h->${t.field}`;
    const say = (cond, msg) => L.push(`\tif (${cond})`, `\t\treturn "${t.key} ${msg}";`);
    if (t.type === 'size' || t.type === 'int') {
      if (t.pow2) say(`${v} & (${v} - 1)`, `must be a power of two`);
      if (t.page) say(`${v} & ${4095}`, `must be a multiple of 4096`);
      const sfx = t.ctype === 'u64' ? 'ull' : 'u';
      say(
        t.min > 0 ? `${v} < ${t.min}${sfx} || ${v} > ${t.max}${sfx}` : `${v} > ${t.max}${sfx}`,
        `must be from ${t.min} to ${t.max}`,
      );
    } else if (t.type === 'bool') say(`${v} > 1`, 'must be 0 or 1');
    else if (t.type === 'choice') say(`${v} >= ${t.choices.length}`, `must be one of ${t.choices.join(', ')}`);
    else if (t.type === 'sizes') {
      let mask = 0;
      for (let s = t.min; s <= t.max; s *= 2) mask |= 1 << Math.log2(s / 4096);
      say(`${v} & ~0x${(mask >>> 0).toString(16)}u`, `has a size outside ${t.min} .. ${t.max}`);
    }
  }
  L.push('\treturn NULL;', '}');
  return L.join('\n') + genSelftest(d);
}

/* ------------------------------------------------------------------ TS */

const J = (v) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x)).replace(/"(-?\d+)n"/g, '$1n');

function genTs(d) {
  const L = [];
  L.push(
    '/* Generated by scripts/gen-interface.mjs from wasm-core/interface/: do not edit. */',
    '/* eslint-disable */',
    '',
  );
  L.push(
    `export const ABI_VERSION = ${d.abi};`,
    `export const INTERFACE_HASH = 0x${d.hash.toString(16).padStart(8, '0')};`,
  );
  for (const [n, v, doc] of d.constants)
    L.push(
      `${doc ? `/** ${doc} */\n` : ''}export const ${n} = ${typeof v === 'number' && v > 0xffff ? `0x${v.toString(16)}` : v};`,
    );
  L.push('');
  for (const e of d.enums) {
    if (e.constObject || e.names || e.tunable) {
      L.push(`${e.doc ? `/** ${e.doc} */\n` : ''}export const ${e.ts} = {`);
      for (const m of e.members)
        L.push(
          `  ${/^[a-z_][a-z0-9_]*$/i.test(m.name) ? m.name : J(m.name)}: ${m.value},${m.doc ? ` // ${m.doc}` : ''}`,
        );
      L.push('} as const;');
      if (e.names || e.tunable)
        L.push(`export const ${upperSnake(e.ts)}_NAMES = ${J(e.members.map((m) => m.name))} as const;`);
    } else {
      L.push(`${e.doc ? `/** ${e.doc} */\n` : ''}export enum ${e.ts} {`);
      for (const m of e.members) L.push(`  ${m.name} = ${m.value},${m.doc ? ` // ${m.doc}` : ''}`);
      L.push('}');
    }
    L.push(`export const ${upperSnake(e.ts)}_DOCS: readonly string[] = ${J(e.members.map((m) => m.doc))};`);
  }
  L.push('');
  for (const f of d.flags) {
    L.push(`/** ${f.doc} */`, `export const ${f.ts} = {`);
    for (const [n, v, doc] of f.members)
      L.push(
        `  ${n}: ${f.u64 ? `0x${BigInt(v).toString(16)}n` : `0x${Number(v).toString(16)}`},${doc ? ` // ${doc}` : ''}`,
      );
    L.push('} as const;');
  }
  L.push('', '/** Global counters, enum mmsim_counter order. */');
  L.push(`export const COUNTERS = ${J(d.counters.map((c) => c.name))} as const;`);
  L.push('export type CounterName = (typeof COUNTERS)[number];');
  L.push(
    'export interface CounterInfo { name: CounterName; gauge: boolean; model: boolean; required: boolean; doc: string; mechanism: string }',
  );
  L.push(
    `export const COUNTER_INFO: readonly CounterInfo[] = ${J(d.counters.map(({ name, gauge, model, required, doc, mechanism }) => ({ name, gauge, model, required, doc, mechanism })))};`,
  );
  L.push(`export const TASK_COUNTERS = ${J(d.taskCounters.map((c) => c[1]))} as const;`);
  L.push('export type TaskCounterName = (typeof TASK_COUNTERS)[number];');
  L.push(`export const MM_COUNTERS = ${J(d.mmCounters.map((c) => c[1]))} as const;`, '');
  L.push(`export const EVENTS = ${J(d.events.map((e) => e.name))} as const;`);
  L.push('export type EventName = (typeof EVENTS)[number];');
  L.push(`export const EVENT_DOCS: readonly string[] = ${J(d.events.map((e) => e.doc))};`, '');
  L.push('/** the mechanism that describes each event type (core: the machine) */');
  L.push(`export const EVENT_MECHANISMS: readonly string[] = ${J(d.events.map((e) => e.mechanism))};`, '');
  L.push("export type FieldType = 'u8' | 'u16' | 'u32' | 'i32' | 'u64' | 'i64';");
  L.push('export interface FieldLayout { offset: number; type: FieldType; n: number }');
  L.push('export interface StructLayout { size: number; fields: Record<string, FieldLayout> }');
  L.push('/** Struct layouts (bytes), the same on wasm32 and x86-64: no implicit padding. */');
  L.push('export const STRUCTS = {');
  for (const s of d.structs) {
    L.push(`  ${s.name}: { size: ${s.size}, fields: {`);
    for (const f of s.fields) L.push(`    ${f.name}: { offset: ${f.offset}, type: '${f.type}', n: ${f.n} },`);
    L.push('  } },');
  }
  L.push('} as const satisfies Record<string, StructLayout>;', 'export type StructName = keyof typeof STRUCTS;', '');
  L.push("export type TunableType = 'size' | 'int' | 'bool' | 'choice' | 'sizes';");
  L.push('export interface TunableInfo {');
  L.push("  key: string; scope: 'kernel' | 'machine'; field: string; ctype: 'u32' | 'u64'; type: TunableType;");
  L.push('  min?: number; max?: number; pow2?: boolean; page?: boolean; choices?: readonly string[];');
  L.push('  default: number | boolean | string | readonly number[]; unit?: string; desc: string; kernel: string;');
  L.push(
    "  mechanism: string; status?: 'modelled' | 'later'; quick?: boolean; sweep?: readonly number[]; readsAlone?: boolean;",
  );
  L.push('  /** the kernel a value stands for, by the value as text: a run with it is labelled by that kernel */');
  L.push('  versions?: Readonly<Record<string, string>>;');
  L.push('}');
  L.push(
    `export const TUNABLES: readonly TunableInfo[] = ${JSON.stringify(
      d.tunables.map(({ cEnum, cPrefix, ...t }) => t),
      null,
      2,
    )};`,
    '',
  );
  const tsType = (t) =>
    t.type === 'bool'
      ? 'boolean'
      : t.type === 'choice'
        ? t.choices.map((c) => `'${c}'`).join(' | ')
        : t.type === 'sizes'
          ? 'number[]'
          : 'number';
  L.push("/** The scenario's `kernel:` section, fully defaulted. */", 'export interface KernelTunables {');
  for (const t of d.tunables.filter((x) => x.scope === 'kernel'))
    L.push(`  /** ${t.desc} */`, `  ${t.key}: ${tsType(t)};`);
  L.push('}', "/** The scenario's `machine:` section, fully defaulted. */", 'export interface MachineSettings {');
  for (const t of d.tunables.filter((x) => x.scope === 'machine'))
    L.push(`  /** ${t.desc} */`, `  ${t.key.slice(8)}: ${tsType(t)};`);
  L.push('}', '');
  L.push(`export const MECHANISMS = ${J(d.mechanisms)} as const;`, '');
  L.push("/** the order of the layout table's rows (interface_gen.c), for the drift test */");
  L.push(
    `export const LAYOUT_ORDER = ${J({ structs: d.structs.map((x) => x.name), enums: d.enums.map((e) => e.ts), flags: d.flags.map((f) => f.ts), constants: d.constants.map((c) => c[0]) })} as const;`,
    '',
  );
  L.push("export type WasmType = 'i32' | 'i64' | 'void';");
  L.push(
    `export const EXPORTS: readonly { name: string; proto: string; params: readonly { name: string; wasm: WasmType }[]; ret: WasmType; doc: string }[] = [\n${d.exports.map((e) => `  ${J({ name: e.name, proto: e.proto, params: e.params.map((p) => ({ name: p.name, wasm: p.wasm })), ret: e.retWasm, doc: e.doc })},`).join('\n')}\n];`,
    '',
  );
  L.push('/** The wasm exports, typed: i32 as number (pointers too), i64 as bigint. */');
  L.push('export interface CoreExports {', '  memory: WebAssembly.Memory;', '  _initialize?: () => void;');
  const ty = (w) => (w === 'i64' ? 'bigint' : w === 'void' ? 'void' : 'number');
  for (const e of d.exports)
    L.push(`  ${e.name}(${e.params.map((p) => `${p.name}: ${ty(p.wasm)}`).join(', ')}): ${ty(e.retWasm)};`);
  L.push('}', '');
  return L.join('\n');
}

/* ts/gen/events.ts: the events' field layout, types and decoder, from the same description */
function genEventsTs(d) {
  const tsEnums = new Set(d.enums.filter((e) => !(e.constObject || e.names || e.tunable)).map((e) => e.ts));
  const used = new Set(d.events.flatMap((e) => e.fields.map((f) => f.enum)).filter((x) => x && tsEnums.has(x)));
  const fieldType = (f) => (f.type === 'bool' ? 'boolean' : f.enum && tsEnums.has(f.enum) ? f.enum : 'number');
  const L = [];
  L.push(
    '/* Generated by scripts/gen-interface.mjs from wasm-core/interface/: do not edit. */',
    '/*',
    " * The events' fields, described once (wasm-core/interface/): their layout in",
    ' * the 32-byte record, their TypeScript types, and the decoder that names them',
    ' * (ev.pfn, not a raw word). The C side emits them through src/trace_gen.h.',
    ' */',
    `import { EV_TYPE_MASK, EVF_OP_START, type EventName${[...used]
      .sort()
      .map((x) => `, type ${x}`)
      .join('')} } from './interface.js';`,
    '',
  );
  L.push('/** event type numbers by name (enum mmsim_event_type) */');
  L.push(`export const EV = {\n${d.events.map((e, i) => `  ${e.name}: ${i},`).join('\n')}\n} as const;`);
  L.push('');
  L.push("export type EventFieldType = 'addr' | 'u32' | 'i32' | 'bool' | 'u64';");
  L.push(
    '/** where a field lives: bytes [offset, offset + bits / 8) of the record, or bits [shift, shift + bits) of its u32 */',
  );
  L.push('export interface EventFieldLayout {');
  L.push('  name: string; type: EventFieldType; offset: number; shift: number; bits: number;');
  L.push('  doc: string; enum: string | null; flags: string | null; unit: string | null;');
  L.push('}');
  L.push("/** every event type's fields, by type number */");
  L.push(
    `export const EVENT_FIELDS: readonly (readonly EventFieldLayout[])[] = [\n${d.events.map((e) => `  ${J(e.fields)},`).join('\n')}\n];`,
  );
  L.push('/** byte offsets of the fields that fill whole words, for code that reads records without decoding them */');
  L.push('export const EVENT_OFFSETS = {');
  for (const e of d.events) {
    const whole = e.fields.filter((f) => f.bits >= 32);
    L.push(`  ${e.name}: { ${whole.map((f) => `${f.name}: ${f.offset}`).join(', ')} },`);
  }
  L.push('} as const;', '');
  L.push("/** each event type's fields, typed */");
  L.push('export interface EventFields {');
  for (const e of d.events)
    L.push(
      `  ${e.name}: { ${e.fields.map((f) => `${f.name}: ${fieldType(f)}`).join('; ')}${e.fields.length ? ';' : ''} };`,
    );
  L.push('}', '');
  L.push('/** what every record has: its place in the stream, the task and step that made it */');
  L.push('export interface EventBase {');
  L.push('  index: number;', '  opStart: boolean;', '  task: number | null;', '  step: number | null;', '}');
  L.push(
    'export type SimEventOf<N extends EventName> = EventBase & { type: (typeof EV)[N]; name: N } & EventFields[N];',
  );
  L.push("/** a decoded event: narrow it by name or type (ev.name === 'mm_set_pte' gives ev.pfn) */");
  L.push('export type SimEvent = { [N in EventName]: SimEventOf<N> }[EventName];', '');
  L.push('const u64 = (v: DataView, o: number) => v.getUint32(o + 4, true) * 2 ** 32 + v.getUint32(o, true);', '');
  L.push('/** the record at byte o of v, decoded; index is its place in the stream */');
  L.push('export function decodeEvent(v: DataView, o: number, index: number): SimEvent {');
  L.push(
    '  const raw = v.getUint16(o, true),',
    '    type = raw & EV_TYPE_MASK,',
    '    task = v.getUint16(o + 2, true),',
    '    step = v.getUint32(o + 4, true);',
  );
  L.push(
    '  const opStart = (raw & EVF_OP_START) !== 0,',
    '    t = task === 0xffff ? null : task,',
    '    s = step === 0xffffffff ? null : step;',
  );
  L.push('  switch (type) {');
  d.events.forEach((e, i) => {
    const parts = e.fields.map((f) => {
      let expr;
      if (f.type === 'addr' || f.type === 'u64') expr = `u64(v, o + ${f.offset})`;
      else if (f.bits < 32)
        expr = `(v.getUint32(o + ${f.offset}, true) >>> ${f.shift}) & 0x${(2 ** f.bits - 1).toString(16)}`;
      else if (f.type === 'i32') expr = `v.getInt32(o + ${f.offset}, true)`;
      else expr = `v.getUint32(o + ${f.offset}, true)`;
      if (f.type === 'bool') expr = `${expr} !== 0`;
      return `${f.name}: ${expr}`;
    });
    L.push(
      `    case ${i}:`,
      `      return { index, type, name: '${e.name}', opStart, task: t, step: s${parts.map((x) => `, ${x}`).join('')} } as SimEvent;`,
    );
  });
  L.push('  }');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated TypeScript's own template literal
  L.push('  throw new Error(`event ${index}: unknown type ${type}`);', '}', '');
  return L.join('\n');
}

/*
 * The lists of mechanisms the code uses, derived from the manifests: the
 * event sentences (the CLI and the worker), and the playground's modules,
 * frame providers (the worker) and views (the page). Never edited by hand.
 */
const GEN =
  "/* Generated by scripts/gen-interface.mjs from the mechanisms' manifests (wasm-core/interface/mechanisms/): do not edit. */";
const camel = (id) => id.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

function genDescribers(d) {
  const ms = d.mechanisms.filter((m) => m.describer);
  return [
    GEN,
    "import type { Describer } from '../describe/common.js';",
    ...ms.map((m) => `import { describer as ${camel(m.id)} } from '../describe/${m.id}.js';`),
    '',
    "/** every mechanism's event sentences, in the mechanisms' order */",
    `export const DESCRIBERS: readonly Describer[] = [${ms.map((m) => camel(m.id)).join(', ')}];`,
    '',
  ].join('\n');
}

function genWebRegistry(d, what) {
  const spec = {
    mechanisms: {
      file: 'index',
      name: 'mechanism',
      type: 'MechanismDef',
      from: '../mechanisms/types.js',
      list: 'MECHANISM_DEFS',
      doc: "every mechanism's playground module (no React: the worker imports it too)",
    },
    frames: {
      file: 'frame',
      name: 'frames',
      type: 'FrameProvider',
      from: '../frames/types.js',
      list: 'FRAME_PROVIDERS',
      doc: "every mechanism's frame provider, for the worker",
      only: 'frames',
    },
    views: {
      file: 'views',
      name: 'views',
      type: 'ViewComponents',
      from: '../views/types.js',
      list: 'MECHANISM_VIEWS',
      doc: "every mechanism's view components, page side",
      only: 'views',
    },
  }[what];
  const ms = d.mechanisms.filter((m) => !spec.only || m[spec.only]);
  return [
    GEN,
    `import type { ${spec.type} } from '${spec.from}';`,
    ...ms.map((m) => `import { ${spec.name} as ${camel(m.id)} } from '../mechanisms/${m.id}/${spec.file}.js';`),
    '',
    `/** ${spec.doc}, in the mechanisms' order */`,
    `export const ${spec.list}: readonly ${spec.type}[] = [${ms.map((m) => camel(m.id)).join(', ')}];`,
    '',
  ].join('\n');
}

export async function generate({ check = false } = {}) {
  const d = await resolve();
  const outputs = [
    ['wasm-core/include/mmsim_gen.h', genHeader(d)],
    ['wasm-core/src/interface_gen.c', genC(d)],
    ['wasm-core/src/trace_gen.h', genTraceHelpers(d)],
    ['wasm-core/ts/gen/events.ts', genEventsTs(d)],
    ['wasm-core/ts/gen/describers.ts', genDescribers(d)],
    ['web/src/gen/mechanisms.ts', genWebRegistry(d, 'mechanisms')],
    ['web/src/gen/frames.ts', genWebRegistry(d, 'frames')],
    ['web/src/gen/views.ts', genWebRegistry(d, 'views')],
    ['wasm-core/exports.txt', `${d.exports.map((e) => `_${e.name}`).join('\n')}\n`],
    ['wasm-core/ts/gen/interface.ts', genTs(d)],
  ];
  const stale = [];
  for (const [rel, text] of outputs) {
    const p = join(root, rel);
    const old = existsSync(p) ? readFileSync(p, 'utf8') : null;
    if (old === text) continue;
    stale.push(rel);
    if (!check) {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, text);
    }
  }
  /* docs/reference.md, from the loader's own descriptions (so it reads the interface just written) */
  const ref = join(root, 'docs/reference.md');
  const text = (await importTs('wasm-core/ts/load/reference.ts')).referenceMarkdown();
  if (!existsSync(ref) || readFileSync(ref, 'utf8') !== text) {
    stale.push('docs/reference.md');
    if (!check) writeFileSync(ref, text);
  }
  /* the validators, compiled ahead of time from the schemas (which read the interface just written) */
  const v = (await importTs('wasm-core/ts/schema/standalone.ts')).validatorModules();
  for (const [rel, text] of [
    ['wasm-core/ts/gen/validate-scenario.ts', v.scenario],
    ['wasm-core/ts/gen/validate-tour.ts', v.tour],
  ]) {
    const p = join(root, rel);
    if (existsSync(p) && readFileSync(p, 'utf8') === text) continue;
    stale.push(rel);
    if (!check) writeFileSync(p, text);
  }
  return { stale, desc: d };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const check = process.argv.includes('--check');
  const { stale } = await generate({ check });
  if (check && stale.length) {
    console.error(
      `stale generated interface files: ${stale.join(', ')}\n  the description in wasm-core/interface/ changed: run  node scripts/gen-interface.mjs  and commit the result`,
    );
    process.exit(1);
  }
  if (!check && stale.length) console.log(`gen-interface: wrote ${stale.join(', ')}`);
}
