/**
 * The anticipatory prefault's views, drawn from the core's state at the
 * cursor (frame.ts): each thread's prediction - the address it expects its
 * next fault at, relative to its mapping, its order, hits and pages mapped
 * ahead, and its batch in the fault at the cursor; and the pages each
 * fault mapped over the run (both runs when comparing: a prefault's ramp
 * to 14 against THP's 512 or mTHP's 16 a fault). The batch itself and the
 * predicted page are drawn in the address space.
 */
import { line, scaleLinear, scaleLog } from 'd3';
import { PrefaultEnd } from '../../../../wasm-core/ts/abi.js';
import type { Frame } from '../../frames/types.js';
import type { Program } from '../../../../wasm-core/ts/compile.js';
import { fmt } from '../../lib/format.js';
import { runsAgainst, type ViewComponents, type ViewProps } from '../../views/types.js';
import { useStageBox } from '../../views/useBoxSize.js';
import { prefaultOf, type PagesSeries, type ThreadPrediction } from './frame.js';
import { PREFAULT } from './index.js';
import './prefault.css';

const hex = (n: number) => `0x${n.toString(16)}`;

const END_WORD: Record<number, string> = {
  [PrefaultEnd.Miss]: 'not predicted',
  [PrefaultEnd.Order]: '2^order',
  [PrefaultEnd.Cap]: 'the cap',
  [PrefaultEnd.Vma]: 'the VMA\u2019s end',
  [PrefaultEnd.Pmd]: 'the page table\u2019s end',
  [PrefaultEnd.Alloc]: 'no memory (shrunk)',
  [PrefaultEnd.Present]: 'a mapped page',
};

/** an address as its mapping's name and page ("heap page 1,234"), from the frame's VMAs */
function where(frame: Frame, program: Program, mm: number, addr: number): string {
  const v =
    frame.mms.find((m) => m.id === mm)?.vmas.find((x) => addr >= x.start && addr < x.end) ??
    frame.mms.find((m) => m.id === mm)?.vmas.find((x) => addr === x.end);
  if (!v) return hex(addr);
  const name = v.map !== null ? (program.maps[v.map] ?? 'a mapping') : 'a mapping';
  return addr === v.end ? `${name}'s end` : `${name} page ${fmt((addr - v.start) / 4096)}`;
}

function Thread({ t, frame, program, cap }: { t: ThreadPrediction; frame: Frame; program: Program; cap: number }) {
  const b = t.batch;
  const ramp = Math.min(2 ** t.order, cap);
  return (
    <div
      className={`pf-card ${b ? 'current' : ''}`}
      data-testid={`pf-thread-${t.name}`}
      aria-current={b ? 'true' : undefined}
    >
      <div className="pf-card-head">
        <b>{t.name}</b>
        <span className="muted">{t.alive ? '' : 'not running'}</span>
        <span className="pf-rate num" title="predicted faults / all its faults">
          {fmt(t.hits)} / {fmt(t.faults)} predicted
        </span>
      </div>
      <dl className="pf-state">
        <div>
          <dt>next guess</dt>
          <dd className="num" data-testid={`pf-next-${t.name}`}>
            {t.next ? where(frame, program, t.mm, t.next) : '–'}
          </dd>
        </div>
        <div>
          <dt>order</dt>
          <dd className="num" data-testid={`pf-order-${t.name}`}>
            {t.order}
            {t.order ? (
              <span className="muted"> (next batch {Math.min(2 ** Math.min(t.order + 1, 30), cap)})</span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>pages ahead</dt>
          <dd className="num">{fmt(t.ahead)}</dd>
        </div>
      </dl>
      <div className="pf-batch" data-testid={`pf-batch-${t.name}`}>
        {b ? (
          b.hit ? (
            <>
              <span className="pf-tag hit">
                <b aria-hidden>✓</b> predicted
              </span>{' '}
              {fmt(b.pages)} page{b.pages === 1 ? '' : 's'}
              {b.pages < b.planned ? ` of ${b.planned}` : ''} at {where(frame, program, t.mm, b.addr)}, ended by{' '}
              {END_WORD[b.why]}
            </>
          ) : (
            <>
              <span className="pf-tag miss">
                <b aria-hidden>✗</b> missed
              </span>{' '}
              one page at {where(frame, program, t.mm, b.addr)}; the order back to 0
            </>
          )
        ) : (
          <span className="muted">
            {t.order ? `ramping: the last batch was ${ramp} page${ramp === 1 ? '' : 's'}` : 'no batch in this step'}
          </span>
        )}
      </div>
    </div>
  );
}

export function Predictions({ frame, program }: ViewProps) {
  const pf = prefaultOf(frame);
  if (!pf) return <div className="placeholder">No prefault data for this run.</div>;
  const active = pf.threads.filter((t) => t.faults > 0 || t.alive);
  return (
    /* four threads in a short panel scroll: focusable, so the keyboard scrolls it too */
    <div className="pf" data-testid="pf" tabIndex={0} role="group" aria-label="Each thread's prediction">
      <p className="pf-mode">
        {pf.mode === 'anticipatory' ? (
          <>
            Prefault <b>on</b>: a fault where the thread's last batch ended maps 2, 4, 8… pages, at most <b>{pf.cap}</b>
            ; the dashed page in the address space is the next guess.
          </>
        ) : (
          <>
            Prefault <b>off</b> in this run: every anonymous fault maps what the kernel's own path maps (one page, an
            mTHP folio or a THP).
          </>
        )}
      </p>
      <div className="pf-cards">
        {active.length ? (
          active.map((t) => <Thread key={t.task} t={t} frame={frame} program={program} cap={pf.cap} />)
        ) : (
          <div className="placeholder">
            No thread has faulted yet. Press <kbd>F</kbd> for the first fault.
          </div>
        )}
      </div>
    </div>
  );
}

export function PagesPerFault({ frame, timeline, others = [], label }: ViewProps) {
  const [ref, box, svg] = useStageBox<HTMLDivElement>();
  const runs = [
    { key: 'a', s: timeline.series?.[PREFAULT] as PagesSeries | undefined, frame, label: label ?? 'this run' },
    ...others.map((o) => ({
      key: o.slot,
      s: o.timeline.series?.[PREFAULT] as PagesSeries | undefined,
      frame: o.frame,
      label: o.label,
    })),
  ];
  if (!runs[0].s)
    return (
      <div className="placeholder">
        {timeline.big ? 'A big run records no faults to chart.' : 'Recording the run\u2026'}
      </div>
    );
  if (!runs.some((r) => r.s?.faults)) return <div className="placeholder">No page fault in this run yet.</div>;
  const W = box?.w ?? 0,
    H = box?.h ?? 0;
  const m = { l: 44, r: 12, t: 10, b: 26 };
  const faults = Math.max(1, ...runs.map((r) => r.s?.faults ?? 0));
  const most = Math.max(2, ...runs.map((r) => r.s?.most ?? 1));
  const sx = scaleLinear()
    .domain([0, faults])
    .range([m.l, Math.max(m.l + 1, W - m.r)]);
  const sy = scaleLog()
    .base(2)
    .domain([1, most])
    .range([Math.max(m.t + 1, H - m.b), m.t]);
  /* the labels at least 14 px apart: from the bottom, a tick that would crowd the last one kept is left out */
  const ticks: number[] = [];
  for (const v of [1, 2, 4, 8, 14, 16, 64, 512].filter((t) => t <= most))
    if (!ticks.length || sy(ticks[ticks.length - 1]) - sy(v) >= 14) ticks.push(v);
  const path = line<[number, number]>()
    .x((d) => sx(d[0]))
    .y((d) => sy(Math.max(1, d[1])));
  const at = (f: Frame) => f.counters[0] ?? 0; /* pgfault is the first counter */
  return (
    <div className="pf-chart">
      <div className="pf-chart-box" ref={ref}>
        {box && (
          <svg
            {...svg}
            role="img"
            data-export
            aria-label={`Pages mapped per fault over ${fmt(faults)} faults${runsAgainst(runs)}`}
          >
            {ticks.map((v) => (
              <g key={v}>
                <line x1={m.l} x2={W - m.r} y1={sy(v)} y2={sy(v)} className="pf-grid" />
                <text x={m.l - 6} y={sy(v) + 4} textAnchor="end" className="pf-axis">
                  {v}
                </text>
              </g>
            ))}
            <text x={W - m.r} y={H - 6} textAnchor="end" className="pf-axis">
              faults in the run →
            </text>
            {runs.map((r) =>
              r.s?.x.length ? (
                <g key={r.key} className={`pf-run ${r.key}`}>
                  <path d={path(r.s.x.map((x, k) => [x, r.s!.max[k]] as [number, number])) ?? ''} className="pf-max" />
                  <path
                    d={path(r.s.x.map((x, k) => [x, r.s!.mean[k]] as [number, number])) ?? ''}
                    className="pf-mean"
                  />
                  <line x1={sx(at(r.frame))} x2={sx(at(r.frame))} y1={m.t} y2={H - m.b} className="pf-cursor" />
                </g>
              ) : null,
            )}
          </svg>
        )}
      </div>
      <div className="legend pf-legend">
        {runs.map((r) =>
          r.s ? (
            <span key={r.key}>
              <svg width="22" height="10" aria-hidden>
                <line x1="0" x2="22" y1="5" y2="5" className={`pf-key ${r.key}`} />
              </svg>
              {/* three or four runs: by letter (the compare bar names them), one short line each */}
              {runs.length > 2 ? <b title={r.label}>{r.key.toUpperCase()}:</b> : `${r.label}:`}{' '}
              <b className="num">{fmt(r.s.faults)}</b> faults, up to <b className="num">{fmt(r.s.most)}</b> pages each
            </span>
          ) : null,
        )}
        <span>thick: the mean per stretch of faults; thin: the most</span>
      </div>
    </div>
  );
}

export const views: ViewComponents = {
  prefault: Predictions,
  'prefault-pages': PagesPerFault,
};

export { PREFAULT };
