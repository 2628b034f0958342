/**
 * Counters: the vmstat counters at the cursor (changed ones highlighted, with
 * the change since the previous frame), the model's own counters apart, and
 * the selected ones as small line charts over the whole run with the cursor
 * marked. Click a row to chart it.
 */
import { line, scaleLinear } from 'd3';
import { useMemo, useState } from 'react';
import { COUNTERS, FIRST_MODEL_COUNTER, REQUIRED_COUNTERS } from '../../../wasm-core/ts/abi.js';
import { fmt } from '../lib/format.js';
import type { ViewProps } from './registry.js';

const DEFAULT_CHART = ['pgfault', 'pgmajfault', 'nr_mapped'];

export function Counters({ frame, timeline, prevCounters }: ViewProps) {
  const [chart, setChart] = useState<string[]>(DEFAULT_CHART);
  const [all, setAll] = useState(false);
  const c = frame.counters;
  const rows = useMemo(() => {
    const vm: number[] = [], model: number[] = [];
    COUNTERS.forEach((name, i) => {
      const show = all || REQUIRED_COUNTERS.includes(name as never) || c[i] !== 0 || chart.includes(name);
      if (!show) return;
      (i >= FIRST_MODEL_COUNTER ? model : vm).push(i);
    });
    return { vm, model };
  }, [c, all, chart]);
  const toggle = (name: string) => setChart((x) => (x.includes(name) ? x.filter((y) => y !== name) : [...x, name].slice(-5)));
  const row = (i: number) => {
    const name = COUNTERS[i];
    const d = prevCounters ? c[i] - prevCounters[i] : 0;
    return (
      <tr key={name} className={`${d ? 'changed' : ''} ${chart.includes(name) ? 'sel' : ''}`} onClick={() => toggle(name)}
        aria-selected={chart.includes(name)}>
        <td><code>{name}</code></td>
        <td className="v">{fmt(c[i])}</td>
        <td className="d">{d ? `${d > 0 ? '+' : ''}${fmt(d)}` : ''}</td>
      </tr>
    );
  };
  return (
    <div className="ctr-wrap">
      <div className="ctr-list">
        <table className="ctr-table" aria-label="Counters at the cursor">
          <tbody>
            <tr className="grp"><td colSpan={3}>/proc/vmstat</td></tr>
            {rows.vm.map(row)}
            <tr className="grp"><td colSpan={3}>the model&rsquo;s own (no kernel counter)</td></tr>
            {rows.model.map(row)}
          </tbody>
        </table>
        <label style={{ display: 'flex', gap: 8, marginTop: 8, fontSize: '0.88rem', color: 'var(--muted)' }}>
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> show counters that stay 0
        </label>
      </div>
      <div className="chart" aria-label="Counters over the run">
        {chart.map((name) => (
          <Spark key={name} name={name} idx={COUNTERS.indexOf(name as never)} frame={frame} timeline={timeline} />
        ))}
        {!chart.length && <div className="placeholder">Click a counter to chart it over the run.</div>}
      </div>
    </div>
  );
}

function Spark({ name, idx, frame, timeline }: { name: string; idx: number; frame: ViewProps['frame']; timeline: ViewProps['timeline'] }) {
  const W = 420, H = 70, L = 6, R = 58, T = 20, B = 16;
  const xs = timeline.samples.x, ys = timeline.samples.values[idx];
  const xmax = Math.max(1, xs[xs.length - 1] ?? 1);
  const ymax = Math.max(1, ...ys);
  const x = scaleLinear().domain([0, xmax]).range([L, W - R]);
  const y = scaleLinear().domain([0, ymax]).range([H - B, T]);
  const d = line<number>().x((_, i) => x(xs[i])).y((v) => y(v))(ys) ?? '';
  const cx = frame.big ? null : x(Math.min(frame.cursor, xmax));
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${name} over the run: ${fmt(frame.counters[idx])} at the cursor, up to ${fmt(ymax)}`}>
      <text className="name" x={L} y={13}>{name} <tspan className="val">= {fmt(frame.counters[idx])}</tspan></text>
      <line className="axis" x1={L} x2={W - R} y1={H - B} y2={H - B} stroke="var(--strong-border)" />
      <text className="val" x={W - R + 6} y={T + 4}>{fmt(ymax)}</text>
      <text className="val" x={W - R + 6} y={H - B + 4}>0</text>
      <path d={d} fill="none" stroke="var(--c-fault)" strokeWidth={2} />
      {cx !== null && <line className="cursor" x1={cx} x2={cx} y1={T - 2} y2={H - B} />}
      <text className="val" x={W - R} y={H - 2} textAnchor="end">{fmt(xmax)} {frame.big ? 'operations' : 'events'}</text>
    </svg>
  );
}
