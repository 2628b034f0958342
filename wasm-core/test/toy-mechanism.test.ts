/**
 * Adding a mechanism edits no shared file. A scratch copy of the tree gets
 * a sixth, toy mechanism (a manifest with a tunable and a counter, a core
 * file with a query, a native test, a playground module with a frame
 * provider and a view, a scenario), the generator runs, and then: every
 * file that changed is a generated one, the lists the code uses name the
 * toy, the type check passes, and the native tests build and pass with the
 * toy's test found by the build.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repo } from './helpers.js';

/* what scripts/gen-interface.mjs writes (and so may change): everything else is written by hand */
const GENERATED = [
  'wasm-core/include/mmsim_gen.h',
  'wasm-core/src/interface_gen.c',
  'wasm-core/src/trace_gen.h',
  'wasm-core/exports.txt',
  'wasm-core/ts/gen/interface.ts',
  'wasm-core/ts/gen/events.ts',
  'wasm-core/ts/gen/describers.ts',
  'wasm-core/ts/gen/validate-scenario.ts',
  'wasm-core/ts/gen/validate-tour.ts',
  'web/src/gen/mechanisms.ts',
  'web/src/gen/frames.ts',
  'web/src/gen/views.ts',
  'docs/reference.md',
];

const TOY: Record<string, string> = {
  'wasm-core/interface/mechanisms/toy.mjs': `/* A toy mechanism: proof that adding one edits no shared file. */
export default {
  id: 'toy',
  order: 6,
  title: 'Toy',
  seed: { author: 'A. Tester', title: 'a toy', date: '2026-01-01', kernel: '6.18' },
  kernels: ['6.18'],
  core: ['src/toy.c'],
  tests: ['test/native/toy.c'],
  aliases: [],
  tunables: [
    { key: 'toy_knob', type: 'int', min: 0, max: 9, default: 3, unit: 'knobs', kernel: '6.18', status: 'modelled', desc: 'A toy knob.' },
  ],
  counters: [['MODEL_TOY_TURNS', 'toy_turns', { model: true, doc: 'turns of the toy' }]],
  events: [],
  structs: [{ name: 'toy_info', doc: 'the toy', fields: [['knob', 'u32', 'the knob'], ['turns', 'u32', 'its turns']] }],
  exports: [['int mmsim_toy_info(const struct mmsim *sim, struct mmsim_toy_info *out)', 'the toy']],
};
`,
  'wasm-core/src/toy.c': `/*
 * toy.c - a toy mechanism, with an essay as every core file has.
 */
#include "internal.h"

int mmsim_toy_info(const struct mmsim *sim, struct mmsim_toy_info *out)
{
	memset(out, 0, sizeof(*out));
	out->knob = sim->s.hdr.toy_knob;
	out->turns = (uint32_t)sim->s.counters[MMSIM_MODEL_TOY_TURNS];
	return 0;
}
`,
  'wasm-core/test/native/toy.c': `/* toy.c - the toy's native test, found by the build */
TEST(toy_knob_default)
{
	struct mmsim_prog_header h = { 0 };

	MMSIM_HEADER_DEFAULTS(&h);
	CHECK_EQ(h.toy_knob, 3);
}
`,
  'web/src/mechanisms/toy/index.ts': `import type { MechanismDef } from '../types.js';

export const mechanism: MechanismDef = {
  id: 'toy',
  title: 'Toy',
  blurb: 'A toy mechanism.',
  figures: [{ key: 'toy_turns', label: 'Turns' }],
  views: [{ id: 'toy', title: 'Toy', description: 'the toy', column: 'main', order: 5 }],
};
`,
  'web/src/mechanisms/toy/frame.ts': `import type { FrameProvider } from '../../frames/types.js';

export const frames: FrameProvider = { id: 'toy', frame: (ctx) => ({ cursor: ctx.cursor }) };
`,
  'web/src/mechanisms/toy/views.tsx': `import type { ViewComponents, ViewProps } from '../../views/types.js';

function Toy({ frame }: ViewProps) {
  return <div data-view-body="toy">{frame.cursor}</div>;
}

export const views: ViewComponents = { toy: Toy };
`,
  'scenarios/toy/hello.yaml': `name: Hello, toy
processes:
  app: {}
steps:
  - say: a toy
`,
};

const hash = (p: string) => createHash('sha1').update(readFileSync(p)).digest('hex');

describe('adding a sixth mechanism', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'mmplay-toy-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('edits no shared file: only its own files and the generated ones change', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: repo, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.startsWith('node_modules/'));
    const before = new Map<string, string>();
    for (const f of files) {
      mkdirSync(dirname(join(scratch, f)), { recursive: true });
      try {
        cpSync(join(repo, f), join(scratch, f));
        before.set(f, hash(join(scratch, f)));
      } catch {
        /* a file listed but deleted in the working tree */
      }
    }
    symlinkSync(join(repo, 'node_modules'), join(scratch, 'node_modules'));
    for (const [f, text] of Object.entries(TOY)) {
      mkdirSync(dirname(join(scratch, f)), { recursive: true });
      writeFileSync(join(scratch, f), text);
    }
    const gen = spawnSync(process.execPath, ['scripts/gen-interface.mjs'], { cwd: scratch, encoding: 'utf8' });
    expect(gen.status, gen.stderr).toBe(0);
    const changed = [...before].filter(([f, h]) => hash(join(scratch, f)) !== h).map(([f]) => f);
    expect(changed.filter((f) => !GENERATED.includes(f))).toEqual([]);
    /* the lists the code uses name it */
    expect(readFileSync(join(scratch, 'web/src/gen/mechanisms.ts'), 'utf8')).toContain("'../mechanisms/toy/index.js'");
    expect(readFileSync(join(scratch, 'web/src/gen/frames.ts'), 'utf8')).toContain("'../mechanisms/toy/frame.js'");
    expect(readFileSync(join(scratch, 'web/src/gen/views.ts'), 'utf8')).toContain("'../mechanisms/toy/views.js'");
    expect(readFileSync(join(scratch, 'wasm-core/exports.txt'), 'utf8')).toContain('_mmsim_toy_info');
  });

  it('type-checks, and its core file and native test build and pass', () => {
    /* its build info in the scratch tree: the tsconfig's is under node_modules, the main tree's (a link) */
    const tsc = spawnSync(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', '.', '--tsBuildInfoFile', '.tsc/tsconfig.tsbuildinfo'],
      { cwd: scratch, encoding: 'utf8' },
    );
    expect(tsc.status, tsc.stdout).toBe(0);
    /* the build as the main tree's, without the sanitizers (they run there): a third of the time */
    const make = spawnSync('make', ['-s', '-j2', '-C', 'wasm-core', 'test', 'ASAN=-O0 $(CSTD) -DMMSIM_DEBUG'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    expect(make.status, make.stderr + make.stdout).toBe(0);
    /* its test runs: the only one named toy_, with its one check */
    const toy = spawnSync('./build/asan/test-core', ['toy_'], { cwd: join(scratch, 'wasm-core'), encoding: 'utf8' });
    expect(toy.status, toy.stderr).toBe(0);
    expect(toy.stdout).toMatch(/ 1 checks, 0 failures$/m);
  });
});
