/**
 * Tunables: a control for every `kernel` key of the scenario format (and the
 * machine's io_latency). A change re-runs the scenario deterministically and
 * keeps the cursor at the same place in the same step.
 */
import { DEFAULT_TUNABLES, type Tunables as T } from '../../../wasm-core/ts/scenario.js';
import { size, windowLabel } from '../lib/format.js';
import { currentScenario } from '../store/state.js';
import { dispatch, useStore } from '../store/store.js';

const WINDOWS = [4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152];
const RA = [0, 16, 32, 64, 128, 256, 512, 1024];
const MTHP = [16384, 32768, 65536, 131072, 262144, 524288, 1048576];

interface Def {
  key: keyof T | 'machine.io_latency';
  desc: string;
  /** a mechanism this version does not model yet: the control works, the effect comes later */
  later?: string;
}

const DEFS: Def[] = [
  { key: 'fault_around_bytes', desc: 'Fault-around window (power of two). 4096 turns fault-around off: the pre-3.15 baseline.' },
  { key: 'readahead_kb', desc: 'Read-around / readahead window for major faults (read_ahead_kb).' },
  { key: 'machine.io_latency', desc: 'This model\u2019s I/O time: a read completes this many touches after it is submitted (0: at once).' },
  { key: 'vmacache', desc: '3.15 per-thread VMA cache (4 slots, seqnum invalidation) or the 3.14 single mm->mmap_cache.', later: 'the VMA-cache issue' },
  { key: 'anon_prefault', desc: 'The 2004 anticipatory prefault for anonymous faults.', later: 'the prefault issue' },
  { key: 'anon_prefault_cap', desc: 'PAGEVEC_SIZE cap of one prefault batch (pages).', later: 'the prefault issue' },
  { key: 'thp', desc: 'PMD-size (2 MiB) anonymous transparent huge pages on fault.', later: 'the large-folio issue' },
  { key: 'mthp', desc: 'Enabled anonymous mTHP sizes (6.8+ alloc_anon_folio).', later: 'the large-folio issue' },
  { key: 'large_mapcount', desc: '6.10 _large_mapcount (O(1) folio_mapcount) or the 6.9 per-page rules.', later: 'the large-folio issue' },
  { key: 'fadvise_dontneed', desc: '2.6.39 deactivation of pages that could not be invalidated, or the 2.6.38 behaviour.', later: 'the LRU issue' },
];

/** the effective value of a tunable: the UI override, else the scenario's */
function useEffective(key: Def['key']): { value: string; modified: boolean } {
  const overrides = useStore((s) => s.overrides);
  const scenario = useStore(currentScenario);
  if (key in overrides) return { value: overrides[key], modified: true };
  if (key === 'machine.io_latency') return { value: String(scenario?.machine.io_latency ?? 0), modified: false };
  const v = scenario ? scenario.kernel[key] : DEFAULT_TUNABLES[key];
  return { value: Array.isArray(v) ? `[${v.join(', ')}]` : String(v), modified: false };
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

export function TunableControl({ def, compact = false }: { def: Def; compact?: boolean }) {
  const { value, modified } = useEffective(def.key);
  const id = `tun-${def.key}`;
  let control: React.ReactNode;
  switch (def.key) {
    case 'fault_around_bytes':
      control = (
        <select id={id} value={value} onChange={(e) => choose(e, def.key, e.target.value)} data-testid="tunable-fault_around_bytes">
          {WINDOWS.map((w) => <option key={w} value={String(w)}>{windowLabel(w)}</option>)}
        </select>
      );
      break;
    case 'readahead_kb':
      control = (
        <select id={id} value={value} onChange={(e) => choose(e, def.key, e.target.value)}>
          {[...new Set([...RA, Number(value)])].sort((a, b) => a - b).map((k) => <option key={k} value={String(k)}>{k} KiB{k === 128 ? ' (default)' : ''}</option>)}
        </select>
      );
      break;
    case 'vmacache':
    case 'anon_prefault':
    case 'thp':
    case 'fadvise_dontneed': {
      const opts = { vmacache: ['per-thread', 'mm-wide'], anon_prefault: ['off', 'anticipatory'], thp: ['never', 'madvise', 'always'], fadvise_dontneed: ['deactivate', 'invalidate-only'] }[def.key];
      control = (
        <select id={id} value={value} onChange={(e) => choose(e, def.key, e.target.value)}>
          {opts.map((o) => <option key={o}>{o}</option>)}
        </select>
      );
      break;
    }
    case 'large_mapcount':
      control = <input id={id} type="checkbox" checked={value === 'true'} onChange={(e) => choose(e, def.key, String(e.target.checked))} />;
      break;
    case 'mthp': {
      const on = value.replace(/[[\]\s]/g, '').split(',').filter(Boolean).map(Number);
      control = (
        <span className="mthp" id={id} role="group" aria-label="mTHP sizes">
          {MTHP.map((m) => (
            <label key={m}>
              <input type="checkbox" checked={on.includes(m)}
                onChange={(e) => choose(e, 'mthp', `[${(e.target.checked ? [...on, m] : on.filter((x) => x !== m)).sort((a, b) => a - b).join(', ')}]`)} /> {size(m)}
            </label>
          ))}
        </span>
      );
      break;
    }
    default:
      control = (
        <input id={id} type="number" min={def.key === 'anon_prefault_cap' ? 1 : 0} max={def.key === 'anon_prefault_cap' ? 512 : 100000}
          defaultValue={value} key={value} style={{ width: '9ch' }}
          onBlur={(e) => e.target.value !== value && set(def.key, e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()} />
      );
  }
  if (compact) {
    return <label htmlFor={id}><code>{def.key}</code> {control}</label>;
  }
  return (
    <div className="tunable">
      <label className="name" htmlFor={id}>{def.key}{modified && <span className="mod">changed</span>}</label>
      <div className="ctl">
        {control}
        {modified && <button className="btn" onClick={() => set(def.key, null)} aria-label={`Reset ${def.key} to the scenario's value`}>Reset</button>}
      </div>
      <div className="desc">{def.desc}{def.later && <> <em>Accepted now; the model acts on it from {def.later} on.</em></>}</div>
    </div>
  );
}

export function TunablesPanel() {
  const overrides = useStore((s) => s.overrides);
  return (
    <div>
      <p style={{ marginTop: 0, color: 'var(--muted)' }}>
        Changing a tunable runs the scenario again, deterministically, and keeps your place in it.
      </p>
      {DEFS.map((d) => <TunableControl key={d.key} def={d} />)}
      <div style={{ marginTop: 14 }}>
        <button className="btn" disabled={!Object.keys(overrides).length} onClick={() => dispatch({ type: 'resetTunables' })}>
          Reset all to the scenario&rsquo;s values
        </button>
      </div>
    </div>
  );
}

/** the tunables a mechanism's scenarios are about, shown next to the key figures */
const QUICK: Record<string, Def['key'][]> = { 'fault-around': ['fault_around_bytes', 'readahead_kb'] };

export function QuickTunables({ group }: { group: string }) {
  const keys = QUICK[group] ?? ['fault_around_bytes'];
  return (
    <div className="quick" role="group" aria-label="Kernel tunables">
      {keys.map((k) => <TunableControl key={k} def={DEFS.find((d) => d.key === k)!} compact />)}
    </div>
  );
}
