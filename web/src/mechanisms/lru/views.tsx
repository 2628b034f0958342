/**
 * The LRU's views, drawn from the core's state at the cursor (frame.ts):
 *  - the lists, head (left) to tail (right): a short list page by page, a
 *    long one as its first pages, proportional bands and its last pages
 *    (where reclaim takes); each page a cell in its file's colour with its
 *    flags as marks (never colour alone); the pagevecs as trays at the
 *    heads; this operation's moves as arrows between the lists, each with
 *    how many pages and why;
 *  - memory: free pages against the watermarks, kswapd, dirty pages against
 *    the writeback thresholds, the writes in flight;
 *  - each file's pages in the page cache over the run (both runs when
 *    comparing), with kswapd's runs and the refaults.
 */
import { curveStepAfter, line, scaleLinear } from 'd3';
import { Fragment, useMemo, useState } from 'react';
import { COUNTERS, LRU_LISTS, Pagevec, PG, ShrinkVerdict, WbReason } from '../../../../wasm-core/ts/abi.js';
import type { Program } from '../../../../wasm-core/ts/compile.js';
import { fmt } from '../../lib/format.js';
import { RUN_DASH, RUN_STROKE_NAME, runsAgainst, type ViewComponents, type ViewProps } from '../../views/types.js';
import { useStageBox } from '../../views/useBoxSize.js';
import { useHighlight } from '../../views/useHighlight.js';
import { lruOf, type LruBand, type LruListView, type LruPage, type LruSeries } from './frame.js';
import { LRU } from './index.js';
import './lru.css';

const has = (p: LruPage, bit: number) => (p.flags & (1 << bit)) !== 0;
const listName = (l: number) => LRU_LISTS[l].replace('_', ' ');
/* the rows, top to bottom: each type's active list above its inactive one (deactivation goes down, activation up) */
const ROWS = [3, 2, 1, 0, 4];
const NFILE_COLOURS = 6;
const fileColour = (file: number | null) => (file === null ? 'var(--lru-anon)' : `var(--lru-f${file % NFILE_COLOURS})`);
const fileName = (program: Program, file: number | null) =>
  file === null ? 'anonymous' : (program.files[file] ?? `file ${file}`);

function Empty({ children }: { children: React.ReactNode }) {
  return <div className="lru-empty">{children}</div>;
}

/** a page's flags in words (its cell's title, and what the marks mean) */
function pageTitle(p: LruPage, program: Program): string {
  const f = [
    has(p, PG.active) && 'active',
    has(p, PG.referenced) && 'referenced',
    has(p, PG.dirty) && 'dirty',
    has(p, PG.writeback) && 'under writeback',
    has(p, PG.reclaim) && 'PG_reclaim',
    p.mapped && 'mapped',
  ].filter(Boolean);
  return `${fileName(program, p.file)}${p.file === null ? '' : ` page ${p.index}`} (pfn ${p.pfn})${f.length ? `: ${f.join(', ')}` : ''}`;
}

/* ------------------------------------------------------------------ the lists */

/**
 * One page: a square in its file's colour. Marks: a dot (top left) for
 * PG_referenced, a diagonal stripe for dirty, a thick dark ring for
 * writeback, a flag (top right) for PG_reclaim, a bar underneath for
 * mapped; a moved page (this operation) gets the accent ring.
 */
function Cell({
  p,
  x,
  y,
  s,
  moved,
  program,
}: {
  p: LruPage;
  x: number;
  y: number;
  s: number;
  moved: boolean;
  program: Program;
}) {
  const m = Math.max(2, s / 5);
  return (
    <g transform={`translate(${x},${y})`} className={`lru-cell ${moved ? 'moved' : ''}`}>
      <title>{pageTitle(p, program)}</title>
      <rect
        width={s}
        height={s}
        rx={Math.min(3, s / 5)}
        style={{ fill: fileColour(p.file) }}
        className={has(p, PG.writeback) ? 'wb' : ''}
      />
      {has(p, PG.dirty) && (
        <path d={`M0,${s} L${s},0`} className="lru-dirty" style={{ strokeWidth: Math.max(1.5, s / 7) }} />
      )}
      {has(p, PG.referenced) && <circle cx={m + 0.5} cy={m + 0.5} r={m * 0.75} className="lru-ref" />}
      {has(p, PG.reclaim) && <path d={`M${s * 0.45},0 L${s},0 L${s},${s * 0.55} Z`} className="lru-reclaim" />}
      {p.mapped && <rect x={1} y={s + 1} width={s - 2} height={Math.max(2, s / 6)} className="lru-mapped" />}
      {moved && <rect x={-2} y={-2} width={s + 4} height={s + 4} rx={4} className="lru-moved-ring" />}
    </g>
  );
}

function Band({
  b,
  x,
  w,
  y,
  h,
  program,
}: {
  b: LruBand;
  x: number;
  w: number;
  y: number;
  h: number;
  program: Program;
}) {
  const frac = (n: number) => (b.pages ? n / b.pages : 0);
  return (
    <g className="lru-band">
      <title>{`${fmt(b.pages)} pages${b.mixed ? `, mostly ${fileName(program, b.file)}` : ` of ${fileName(program, b.file)}`}${b.referenced ? `; ${fmt(b.referenced)} referenced` : ''}${b.dirty ? `; ${fmt(b.dirty)} dirty` : ''}${b.writeback ? `; ${fmt(b.writeback)} under writeback` : ''}${b.reclaim ? `; ${fmt(b.reclaim)} PG_reclaim` : ''}${b.mapped ? `; ${fmt(b.mapped)} mapped` : ''}`}</title>
      <rect
        x={x}
        y={y}
        width={Math.max(0.5, w)}
        height={h}
        style={{ fill: fileColour(b.file), opacity: b.mixed ? 0.7 : 1 }}
      />
      {b.dirty > 0 && (
        <rect x={x} y={y} width={Math.max(0.5, w)} height={h * frac(b.dirty)} className="lru-band-dirty" />
      )}
      {b.mapped > 0 && (
        <rect
          x={x}
          y={y + h + 1}
          width={Math.max(0.5, w)}
          height={3}
          className="lru-mapped"
          style={{ opacity: 0.3 + 0.7 * frac(b.mapped) }}
        />
      )}
    </g>
  );
}

interface RowGeom {
  list: number;
  y: number;
  h: number;
  x0: number;
  x1: number;
  cells: { p: LruPage; x: number; y: number }[];
  s: number;
}

/** lay one list out in [x0, x1] x [y, y + h]: cells (wrapping a short list), or head, bands, tail */
function layoutRow(
  l: LruListView,
  x0: number,
  x1: number,
  y: number,
  h: number,
): RowGeom & { bands: { b: LruBand; x: number; w: number }[]; gapX?: [number, number] } {
  const w = x1 - x0;
  if (!l.bands.length) {
    /* a short list: the largest cell for which every page fits, in rows */
    const n = Math.max(1, l.head.length);
    let s = 28;
    for (; s > 5; s--) {
      const perRow = Math.floor(w / (s + 3));
      if (Math.ceil(n / perRow) * (s + 6) <= h - 4) break;
    }
    const perRow = Math.max(1, Math.floor(w / (s + 3)));
    const rows = Math.ceil(n / perRow);
    const top = y + (h - rows * (s + 6)) / 2;
    return {
      list: l.list,
      y,
      h,
      x0,
      x1,
      s,
      bands: [],
      cells: l.head.map((p, i) => ({ p, x: x0 + (i % perRow) * (s + 3), y: top + Math.floor(i / perRow) * (s + 6) })),
    };
  }
  const s = Math.max(6, Math.min(22, h - 16, Math.floor((w * 0.7) / (l.head.length + l.tail.length) - 3)));
  const cy = y + (h - s) / 2;
  const headW = l.head.length * (s + 3),
    tailW = l.tail.length * (s + 3);
  const bx0 = x0 + headW + 6,
    bx1 = x1 - tailW - 6;
  const between = Math.max(0, l.nr - l.head.length - l.tail.length);
  const bw =
    (bx1 - bx0) /
    Math.max(
      1,
      l.bands.reduce((a, b) => a + b.pages, 0),
    );
  let bx = bx0;
  const bands = l.bands.map((b) => {
    const r = { b, x: bx, w: b.pages * bw };
    bx += r.w;
    return r;
  });
  void between;
  return {
    list: l.list,
    y,
    h,
    x0,
    x1,
    s,
    bands,
    gapX: [bx0, bx1],
    cells: [
      ...l.head.map((p, i) => ({ p, x: x0 + i * (s + 3), y: cy })),
      ...l.tail.map((p, i) => ({ p, x: x1 - tailW + i * (s + 3), y: cy })),
    ],
  };
}

const WHY: Record<string, string> = {
  added: 'added (pagevec drained)',
  activated: 'second access: activated',
  evicted: 'reclaimed',
  dropped: 'dropped by fadvise',
  Activate: 'referenced: activated by reclaim',
  Deactivate: 'aged: inactive list short',
  DeactivateFile: 'fadvise: dirty, PG_reclaim',
  DeactivateClean: 'fadvise: clean, to the tail',
  Rotate: 'writeback ended: to the tail',
};

const PVEC_ROTATE = Pagevec.Rotate,
  PVEC_DEACTIVATE = Pagevec.Deactivate;
/* a tray's cell, width and height: smaller in a narrow panel (a run of a comparison) */
const trayDims = (narrow: boolean) => {
  const c = narrow ? 6 : 9;
  /* wide enough for its label ("deactivate 14" at 12 user units), which ran into the next tray's */
  return { c, w: Math.max(7 * (c + 2) + 8, 96), h: 2 * (c + 2) + 16 };
};

/** a pagevec as a small tray of 14 places (two rows of seven), its name and how many it holds */
function Tray({
  x,
  y,
  name,
  pages,
  title,
  program,
  narrow,
}: {
  x: number;
  y: number;
  name: string;
  pages: LruPage[];
  title: string;
  program: Program;
  narrow: boolean;
}) {
  const { c: TRAY_CELL, w: TRAY_W, h: TRAY_H } = trayDims(narrow);
  return (
    <g transform={`translate(${x},${y})`} className="lru-tray-g" data-testid={`lru-tray-${name}`}>
      <title>{title}</title>
      <rect width={TRAY_W} height={TRAY_H} rx={4} className={`lru-tray ${pages.length ? 'full' : ''}`} />
      <text
        x={4}
        y={11}
        className="lru-tray-label"
        style={{ fontSize: narrow ? 'max(var(--text-min), 9.5px)' : undefined }}
      >
        {name} <tspan className="num">{pages.length}</tspan>
      </text>
      {pages.map((p, i) => (
        <Cell
          key={p.pfn}
          p={p}
          x={4 + (i % 7) * (TRAY_CELL + 2)}
          y={14 + Math.floor(i / 7) * (TRAY_CELL + 2)}
          s={TRAY_CELL}
          moved={false}
          program={program}
        />
      ))}
    </g>
  );
}

export function LruLists({ frame, program }: ViewProps) {
  const lru = lruOf(frame);
  const [ref, box, svg] = useStageBox<HTMLDivElement>();
  const spotList = useHighlight('list')?.list ?? null;
  if (!lru) return <Empty>No LRU state in this frame.</Empty>;
  const W = box?.w ?? 0,
    H = box?.h ?? 0;
  /* the anon lists, empty (a file workload) and without swap to reclaim them, fold into one slim line */
  const anonEmpty = [0, 1].every((l) => !lru.lists[l].nr && !lru.pvecs[l].length);
  const rows = ROWS.filter((l) => (l !== 4 || lru.lists[4].nr > 0) && !(anonEmpty && l <= 1));
  /* left of each lane its lru_add tray and (inactive file) the deactivation tray; right of the inactive file lane the rotation tray */
  /* narrow (a run of a comparison): each row's name and trays on a line above its lane, which takes the whole width */
  const narrow = W < 640;
  const { w: TRAY_W, h: TRAY_H } = trayDims(narrow);
  const labelW = narrow || W < 700 ? 96 : 132;
  const x0 = narrow ? 8 : labelW + 2 * (TRAY_W + 6) + 12,
    x1 = narrow ? W - 8 : W - TRAY_W - 10;
  const slim = anonEmpty ? 24 : 0;
  const rowH = Math.max(24, (H - 8 - slim) / rows.length);
  /* pages a scan took and put back are not moves: only where they went */
  const moved = new Set(lru.moves.filter((g) => g.why !== 'added').flatMap((g) => g.pfns));
  const top = (i: number) => 4 + i * rowH;
  /*
   * narrow and too narrow for the name and three trays side by side (a run of a comparison on stage): the
   * name and count on one line, the trays on the next, then the lane, where the height allows; where it does
   * not, the trays beside the name and the deactivate and rotate trays only when they hold pages
   */
  const trayTop = 17;
  const sideBySide = labelW + 3 * (TRAY_W + 6) + 4 <= W;
  const stack = narrow && !sideBySide && rowH >= trayTop + TRAY_H + 40;
  const cramped = narrow && !sideBySide && !stack;
  const geoms = rows.map((l, i) =>
    stack
      ? layoutRow(lru.lists[l], x0, x1, top(i) + trayTop + TRAY_H + 16, Math.max(0, rowH - trayTop - TRAY_H - 20))
      : narrow
        ? layoutRow(lru.lists[l], x0, x1, top(i) + TRAY_H + 16, Math.max(0, rowH - TRAY_H - 20))
        : layoutRow(lru.lists[l], x0, x1, top(i) + 14, Math.max(0, rowH - 18)),
  );
  /* where the nth tray shown goes: right of the name, or in a line under it */
  const trayX = (n: number) => (stack ? 4 : labelW) + n * (TRAY_W + 6);
  const showTray = (pages: LruPage[]) => !cramped || pages.length > 0;
  const rowOf = (l: number | null) => geoms.find((g) => g.list === l) ?? null;
  /* arrows: at most one per (from, to, why), from the source row to the destination row */
  const arrows = lru.moves.filter((g) => g.why !== 'added' && g.from !== null && g.to !== null && g.to !== 'freed');
  const freed = lru.moves.filter((g) => g.to === 'freed').reduce((a, g) => a + g.pfns.length, 0);
  return (
    <div className="lru">
      <div className="lru-box" ref={ref}>
        {box && (
          <svg
            {...svg}
            role="img"
            data-export
            aria-label={`LRU lists: ${rows.map((l) => `${listName(l)} ${lru.lists[l].nr}`).join(', ')}${lru.moves.length ? `; this step: ${lru.moves.map((g) => `${g.pfns.length} ${WHY[g.why] ?? g.why}`).join(', ')}` : ''}`}
          >
            <defs>
              <marker
                id="lru-arrow"
                viewBox="0 0 10 10"
                refX="8"
                refY="5"
                markerWidth="7"
                markerHeight="7"
                orient="auto-start-reverse"
              >
                <path d="M0,0 L10,5 L0,10 Z" className="lru-arrowhead" />
              </marker>
            </defs>
            {geoms.map((g, gi) => {
              const l = lru.lists[g.list];
              const ty = stack ? top(gi) + trayTop : narrow ? top(gi) : g.y - 8,
                ly = narrow ? top(gi) + 12 : g.y + 4;
              const out = freed ? `→ ${fmt(freed)} freed` : '→ reclaim';
              const tray = lru.pvecs[g.list] ?? [];
              return (
                <g key={g.list} data-testid={`lru-row-${LRU_LISTS[g.list]}`}>
                  {/* a tour's highlighted list: its row outlined */}
                  {spotList === LRU_LISTS[g.list] && (
                    <rect
                      className="lru-spot"
                      x={1}
                      y={top(gi) + 1}
                      width={W - 2}
                      height={rowH - 2}
                      rx={6}
                      data-testid="lru-spot"
                    />
                  )}
                  <text x={4} y={ly} className="lru-label">
                    {listName(g.list)}
                    {stack && (
                      <tspan className="lru-count num" dx={8}>
                        {fmt(l.nr)} {l.nr === 1 ? 'page' : 'pages'}
                      </tspan>
                    )}
                  </text>
                  {!stack && (
                    <text x={4} y={ly + 16} className="lru-count num">
                      {fmt(l.nr)} {l.nr === 1 ? 'page' : 'pages'}
                    </text>
                  )}
                  {/* the lru_add pagevec for this list: pages on their way in; fadvise's deactivations wait beside it */}
                  <Tray
                    x={trayX(0)}
                    y={ty}
                    name="add"
                    pages={tray}
                    program={program}
                    narrow={narrow}
                    title={`the lru_add pagevec: pages on their way to the ${listName(g.list)} list (${tray.length} of 14; drained when full or by lru_add_drain)`}
                  />
                  {g.list === 2 && showTray(lru.pvecs[PVEC_DEACTIVATE]) && (
                    <Tray
                      x={trayX(1)}
                      y={ty}
                      name="deactivate"
                      pages={lru.pvecs[PVEC_DEACTIVATE]}
                      program={program}
                      narrow={narrow}
                      title={`the lru_deactivate pagevec: pages fadvise could not drop, still on their lists, to be moved to the inactive list when it drains (${lru.pvecs[PVEC_DEACTIVATE].length} of 14)`}
                    />
                  )}
                  {g.list === 2 && showTray(lru.pvecs[PVEC_ROTATE]) && (
                    <Tray
                      x={narrow ? trayX(showTray(lru.pvecs[PVEC_DEACTIVATE]) ? 2 : 1) : x1 + 6}
                      y={ty}
                      name="rotate"
                      pages={lru.pvecs[PVEC_ROTATE]}
                      program={program}
                      narrow={narrow}
                      title={`the lru_rotate pagevec: PG_reclaim pages whose writeback ended, still where they were, to be moved to the inactive tail when it drains (${lru.pvecs[PVEC_ROTATE].length} of 14)`}
                    />
                  )}
                  {!narrow && (
                    <path
                      d={`M${labelW + 2 * (TRAY_W + 6) - 4},${g.y + 2} L${x0 - 6},${g.y + 2}`}
                      className="lru-feed"
                      markerEnd="url(#lru-arrow)"
                    />
                  )}
                  <text x={x0} y={g.y - 10 + 4} className="lru-end">
                    head
                  </text>
                  <text x={x1} y={g.y - 10 + 4} className="lru-end" textAnchor="end">
                    tail{narrow && g.list === 2 ? ` ${out}` : ''}
                  </text>
                  <rect x={x0 - 3} y={g.y - 2} width={x1 - x0 + 6} height={g.h + 2} rx={5} className="lru-lane" />
                  {g.bands.map((b, i) => {
                    const bh = Math.max(8, g.s, Math.min(g.h - 18, g.s * 2));
                    return <Band key={i} b={b.b} x={b.x} w={b.w} y={g.y + (g.h - bh) / 2} h={bh} program={program} />;
                  })}
                  {g.gapX && g.h >= g.s + 30 && (
                    <text
                      x={(g.gapX[0] + g.gapX[1]) / 2}
                      y={g.y + g.h - 5}
                      textAnchor="middle"
                      className="lru-band-note"
                    >
                      {fmt(Math.max(0, l.nr - l.head.length - l.tail.length))} more pages
                    </text>
                  )}
                  {g.cells.map(({ p, x, y }) => (
                    <Cell key={p.pfn} p={p} x={x} y={y} s={g.s} moved={moved.has(p.pfn)} program={program} />
                  ))}
                  {!l.nr && (
                    <text x={(x0 + x1) / 2} y={g.y + g.h / 2 + 4} textAnchor="middle" className="lru-empty-t">
                      empty{g.list <= 1 ? ' (anonymous memory: no swap here, never reclaimed)' : ''}
                    </text>
                  )}
                  {g.list === 2 && !narrow && (
                    <text x={x1 + 6} y={Math.max(g.y + TRAY_H + 8, g.y + g.h / 2 + 4)} className="lru-out">
                      {out}
                    </text>
                  )}
                </g>
              );
            })}
            {anonEmpty && (
              <text x={4} y={H - 8} className="lru-count" data-testid="lru-anon-empty">
                {narrow
                  ? 'anon lists: empty (no swap)'
                  : 'anon lists: empty (and anonymous memory is never reclaimed here: there is no swap)'}
              </text>
            )}
            {geoms.map((g) => {
              /* moves within one list (a rotation to the tail, say): one arc inside the lane, above the pages, and one line saying what */
              const same = arrows.filter((m) => m.from === g.list && m.to === g.list);
              if (!same.length) return null;
              const top = g.y + 6,
                toTail = same.some((m) => m.tail);
              const [ax, bx] = toTail ? [x0 + 30, x1 - 30] : [x1 - 30, x0 + 30];
              return (
                <g key={`same-${g.list}`} className={`lru-move ${same[0].why}`}>
                  <path
                    d={`M${ax},${top + 14} C${ax + (bx - ax) / 3},${top} ${bx - (bx - ax) / 3},${top} ${bx},${top + 14}`}
                    markerEnd="url(#lru-arrow)"
                  />
                  <text x={(x0 + x1) / 2} y={top + 12} textAnchor="middle" className="lru-move-t">
                    {same.map((m) => `${fmt(m.pfns.length)} ${WHY[m.why] ?? m.why}`).join(' \u00b7 ')}
                  </text>
                </g>
              );
            })}
            {arrows
              .filter((m) => m.to !== m.from)
              .map((a, i) => {
                /* between two lists: an arc down (deactivation) or up (activation) beside the pages it moved, labels staggered */
                const from = rowOf(a.from),
                  to = rowOf(a.to as number);
                if (!from || !to) return null;
                const side = a.tail ? x1 - 40 - i * 14 : x0 + 40 + i * 14;
                const fy = from.y + from.h / 2,
                  ty = to.y + to.h / 2,
                  mid = (fy + ty) / 2;
                return (
                  <g key={i} className={`lru-move ${a.why}`}>
                    <path
                      d={`M${side},${fy} C${side + 30},${mid} ${side + 30},${mid} ${side},${ty}`}
                      markerEnd="url(#lru-arrow)"
                    />
                    <text
                      x={a.tail ? side - 6 : side + 26}
                      y={(narrow ? to.y + 12 : mid + 4) + i * 15}
                      textAnchor={a.tail ? 'end' : 'start'}
                      className="lru-move-t"
                    >
                      {fmt(a.pfns.length)} {WHY[a.why] ?? a.why}
                    </text>
                  </g>
                );
              })}
          </svg>
        )}
      </div>
      <Legend program={program} />
    </div>
  );
}

/** the key: every file of the scenario and anonymous memory (the same at every step, so it never reflows), then the marks */
function Legend({ program }: { program: Program }) {
  const files: (number | null)[] = [...program.files.map((_, i) => i), null];
  return (
    <div className="legend lru-legend">
      {files.map((f) => (
        <span key={f ?? 'anon'}>
          <i style={{ background: fileColour(f) }} />
          {fileName(program, f)}
        </span>
      ))}
      <span>
        <svg width="12" height="12" aria-hidden>
          <circle cx="4" cy="4" r="3" className="lru-ref" />
        </svg>
        referenced
      </span>
      <span>
        <svg width="12" height="12" aria-hidden>
          <rect width="12" height="12" style={{ fill: 'var(--c-cached)' }} />
          <path d="M0,12 L12,0" className="lru-dirty" style={{ strokeWidth: 2 }} />
        </svg>
        dirty
      </span>
      <span className="lru-cell">
        <svg width="14" height="14" aria-hidden>
          <rect x="1.5" y="1.5" width="11" height="11" className="wb" style={{ fill: 'var(--c-cached)' }} />
        </svg>
        writeback
      </span>
      <span>
        <svg width="12" height="12" aria-hidden>
          <path d="M4,0 L12,0 L12,8 Z" className="lru-reclaim" />
        </svg>
        PG_reclaim
      </span>
      <span>
        <svg width="12" height="12" aria-hidden>
          <rect y="8" width="12" height="3" className="lru-mapped" />
        </svg>
        mapped
      </span>
      <span>
        <svg width="14" height="14" aria-hidden>
          <rect x="1" y="1" width="12" height="12" rx="3" className="lru-moved-ring" />
        </svg>
        moved in this step
      </span>
    </div>
  );
}

/* ------------------------------------------------------------------ memory */

const REASON: Record<number, string> = {
  [WbReason.Flush]: 'fadvise',
  [WbReason.Background]: 'flusher',
  [WbReason.Fsync]: 'fsync',
  [WbReason.Reclaim]: 'reclaim',
  [WbReason.Balance]: 'writer',
};

/** a horizontal gauge: value on [0, max], with marks named underneath (their values are in the heading) */
function Gauge({
  value,
  max,
  marks,
  label,
  testid,
}: {
  value: number;
  max: number;
  marks: { at: number; label: string }[];
  label: string;
  testid?: string;
}) {
  const pct = (v: number) => `${100 * Math.min(1, v / Math.max(1, max))}%`;
  return (
    <div
      className="lru-gauge"
      data-testid={testid}
      role="meter"
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      aria-label={label}
    >
      <div className="lru-gauge-fill" style={{ width: pct(value) }} />
      {marks.map((m) => (
        <Fragment key={m.label}>
          <div className="lru-gauge-mark" style={{ left: pct(m.at) }} />
          <div className="lru-gauge-mark-t" style={{ left: pct(m.at) }} aria-hidden>
            {m.label}
          </div>
        </Fragment>
      ))}
    </div>
  );
}

export function LruMemory({ frame, program }: ViewProps) {
  const lru = lruOf(frame);
  if (!lru) return <Empty>No LRU state in this frame.</Empty>;
  const [min, low, high] = lru.wmark;
  /* the scale is the watermarks' zone, 0 to twice high: the marks never crowd each other, more free memory is "off the scale" */
  const fmax = Math.max(1, high * 2);
  const r = lru.reclaim;
  const verdicts = r ? Object.entries(r.verdicts).filter(([, n]) => n) : [];
  /* mid-operation the scan's summary event has not come yet: count what its verdicts say so far */
  const looked = r
    ? Math.max(
        r.scanned,
        verdicts.reduce((a, [, n]) => a + n, 0),
      )
    : 0;
  const freedNow = r ? Math.max(r.reclaimed, r.verdicts[ShrinkVerdict.Reclaimed] ?? 0) : 0;
  const dmax = Math.max(lru.dirtyThresh * 1.25, lru.dirty + lru.writeback, 1);
  return (
    /* it scrolls when the panel is short: focusable, so the keyboard can scroll it too */
    <div className="lru-mem" tabIndex={0} role="group" aria-label="Free memory, dirty pages and writeback">
      <section>
        <h3>
          Free memory <span className="num">{fmt(lru.free)} pages</span>
          {lru.free > fmax && <span className="muted">(off the scale)</span>}
          <span className="muted lru-h-note">
            min <span className="num">{fmt(min)}</span>, low <span className="num">{fmt(low)}</span>, high{' '}
            <span className="num">{fmt(high)}</span>
          </span>
        </h3>
        <Gauge
          value={lru.free}
          max={fmax}
          label={`free pages ${lru.free}; min ${min}, low ${low}, high ${high}`}
          testid="lru-free"
          marks={[
            { at: min, label: 'min' },
            { at: low, label: 'low' },
            { at: high, label: 'high' },
          ]}
        />
      </section>
      <section className="lru-kswapd" data-testid="lru-kswapd">
        <span className={`lru-badge ${lru.kswapd ? 'on' : ''}`}>
          <b aria-hidden>{lru.kswapd ? '⟳' : '☾'}</b> kswapd{' '}
          {lru.kswapd ? `reclaiming, priority ${lru.kswapdPriority}` : 'asleep'}
        </span>
        {lru.allUnreclaimable && (
          <span className="lru-badge warn">
            <b aria-hidden>!</b> nothing left to reclaim
          </span>
        )}
        {r && (
          <span className={`lru-badge ${r.direct ? 'warn' : 'on'}`}>
            <b aria-hidden>{r.direct ? '⚠' : '↻'}</b> {r.direct ? 'direct reclaim' : 'kswapd'} this step:{' '}
            {looked
              ? `${fmt(freedNow)} of ${fmt(looked)} scanned freed`
              : 'nothing scanned yet (a pass scans list size >> priority, saved up until 32)'}
          </span>
        )}
      </section>
      {verdicts.length > 0 && (
        <ul className="lru-verdicts">
          {verdicts.map(([v, n]) => (
            <li key={v}>
              <b className="num">{fmt(n)}</b> {VERDICT_SHORT[Number(v)] ?? v}
            </li>
          ))}
        </ul>
      )}
      <section>
        <h3>
          <span>
            Dirty <span className="num">{fmt(lru.dirty)}</span>, under writeback{' '}
            <span className="num">{fmt(lru.writeback)}</span>
          </span>
          {lru.congested && <span className="lru-badge warn">disk congested</span>}
          <span className="muted lru-h-note">
            flusher above <span className="num">{fmt(lru.bgThresh)}</span>, writers wait above{' '}
            <span className="num">{fmt(lru.dirtyThresh)}</span>
          </span>
        </h3>
        <Gauge
          value={lru.dirty}
          max={dmax}
          label={`dirty pages ${lru.dirty}; background threshold ${lru.bgThresh}, dirty threshold ${lru.dirtyThresh}`}
          testid="lru-dirty"
          marks={[
            { at: lru.bgThresh, label: 'flusher' },
            { at: lru.dirtyThresh, label: 'writers wait' },
          ]}
        />
      </section>
      <section className="lru-wb">
        <h3>Writes in flight</h3>
        {lru.wb.length === 0 ? (
          <div className="muted">none</div>
        ) : (
          <ol>
            {lru.wb.slice(0, 3).map((w) => {
              const left = Math.max(0, w.completeAt - lru.clock),
                total = Math.max(1, w.completeAt - w.submitted);
              return (
                <li key={`${w.file}-${w.first}-${w.submitted}`}>
                  <span className="lru-wb-what">
                    {program.files[w.file] ?? w.file}{' '}
                    {w.nr > 1 ? `pages ${w.first}–${w.first + w.nr - 1}` : `page ${w.first}`}
                  </span>
                  <span className="muted">{REASON[w.reason]}</span>
                  <span className="lru-wb-bar" aria-hidden>
                    <i style={{ width: `${(100 * (total - left)) / total}%` }} />
                  </span>
                  <span className="num">{left ? `${left} op${left > 1 ? 's' : ''} left` : 'ending'}</span>
                </li>
              );
            })}
            {lru.wb.length > 3 && <li className="muted">and {lru.wb.length - 3} more</li>}
          </ol>
        )}
      </section>
      <section className="lru-pvecs">
        <h3>Pagevecs</h3>
        <div>
          {lru.pvecs.map((v, i) =>
            v.length ? (
              <span key={i} className="lru-pvec">
                <b className="num">{v.length}</b> {PVEC_LABEL(i)}
              </span>
            ) : null,
          )}
          {lru.pvecs.every((v) => !v.length) && <span className="muted">all empty</span>}
        </div>
      </section>
    </div>
  );
}

/* enum mmsim_pagevec: lru_add for each list, then rotate and deactivate */
const PVEC_LABEL = (v: number) =>
  v === Pagevec.Rotate
    ? 'to rotate to the tail (writeback ended)'
    : v === Pagevec.Deactivate
      ? 'for fadvise\u2019s deactivation'
      : `on their way to ${listName(v)}`;

const VERDICT_SHORT: Record<number, string> = {
  [ShrinkVerdict.Reclaimed]: 'reclaimed',
  [ShrinkVerdict.Locked]: 'locked (being read)',
  [ShrinkVerdict.Writeback]: 'under writeback',
  [ShrinkVerdict.Activate]: 'activated (referenced)',
  [ShrinkVerdict.Keep]: 'kept (mapped, young)',
  [ShrinkVerdict.UnmapFail]: 'activated (young at unmap)',
  [ShrinkVerdict.KeepDirty]: 'kept (dirty, referenced)',
  [ShrinkVerdict.Pageout]: 'written out (pageout)',
  [ShrinkVerdict.Busy]: 'kept (busy)',
  [ShrinkVerdict.Anon]: 'anonymous (no swap)',
};

/* ------------------------------------------------------------------ residency */

/* the LRU's counters charted over the run: each a colour and a glyph (at the line's end and in the legend) */
const LRU_CHART: { key: string; label: string; colour: string; glyph: string }[] = [
  { key: 'pgscan', label: 'scanned', colour: 'var(--lru-f0)', glyph: '\u25cf' },
  { key: 'pgsteal', label: 'reclaimed', colour: 'var(--lru-f4)', glyph: '\u25a0' },
  { key: 'pgactivate', label: 'activated', colour: 'var(--lru-f2)', glyph: '\u25b2' },
  { key: 'pgdeactivate', label: 'deactivated', colour: 'var(--lru-f1)', glyph: '\u25c6' },
  { key: 'pgrotated', label: 'rotated', colour: 'var(--lru-f3)', glyph: '\u2716' },
  { key: 'workingset_refault', label: 'refaults', colour: 'var(--lru-f5)', glyph: '\u2605' },
];

interface ChartLine {
  key: string;
  colour: string;
  /** the run's stroke pattern (RUN_DASH): A solid */
  dash: string | undefined;
  glyph?: string;
  x: number[];
  y: number[];
  xmax: number;
}

/**
 * Over the run, one of two charts (a switch in the legend): each file's
 * pages in the page cache (the residency, from the events), or the LRU's
 * counters (from the recorder's samples); with a comparison, run B dashed on
 * the same axes.
 */
export function LruResidency({ frame, timeline, others = [], label }: ViewProps) {
  const [ref, box, svg] = useStageBox<HTMLDivElement>();
  const [mode, setMode] = useState<'cache' | 'counters'>('cache');
  const runs = [
    {
      key: 'a',
      series: timeline.series?.[LRU] as LruSeries | undefined,
      timeline,
      label: label ?? 'A',
      cursor: frame.cursor,
    },
    ...others.map((o) => ({
      key: o.slot,
      series: o.timeline.series?.[LRU] as LruSeries | undefined,
      timeline: o.timeline,
      label: o.label,
      cursor: o.frame.cursor,
    })),
  ];
  const a = runs[0].series;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs is built from these on every render
  const lines = useMemo<ChartLine[]>(
    () =>
      runs.flatMap((r) => {
        const xmax = Math.max(1, r.timeline.nEvents);
        if (mode === 'cache') {
          return (r.series?.files ?? []).map((f) => ({
            key: `${r.key}-f${f.file}`,
            colour: fileColour(f.file),
            dash: RUN_DASH[r.key as 'a'],
            x: f.x,
            y: f.y,
            xmax,
          }));
        }
        return LRU_CHART.map((c) => ({
          key: `${r.key}-${c.key}`,
          colour: c.colour,
          glyph: c.glyph,
          dash: RUN_DASH[r.key as 'a'],
          xmax,
          x: r.timeline.samples.x,
          y: r.timeline.samples.values[COUNTERS.indexOf(c.key as never)] ?? [],
        }));
      }),
    [timeline, others.map((o) => o.timeline).join(), mode],
  );
  const W = box?.w ?? 0,
    H = box?.h ?? 0;
  const m = { l: 56, r: mode === 'counters' ? 22 : 12, t: 10, b: 24 };
  if (!a) return <Empty>{timeline.big ? 'A big run records no events to chart.' : 'Recording the run\u2026'}</Empty>;
  const ymax = Math.max(1, ...lines.flatMap((l) => l.y));
  const sx = (xmax: number) =>
    scaleLinear()
      .domain([0, xmax])
      .range([m.l, Math.max(m.l + 1, W - m.r)]);
  const sy = scaleLinear()
    .domain([0, ymax])
    .range([Math.max(m.t + 1, H - m.b), m.t]);
  const xa = sx(Math.max(1, runs[0].timeline.nEvents));
  const ticks = sy.ticks(Math.max(2, Math.min(5, Math.floor((H - m.t - m.b) / 28))));
  /* the counters at the cursor, read from the frame (run A) */
  const at = (key: string) => frame.counters[COUNTERS.indexOf(key as never)] ?? 0;
  const what =
    mode === 'cache'
      ? 'pages of each file in the page cache'
      : `the LRU's counters (${LRU_CHART.map((c) => c.key).join(', ')})`;
  return (
    <div className="lru-res">
      <div className="lru-res-box" ref={ref}>
        {box && (
          <svg {...svg} role="img" data-export aria-label={`${what} over the run${runsAgainst(runs)}`}>
            {a.kswapd.map(([s, e], i) => (
              <rect
                key={i}
                x={xa(s)}
                width={Math.max(1, xa(e) - xa(s))}
                y={m.t}
                height={Math.max(0, H - m.b - m.t)}
                className="lru-res-kswapd"
              >
                <title>kswapd running</title>
              </rect>
            ))}
            {ticks.map((v) => (
              <g key={v}>
                <line x1={m.l} x2={W - m.r} y1={sy(v)} y2={sy(v)} className="lru-grid" />
                <text x={m.l - 6} y={sy(v) + 4} textAnchor="end" className="lru-axis">
                  {fmt(v)}
                </text>
              </g>
            ))}
            {lines.map((l) => {
              const x = sx(l.xmax);
              const path = line<number>()
                .x((_, k) => x(l.x[k]))
                .y((v) => sy(v))
                .curve(curveStepAfter);
              return (
                <g key={l.key}>
                  <path
                    d={path(l.y) ?? ''}
                    className="lru-res-line"
                    style={{ stroke: l.colour, strokeDasharray: l.dash }}
                  />
                  {l.glyph && l.y.length > 0 && (
                    <text
                      x={x(l.x[l.x.length - 1]) + 3}
                      y={sy(l.y[l.y.length - 1]) + 4}
                      className="lru-glyph"
                      style={{ fill: l.colour }}
                    >
                      {l.glyph}
                    </text>
                  )}
                </g>
              );
            })}
            {a.refaults.length > 0 &&
              a.refaults
                .filter((_, i) => i % Math.max(1, Math.ceil(a.refaults.length / 300)) === 0)
                .map((i) => (
                  <line key={i} x1={xa(i)} x2={xa(i)} y1={H - m.b} y2={H - m.b + 5} className="lru-res-refault" />
                ))}
            <line x1={xa(runs[0].cursor)} x2={xa(runs[0].cursor)} y1={m.t} y2={H - m.b} className="lru-cursor" />
            <text x={W - m.r} y={H - 6} textAnchor="end" className="lru-axis">
              events in the run →
            </text>
          </svg>
        )}
      </div>
      <div className="legend lru-res-legend">
        {/* a click does not focus the switch (the browser would scroll a clipped legend into view); Tab and Enter do */}
        <span className="lru-switch" role="group" aria-label="What to chart">
          <button
            type="button"
            className={`btn small ${mode === 'cache' ? 'on' : ''}`}
            aria-pressed={mode === 'cache'}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => setMode('cache')}
            data-testid="lru-chart-cache"
          >
            Page cache
          </button>
          <button
            type="button"
            className={`btn small ${mode === 'counters' ? 'on' : ''}`}
            aria-pressed={mode === 'counters'}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => setMode('counters')}
            data-testid="lru-chart-counters"
          >
            Counters
          </button>
        </span>
        {mode === 'cache'
          ? a.files.map((f) => (
              <span key={f.file}>
                <i style={{ background: fileColour(f.file) }} />
                {f.name} <b className="num">{fmt(f.y[f.y.length - 1] ?? 0)}</b>
              </span>
            ))
          : LRU_CHART.map((c) => (
              <span key={c.key} title={c.key}>
                <b aria-hidden style={{ color: c.colour }}>
                  {c.glyph}
                </b>{' '}
                {c.label} <b className="num">{fmt(at(c.key))}</b>
              </span>
            ))}
        <span>
          <i className="lru-li-kswapd" />
          kswapd running
        </span>
        {mode === 'cache' && (
          <span>
            <i className="lru-li-refault" />
            refaults <b className="num">{fmt(a.refaults.length)}</b>
          </span>
        )}
        {runs.length > 1 && (
          <span title={runs.map((r) => `${RUN_STROKE_NAME[r.key as 'a']}: ${r.label}`).join('; ')}>
            {runs.map((r) => (
              <span key={r.key} className="lru-run-key">
                <svg width="22" height="8" aria-hidden>
                  <line
                    x1="0"
                    x2="22"
                    y1="4"
                    y2="4"
                    className="lru-key-line"
                    strokeDasharray={RUN_DASH[r.key as 'a']}
                  />
                </svg>
                {r.key.toUpperCase()}{' '}
              </span>
            ))}
          </span>
        )}
        <span className="muted">{mode === 'cache' ? 'pages cached per file, at the end' : 'at the cursor'}</span>
      </div>
    </div>
  );
}

export const views: ViewComponents = {
  lru: LruLists,
  'lru-memory': LruMemory,
  'lru-residency': LruResidency,
};
