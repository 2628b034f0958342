/**
 * SweepChart: one counter (default pgfault) against the values of a kernel
 * tunable, one run per value, the model's series beside any reference data
 * (e.g. the kernel patch's benchmark table).
 *
 * - x: log2 axis with ticks at the powers of two when `log2x`, else linear;
 *   its domain is every x given, run or not, so nothing moves as runs finish.
 * - y: linear with thousands separators, or log10 when the values span more
 *   than three decades (the axis label says which); grows as data arrive.
 * - model series: filled circles (then filled triangles), blue/green/pink;
 *   reference series: hollow squares (then diamonds), dashed, vermillion/
 *   orange/grey: shape and dash as well as colour.
 * - a fixed box (width × height), a legend, a hover tooltip with the exact
 *   numbers, role="img" with a summary, a visually hidden data table, and
 *   CSV / SVG / PNG exports.
 *
 * Model points carry data-sweep-point, data-x, data-y (plain numbers);
 * reference points carry data-reference-point, data-x, data-y. Scenario text
 * (title, labels, source) is only ever rendered as React text.
 */
import {
  axisBottom,
  axisLeft,
  line,
  scaleLinear,
  scaleLog,
  select,
  symbol,
  symbolCircle,
  symbolDiamond,
  symbolSquare,
  symbolTriangle,
} from 'd3';
import type { ScaleLinear, ScaleLogarithmic, SymbolType } from 'd3';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { download, sweepCsv, sweepFilename, svgText, svgToPng } from '../lib/export.js';
import './sweep.css';

export interface SweepPoint {
  x: number;
  /** null: not run yet, or the run failed */
  y: number | null;
}

export interface SweepSeries {
  id: string;
  label: string;
  kind: 'model' | 'reference';
  points: SweepPoint[];
}

export interface SweepChartProps {
  /** e.g. "pgfault against fault_around_bytes" */
  title: string;
  /** the tunable's key */
  xKey: string;
  /** the counter's name */
  yKey: string;
  /** e.g. 65536 -> "64 KiB" */
  xFormat: (x: number) => string;
  /** log2 axis for powers of two */
  log2x: boolean;
  series: SweepSeries[];
  /** while running: "3 of 10 runs", with a cancel button if onCancel */
  progress?: { done: number; total: number } | null;
  onCancel?: () => void;
  /** the reference's source line, shown under the chart */
  source?: string;
  width?: number;
  height?: number;
  /** a choice or a boolean swept: x is the value's index, drawn as a bar per value and series (xFormat names it) */
  bars?: boolean;
}

/** Thousands separators; enough decimals to be exact for what a counter or a benchmark gives. */
export const sep = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 });

const MODEL_COLOURS = ['var(--c-fault)', 'var(--c-mapped)', 'var(--c-anon)'];
const REF_COLOURS = ['var(--c-major)', 'var(--c-cow)', 'var(--c-cached)'];
const MODEL_SHAPES: SymbolType[] = [symbolCircle, symbolTriangle];
const REF_SHAPES: SymbolType[] = [symbolSquare, symbolDiamond];

interface Styled extends SweepSeries {
  colour: string;
  shape: SymbolType;
  hollow: boolean;
  dashed: boolean;
}

function styleSeries(series: SweepSeries[]): Styled[] {
  let m = 0,
    r = 0;
  return series.map((s) => {
    if (s.kind === 'reference') {
      const i = r++;
      return {
        ...s,
        colour: REF_COLOURS[i % REF_COLOURS.length],
        shape: REF_SHAPES[i % REF_SHAPES.length],
        hollow: true,
        dashed: true,
      };
    }
    const i = m++;
    return {
      ...s,
      colour: MODEL_COLOURS[i % MODEL_COLOURS.length],
      shape: MODEL_SHAPES[i % MODEL_SHAPES.length],
      hollow: false,
      dashed: false,
    };
  });
}

const has = (p: SweepPoint): p is { x: number; y: number } =>
  p.y !== null && Number.isFinite(p.y) && Number.isFinite(p.x);

/** Cuts `s` to at most `n` characters with an ellipsis. */
function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, Math.max(1, n - 1)).trimEnd()}…`;
}

/** Word-wraps `s` into at most `lines` lines of `n` characters, the last one cut with an ellipsis. */
function wrap(s: string, n: number, lines: number): string[] {
  const out: string[] = [];
  let cur = '';
  const words = s.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (!cur) cur = w;
    else if (cur.length + 1 + w.length <= n) cur += ` ${w}`;
    else {
      out.push(cur);
      cur = w;
      if (out.length === lines - 1) {
        cur = words.slice(i).join(' ');
        break;
      }
    }
  }
  if (cur) out.push(cur);
  return out.map((l) => clip(l, n));
}

/** Rough text widths (no layout in tests, and none needed): 12px / 11px system font. */
const w12 = (s: string) => s.length * 6.6;

type Tip = { series: Styled; x: number; y: number; left: number; top: number; align: 'left' | 'center' | 'right' };

export function SweepChart(props: SweepChartProps) {
  const {
    title,
    xKey,
    yKey,
    xFormat,
    log2x,
    series,
    progress,
    onCancel,
    source,
    width = 640,
    height = 360,
    bars = false,
  } = props;
  /* the y axis: log10 when the values span more than 1000x (auto), or as the user switched it */
  const [yScale, setYScale] = useState<'auto' | 'log' | 'linear'>('auto');
  const W = width,
    H = height;
  const svgRef = useRef<SVGSVGElement>(null);
  const plotRef = useRef<HTMLDivElement>(null);
  const xAxisRef = useRef<SVGGElement>(null);
  const yAxisRef = useRef<SVGGElement>(null);
  const gridRef = useRef<SVGGElement>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const styled = useMemo(() => styleSeries(series), [series]);

  // ---------------------------------------------------------------- layout
  const pad = 14;
  const legend = useMemo(() => {
    const items: { s: Styled; x: number; row: number }[] = [];
    let x = pad,
      row = 0;
    for (const s of styled) {
      const label = clip(s.label, 48);
      const iw = 34 + w12(label);
      if (x + iw > W - pad && x > pad) {
        row++;
        x = pad;
      }
      items.push({ s, x, row });
      x += iw + 18;
    }
    return { items, rows: styled.length ? row + 1 : 0 };
  }, [styled, W]);
  const srcLines = useMemo(
    () => (source?.trim() ? wrap(source.trim(), Math.floor((W - 2 * pad) / 5.9), 2) : []),
    [source, W],
  );
  const L = 92,
    R = 20;
  const T = 30 + legend.rows * 18 + 12;
  const B = 44 + (srcLines.length ? 8 + srcLines.length * 14 : 0);
  const plotW = Math.max(40, W - L - R),
    plotH = Math.max(40, H - T - B);
  const inset = 10;

  // ---------------------------------------------------------------- scales
  const allX = useMemo(
    () => [...new Set(series.flatMap((s) => s.points.map((p) => p.x)).filter(Number.isFinite))].sort((a, b) => a - b),
    [series],
  );
  const ys = useMemo(() => series.flatMap((s) => s.points.filter(has).map((p) => p.y)), [series]);
  const useLog2 = !bars && log2x && allX.length > 0 && allX[0] > 0;

  const x = useMemo(() => {
    const lo = allX[0] ?? 0,
      hi = allX[allX.length - 1] ?? 1;
    const range = [L + inset, L + plotW - inset];
    /* bars: one band per value, its centre at the index */
    if (bars)
      return scaleLinear()
        .domain([-0.5, Math.max(0, hi) + 0.5])
        .range([L, L + plotW]);
    if (useLog2)
      return scaleLog()
        .base(2)
        .domain(lo === hi ? [lo / 2, hi * 2] : [lo, hi])
        .range(range);
    return scaleLinear()
      .domain(lo === hi ? [lo - 1, hi + 1] : [lo, hi])
      .range(range);
  }, [allX, useLog2, plotW, bars]);

  const { y, logY } = useMemo(() => {
    const pos = ys.filter((v) => v > 0);
    const min = Math.min(...ys),
      max = Math.max(...ys);
    const canLog = ys.length >= 1 && pos.length === ys.length;
    const logY = canLog && (yScale === 'log' || (yScale === 'auto' && ys.length >= 2 && max / min > 1000));
    const range = [T + plotH, T];
    if (logY) {
      const lo = 10 ** Math.floor(Math.log10(min)),
        hi = 10 ** Math.ceil(Math.log10(max));
      return {
        y: scaleLog().base(10).domain([lo, hi]).range(range) as
          | ScaleLogarithmic<number, number>
          | ScaleLinear<number, number>,
        logY,
      };
    }
    const lo = ys.length ? Math.min(0, min) : 0,
      hi = ys.length ? Math.max(max, lo + 1) : 1;
    return {
      y: scaleLinear().domain([lo, hi]).nice(5).range(range) as
        | ScaleLogarithmic<number, number>
        | ScaleLinear<number, number>,
      logY,
    };
  }, [ys, T, plotH, yScale]);

  const xTicks = useMemo(() => {
    const maxTicks = Math.max(2, Math.floor(plotW / 56));
    if (!allX.length) return [];
    let ticks: number[];
    if (useLog2) {
      const [lo, hi] = x.domain();
      ticks = [];
      for (let e = Math.ceil(Math.log2(lo) - 1e-9); 2 ** e <= hi * (1 + 1e-9); e++) ticks.push(2 ** e);
      if (!ticks.length) ticks = allX.slice();
    } else {
      ticks = bars || allX.length <= maxTicks ? allX.slice() : (x as ScaleLinear<number, number>).ticks(maxTicks);
    }
    /* keep a label only where it clears the last one kept, by its position: values need not be evenly
       spaced (0, 16, 32, 64 ... 2048 on a linear axis piled up at its start) */
    const width = (t: number) => xFormat(t).length * 6.2 + 8;
    const kept: number[] = [];
    let last = Number.NEGATIVE_INFINITY,
      lastW = 0;
    for (const t of ticks) {
      const px = x(t);
      if (px - last >= (lastW + width(t)) / 2) {
        kept.push(t);
        last = px;
        lastW = width(t);
      }
    }
    return kept;
  }, [x, allX, useLog2, plotW, xFormat, bars]);

  const yTicks = useMemo(() => {
    if (logY) return y.ticks().filter((t) => Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9);
    return (y as ScaleLinear<number, number>).ticks(5);
  }, [y, logY]);

  // ---------------------------------------------------------------- axes (d3)
  useLayoutEffect(() => {
    if (xAxisRef.current) {
      select(xAxisRef.current).call(
        axisBottom(x as ScaleLinear<number, number>)
          .tickValues(xTicks)
          .tickFormat((d) => xFormat(+d))
          .tickSizeOuter(0),
      );
    }
    if (yAxisRef.current) {
      select(yAxisRef.current).call(
        axisLeft(y as ScaleLinear<number, number>)
          .tickValues(yTicks)
          .tickFormat((d) => sep(+d))
          .tickSizeOuter(0),
      );
    }
    if (gridRef.current) {
      select(gridRef.current).call(
        axisLeft(y as ScaleLinear<number, number>)
          .tickValues(yTicks)
          .tickSize(-plotW)
          .tickFormat(() => ''),
      );
    }
  });

  // ---------------------------------------------------------------- text
  const summary = useMemo(() => {
    const parts = [`${title}.`];
    parts.push(
      `${xKey} from ${allX.length ? xFormat(allX[0]) : '–'} to ${allX.length ? xFormat(allX[allX.length - 1]) : '–'}${useLog2 ? ' (log2 axis)' : ''}; ${yKey}${logY ? ' on a log10 axis' : ''}.`,
    );
    for (const s of styled) {
      const done = s.points.filter(has);
      const kind = s.kind === 'reference' ? 'Reference series' : 'Model series';
      if (!done.length) {
        parts.push(`${kind} “${s.label}”: no values yet.`);
        continue;
      }
      const lo = done.reduce((a, b) => (b.y < a.y ? b : a)),
        hi = done.reduce((a, b) => (b.y > a.y ? b : a));
      parts.push(
        `${kind} “${s.label}”: ${done.length} of ${s.points.length} values, ${yKey} from ${sep(lo.y)} at ${xFormat(lo.x)} to ${sep(hi.y)} at ${xFormat(hi.x)}.`,
      );
    }
    if (progress) parts.push(`Running: ${progress.done} of ${progress.total} runs.`);
    if (source?.trim()) parts.push(`Source: ${source.trim()}`);
    return parts.join(' ');
  }, [title, xKey, yKey, xFormat, allX, useLog2, logY, styled, progress, source]);

  const cellOf = useMemo(
    () =>
      styled.map((s) => {
        const m = new Map<number, number | null>();
        for (const p of s.points) if (p.y !== null || !m.has(p.x)) m.set(p.x, p.y);
        return m;
      }),
    [styled],
  );

  // ---------------------------------------------------------------- hover
  const onEnter = (s: Styled, p: { x: number; y: number }) => () => {
    const svg = svgRef.current,
      wrapEl = plotRef.current;
    if (!svg || !wrapEl) return;
    const r = svg.getBoundingClientRect(),
      wr = wrapEl.getBoundingClientRect();
    const k = r.width ? r.width / W : 1;
    const px = x(p.x),
      py = y(p.y);
    setTip({
      series: s,
      x: p.x,
      y: p.y,
      left: r.left - wr.left + px * k,
      top: r.top - wr.top + py * k - 12,
      align: px > W * 0.72 ? 'right' : px < W * 0.28 ? 'left' : 'center',
    });
  };

  // ---------------------------------------------------------------- exports
  const anyData = ys.length > 0;
  const exportCsv = () =>
    download(
      sweepFilename(xKey, yKey, 'csv'),
      new Blob([sweepCsv(xKey, series, bars ? xFormat : undefined)], { type: 'text/csv;charset=utf-8' }),
    );
  const exportSvg = () => {
    if (!svgRef.current) return;
    download(
      sweepFilename(xKey, yKey, 'svg'),
      new Blob([svgText(svgRef.current)], { type: 'image/svg+xml;charset=utf-8' }),
    );
  };
  const exportPng = async () => {
    if (!svgRef.current) return;
    setBusy(true);
    setError(null);
    try {
      download(sweepFilename(xKey, yKey, 'png'), await svgToPng(svgText(svgRef.current), W, H, 2));
    } catch (e) {
      setError(`PNG export failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };

  // hollow reference markers are larger than the filled model ones and drawn after them, so a reference
  // value that coincides with the model's shows as a square (diamond) around a dot, neither hidden
  const symbolPath = (s: Styled) =>
    symbol(s.shape, s.hollow ? (s.shape === symbolDiamond ? 110 : 80) : s.shape === symbolTriangle ? 52 : 48)() ?? '';
  const xMid = L + plotW / 2;

  return (
    <figure className="swc" style={{ width: W, maxWidth: '100%', margin: 0 }}>
      <div className="swc-bar">
        {progress && (
          <span className="swc-status" role="status" aria-live="polite">
            <span className="swc-meter" aria-hidden="true">
              <i style={{ width: `${progress.total ? Math.min(100, (100 * progress.done) / progress.total) : 0}%` }} />
            </span>
            <span>
              {progress.done} of {progress.total} runs
            </span>
            {onCancel && (
              <button type="button" className="btn" onClick={onCancel}>
                Cancel
              </button>
            )}
          </span>
        )}
        {error && (
          <span className="swc-error" role="alert">
            {error}
          </span>
        )}
        <button
          type="button"
          className={`btn swc-logy ${logY ? 'active' : ''}`}
          aria-pressed={logY}
          disabled={!anyData || (!logY && ys.some((v) => v <= 0))}
          onClick={() => setYScale(logY ? 'linear' : 'log')}
          title={
            ys.some((v) => v <= 0)
              ? 'A log scale needs every value above 0'
              : 'Switch the y axis to a log scale and back'
          }
        >
          log y
        </button>
        <span className="swc-exports" role="group" aria-label="Export the sweep">
          <button type="button" className="btn" onClick={exportCsv} disabled={!anyData} title="The numbers as CSV">
            CSV
          </button>
          <button type="button" className="btn" onClick={exportSvg} disabled={!anyData} title="The chart as SVG">
            SVG
          </button>
          <button
            type="button"
            className="btn"
            onClick={exportPng}
            disabled={!anyData || busy}
            title="The chart as PNG"
          >
            PNG
          </button>
        </span>
      </div>

      <div className="swc-plot" ref={plotRef}>
        <svg
          ref={svgRef}
          className="swc-svg"
          width={W}
          height={H}
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-label={summary}
        >
          <text className="swc-title" x={pad} y={22}>
            {clip(title, Math.floor((W - 2 * pad) / 7.8))}
          </text>

          <g className="swc-legend">
            {legend.items.map(({ s, x: lx, row }) => {
              const ly = 30 + row * 18 + 8;
              return (
                <g key={s.id} transform={`translate(${lx},${ly})`}>
                  <line
                    x1={0}
                    x2={24}
                    y1={0}
                    y2={0}
                    className="swc-line"
                    style={{ stroke: s.colour, strokeDasharray: s.dashed ? '5 3' : undefined }}
                  />
                  <path
                    d={symbolPath(s)}
                    transform="translate(12,0)"
                    className="swc-marker"
                    style={{ fill: s.hollow ? 'none' : s.colour, stroke: s.colour }}
                  />
                  <text x={32} y={4}>
                    {clip(s.label, 48)}
                  </text>
                </g>
              );
            })}
          </g>

          <g className="swc-grid" ref={gridRef} transform={`translate(${L},0)`} />
          <g className="swc-axis swc-x-axis" ref={xAxisRef} transform={`translate(0,${T + plotH})`} />
          <g className="swc-axis swc-y-axis" ref={yAxisRef} transform={`translate(${L},0)`} />
          <text className="swc-axis-label" x={xMid} y={T + plotH + 36} textAnchor="middle">
            {xKey}
            {useLog2 ? ' (log₂ scale)' : ''}
          </text>
          <text className="swc-axis-label" transform={`translate(14,${T + plotH / 2}) rotate(-90)`} textAnchor="middle">
            {yKey}
            {logY ? ' (log₁₀ scale)' : ''}
          </text>

          {!anyData && (
            <text className="swc-empty" x={xMid} y={T + plotH / 2} textAnchor="middle">
              {progress ? 'Waiting for the first run…' : 'No runs yet'}
            </text>
          )}

          {bars &&
            styled.map((s, j) => {
              const band = plotW / Math.max(1, allX.length);
              const bw = (band * 0.7) / styled.length;
              const base = y.domain()[0];
              return (
                <g key={s.id} className={`swc-series swc-${s.kind}`} data-series={s.id}>
                  {s.points.filter(has).map((p) => {
                    const left = x(p.x) - band * 0.35 + j * bw;
                    const top = y(Math.max(p.y, base)),
                      bottom = y(base);
                    const data = s.kind === 'model' ? { 'data-sweep-point': '' } : { 'data-reference-point': '' };
                    return (
                      <rect
                        key={p.x}
                        className="swc-bar-rect"
                        x={left}
                        y={Math.min(top, bottom)}
                        width={Math.max(1, bw - 2)}
                        height={Math.max(1, Math.abs(bottom - top))}
                        style={{ fill: s.colour, fillOpacity: s.hollow ? 0.35 : 0.85, stroke: s.colour }}
                        onPointerEnter={onEnter(s, p)}
                        onPointerLeave={() => setTip(null)}
                        {...data}
                        data-x={String(p.x)}
                        data-y={String(p.y)}
                      />
                    );
                  })}
                </g>
              );
            })}
          {[...styled.filter((s) => !s.hollow), ...styled.filter((s) => s.hollow)].map((s) => {
            if (bars) return null;
            const done = s.points.filter(has).sort((a, b) => a.x - b.x);
            const d =
              line<{ x: number; y: number }>()
                .x((p) => x(p.x))
                .y((p) => y(p.y))(done) ?? '';
            const path = symbolPath(s);
            return (
              <g key={s.id} className={`swc-series swc-${s.kind}`} data-series={s.id}>
                {done.length > 1 && (
                  <path
                    className="swc-line"
                    d={d}
                    fill="none"
                    style={{ stroke: s.colour, strokeDasharray: s.dashed ? '6 4' : undefined }}
                  />
                )}
                {done.map((p) => {
                  const px = x(p.x),
                    py = y(p.y);
                  const data = s.kind === 'model' ? { 'data-sweep-point': '' } : { 'data-reference-point': '' };
                  return (
                    <g key={p.x} className="swc-pt" onPointerEnter={onEnter(s, p)} onPointerLeave={() => setTip(null)}>
                      <circle className="swc-hit" data-export-skip="" cx={px} cy={py} r={10} fill="transparent" />
                      <path
                        className="swc-marker"
                        d={path}
                        transform={`translate(${px},${py})`}
                        style={{ fill: s.hollow ? 'none' : s.colour, stroke: s.colour }}
                        {...data}
                        data-x={String(p.x)}
                        data-y={String(p.y)}
                      />
                    </g>
                  );
                })}
              </g>
            );
          })}

          {srcLines.map((l, i) => (
            <text key={i} className="swc-source" x={pad} y={H - 10 - (srcLines.length - 1 - i) * 14}>
              {l}
            </text>
          ))}
        </svg>

        {tip && (
          <div
            className="tooltip"
            role="presentation"
            style={{
              left: tip.left,
              top: tip.top,
              transform: `translate(${tip.align === 'left' ? '-12px' : tip.align === 'right' ? 'calc(-100% + 12px)' : '-50%'}, -100%)`,
            }}
          >
            <div>
              <b>{tip.series.label}</b>
            </div>
            <div>
              <span className="k">{xKey} = </span>
              {xFormat(tip.x)}
              {xFormat(tip.x) !== sep(tip.x) && xFormat(tip.x) !== String(tip.x) ? ` (${sep(tip.x)})` : ''}
            </div>
            <div>
              <span className="k">{yKey} = </span>
              <b>{sep(tip.y)}</b>
            </div>
          </div>
        )}

        <table className="swc-sr">
          <caption>
            {title}
            {source?.trim() ? ` (reference: ${source.trim()})` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">{xKey}</th>
              {styled.map((s) => (
                <th scope="col" key={s.id}>
                  {s.label}
                  {s.kind === 'reference' ? ' (reference)' : ''}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {allX.map((vx) => (
              <tr key={vx}>
                <th scope="row">{xFormat(vx)}</th>
                {cellOf.map((m, i) => {
                  const v = m.get(vx);
                  return <td key={styled[i].id}>{v === undefined ? '' : v === null ? 'no value' : sep(v)}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
