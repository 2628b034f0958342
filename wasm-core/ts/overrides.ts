/**
 * `--set key=value` overrides (the CLI) and the playground's controls: any
 * kernel tunable, machine.* setting or the seed, each value a YAML scalar
 * checked by the same schema as the scenario's own kernel: and machine:.
 */
import { parseDocument, visit } from 'yaml';
import { settingValue, withoutValue } from './load/build.js';
import { VALIDATORS } from './gen/validate-scenario.js';
import type { Scenario, SettingValue } from './scenario.js';
import { checkValue, keyPath, ScenarioError, ScenarioErrors, suggest, yamlTag } from './schema/check.js';
import { SETTABLE_KEYS, tunableInfo, withSettings } from './tunables.js';

/**
 * Apply `--set key=value` overrides (CLI) or UI controls: any kernel tunable,
 * plus seed, machine.memory and machine.io_latency. Values are YAML scalars,
 * checked by the same schema as the scenario's kernel: and machine: values.
 */
export function applyOverrides(s: Scenario, sets: Record<string, string>): Scenario {
  const errors: ScenarioError[] = [];
  const set: Record<string, SettingValue> = Object.create(null);
  for (const [key, raw] of Object.entries(sets)) {
    const doc = parseDocument(raw);
    if (doc.errors.length) {
      const why = /multiple documents/.test(doc.errors[0].message)
        ? 'several YAML documents'
        : doc.errors[0].message.split('\n')[0];
      errors.push(new ScenarioError('--set', 0, 0, key, `expected one value, got ${JSON.stringify(raw)} (${why})`));
      continue;
    }
    /* a tag (!!binary, !!str) would change what the value is: the loader refuses them, so do we */
    let tag: string | null = null;
    visit(doc, (_, node) => {
      tag ??= yamlTag(node);
    });
    if (tag) {
      errors.push(new ScenarioError('--set', 0, 0, key, `YAML tags (${tag}) are not supported: write the plain value`));
      continue;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 0 });
      /* a kernel version is text as typed: version=6.10 is "6.10", not the number 6.1 */
      if (key === 'version' && typeof value === 'number') value = raw.trim();
    } catch {
      errors.push(
        new ScenarioError(
          '--set',
          0,
          0,
          key,
          `expected a plain value, got ${JSON.stringify(raw)} (YAML anchors and aliases are not supported)`,
        ),
      );
      continue;
    }
    const t = tunableInfo(key);
    /* without=fadvise: one kind alone is a list of one */
    if (key === 'without' && typeof value === 'string') value = [value];
    const validate = key === 'seed' || key === 'without' || t ? VALIDATORS[`set:${key}`] : undefined;
    if (!validate) {
      errors.push(
        new ScenarioError(
          '--set',
          0,
          0,
          key,
          `unknown tunable '${key}'${suggest(key, SETTABLE_KEYS)}; tunables: ${SETTABLE_KEYS.join(', ')}`,
        ),
      );
      continue;
    }
    const bad = checkValue(validate, value);
    if (bad.length) {
      errors.push(...bad.map((b) => new ScenarioError('--set', 0, 0, keyPath([key, ...b.segs]), b.detail)));
      continue;
    }
    set[key] = t ? settingValue(t, value) : key === 'without' ? withoutValue(value) : (value as number);
  }
  if (errors.length) throw new ScenarioErrors(errors);
  return withSettings(s, set);
}
