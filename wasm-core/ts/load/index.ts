/**
 * The scenario loader: YAML (or JSON) text -> a validated, typed Scenario.
 *
 * The format is docs/scenario-format.md (generated from the schema and the
 * step kinds' description). Its shape is one JSON Schema (./schema.ts),
 * checked by its validator (compiled ahead of time: ../schema/standalone.ts)
 * with ../schema/check.ts, which maps every error back to the
 * file, line and column and the key path (`steps[3].access.stride`) and says
 * what was expected; unknown keys are errors, with a suggestion when the key
 * looks like a typo. The document is then built into a Scenario (./build.ts)
 * and checked as a whole (./semantics.ts: names defined before use, ranges
 * that fit). All errors are collected, not just the first.
 */
import { DEFAULT_LIMITS, checkShape, checkSource, type Limits } from '../limits.js';
import type { At, FileDef, FileSystem, Machine, ProcDef, Scenario, Tunables } from '../scenario.js';
import { VALIDATORS } from '../gen/validate-scenario.js';
import { checkDocument, formatSize, loadYaml, ScenarioErrors, toSize } from '../schema/check.js';
import { DEFAULT_MACHINE, DEFAULT_VERSION, KERNEL_VERSIONS, kernelOf, tunableInfo } from '../tunables.js';
import { Builder, Ctx, settingValue, withoutValue, type Obj } from './build.js';
import { MACHINE_KEYS, NAME_RE, TUNABLE_KEYS } from './schema.js';
import { checkSemantics } from './semantics.js';

export function parseScenario(source: string, file = '<scenario>', limits: Limits = DEFAULT_LIMITS): Scenario {
  checkSource(source, file, limits); /* before parsing: the text's size */
  const src = loadYaml(source, file); /* throws on YAML errors and aliases */
  checkShape(src.data, file, (segs) => src.at(segs), limits); /* before the schema: depth, list and text lengths */
  const { errors, bad } = checkDocument(src, VALIDATORS.scenario);
  const c = new Ctx(file);
  c.errors.push(...errors);
  const root = src.data as Obj;
  if (!root || typeof root !== 'object' || Array.isArray(root)) throw new ScenarioErrors(c.errors);
  const b = new Builder(c, src, bad);

  /* the kernel the scenario names (6.18 when none) gives every key it does not set */
  const named = (root.kernel as Obj | undefined)?.version;
  const version = typeof named === 'string' && KERNEL_VERSIONS.includes(named) ? named : DEFAULT_VERSION;
  const kernel: Tunables = kernelOf(version);
  const kernelGiven: Scenario['kernelGiven'] = {};
  const machine: Machine = { ...DEFAULT_MACHINE };
  for (const [section, target, keys] of [
    ['kernel', kernel, TUNABLE_KEYS],
    ['machine', machine, MACHINE_KEYS],
  ] as const) {
    const v = root[section];
    if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
    for (const [k, x] of Object.entries(v as Obj)) {
      if (!(keys as readonly string[]).includes(k) || bad([section, k])) continue;
      (target as unknown as Obj)[k] = settingValue(tunableInfo(section === 'kernel' ? k : `machine.${k}`)!, x);
      if (section === 'kernel') kernelGiven[k as keyof Tunables] = b.at([section, k], 'key');
    }
  }

  const files: FileDef[] = [];
  if (root.files && typeof root.files === 'object' && !Array.isArray(root.files))
    for (const [name, def] of Object.entries(root.files as Record<string, Obj>)) {
      if (!NAME_RE.test(name) || bad(['files', name])) continue;
      const nat = b.at(['files', name], 'key');
      const bytes = toSize(def.size);
      if (bytes > 2 ** 40) {
        c.err(
          b.at(['files', name, 'size'], 'key'),
          `files larger than 1 TiB are not modelled, got ${formatSize(bytes)}`,
        );
        continue;
      }
      if (def.sparse === true && def.fs === 'tmpfs')
        c.err(
          b.at(['files', name, 'sparse'], 'key'),
          'sparse is for a disk file; a tmpfs file is sparse already (its holes are never read)',
        );
      if (def.large_folios === true && def.fs === 'tmpfs')
        c.err(
          b.at(['files', name, 'large_folios'], 'key'),
          'large_folios is for a disk file; tmpfs caches 4 KiB pages here (its huge= option is never)',
        );
      files.push({
        name,
        size: bytes,
        cached: def.cached === 'all',
        fs: (def.fs as FileSystem | undefined) ?? 'disk',
        sparse: def.sparse === true,
        largeFolios: def.large_folios !== false,
        at: nat,
        cachedAt: 'cached' in def ? b.at(['files', name, 'cached'], 'key') : nat,
      });
    }

  const processes: ProcDef[] = [];
  if (root.processes && typeof root.processes === 'object' && !Array.isArray(root.processes))
    for (const [name, def] of Object.entries(root.processes as Record<string, Obj | null>)) {
      if (!NAME_RE.test(name) || bad(['processes', name])) continue;
      const seq = def?.vmacache_seqnum as number | undefined;
      processes.push({
        name,
        threads: (def?.threads as number | undefined) ?? 1,
        at: b.at(['processes', name], 'key'),
        ...(seq !== undefined ? { vmacacheSeqnum: seq } : {}),
      });
    }

  const steps = Array.isArray(root.steps) ? b.steps(root.steps, ['steps']) : [];

  let compare: Scenario['compare'];
  let compareAt: At | undefined;
  if (root.compare && typeof root.compare === 'object' && !Array.isArray(root.compare)) {
    compareAt = b.at(['compare'], 'key');
    compare = {};
    for (const [k, x] of Object.entries(root.compare as Obj))
      if (k === 'without' && !bad(['compare', k])) compare[k] = withoutValue(x);
      else if (tunableInfo(k) && !bad(['compare', k])) compare[k] = settingValue(tunableInfo(k)!, x);
  }
  const reference = root.reference && !bad(['reference']) ? b.reference(root.reference as Obj) : undefined;
  const letter = root.letter && !bad(['letter']) ? b.letter(root.letter as Obj) : undefined;

  if (c.errors.length) {
    c.errors.sort((x, y) => x.line - y.line || x.col - y.col);
    throw new ScenarioErrors(c.errors);
  }
  const scenario: Scenario = {
    file,
    source,
    name: root.name as string,
    about: (root.about as string | undefined) ?? '',
    seed: (root.seed as number | undefined) ?? 1,
    without: [],
    kernel,
    kernelGiven,
    machine,
    files,
    processes,
    steps,
    at: { line: 1, col: 1, path: '' },
    ...(compare ? { compare, compareAt } : {}),
    ...(reference ? { reference } : {}),
    ...(letter ? { letter } : {}),
  };
  checkSemantics(c, scenario);
  if (c.errors.length) throw new ScenarioErrors(c.errors);
  return scenario;
}
