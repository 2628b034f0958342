/**
 * The VMA cache's views, drawn from the core's state at the cursor
 * (frame.ts): every thread's four slots (or 3.14's one mm->mmap_cache),
 * the VMA rb-tree with the path a miss walked, and each thread's hit rate
 * over the run. Hit and miss differ in shape and word, not only colour.
 */
import { line, scaleLinear } from 'd3';
import { useMemo } from 'react';
import type { Frame, VmaView } from '../../frames/types.js';
import type { Program } from '../../../../wasm-core/ts/compile.js';
import { fmt } from '../../lib/format.js';
import { RUN_DASH, RUN_STROKE_NAME, runsAgainst, type ViewComponents, type ViewProps } from '../../views/types.js';
import { useStageBox } from '../../views/useBoxSize.js';
import {
  lookupsAt,
  TREE_DEPTH,
  vmaCacheOf,
  type Lookup,
  type TaskCache,
  type TreeNode,
  type VmaCacheFrame,
  type VmaCacheSeries,
} from './frame.js';
import { VMA_CACHE } from './index.js';
import './vma-cache.css';

const hex = (n: number) => `0x${n.toString(16)}`;
const pct = (hits: number, calls: number) =>
  calls ? `${((100 * hits) / calls).toFixed(calls >= 1000 ? 2 : 1)}%` : '–';
const SLOTS = [0, 1, 2, 3];
/** VMACACHE_HASH(addr): the page number mod 4 (3.15) */
const hashOf = (addr: number) => Math.floor(addr / 4096) % 4;

/** a VMA's name: the scenario's map name (as of its creation) and its range */
function vmaLabel(
  frame: Frame,
  program: Program,
  mm: number,
  id: number,
): { name: string; range: string; vma: VmaView | null } {
  const v = frame.mms.find((m) => m.id === mm)?.vmas.find((x) => x.id === id) ?? null;
  if (!v) return { name: `VMA ${id}`, range: 'freed', vma: null };
  const name = v.map !== null ? (program.maps[v.map] ?? `VMA ${id}`) : `VMA ${id}`;
  return { name, range: `${hex(v.start)}–${hex(v.end)}`, vma: v };
}

function Empty({ children }: { children: React.ReactNode }) {
  return <div className="vc-empty">{children}</div>;
}

/* ------------------------------------------------------------------ slots */

function Outcome({ l }: { l: Lookup }) {
  if (l.hit)
    return (
      <span className="vc-tag hit" data-testid="vc-outcome">
        <b aria-hidden>✓</b> hit, slot {l.slot}
      </span>
    );
  if (l.reason === 2)
    return (
      <span className="vc-tag flush" data-testid="vc-outcome">
        <b aria-hidden>⟳</b> seqnum behind: flushed, miss
      </span>
    );
  return (
    <span className="vc-tag miss" data-testid="vc-outcome">
      <b aria-hidden>✗</b> miss{l.done ? '' : ': walking the tree'}
    </span>
  );
}

function ThreadCard({ t, vc, frame, program }: { t: TaskCache; vc: VmaCacheFrame; frame: Frame; program: Program }) {
  const l = vc.lookup && vc.lookup.task === t.task ? vc.lookup : null;
  const mm = vc.mms.find((m) => m.mm === t.mm);
  const behind = mm && mm.seqnum !== t.seqnum;
  const hash = l ? hashOf(l.addr) : null;
  return (
    <div
      className={`vc-card ${l ? 'current' : ''}`}
      data-testid={`vc-thread-${t.name}`}
      aria-current={l ? 'true' : undefined}
    >
      <div className="vc-card-head">
        <b>{t.name}</b>
        <span
          className={`vc-seq ${behind ? 'behind' : ''}`}
          title="the task's vmacache_seqnum and its mm's: when they differ, the next lookup flushes the four slots"
        >
          seq {fmt(t.seqnum)}
          {behind ? (
            <>
              {' '}
              <b aria-hidden>≠</b> mm {fmt(mm!.seqnum)}
            </>
          ) : (
            ' = mm'
          )}
        </span>
        <span
          className="vc-rate num"
          data-testid={`vc-rate-${t.name}`}
          title={`${fmt(t.hits)} hits in ${fmt(t.calls)} find_vma calls`}
        >
          {pct(t.hits, t.calls)}
        </span>
      </div>
      <ol className="vc-slots" start={0}>
        {SLOTS.map((i) => {
          const id = t.slots[i];
          const lab = id ? vmaLabel(frame, program, t.mm, id) : null;
          const hitHere = l?.hit && l.slot === i;
          const written = l?.update && l.update.slot === i;
          return (
            <li
              key={i}
              className={`vc-slot ${hitHere ? 'hit' : ''} ${written ? 'written' : ''} ${hash === i ? 'hash' : ''} ${id ? '' : 'empty'}`}
            >
              <span className="vc-idx">{i}</span>
              <span className="vc-vma">
                {lab ? (
                  <>
                    <b>{lab.name}</b> <span className="muted">{lab.range}</span>
                  </>
                ) : (
                  <span className="muted">empty</span>
                )}
              </span>
              <span className="vc-mark">
                {hitHere ? (
                  <span className="vc-tag hit">
                    <b aria-hidden>✓</b> hit
                  </span>
                ) : written ? (
                  <span className="vc-tag miss">
                    <b aria-hidden>✎</b> written
                  </span>
                ) : hash === i ? (
                  <span className="vc-tag hashed" title="VMACACHE_HASH(addr): the slot a miss writes">
                    hash
                  </span>
                ) : null}
              </span>
            </li>
          );
        })}
      </ol>
      <div className="vc-card-foot">
        {l ? (
          <Outcome l={l} />
        ) : (
          <span className="muted">
            {fmt(t.hits)} / {fmt(t.calls)} hits
          </span>
        )}
      </div>
    </div>
  );
}

function MmWide({ vc, frame, program }: { vc: VmaCacheFrame; frame: Frame; program: Program }) {
  return (
    <>
      {vc.mms.map((m) => {
        const threads = vc.tasks.filter((t) => t.mm === m.mm && t.alive);
        if (!threads.length) return null;
        const l = vc.lookup && vc.lookup.mm === m.mm ? vc.lookup : null;
        const lab = m.mmapCache ? vmaLabel(frame, program, m.mm, m.mmapCache) : null;
        const name = frame.mms.find((x) => x.id === m.mm)?.name ?? `mm ${m.mm}`;
        return (
          <div key={m.mm} className={`vc-card wide ${l ? 'current' : ''}`} data-testid={`vc-mm-${name}`}>
            <div className="vc-card-head">
              <b>{name}</b>
              <span>
                <code>mm-&gt;mmap_cache</code>, shared by{' '}
                {threads.length === 1 ? 'its one thread' : `its ${threads.length} threads`}
              </span>
            </div>
            <ol className="vc-slots one">
              <li className={`vc-slot ${l?.hit ? 'hit' : ''} ${l?.update ? 'written' : ''} ${lab ? '' : 'empty'}`}>
                <span className="vc-vma">
                  {lab ? (
                    <>
                      <b>{lab.name}</b> <span className="muted">{lab.range}</span>
                    </>
                  ) : (
                    <span className="muted">empty</span>
                  )}
                </span>
                <span className="vc-mark">
                  {l?.hit ? (
                    <span className="vc-tag hit">
                      <b aria-hidden>✓</b> hit
                    </span>
                  ) : l?.update ? (
                    <span className="vc-tag miss">
                      <b aria-hidden>✎</b> written
                    </span>
                  ) : null}
                </span>
              </li>
            </ol>
            <table className="vc-threads num">
              <tbody>
                {threads.map((t) => (
                  <tr key={t.task} className={l?.task === t.task ? 'current' : ''}>
                    <th scope="row">{t.name}</th>
                    <td>{l?.task === t.task ? <Outcome l={l} /> : null}</td>
                    <td>
                      {fmt(t.hits)} / {fmt(t.calls)}
                    </td>
                    <td data-testid={`vc-rate-${t.name}`}>{pct(t.hits, t.calls)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </>
  );
}

/** what the run's cache is, as the summary line says it */
const MODE_TEXT = {
  'per-thread': '3.15: four slots per thread',
  'mm-wide': '3.14: one mm->mmap_cache per process',
  off: 'no VMA cache (off; gone since 6.1)',
} as const;

export function CacheSlots({ frame, program }: ViewProps) {
  const vc = vmaCacheOf(frame);
  if (!vc) return <Empty>No VMA-cache state in this frame.</Empty>;
  const calls = vc.tasks.reduce((s, t) => s + t.calls, 0),
    hits = vc.tasks.reduce((s, t) => s + t.hits, 0);
  const alive = vc.tasks.filter((t) => t.alive || t.task === vc.lookup?.task);
  const gone = vc.tasks.length - alive.length;
  const inv = vc.invalidate;
  return (
    <div className="vc">
      <div className="vc-summary">
        <span>{MODE_TEXT[vc.mode]}</span>
        <span className="num" data-testid="vc-total">
          {fmt(hits)} hits in {fmt(calls)} lookups · <b>{pct(hits, calls)}</b>
        </span>
        {vc.lookup && (
          <span className="num">
            find_vma({hex(vc.lookup.addr)})
            {vc.lookup.of.n > 1 ? ` (${vc.lookup.of.i + 1} of ${vc.lookup.of.n} in this step)` : ''}
            {vc.mode === 'per-thread' ? `, hash slot ${hashOf(vc.lookup.addr)}` : ''}
          </span>
        )}
        {inv && (
          <span className="vc-tag flush" data-testid="vc-invalidate">
            {inv.mmWide ? (
              <>mmap_cache {inv.value ? 'handed to prev' : 'killed'}</>
            ) : (
              <>
                seqnum → {fmt(inv.value)}
                {inv.wrapped ? `: wrapped, flush_all cleared ${inv.flushed ?? 0} threads` : ''}
              </>
            )}
          </span>
        )}
      </div>
      {/* the cards scroll inside the panel (many threads): focusable, so the keyboard can scroll them too */}
      <div
        className="vc-cards"
        tabIndex={0}
        role="group"
        aria-label={vc.mode === 'per-thread' ? 'each thread\u2019s VMA cache' : 'each process\u2019s mmap_cache'}
      >
        {vc.mode === 'off' ? (
          <Empty>
            No cache to draw: every find_vma() walks the VMA tree ({fmt(calls)} walks so far). Linux removed the VMA
            cache in 6.1, when the maple tree came.
          </Empty>
        ) : vc.mode === 'per-thread' ? (
          alive.map((t) => <ThreadCard key={t.task} t={t} vc={vc} frame={frame} program={program} />)
        ) : (
          <MmWide vc={vc} frame={frame} program={program} />
        )}
        {!alive.length && <Empty>No thread is alive at this point.</Empty>}
      </div>
      {gone > 0 && (
        <div className="muted vc-note">
          {gone === 1 ? 'One other thread is' : `${gone} other threads are`} not running here (not forked yet, or
          exited).
        </div>
      )}
    </div>
  );
}

/* ------------------------------------------------------------------ tree */

interface Placed extends TreeNode {
  x: number;
  y: number;
  name: string;
}

function layoutTree(tree: TreeNode[], frame: Frame, program: Program, mm: number): { nodes: Placed[]; levels: number } {
  const by = new Map(tree.map((n) => [n.id, n]));
  const order: TreeNode[] = [];
  /* in order: left to right is low to high addresses */
  const walk = (id: number) => {
    const n = by.get(id);
    if (!n) return;
    walk(n.left);
    order.push(n);
    walk(n.right);
  };
  if (tree.length) walk(tree[0].id);
  const levels = Math.max(1, ...tree.map((n) => n.depth + 1));
  return {
    nodes: order.map((n, i) => ({ ...n, x: i, y: n.depth, name: vmaLabel(frame, program, mm, n.id).name })),
    levels,
  };
}

/** a lookup's caption, as one sentence */
function treeCaption(l: Lookup | null, frame: Frame, program: Program, mm: number): string {
  const found = l?.update?.vma ?? 0;
  return !l
    ? 'no find_vma() in this step'
    : l.hit
      ? `find_vma(${hex(l.addr)}): the cache answered, no walk`
      : l.walk.length
        ? `find_vma(${hex(l.addr)}): a miss walked ${l.walk.length} node${l.walk.length > 1 ? 's' : ''}${found ? ` and found ${vmaLabel(frame, program, mm, found).name}` : ''}`
        : `find_vma(${hex(l.addr)}): a miss; the walk follows`;
}

/*
 * The tree. Comparing, both runs have the same VMAs (the cache changes no
 * mapping), so one tree is drawn with both runs' walks: A's numbered in
 * solid blue, B's dashed with a B badge.
 */
export function VmaTree({ frame, program, others = [], label }: ViewProps) {
  /* one tree holds two walks at most: A's and B's (C and D are in the key figures and the hit rate) */
  const other = others[0] ?? null;
  const vc = vmaCacheOf(frame);
  const vb = other ? vmaCacheOf(other.frame) : null;
  const [ref, box, svg] = useStageBox<HTMLDivElement>();
  const mm = vc?.lookup?.mm ?? frame.focusMm;
  const m = vc?.mms.find((x) => x.mm === mm) ?? vc?.mms[0] ?? null;
  const { nodes, levels } = useMemo(
    () => (m ? layoutTree(m.tree, frame, program, m.mm) : { nodes: [], levels: 1 }),
    [m, frame, program],
  );
  const l = vc?.lookup && m && vc.lookup.mm === m.mm ? vc.lookup : null;
  const lb = vb?.lookup && m && vb.lookup.mm === m.mm ? vb.lookup : null;
  const step = new Map(l?.walk.map((w, i) => [w.vma, i + 1]) ?? []);
  const stepB = new Map(lb?.walk.map((w, i) => [w.vma, i + 1]) ?? []);
  const found = l?.update?.vma ?? (l?.hit || null);
  const task = l ? vc!.tasks.find((t) => t.task === l.task) : null;
  const cached = new Set(vc?.mode === 'mm-wide' ? [m?.mmapCache ?? 0] : (task?.slots ?? []));
  const W = box?.w ?? 0,
    H = box?.h ?? 0;
  const pad = H < 120 ? 4 : 12,
    cols = Math.max(1, nodes.length);
  /* nodes shrink to fit the levels in the height; below 26 px the colour line goes */
  const nodeH = Math.max(11, Math.min(32, (H - 2 * pad - 10) / levels - 4));
  const nodeW = Math.max(36, Math.min(120, (W - 2 * pad) / cols - 8));
  const x = (i: number) => pad + ((W - 2 * pad) * (i + 0.5)) / cols;
  /* levels spread over the height, each at least a node high, plus a little (the walk's badges sit on the corners) */
  /* 10 px above the root for the walk's badges */
  const y = (d: number) => pad + 10 + ((H - 2 * pad - nodeH - 10) * d) / Math.max(1, levels - 1) + nodeH / 2;
  const pos = new Map(nodes.map((n) => [n.id, n]));
  const cap = (x: Lookup | null) => (m ? treeCaption(x, frame, program, m.mm) : '');
  const caption =
    !m || !nodes.length
      ? 'No VMAs in this process.'
      : other
        ? `A: ${cap(l)}. B: ${cap(lb)}.`
        : !l
          ? 'No find_vma() in this step: the tree as it stands.'
          : `${cap(l)[0].toUpperCase()}${cap(l).slice(1)}.`;
  return (
    <div className="vc-tree">
      <div className="vc-tree-cap" data-testid="vc-tree-caption">
        {caption}
      </div>
      <div className="vc-tree-box" ref={ref}>
        {box && m && nodes.length > 0 && (
          <svg
            {...svg}
            role="img"
            aria-label={`VMA rb-tree of ${frame.mms.find((z) => z.id === m.mm)?.name ?? 'the process'}: ${nodes.length} nodes${l?.walk.length ? `, walk ${l.walk.map((w) => pos.get(w.vma)?.name ?? w.vma).join(' → ')}` : ''}`}
            data-export
          >
            {nodes.map((n) =>
              [n.left, n.right].map((k) => {
                const c = pos.get(k);
                if (!c) return null;
                const onPath = step.has(n.id) && step.has(k),
                  onB = stepB.has(n.id) && stepB.has(k);
                return (
                  <g key={`${n.id}-${k}`}>
                    <line
                      x1={x(n.x)}
                      y1={y(n.y)}
                      x2={x(c.x)}
                      y2={y(c.y)}
                      className={`vc-edge ${onPath ? 'path' : ''}`}
                    />
                    {onB && <line x1={x(n.x)} y1={y(n.y)} x2={x(c.x)} y2={y(c.y)} className="vc-edge path-b" />}
                  </g>
                );
              }),
            )}
            {nodes.map((n) => {
              const s = step.get(n.id),
                sb = stepB.get(n.id);
              const isFound = found === n.id || (!!lb?.update && lb.update.vma === n.id);
              return (
                <g
                  key={n.id}
                  transform={`translate(${x(n.x) - nodeW / 2},${y(n.y) - nodeH / 2})`}
                  className={`vc-node ${s ? 'visited' : ''} ${sb && !s ? 'visited-b' : ''} ${isFound ? 'found' : ''}`}
                  data-testid={s ? 'vc-walked' : undefined}
                >
                  <rect width={nodeW} height={nodeH} rx={6} />
                  <text
                    x={nodeW / 2}
                    y={nodeH >= 26 ? 13 : nodeH / 2 + Math.min(12, nodeH - 1) / 3}
                    textAnchor="middle"
                    className="vc-node-name"
                    style={{ fontSize: `max(var(--text-min), ${Math.min(12, nodeH - 1)}px)` }}
                  >
                    {n.name.length * 7 > nodeW ? `${n.name.slice(0, Math.max(1, Math.floor(nodeW / 7) - 1))}…` : n.name}
                  </text>
                  {nodeH >= 26 && (
                    <text x={nodeW / 2} y={nodeH - 5} textAnchor="middle" className="vc-node-sub">
                      {/* 12 user units a line at most: the colour shortens first when the node is narrow */}
                      {cached.has(n.id)
                        ? nodeW >= 96
                          ? `${n.red ? 'red' : 'black'} · cached`
                          : 'cached'
                        : n.red
                          ? 'red'
                          : 'black'}
                    </text>
                  )}
                  {s && (
                    <g transform={`translate(${nodeW - 4},-6)`}>
                      <circle r={9} className="vc-badge" />
                      <text textAnchor="middle" y={4} className="vc-badge-t">
                        {s}
                      </text>
                    </g>
                  )}
                  {sb && (
                    <g transform={`translate(4,-6)`}>
                      <rect x={-11} y={-8} width={22} height={16} rx={4} className="vc-badge-b" />
                      <text textAnchor="middle" y={4} className="vc-badge-t">
                        B{sb}
                      </text>
                    </g>
                  )}
                </g>
              );
            })}
          </svg>
        )}
      </div>
      <div className="legend">
        <span title={label}>
          <i className="vc-li visited" />
          {other ? 'A’s walk 1, 2…' : 'visited by the walk (numbered)'}
        </span>
        {other && (
          <span title={other.label}>
            <i className="vc-li visited-b" />
            B’s walk B1, B2…
          </span>
        )}
        <span>
          <i className="vc-li found" />
          found
        </span>
        {!other && (
          <span>
            left to right: low to high addresses
            {m?.tree.some((n) => n.depth === TREE_DEPTH && (n.left || n.right))
              ? `; the top ${TREE_DEPTH + 1} levels`
              : ''}
          </span>
        )}
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ hit rate */

const DASH = ['', '6 3', '2 3', '8 3 2 3', '1 2'];

export function HitRate({ frame, timeline, others = [], label }: ViewProps) {
  const [ref, box, svg] = useStageBox<HTMLDivElement>();
  const runs = [
    { key: 'a', series: timeline.series?.[VMA_CACHE] as VmaCacheSeries | undefined, frame, label: label ?? 'A' },
    ...others.map((o) => ({
      key: o.slot,
      series: o.timeline.series?.[VMA_CACHE] as VmaCacheSeries | undefined,
      frame: o.frame,
      label: o.label,
    })),
  ];
  const lookups = Math.max(1, ...runs.map((r) => r.series?.lookups ?? 0));
  const W = box?.w ?? 0,
    H = box?.h ?? 0;
  const m = { l: 44, r: 12, t: 10, b: 26 };
  const sx = scaleLinear()
    .domain([0, lookups])
    .range([m.l, Math.max(m.l + 1, W - m.r)]);
  const sy = scaleLinear()
    .domain([0, 1])
    .range([Math.max(m.t + 1, H - m.b), m.t]);
  const at = lookupsAt(frame.counters);
  const threads = runs[0].series?.threads ?? [];
  if (!runs[0].series)
    return <Empty>{timeline.big ? 'A big run records no lookups to chart.' : 'Recording the run\u2026'}</Empty>;
  if (!threads.length) return <Empty>No find_vma() calls in this run.</Empty>;
  const colour = (i: number) => `var(--vc-line-${i % 6})`;
  const path = line<[number, number]>()
    .x((d) => sx(d[0]))
    .y((d) => sy(d[1]));
  return (
    <div className="vc-rate-view">
      <div className="vc-rate-box" ref={ref}>
        {box && (
          <svg
            {...svg}
            role="img"
            data-export
            aria-label={`Hit rate per thread over ${fmt(lookups)} lookups${runsAgainst(runs)}`}
          >
            {/* as many ticks as there is room for, 16 user units apart at least */}
            {(H - m.t - m.b >= 64 ? [0, 0.25, 0.5, 0.75, 1] : H - m.t - m.b >= 32 ? [0, 0.5, 1] : [0, 1]).map((v) => (
              <g key={v}>
                <line x1={m.l} x2={W - m.r} y1={sy(v)} y2={sy(v)} className="vc-grid" />
                <text x={m.l - 6} y={sy(v) + 4} textAnchor="end" className="vc-axis">
                  {v * 100}%
                </text>
              </g>
            ))}
            <text x={W - m.r} y={H - 6} textAnchor="end" className="vc-axis">
              find_vma calls in the run →
            </text>
            {runs.map((r, ri) =>
              (r.series?.threads ?? []).map((t, i) => (
                <path
                  key={`${r.key}-${t.task}`}
                  d={path(t.x.map((xx, k) => [xx, t.rate[k]] as [number, number])) ?? ''}
                  className="vc-line"
                  style={{
                    stroke: colour(i),
                    strokeDasharray: ri ? RUN_DASH[r.key as 'b'] : DASH[i % DASH.length] || undefined,
                  }}
                />
              )),
            )}
            <line x1={sx(at)} x2={sx(at)} y1={m.t} y2={H - m.b} className="vc-cursor" />
          </svg>
        )}
      </div>
      <div className="legend vc-rate-legend">
        {threads.slice(0, 8).map((t, i) => {
          const rate = (f: (typeof runs)[number]['frame']) => {
            const c = f.tasks[t.task]?.counters;
            return c ? pct(c.vmacache_find_hits ?? 0, c.vmacache_find_calls ?? 0) : '–';
          };
          return (
            <span key={t.task}>
              <svg width="22" height="10" aria-hidden>
                <line
                  x1="0"
                  x2="22"
                  y1="5"
                  y2="5"
                  style={{ stroke: colour(i), strokeWidth: 3, strokeDasharray: DASH[i % DASH.length] || undefined }}
                />
              </svg>
              {t.name}{' '}
              {runs.map((r, ri) => (
                <span key={r.key}>
                  {ri ? ' / ' : ''}
                  <b className="num">{rate(r.frame)}</b>
                </span>
              ))}
            </span>
          );
        })}
        {threads.length > 8 && <span>and {threads.length - 8} more</span>}
        {runs.length > 1 && (
          <span>
            {runs
              .map((r, ri) => `${ri ? `${RUN_STROKE_NAME[r.key as 'b']}` : 'as drawn per thread'}: ${r.label}`)
              .join('; ')}
          </span>
        )}
      </div>
    </div>
  );
}

export const views: ViewComponents = {
  vmacache: CacheSlots,
  'vma-tree': VmaTree,
  'vmacache-rate': HitRate,
};
