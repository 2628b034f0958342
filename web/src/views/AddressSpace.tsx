/**
 * The address space: the process's VMAs on a strip (gaps collapsed), and the
 * selected VMA's pages as a grid of cells, 64 pages (256 KiB) per row and a
 * faint line every 8 rows (one 2 MiB page table). Cells are coloured by how
 * the page got mapped; the mechanisms' marks on the fault in progress are
 * drawn over them (a window bracketed, skipped pages crossed, a predicted
 * page dashed: their frame providers' fault() slot, named in the legend by
 * their modules' `marks`), and hovering explains a cell. Behind a file mapping
 * the page cache shows through: pages cached but not mapped, pages being
 * read, PG_readahead marks, and the file's current readahead window (a bar
 * under its pages, solid where it is ahead of the reader). d3-zoom zooms from the
 * whole VMA down to single pages (with their file page numbers). VMAs too
 * large to draw page by page (big runs) are heat strips.
 */
import { focusedByPointer } from '../lib/keyboard.js';
import { select, zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useBoxSize } from './useBoxSize.js';
import { useHighlight } from './useHighlight.js';
import { usePicture } from './picture.js';
import { PC, PC_CONT, PC_READAHEAD, PC_STATE_MASK, VM } from '../../../wasm-core/ts/abi.js';
import { CAUSE, CAUSE_NAMES, type FaultMark, type FileView, type Frame, type VmaView } from '../frames/types.js';
import type { Program } from '../../../wasm-core/ts/compile.js';
import { MECHANISM_DEFS } from '../mechanisms/registry.js';
import { fmt, hex, size } from '../lib/format.js';
import { CAUSE_LEGEND, readPalette, type Palette } from '../lib/palette.js';
import type { ViewProps } from './types.js';
import { dispatch, useStore } from '../store/store.js';
import { pickingOn, STAGE_TEXT } from '../store/state.js';

/** the row addresses' gutter at 14 px labels; wider with the stage's larger labels (labelPx) */
const GUTTER = 136;
const LABEL_PX = 14;
/** the canvas's label size: 14 px, or the stage's smallest text (presenter mode) */
const labelPxFor = (stageText: number) => Math.max(LABEL_PX, stageText);
const gutterFor = (labelPx: number) => Math.round((GUTTER * labelPx) / LABEL_PX);
/**
 * Pages per row: 64, 32 or 16, the most that fit at >= 14 px. A power of two
 * divides a 512-page table into whole rows and keeps an aligned window of up
 * to 16 pages inside one row.
 */
function columnsFor(width: number, gutter: number): number {
  const fit = (width - gutter - 8) / 14;
  return fit >= 64 ? 64 : fit >= 32 ? 32 : 16;
}

function vmaName(v: VmaView, maps: string[], files: string[]): string {
  const m = v.map !== null ? maps[v.map] : null;
  return m ?? (v.file !== null ? files[v.file] : 'anonymous');
}

function presentCount(v: VmaView): number {
  if (v.pages) {
    let n = 0;
    for (let i = 0; i < v.pages.length; i++) n += v.pages[i] & 1;
    return n;
  }
  return v.heat ? v.heat.reduce((a, b) => a + b, 0) : 0;
}

export function AddressSpace({ frame, program, theme }: ViewProps) {
  const picture = usePicture();
  const pageMmSel = useStore((s) => s.mmSel);
  /* a picture shows the process at its moment and the mapping it names, whatever the page has chosen */
  const mmSel = picture ? null : pageMmSel;
  const setMmSel = (mm: number | null) => dispatch({ type: 'selectMm', mm });
  const [vmaSel, setVmaSel] = useState<number | null>(null);
  const mmId = mmSel ?? frame.focusMm;
  const mm = frame.mms[mmId] ?? frame.mms[0];
  const faultVma = frame.fault
    ? mm?.vmas.find((v) => frame.fault!.addr >= v.start && frame.fault!.addr < v.end)
    : undefined;
  const named = picture?.vma
    ? mm?.vmas.find((v) => vmaName(v, program.maps, program.files) === picture.vma)
    : undefined;
  const coreVma =
    (vmaSel !== null ? mm?.vmas.find((v) => v.id === vmaSel) : undefined) ?? named ?? faultVma ?? mm?.vmas[0];
  const vma: VmaView | undefined = coreVma;
  const following = vmaSel === null;

  if (!mm) return <div className="placeholder">No process.</div>;
  return (
    <div className="as">
      {/* one row of fixed height: the processes (when there are several), then the VMAs of the one shown */}
      <div className="as-row">
        {frame.mms.length > 1 && (
          <div className="as-procs" role="tablist" aria-label="Processes">
            {frame.mms.map((m) => (
              <button
                type="button"
                key={m.id}
                role="tab"
                aria-selected={m.id === mmId}
                className={`btn ${m.id === mmId ? 'active' : ''}`}
                onClick={() => {
                  setMmSel(m.id === frame.focusMm ? null : m.id);
                  setVmaSel(null);
                }}
              >
                {m.name}
                {m.alive ? '' : m.exited ? ' (exited)' : ' (not forked yet)'}
              </button>
            ))}
          </div>
        )}
        <VmaStrip
          frame={frame}
          vmas={mm.vmas}
          selected={vma?.id ?? null}
          maps={program.maps}
          files={program.files}
          onSelect={(id) => setVmaSel(id === faultVma?.id ? null : id)}
        />
      </div>
      {!mm.alive && (
        <div className="placeholder as-fill">
          <p>
            {mm.exited ? (
              <>Process {mm.name} has exited: it has no mappings.</>
            ) : (
              <>
                Process {mm.name} does not exist yet: a <code>fork</code> further on creates it.
              </>
            )}
          </p>
        </div>
      )}
      {mm.alive && !vma && (
        <div className="placeholder as-fill">
          <p>{emptyText(mm.id, mm.name, frame.step, program)}</p>
        </div>
      )}
      {vma && (
        <VmaGrid
          key={`${mmId}:${vma.id}`}
          vma={vma}
          frame={frame}
          theme={theme}
          following={following}
          label={vmaName(vma, program.maps, program.files)}
          onFollow={() => setVmaSel(null)}
        />
      )}
      {/* before the first mapping, the legend of the kind the scenario will map (it does not change size when one appears) */}
      <Legend
        file={vma ? vma.file !== null : program.files.length > 0}
        fork={program.procs.some((p) => p.forked)}
        folio={mayJoin(program)}
      />
    </div>
  );
}

function VmaStrip({
  frame,
  vmas,
  selected,
  maps,
  files,
  onSelect,
}: {
  frame: Frame;
  vmas: VmaView[];
  selected: number | null;
  maps: string[];
  files: string[];
  onSelect: (id: number) => void;
}) {
  /* a tour's highlighted mapping, by its name */
  const spot = useHighlight('vma')?.name ?? null;
  if (!vmas.length) return <div className="as-strip" role="group" aria-label="VMAs: none" />;
  /* thousands of VMAs: a window around the selected one (all of them took seconds to lay out) */
  const at = Math.max(
    0,
    vmas.findIndex((v) => v.id === selected),
  );
  const from = vmas.length <= VMA_WINDOW ? 0 : Math.max(0, Math.min(vmas.length - VMA_WINDOW, at - VMA_WINDOW / 4));
  const to = Math.min(vmas.length, from + VMA_WINDOW);
  return (
    <div className="as-strip" role="group" aria-label="VMAs of this process, in address order (gaps not to scale)">
      {from > 0 && <span className="as-gap">{fmt(from)} VMAs below</span>}
      {vmas.slice(from, to).map((v, k) => {
        const i = from + k;
        const pages = (v.end - v.start) / 4096;
        const present = presentCount(v);
        const gap = i > 0 ? v.start - vmas[i - 1].end : 0;
        const flags = `${v.flags & VM.WRITE ? 'rw' : 'r-'}${v.flags & VM.SHARED ? 's' : 'p'}`;
        return (
          <div key={v.id} style={{ display: 'contents' }}>
            {gap > 0 && (
              <span className="as-gap" title={`${fmt(gap)} bytes unmapped`}>
                ⋯ {size(gap)} ⋯
              </span>
            )}
            <button
              type="button"
              className={`as-vma ${v.id === selected ? 'sel' : ''} ${spot !== null && vmaName(v, maps, files) === spot ? 'spot' : ''}`}
              onClick={() => onSelect(v.id)}
              aria-pressed={v.id === selected}
              title={`[${hex(v.start)}, ${hex(v.end)}) ${flags} ${fmt(pages)} pages${frame.fault && frame.fault.addr >= v.start && frame.fault.addr < v.end ? ' - faulting now' : ''}`}
            >
              <span className="n">
                {vmaName(v, maps, files)} <span className="r">{flags}</span>
              </span>
              <span className="r">
                {hex(v.start)} · {size(v.end - v.start)}
              </span>
              <span className="bar" aria-hidden>
                <i style={{ width: `${(100 * present) / pages}%` }} />
              </span>
            </button>
          </div>
        );
      })}
      {to < vmas.length && <span className="as-gap">{fmt(vmas.length - to)} VMAs above</span>}
    </div>
  );
}

/** why a live process shows no VMA: none mapped yet, none left, or none in the whole scenario */
function emptyText(mm: number, name: string, step: number | null, program: Program): React.ReactNode {
  const own = program.steps.flatMap((st, i) => (st.kind === 'mmap' && st.proc === mm ? [i] : []));
  /* a forked process is alive only after its fork, which may have copied mappings since gone */
  const forked = program.procs[mm]?.forked ?? false;
  if (!own.length && !forked) return <>Process {name} maps nothing in this scenario.</>;
  /* a step runs after its index: an mmap step before the current one has mapped (and its VMA is gone since) */
  if (forked || (step !== null && own.some((i) => i < step)))
    return <>Process {name} has nothing mapped at this point.</>;
  return (
    <>
      Nothing is mapped yet. Step forward to {name}&rsquo;s first <code>mmap</code>.
    </>
  );
}

/** at most this many VMAs on the strip */
const VMA_WINDOW = 40;

/** what the cells mean: short labels (the tooltip says more); a file mapping's page-cache states only beside a file, fork's copies only where a process forks */
function Legend({ file, fork, folio }: { file: boolean; fork: boolean; folio: boolean }) {
  const item = (cls: string, label: string, title: string, style?: React.CSSProperties) => (
    <span key={label} title={title}>
      <i className={cls} style={style} />
      {label}
    </span>
  );
  return (
    <div className="legend" role="group" aria-label="Legend">
      {item('empty', 'not present', 'no page-table entry for this page')}
      {CAUSE_LEGEND.filter((l) =>
        file
          ? l.cause <= CAUSE.major
          : l.cause !== CAUSE.around && l.cause !== CAUSE.major && (fork || l.cause !== CAUSE.fork),
      ).map((l) => item('', l.short, l.label, { background: l.css }))}
      {MECHANISM_DEFS.flatMap((m) => m.marks ?? [])
        .filter((l) => l.file === file)
        .map((l) => item(MARK_CLASS[l.kind], l.label, l.title))}
      {file && (
        <>
          {item('empty cached', 'cached', 'in the page cache, not mapped here')}
          {item('reading', 'being read', 'in the page cache, locked while its read I/O is in flight')}
          {item('empty mark', 'PG_readahead', 'a fault here starts the next readahead')}
          {item('ra', 'readahead window', 'the file\u2019s readahead window (thick: the part ahead of the reader)')}
        </>
      )}
      {folio && item('folio', 'large folio', 'cells joined into one block: the pages of one large folio')}
    </div>
  );
}

/**
 * whether this run can show large folios as joined cells (the legend says so from the start, so that it
 * does not change size when the first one appears): a disk file under 6.18's large page-cache folios, or
 * anonymous THP or mTHP
 */
function mayJoin(program: ViewProps['program']): boolean {
  const k = program.scenario.kernel;
  return (
    (k.pagecache_large_folios && program.scenario.files.some((f) => f.fs !== 'tmpfs')) ||
    k.thp !== 'never' ||
    k.mthp.length > 0
  );
}

/** a fault mark's legend swatch (styles.css) */
const MARK_CLASS: Record<FaultMark['kind'], string> = { range: 'win', cross: 'empty skip', guess: 'empty guess' };

/** the marks on the fault in progress over a page */
const marksAt = (frame: Frame, addr: number) => frame.fault?.marks.filter((m) => addr >= m.start && addr < m.end) ?? [];

interface Hover {
  x: number;
  y: number;
  page: number;
}

function VmaGrid({
  vma,
  frame,
  theme,
  following,
  label,
  onFollow,
}: {
  vma: VmaView;
  frame: Frame;
  theme: string;
  following: boolean;
  label: string;
  onFollow: () => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [wrap, box] = useBoxSize<HTMLDivElement>();
  const width = box?.w ?? 800,
    height = Math.max(120, box?.h ?? 320);
  const [transform, setTransform] = useState<ZoomTransform>(zoomIdentity);
  const zoomRef = useRef<ZoomBehavior<HTMLCanvasElement, unknown> | null>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  /* the page the keyboard inspects (arrows move it, + and - zoom around it) */
  const [inspect, setInspect] = useState<number | null>(null);
  const picture = usePicture();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the palette is read from CSS, which the theme changes
  const palette = useMemo<Palette>(() => readPalette(picture?.root), [theme, picture]);

  const n = (vma.end - vma.start) / 4096;
  const heat = !vma.pages;
  const labelPx = labelPxFor(useStore((s) => (s.present ? STAGE_TEXT * s.fontScale : 0)));
  const gutter = gutterFor(labelPx);
  const COLS = columnsFor(width, gutter);
  const rows = Math.ceil(n / COLS);
  const cell = Math.max(4, Math.floor((width - gutter - 8) / COLS));
  const gridH = heat ? 96 : rows * cell;
  /* the zoom that shows the whole mapping */
  const fitK = Math.min(1, (height - 8) / (gridH + 8));

  /* d3-zoom on the canvas: scale from the whole VMA down to single pages; a wheel notch is about 1.15x */
  useEffect(() => {
    const el = canvas.current;
    if (!el || heat) return;
    const z = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([fitK, (48 / Math.min(cell, 48)) * 4])
      .extent([
        [0, 0],
        [width, height],
      ])
      .translateExtent([
        [0, 0],
        [width, Math.max(gridH + 8, height)],
      ])
      .wheelDelta(
        (e: WheelEvent) => -e.deltaY * (e.deltaMode === 1 ? 0.05 : e.deltaMode ? 1 : 0.002) * (e.ctrlKey ? 5 : 0.5),
      )
      .on('zoom', (e) => setTransform(e.transform));
    zoomRef.current = z;
    select(el).call(z).on('dblclick.zoom', null);
    return () => {
      select(el).on('.zoom', null);
    };
  }, [width, height, gridH, cell, heat, fitK]);

  /** pan (keeping the zoom) so that page p is on screen, both ways; centred if it was off */
  const reveal = (p: number, t: ZoomTransform = transform) => {
    const el = canvas.current,
      z = zoomRef.current;
    if (!el || !z || heat || p < 0 || p >= n) return;
    const k = t.k,
      cs = cell * k;
    const x = (gutter + (p % COLS) * cell) * k + t.x,
      y = (4 + Math.floor(p / COLS) * cell) * k + t.y;
    let tx = t.x,
      ty = t.y;
    if (x < gutter || x + cs > width - 4) tx = -((gutter + (p % COLS) * cell) * k) + width / 2;
    if (y < 0 || y + cs > height - 4) ty = -((4 + Math.floor(p / COLS) * cell) * k) + height / 3;
    if (tx !== t.x || ty !== t.y || t.k !== transform.k)
      select(el).call(z.transform, zoomIdentity.translate(Math.min(0, tx), Math.min(0, ty)).scale(k));
  };

  /* follow the fault: keep its page on screen, across and down */
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow a new fault or a resize, not every pan (reveal changes with the transform)
  useEffect(() => {
    if (!following || !frame.fault || inspect !== null) return;
    reveal(Math.floor((frame.fault.addr - vma.start) / 4096));
  }, [frame.fault?.addr, following, cell, height, width]);

  const zoomBy = (f: number, p: number | null) => {
    const el = canvas.current,
      z = zoomRef.current;
    if (!el || !z) return;
    const at: [number, number] =
      p === null
        ? [width / 2, height / 2]
        : [
            (gutter + ((p % COLS) + 0.5) * cell) * transform.k + transform.x,
            (4 + (Math.floor(p / COLS) + 0.5) * cell) * transform.k + transform.y,
          ];
    select(el).call(z.scaleBy, f, at);
  };
  const onKey = (e: React.KeyboardEvent) => {
    /* clicked, not tabbed to: the keys step the run, as everywhere */
    if (heat || focusedByPointer(e.currentTarget)) return;
    const start =
      inspect ??
      (frame.fault && frame.fault.addr >= vma.start && frame.fault.addr < vma.end
        ? Math.floor((frame.fault.addr - vma.start) / 4096)
        : 0);
    const move: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -COLS, ArrowDown: COLS };
    if (e.key in move) {
      const p = Math.max(0, Math.min(n - 1, inspect === null ? start : start + move[e.key] * (e.shiftKey ? 8 : 1)));
      setInspect(p);
      reveal(p);
    } else if (e.key === '+' || e.key === '=') zoomBy(1.5, inspect ?? start);
    else if (e.key === '-' || e.key === '_') zoomBy(1 / 1.5, inspect ?? start);
    else if (e.key === '0') fitAll();
    else if (e.key === 'Enter' && picking && inspect !== null)
      /* an exercise's pick question: Enter picks (or unpicks) the page the arrows inspect */
      dispatch({ type: 'togglePick', id: picking, page: inspect });
    else if (e.key === 'Enter') {
      setInspect(null);
      onFollow();
    } else return;
    e.preventDefault();
  };
  const fitAll = () =>
    canvas.current &&
    zoomRef.current &&
    select(canvas.current).call(zoomRef.current.transform, zoomIdentity.scale(fitK));
  const shown: Hover | null =
    inspect !== null && !heat
      ? {
          page: inspect,
          x: (gutter + ((inspect % COLS) + 1) * cell) * transform.k + transform.x,
          y: (4 + (Math.floor(inspect / COLS) + 1) * cell) * transform.k + transform.y,
        }
      : hover;

  /* an exercise's pick question on this mapping: a click picks a page (Enter the inspected one) */
  const picking = useStore((s) => (picture ? null : pickingOn(s, label)));
  const pickedList = useStore((s) => (picking ? s.quiz?.picked[picking] : undefined));
  const picked = useMemo(() => new Set(pickedList ?? []), [pickedList]);
  /* a tour beat's pages, bracketed for the audience */
  const spot = useHighlight('pages');
  const spotFrom = spot?.from ?? -1,
    spotTo = spot?.to ?? -1;

  /* draw */
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const dpr = window.devicePixelRatio || 1;
    el.width = Math.round(width * dpr);
    el.height = Math.round(height * dpr);
    const g = el.getContext('2d')!;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    if (heat) drawHeat(g, vma, width, palette, labelPx);
    else
      drawGrid(
        g,
        vma,
        frame,
        transform,
        cell,
        COLS,
        width,
        height,
        palette,
        inspect,
        [spotFrom, spotTo],
        labelPx,
        picked,
      );
  }, [vma, frame, transform, cell, COLS, width, height, palette, heat, inspect, spotFrom, spotTo, labelPx, picked]);

  const pageAt = (x: number, y: number): number | null => {
    if (heat) return null;
    const k = transform.k;
    const gx = (x - transform.x) / k - gutter,
      gy = (y - transform.y) / k - 4;
    if (gx < 0 || gy < 0) return null;
    const c = Math.floor(gx / cell),
      r = Math.floor(gy / cell);
    const p = r * COLS + c;
    return c < COLS && p < n ? p : null;
  };

  const present = presentCount(vma);
  const f = frame.fault && frame.fault.addr >= vma.start && frame.fault.addr < vma.end ? frame.fault : null;
  const summary = `${label}: ${fmt(n)} pages, ${fmt(present)} mapped${f ? `; a ${f.write ? 'write' : 'read'} fault at page ${fmt((f.addr - vma.start) / 4096)}${f.notes.map((x) => `, ${x.bold ?? ''}${x.text}`).join('')}` : ''}${cacheSummary(vma, frame)}.`;

  return (
    <div className="as-grid">
      <div className="as-canvas-wrap" ref={wrap}>
        <canvas
          ref={canvas}
          style={{ height }}
          role="img"
          aria-label={summary}
          tabIndex={heat ? -1 : 0}
          data-grid-keys
          aria-describedby="as-keys"
          aria-roledescription="page grid"
          onKeyDown={onKey}
          onBlur={() => setInspect(null)}
          onMouseMove={(e) => {
            const r = e.currentTarget.getBoundingClientRect();
            const p = pageAt(e.clientX - r.left, e.clientY - r.top);
            setHover(p === null ? null : { x: e.clientX - r.left, y: e.clientY - r.top, page: p });
          }}
          onMouseLeave={() => setHover(null)}
          onClick={(e) => {
            if (!picking) return;
            const r = e.currentTarget.getBoundingClientRect();
            const p = pageAt(e.clientX - r.left, e.clientY - r.top);
            if (p !== null) dispatch({ type: 'togglePick', id: picking, page: p });
          }}
          data-picking={picking ?? undefined}
          data-picked={picking ? picked.size : undefined}
          /* where page p is drawn, for tools and tests: x0 + (p % cols) * cell, y0 + row * cell (CSS px) */
          data-cell={cell * transform.k}
          data-x0={gutter * transform.k + transform.x}
          data-y0={4 * transform.k + transform.y}
          data-cols={COLS}
        />
        {shown && <Tooltip hover={shown} vma={vma} frame={frame} width={width} height={height} />}
      </div>
      <p className="visually-hidden" id="as-keys">
        Arrow keys inspect a page, plus and minus zoom, 0 fits the mapping, Enter follows the fault again.
      </p>
      <p className="visually-hidden" aria-live="polite">
        {inspect !== null ? pageText(vma, frame, inspect) : summary}
      </p>
      <div className="as-foot">
        <div className="fault-line">{faultLine(frame, vma)}</div>
        {!heat && (
          <div className="as-tools">
            {!following && (
              <button type="button" className="btn" onClick={onFollow}>
                Follow the fault
              </button>
            )}
            <button
              type="button"
              className="btn"
              aria-label="Zoom in (+)"
              title="Zoom in (+ with the grid focused)"
              onClick={() => zoomBy(1.5, inspect)}
            >
              +
            </button>
            <button
              type="button"
              className="btn"
              aria-label="Zoom out (−)"
              title="Zoom out (− with the grid focused)"
              onClick={() => zoomBy(1 / 1.5, inspect)}
            >
              −
            </button>
            <button
              type="button"
              className="btn"
              aria-label="Zoom out to the whole mapping (0)"
              title="The whole mapping (0)"
              onClick={fitAll}
            >
              Fit
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

/** one page in words, for the keyboard's inspector (screen readers) */
function pageText(vma: VmaView, frame: Frame, p: number): string {
  const st = vma.pages?.[p] ?? 0;
  const addr = vma.start + p * 4096;
  const marks = marksAt(frame, addr).map((m) => `; ${m.lead ? `${m.lead} ` : ''}${m.title}`);
  return `page ${p}, ${hex(addr)}: ${st & 1 ? `present, ${CAUSE_NAMES[st >> 4]}` : 'not present'}${marks.join('')}`;
}

/** the page cache behind a file VMA, in words (for screen readers) */
function cacheSummary(vma: VmaView, frame: Frame): string {
  if (!vma.cache || !vma.pages) return '';
  let cached = 0,
    reading = 0;
  const marks: number[] = [];
  for (let p = 0; p < vma.cache.length; p++) {
    const state = vma.cache[p] & PC_STATE_MASK;
    if (state === PC.reading) reading++;
    else if (state === PC.uptodate && !(vma.pages[p] & 1)) cached++;
    if (vma.cache[p] & PC_READAHEAD) marks.push(vma.pgoff + p);
  }
  const ra = raOf(vma, frame);
  return (
    `; ${fmt(cached)} pages in the page cache but not mapped, ${fmt(reading)} being read` +
    (ra ? `; readahead window file pages ${fmt(ra.start)}–${fmt(ra.start + ra.size - 1)}` : '') +
    (marks.length
      ? `; PG_readahead on page${marks.length > 1 ? 's' : ''} ${marks.slice(0, 4).map(fmt).join(', ')}`
      : '')
  );
}

function faultLine(frame: Frame, vma: VmaView) {
  const f = frame.fault;
  if (!f || f.addr < vma.start || f.addr >= vma.end) {
    return (
      heatNote(vma) ?? (
        <span className="operator-hint">Scroll or pinch to zoom, drag to pan; hover a page to see its state.</span>
      )
    );
  }
  const page = (f.addr - vma.start) / 4096;
  const mapped = f.mapped.length;
  return (
    <span>
      <b>{f.write ? 'Write' : 'Read'} fault</b> at page {fmt(page)} ({hex(f.addr)})
      {f.notes.map((x, i) => (
        <span key={i}>
          {' · '}
          {x.bold && <b>{x.bold}</b>}
          {x.text}
        </span>
      ))}
      {mapped > 0 && (
        <>
          {' '}
          · <b>{mapped}</b> mapped
        </>
      )}
      {f.major && (
        <>
          {' '}
          · <b>major</b>
        </>
      )}
      {f.retried && <> · retried</>}
      {f.done ? ' · done' : ' · in progress'}
    </span>
  );
}

function heatNote(vma: VmaView) {
  if (vma.pages) return null;
  return (
    <span>
      This mapping is too large to draw page by page: each column is{' '}
      {fmt(Math.ceil((vma.end - vma.start) / 4096 / (vma.heat?.length ?? 1)))} pages, darker = more of them mapped.
    </span>
  );
}

const CACHE_TEXT: Record<number, string> = {
  [PC.none]: 'not in the page cache',
  [PC.uptodate]: 'in the page cache',
  [PC.reading]: 'in the page cache, being read (locked until the read completes)',
  [PC.shadow]: 'evicted (a shadow entry is left)',
};

/** ", in a large folio of file pages a–b" when page p's cache entry is part of one (as far as this VMA shows it) */
function folioText(cache: Uint8Array, p: number, pgoff: number): string {
  let a = p,
    b = p;
  while (a > 0 && cache[a] & PC_CONT) a--;
  while (b + 1 < cache.length && cache[b + 1] & PC_CONT) b++;
  return b > a ? `, in a large folio (file pages ${fmt(pgoff + a)}–${fmt(pgoff + b)})` : '';
}

/** the readahead window of the VMA's file, in the VMA's page numbers */
function raOf(vma: VmaView, frame: Frame): (FileView['ra'] & { first: number }) | null {
  const ra = vma.file !== null ? frame.files[vma.file]?.ra : null;
  return ra ? { ...ra, first: ra.start - vma.pgoff } : null;
}

function Tooltip({
  hover,
  vma,
  frame,
  width,
  height,
}: {
  hover: Hover;
  vma: VmaView;
  frame: Frame;
  width: number;
  height: number;
}) {
  const st = vma.pages![hover.page];
  const pc = vma.cache?.[hover.page];
  const ra = raOf(vma, frame);
  const inRa = ra && hover.page >= ra.first && hover.page < ra.first + ra.size;
  const addr = vma.start + hover.page * 4096;
  const cause = st >> 4;
  const f = frame.fault;
  const marks = marksAt(frame, addr);
  /* a cross says more than a range over the same page (skipped, rather than inside the window) */
  const crossed = marks.some((m) => m.kind === 'cross');
  const left = Math.min(hover.x + 14, width - 300);
  /* below the pointer, or above it in the lower half, so that the grid's edge never cuts it */
  const place = hover.y > height / 2 ? { bottom: height - hover.y + 12 } : { top: hover.y + 16 };
  return (
    <div className="tooltip" style={{ left, ...place }}>
      <b>page {fmt(hover.page)}</b> · {hex(addr)}
      {vma.file !== null && <> · file page {fmt(vma.pgoff + hover.page)}</>}
      <br />
      {st & 1 ? (
        <>
          present, {st & 2 ? 'writable' : 'read-only'}
          {st & 8 ? ', the zero page' : st & 4 ? ', anonymous' : ''}; {CAUSE_NAMES[cause]}
        </>
      ) : (
        'not present'
      )}
      {addr === f?.addr && (
        <>
          <br />
          <b>the faulting address</b>
        </>
      )}
      {marks
        .filter((m) => m.kind !== 'range' || (!crossed && addr !== f?.addr))
        .map((m) => (
          <span key={`${m.kind}:${m.start}`}>
            <br />
            {m.lead && <b>{m.lead}</b>} {m.title}
          </span>
        ))}
      {pc !== undefined && (
        <>
          <br />
          {CACHE_TEXT[pc & PC_STATE_MASK]}
          {folioText(vma.cache!, hover.page, vma.pgoff)}
        </>
      )}
      {pc !== undefined && (pc & PC_READAHEAD) !== 0 && (
        <>
          <br />
          <b>PG_readahead:</b> a fault here starts the next readahead
        </>
      )}
      {inRa && (
        <>
          <br />
          in the readahead window, file pages {fmt(ra.start)}–{fmt(ra.start + ra.size - 1)}
          {hover.page >= ra.first + ra.size - ra.async ? ' (the part ahead of the reader)' : ''}
        </>
      )}
    </div>
  );
}

function drawGrid(
  g: CanvasRenderingContext2D,
  vma: VmaView,
  frame: Frame,
  t: ZoomTransform,
  cell: number,
  COLS: number,
  width: number,
  height: number,
  pal: Palette,
  inspect: number | null,
  spot: [number, number],
  labelPx: number,
  picked: ReadonlySet<number> = new Set(),
) {
  const pages = vma.pages!;
  const n = pages.length;
  const k = t.k;
  const cs = cell * k;
  const x0 = t.x + gutterFor(labelPx) * k,
    y0 = t.y + 4 * k;
  const gap = cs >= 6 ? Math.max(1, Math.min(2, cs / 10)) : 0;
  const r0 = Math.max(0, Math.floor(-y0 / cs)),
    r1 = Math.min(Math.ceil(n / COLS), Math.ceil((height - y0) / cs));
  const c0 = Math.max(0, Math.floor(-x0 / cs)),
    c1 = Math.min(COLS, Math.ceil((width - x0) / cs));
  const f = frame.fault && frame.fault.addr >= vma.start && frame.fault.addr < vma.end ? frame.fault : null;

  for (let r = r0; r < r1; r++) {
    for (let c = c0; c < c1; c++) {
      const p = r * COLS + c;
      if (p >= n) break;
      const st = pages[p];
      g.fillStyle = st & 1 ? (pal.cause[st >> 4] ?? pal.cause[0]) : pal.empty;
      /*
       * a page continuing the previous page's large folio (mapped: the PTEs' folio; cached: the page
       * cache's) closes the gap between them: a folio reads as one block
       */
      const pc = vma.cache ? vma.cache[p] : 0;
      const joined =
        c > 0 && ((vma.joins !== undefined && (vma.joins[p >> 5] & (1 << (p & 31))) !== 0) || (pc & PC_CONT) !== 0);
      g.fillRect(x0 + c * cs - (joined ? gap : 0), y0 + r * cs, cs - gap + (joined ? gap : 0), cs - gap);
      if (!(st & 1) && cs >= 5) drawCache(g, pc, x0 + c * cs, y0 + r * cs, cs - gap, pal);
      if (st & 1 && st >> 4 === CAUSE.major && cs >= 7) {
        g.fillStyle = '#fff';
        g.beginPath();
        g.arc(x0 + c * cs + (cs - gap) / 2, y0 + r * cs + (cs - gap) / 2, Math.max(1.5, cs / 7), 0, 2 * Math.PI);
        g.fill();
      }
      if (cs >= 30) {
        g.fillStyle = st & 1 ? '#fff' : pal.muted;
        g.font = `${Math.min(labelPx, cs / 3)}px ui-monospace, monospace`;
        g.textAlign = 'center';
        g.textBaseline = 'middle';
        g.fillText(
          String(vma.file !== null ? vma.pgoff + p : p),
          x0 + c * cs + (cs - gap) / 2,
          y0 + r * cs + (cs - gap) / 2,
        );
      }
    }
  }
  /* page-table boundaries (every 8 rows = 512 pages = 2 MiB) and row addresses */
  g.strokeStyle = pal.emptyLine;
  g.lineWidth = 1;
  g.fillStyle = pal.muted;
  g.font = `${labelPx}px ui-monospace, monospace`;
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  const first = Math.floor((vma.start % 2 ** 21) / 4096);
  for (let r = r0; r <= r1; r++) {
    const p = r * COLS;
    if ((first + p) % 512 === 0 && r > 0) {
      g.beginPath();
      g.moveTo(x0 - 4, y0 + r * cs - gap / 2);
      g.lineTo(x0 + COLS * cs, y0 + r * cs - gap / 2);
      g.stroke();
    }
    /* an address at each page table (2 MiB), at every row once zoomed in */
    const label = cs >= 28 || r === 0 || (first + p) % 512 < COLS;
    if (r < r1 && label && p < n) g.fillText(hex(vma.start + p * 4096), x0 - 8, y0 + r * cs + cs / 2);
  }
  /* the file's readahead window: a bar along the bottom of its cells, thin where it is behind the reader */
  const ra = raOf(vma, frame);
  if (ra) {
    const a = Math.max(0, ra.first),
      b = Math.min(n, ra.first + ra.size),
      ahead = ra.first + ra.size - ra.async;
    g.fillStyle = pal.ra;
    for (let p = a; p < b; p++) {
      const h = p >= ahead ? Math.max(4, cs / 5) : Math.max(2, cs / 10);
      g.fillRect(
        x0 + (p % COLS) * cs,
        y0 + Math.floor(p / COLS) * cs + cs - gap - h,
        cs - (p + 1 < b && (p + 1) % COLS ? 0 : gap),
        h,
      );
    }
  }
  if (f) drawFault(g, vma, f, x0, y0, cs, gap, COLS, n, pal);
  /* a tour's highlighted pages: a thick accent outline, row by row, outside the fault's own brackets */
  if (spot[0] >= 0) {
    g.strokeStyle = pal.accent;
    g.lineWidth = Math.max(3, Math.min(6, cs / 3));
    for (let p = Math.max(0, spot[0]); p <= Math.min(n - 1, spot[1]); ) {
      const r = Math.floor(p / COLS),
        end = Math.min(n, spot[1] + 1, (r + 1) * COLS);
      g.strokeRect(x0 + (p % COLS) * cs - 4, y0 + r * cs - 4, (end - p) * cs - gap + 8, cs - gap + 8);
      p = end;
    }
  }
  /* an exercise's picked pages: a thick accent square and a dot, on any cell */
  if (picked.size) {
    g.strokeStyle = pal.accent;
    g.fillStyle = pal.accent;
    g.lineWidth = Math.max(2, Math.min(4, cs / 5));
    for (const p of picked) {
      if (p >= n) continue;
      const x = x0 + (p % COLS) * cs,
        y = y0 + Math.floor(p / COLS) * cs;
      g.strokeRect(x + 1, y + 1, cs - gap - 2, cs - gap - 2);
      g.beginPath();
      g.arc(x + (cs - gap) / 2, y + (cs - gap) / 2, Math.max(1.5, (cs - gap) / 6), 0, 2 * Math.PI);
      g.fill();
    }
  }
  if (inspect !== null && inspect < n) {
    g.strokeStyle = pal.accent;
    g.lineWidth = 3;
    g.setLineDash([4, 3]);
    g.strokeRect(x0 + (inspect % COLS) * cs - 2, y0 + Math.floor(inspect / COLS) * cs - 2, cs - gap + 4, cs - gap + 4);
    g.setLineDash([]);
  }
  /* PG_readahead marks last, so that no outline covers them: a corner flag, edged so it shows on any cell */
  if (vma.cache && cs >= 5)
    for (let r = r0; r < r1; r++)
      for (let c = c0; c < c1; c++) {
        const p = r * COLS + c;
        if (p >= n || !(vma.cache[p] & PC_READAHEAD)) continue;
        const x = x0 + c * cs + cs - gap,
          y = y0 + r * cs,
          m = Math.max(6, (cs - gap) * 0.45);
        g.beginPath();
        g.moveTo(x - m, y);
        g.lineTo(x, y);
        g.lineTo(x, y + m);
        g.closePath();
        g.fillStyle = pal.text;
        g.fill();
        g.strokeStyle = pal.panel;
        g.lineWidth = 1;
        g.stroke();
      }
}

/** the fault in progress: the mechanisms' marks on it, and the faulting page */
function drawFault(
  g: CanvasRenderingContext2D,
  vma: VmaView,
  f: NonNullable<Frame['fault']>,
  x0: number,
  y0: number,
  cs: number,
  gap: number,
  COLS: number,
  n: number,
  pal: Palette,
) {
  const cellOf = (addr: number) => (addr - vma.start) / 4096;
  /* a bracket around cells [a, b), row by row */
  const bracket = (a: number, b: number) => {
    g.strokeStyle = pal.window;
    g.lineWidth = Math.max(2, Math.min(4, cs / 5));
    for (let p = Math.max(0, a); p < Math.min(n, b); ) {
      const r = Math.floor(p / COLS),
        end = Math.min(n, b, (r + 1) * COLS);
      g.strokeRect(x0 + (p % COLS) * cs - 1.5, y0 + r * cs - 1.5, (end - p) * cs - gap + 3, cs - gap + 3);
      p = end;
    }
  };
  /* the mechanisms' marks: ranges bracketed, guesses dashed, crossed pages last (over the brackets) */
  for (const m of f.marks) if (m.kind === 'range') bracket(cellOf(m.start), cellOf(m.end));
  for (const m of f.marks) {
    const q = cellOf(m.start);
    if (m.kind !== 'guess' || q < 0 || q >= n) continue;
    g.save();
    g.setLineDash([3, 2]);
    g.strokeStyle = pal.text;
    g.lineWidth = Math.max(1.5, cs / 8);
    g.strokeRect(x0 + (q % COLS) * cs + 0.5, y0 + Math.floor(q / COLS) * cs + 0.5, cs - gap - 1, cs - gap - 1);
    g.restore();
  }
  g.strokeStyle = pal.text;
  g.lineWidth = Math.max(1.2, cs / 12);
  for (const m of f.marks) {
    if (m.kind !== 'cross') continue;
    for (let p = Math.max(0, cellOf(m.start)); p < Math.min(n, cellOf(m.end)); p++) {
      const x = x0 + (p % COLS) * cs,
        y = y0 + Math.floor(p / COLS) * cs,
        d = (cs - gap) * 0.25;
      g.beginPath();
      g.moveTo(x + d, y + d);
      g.lineTo(x + cs - gap - d, y + cs - gap - d);
      g.moveTo(x + cs - gap - d, y + d);
      g.lineTo(x + d, y + cs - gap - d);
      g.stroke();
    }
  }
  /* the faulting page: a strong outline and a marker above */
  const p = Math.floor(cellOf(f.addr));
  const x = x0 + (p % COLS) * cs,
    y = y0 + Math.floor(p / COLS) * cs;
  g.strokeStyle = pal.text;
  g.lineWidth = Math.max(2, cs / 6);
  g.strokeRect(x + 0.5, y + 0.5, cs - gap - 1, cs - gap - 1);
  g.fillStyle = pal.text;
  g.beginPath();
  g.moveTo(x + (cs - gap) / 2, y - 2);
  g.lineTo(x + (cs - gap) / 2 - 5, y - 9);
  g.lineTo(x + (cs - gap) / 2 + 5, y - 9);
  g.closePath();
  g.fill();
}

/** a page that is not mapped here but is in the page cache (inset square) or being read (hatched) */
function drawCache(g: CanvasRenderingContext2D, pc: number, x: number, y: number, s: number, pal: Palette) {
  const state = pc & PC_STATE_MASK;
  if (state === PC.uptodate) {
    const m = Math.max(1.5, s * 0.22);
    g.fillStyle = pal.cached;
    g.fillRect(x + m, y + m, s - 2 * m, s - 2 * m);
  } else if (state === PC.reading) {
    g.save();
    g.beginPath();
    g.rect(x, y, s, s);
    g.clip();
    g.strokeStyle = pal.reading;
    g.lineWidth = Math.max(1, s / 8);
    for (let d = -s; d < s; d += Math.max(3, s / 3)) {
      g.moveTo(x + d, y + s);
      g.lineTo(x + d + s, y);
    }
    g.stroke();
    g.restore();
  }
}

function drawHeat(g: CanvasRenderingContext2D, vma: VmaView, width: number, pal: Palette, labelPx: number) {
  const heat = vma.heat!;
  const perBucket = (vma.end - vma.start) / 4096 / heat.length;
  const x0 = 8,
    w = width - 16,
    h = 64,
    y0 = 12;
  const bw = w / heat.length;
  g.fillStyle = pal.empty;
  g.fillRect(x0, y0, w, h);
  g.fillStyle = pal.cause[CAUSE.around];
  for (let i = 0; i < heat.length; i++) {
    if (!heat[i]) continue;
    g.globalAlpha = 0.2 + 0.8 * Math.min(1, heat[i] / perBucket);
    g.fillRect(x0 + i * bw, y0, Math.max(bw, 1), h);
  }
  g.globalAlpha = 1;
  g.fillStyle = pal.muted;
  g.font = `${labelPx}px ui-monospace, monospace`;
  g.textBaseline = 'top';
  g.textAlign = 'left';
  g.fillText(hex(vma.start), x0, y0 + h + 6);
  g.textAlign = 'right';
  g.fillText(hex(vma.end), x0 + w, y0 + h + 6);
  g.textAlign = 'center';
  g.fillText(
    `${fmt(heat.reduce((a, b) => a + b, 0))} of ${fmt(Math.round(perBucket * heat.length))} pages mapped`,
    x0 + w / 2,
    y0 + h + 6,
  );
}
