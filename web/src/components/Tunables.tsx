/**
 * Tunables: a control for every kernel tunable and machine setting of the
 * interface description (wasm-core/interface/, via wasm-core/ts/tunables.ts),
 * chosen by its type: a choice of powers of two, a list, a number, a
 * checkbox, a set of sizes. A change re-runs the scenario deterministically
 * and keeps the cursor at the same place in the same step.
 */
import { MECHANISMS } from '../../../wasm-core/ts/abi.js';
import {
  formatTunable,
  sweepDomain,
  TUNABLES,
  type TunableInfo,
  tunableText,
  type TunableValue,
} from '../../../wasm-core/ts/tunables.js';
import { tunableValue } from '../../../wasm-core/ts/multirun.js';
import { mechanismOf, valueLabel } from '../mechanisms/registry.js';
import { currentScenario } from '../store/state.js';
import { dispatch, useStore } from '../store/store.js';

/** the effective value of a tunable: the UI override, else the scenario's (or the default) */
function useEffective(t: TunableInfo): { value: string; modified: boolean } {
  const overrides = useStore((s) => s.overrides);
  const scenario = useStore(currentScenario);
  if (t.key in overrides) return { value: overrides[t.key], modified: true };
  return {
    value: tunableText(scenario ? tunableValue(scenario, t.key) : (t.default as TunableValue)),
    modified: false,
  };
}

const set = (key: string, value: string | null) => dispatch({ type: 'setTunable', key, value });

/**
 * A choice made: apply it and hand the keyboard back to the player, so that
 * the arrow keys step again instead of changing the choice (and re-running).
 */
const choose = (e: React.ChangeEvent<HTMLSelectElement | HTMLInputElement>, key: string, value: string) => {
  set(key, value);
  e.currentTarget.blur();
};

const label = (t: TunableInfo, v: number) =>
  valueLabel(t.key, v) ?? `${formatTunable(t, v)}${v === t.default ? ' (default)' : ''}`;

export function TunableControl({ t, compact = false }: { t: TunableInfo; compact?: boolean }) {
  const { value, modified } = useEffective(t);
  const id = `tun-${t.key.replace('.', '-')}`;
  const testid = `tunable-${t.key}`;
  let control: React.ReactNode;
  if (t.type === 'choice') {
    control = (
      <select id={id} value={value} onChange={(e) => choose(e, t.key, e.target.value)} data-testid={testid}>
        {t.choices!.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    );
  } else if (t.type === 'bool') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === 'true'}
        onChange={(e) => choose(e, t.key, String(e.target.checked))}
        data-testid={testid}
      />
    );
  } else if (t.type === 'sizes') {
    const on = value
      .replace(/[[\]\s]/g, '')
      .split(',')
      .filter(Boolean)
      .map(Number);
    const all: number[] = [];
    for (let x = t.min!; x <= t.max!; x *= 2) all.push(x);
    control = (
      <span className="mthp" id={id} role="group" aria-label={t.key} data-testid={testid}>
        {all.map((m) => (
          <label key={m}>
            <input
              type="checkbox"
              checked={on.includes(m)}
              onChange={(e) =>
                choose(
                  e,
                  t.key,
                  `[${(e.target.checked ? [...on, m] : on.filter((x) => x !== m)).sort((a, b) => a - b).join(', ')}]`,
                )
              }
            />{' '}
            {formatTunable({ ...t, type: 'size' }, m)}
          </label>
        ))}
      </span>
    );
  } else if ((t.type === 'size' && t.pow2) || t.sweep) {
    const options = [...new Set([...(sweepDomain(t) as number[]), Number(value)])].sort((a, b) => a - b);
    control = (
      <select id={id} value={value} onChange={(e) => choose(e, t.key, e.target.value)} data-testid={testid}>
        {options.map((v) => (
          <option key={v} value={String(v)}>
            {label(t, v)}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        id={id}
        type="number"
        min={t.min}
        max={t.max}
        defaultValue={value}
        key={value}
        style={{ width: '11ch' }}
        data-testid={testid}
        onBlur={(e) => e.target.value !== value && set(t.key, e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()}
      />
    );
  }
  if (compact)
    return (
      <label htmlFor={id}>
        <code>{t.key}</code> {control}
      </label>
    );
  const mech = MECHANISMS.find((m) => m.id === t.mechanism);
  return (
    <div className="tunable">
      <label className="name" htmlFor={id}>
        {t.key}
        {modified && <span className="mod">changed</span>}
      </label>
      <div className="ctl">
        {control}
        {modified && (
          <button
            type="button"
            className="btn"
            onClick={() => set(t.key, null)}
            aria-label={`Reset ${t.key} to the scenario's value`}
          >
            Reset
          </button>
        )}
      </div>
      <div className="desc">
        {t.desc}
        {t.kernel !== '-' && (
          <>
            {' '}
            <span className="kv">
              Kernel {t.kernel}
              {mech ? ` · ${mech.title}` : ''}.
            </span>
          </>
        )}
        {t.status === 'later' && (
          <>
            {' '}
            <em>Accepted now; the model acts on it once {mech?.title ?? t.mechanism} is modelled.</em>
          </>
        )}
      </div>
    </div>
  );
}

export function TunablesPanel() {
  const overrides = useStore((s) => s.overrides);
  /* the modelled ones first, then those whose mechanism comes later */
  const list = [...TUNABLES].sort((a, b) => Number(a.status === 'later') - Number(b.status === 'later'));
  return (
    <div>
      <p style={{ marginTop: 0, color: 'var(--muted)' }}>
        Changing a tunable runs the scenario again, deterministically, and keeps your place in it.
      </p>
      {list
        .filter((t) => t.key !== 'machine.memory')
        .map((t) => (
          <TunableControl key={t.key} t={t} />
        ))}
      <div style={{ marginTop: 14 }}>
        <button
          type="button"
          className="btn"
          disabled={!Object.keys(overrides).length}
          onClick={() => dispatch({ type: 'resetTunables' })}
        >
          Reset all to the scenario&rsquo;s values
        </button>
      </div>
    </div>
  );
}

/** the tunables a mechanism's scenarios are about (its description marks them `quick`), next to the key figures */
export function QuickTunables({ group }: { group: string }) {
  const id = mechanismOf(group).id;
  return (
    <div className="quick" role="group" aria-label="Kernel tunables">
      {TUNABLES.filter((t) => t.quick && t.mechanism === id).map((t) => (
        <TunableControl key={t.key} t={t} compact />
      ))}
    </div>
  );
}
