/**
 * Counters: the vmstat counters at the cursor (changed ones highlighted, with
 * the change since the previous frame), the model's own counters apart, and
 * the charted ones as line charts over the whole run with the cursor marked,
 * in one SVG drawn at the size it is shown (its text stays at 14 px). Click a
 * row, or move to it with ↑ ↓ and press Enter, to chart it; the charted
 * counters go in the share link.
 */
import { line, scaleLinear } from 'd3';
import { useMemo, useState } from 'react';
import { useStageBox } from './useBoxSize.js';
import { COUNTERS, FIRST_MODEL_COUNTER, REQUIRED_COUNTERS } from '../../../wasm-core/ts/abi.js';
import { fmt } from '../lib/format.js';
import { dispatch, useStore } from '../store/store.js';
import { RUN_DASH, runsAgainst, type RunOverlay, type ViewProps } from './types.js';

export function Counters({ frame, timeline, prevCounters }: ViewProps) {
  const chart = useStore((s) => s.chart);
  const [all, setAll] = useState(false);
  const [focus, setFocus] = useState(0);
  const c = frame.counters;
  const rows = useMemo(() => {
    const vm: number[] = [],
      model: number[] = [];
    COUNTERS.forEach((name, i) => {
      const show = all || REQUIRED_COUNTERS.includes(name as never) || c[i] !== 0 || chart.includes(name);
      if (!show) return;
      (i >= FIRST_MODEL_COUNTER ? model : vm).push(i);
    });
    return { vm, model, order: [...vm, ...model] };
  }, [c, all, chart]);
  const toggle = (name: string) =>
    dispatch({
      type: 'setChart',
      chart: chart.includes(name) ? chart.filter((y) => y !== name) : [...chart, name].slice(-5),
    });
  const at = Math.min(focus, rows.order.length - 1);
  const row = (i: number) => {
    const name = COUNTERS[i];
    const d = prevCounters ? c[i] - prevCounters[i] : 0;
    const k = rows.order.indexOf(i);
    return (
      <tr
        key={name}
        id={`ctr-${name}`}
        className={`${d ? 'changed' : ''} ${chart.includes(name) ? 'sel' : ''} ${k === at ? 'focus' : ''}`}
        onClick={() => {
          setFocus(k);
          toggle(name);
        }}
        aria-selected={chart.includes(name)}
        role="row"
      >
        <td role="gridcell">
          <code>{name}</code>
        </td>
        <td role="gridcell" className="v">
          {fmt(c[i])}
        </td>
        <td role="gridcell" className="d">
          {d ? `${d > 0 ? '+' : ''}${fmt(d)}` : ''}
        </td>
      </tr>
    );
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const n = Math.max(0, Math.min(rows.order.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
      setFocus(n);
      document.getElementById(`ctr-${COUNTERS[rows.order[n]]}`)?.scrollIntoView({ block: 'nearest' });
      e.preventDefault();
    } else if (e.key === 'Enter') {
      toggle(COUNTERS[rows.order[at]]);
      e.preventDefault();
    }
  };
  return (
    <div className="ctr-wrap">
      <div className="ctr-list">
        <table
          className="ctr-table"
          role="grid"
          aria-label="Counters at the cursor: ↑ ↓ to move, Enter to chart"
          tabIndex={0}
          data-rows
          aria-activedescendant={rows.order.length ? `ctr-${COUNTERS[rows.order[at]]}` : undefined}
          onKeyDown={onKey}
        >
          <tbody>
            <tr className="grp" role="row">
              <td role="gridcell" colSpan={3}>
                /proc/vmstat
              </td>
            </tr>
            {rows.vm.map(row)}
            <tr className="grp" role="row">
              <td role="gridcell" colSpan={3}>
                the model&rsquo;s own (no kernel counter)
              </td>
            </tr>
            {rows.model.map(row)}
          </tbody>
        </table>
        <label className="ctr-all">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> show counters that stay 0
        </label>
      </div>
      <Charts chart={chart} frame={frame} timeline={timeline} />
    </div>
  );
}

const H = 86,
  L = 4,
  R = 76,
  T = 24,
  B = 22;

/** each run's line colour on the counters chart: A, B, C, D */
const RUN_STROKE = {
  a: 'var(--c-fault)',
  b: 'var(--c-major)',
  c: 'var(--c-run-c)',
  d: 'var(--c-run-d)',
} as const;

/**
 * The charted counters over the run, one under the other, in one SVG at its on-screen size. Comparing,
 * every run's line on the same axes (A solid, B dashed, C dotted, D dash-dotted), each over its own
 * run's length (the runs stand at the same operation, not the same event count).
 */
export function Charts({
  chart,
  frame,
  timeline,
  others = [],
}: {
  chart: string[];
  frame: ViewProps['frame'];
  timeline: ViewProps['timeline'];
  others?: RunOverlay[];
}) {
  /* null until measured: the lines are drawn once, at the size they are shown */
  const [box, size, svg] = useStageBox<HTMLDivElement>();
  const W = size ? Math.max(200, size.w) : null;
  /* on stage the drawing is scaled up (useStageBox): k screen px per user unit */
  const k = svg && size ? svg.width / size.w : 1;
  const runs = [{ slot: 'a' as const, frame, timeline }, ...others];
  const key = others.map((o) => o.timeline.nEvents).join();
  /* the lines depend on the runs and the size, not on the cursor: stepping redraws only the cursors */
  // biome-ignore lint/correctness/useExhaustiveDependencies: the runs beside A are read through key
  const lines = useMemo(
    () =>
      chart.map((name) => {
        const idx = COUNTERS.indexOf(name as never);
        let ymax = 1;
        for (const r of runs) for (const v of r.timeline.samples.values[idx]) if (v > ymax) ymax = v;
        const y = scaleLinear()
          .domain([0, ymax])
          .range([H - B, T]);
        return {
          ymax,
          paths: runs.map((r) => {
            const xs = r.timeline.samples.x;
            const x = scaleLinear()
              .domain([0, Math.max(1, xs[xs.length - 1] ?? 1)])
              .range([L, (W ?? 420) - R]);
            return {
              slot: r.slot,
              d:
                line<number>()
                  .x((_, i) => x(xs[i]))
                  .y((v) => y(v))(r.timeline.samples.values[idx]) ?? '',
            };
          }),
        };
      }),
    [chart, timeline, W, key],
  );
  if (!chart.length || W === null)
    return (
      <div className="chart" ref={box}>
        {!chart.length && <div className="placeholder">Click a counter to chart it over the run.</div>}
      </div>
    );
  const xmaxOf = (t: ViewProps['timeline']) => Math.max(1, t.samples.x[t.samples.x.length - 1] ?? 1);
  const xmax = xmaxOf(timeline);
  const cursorX = (f: ViewProps['frame'], t: ViewProps['timeline']) =>
    f.big
      ? null
      : scaleLinear()
          .domain([0, xmaxOf(t)])
          .range([L, W - R])(Math.min(f.cursor, xmaxOf(t)));
  return (
    <div className="chart" ref={box}>
      <svg
        width={W * k}
        height={H * chart.length * k}
        viewBox={`0 0 ${W} ${H * chart.length}`}
        style={svg?.style}
        role="img"
        data-export
        aria-label={`Counters over the run: ${chart.map((n) => `${n} ${runs.map((r) => fmt(r.frame.counters[COUNTERS.indexOf(n as never)])).join(' / ')}`).join(', ')} at the cursor${runs.length > 1 ? `; ${runsAgainst(runs.map((r) => ({ key: r.slot, label: r.slot.toUpperCase() })))}` : ''}`}
      >
        {chart.map((name, n) => {
          const idx = COUNTERS.indexOf(name as never);
          const { ymax, paths } = lines[n];
          return (
            <g key={name} transform={`translate(0, ${n * H})`}>
              <text className="name" x={L} y={15}>
                {name} <tspan className="val">= {runs.map((r) => fmt(r.frame.counters[idx])).join(' / ')}</tspan>
              </text>
              <line className="axis" x1={L} x2={W - R} y1={H - B} y2={H - B} stroke="var(--strong-border)" />
              <text className="val" x={W - R + 6} y={T + 5}>
                {fmt(ymax)}
              </text>
              <text className="val" x={W - R + 6} y={H - B + 5}>
                0
              </text>
              {paths.map((p) => (
                <path
                  key={p.slot}
                  d={p.d}
                  fill="none"
                  stroke={RUN_STROKE[p.slot]}
                  strokeWidth={2}
                  strokeDasharray={RUN_DASH[p.slot]}
                  data-run-line={p.slot}
                />
              ))}
              {runs.map((r) => {
                const cx = cursorX(r.frame, r.timeline);
                return cx === null ? null : (
                  <line key={r.slot} className="cursor" x1={cx} x2={cx} y1={T - 4} y2={H - B} />
                );
              })}
              {n === chart.length - 1 && (
                <text className="val" x={W - R} y={H - 3} textAnchor="end">
                  {fmt(xmax)} {frame.big ? 'operations' : 'events'}
                  {runs.length > 1 ? ' (A; each run over its own)' : ''}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
