/**
 * The large folios' view, drawn from the core's state at the cursor
 * (frame.ts): the folio in focus as a strip of its pages, each with its
 * _mapcount + 1; the folio's own counts (refcount, folio_mapcount(),
 * _large_mapcount, _entire_mapcount, _nr_pages_mapped, the deferred split
 * mark); one row per process showing which pages it maps, by PTE or by
 * PMD; what this operation cost in atomics; and both kernels' answer to
 * "is it shared?". Counts that change flash up or down; every mark has a
 * word or a number as well as a colour.
 */
import { useRef } from 'react';
import type { Program } from '../../../../wasm-core/ts/compile.js';
import { COUNTERS, FolioRmapOp } from '../../../../wasm-core/ts/abi.js';
import { fmt } from '../../lib/format.js';
import type { ViewComponents, ViewProps } from '../../views/types.js';
import { ENTIRELY_MAPPED, foliosOf, type Atomics as RmapAtomics, type FolioFocus, type FoliosFrame } from './frame.js';
import { LARGE_FOLIOS } from './index.js';
import './large-folios.css';

const hex = (n: number) => `0x${n.toString(16)}`;
const size = (order: number) => {
  const b = 4096 * 2 ** order;
  return b >= 2 ** 20 ? `${b / 2 ** 20} MiB` : `${b / 1024} KiB`;
};

export function nrPagesMappedText(v: number): string {
  return v >= ENTIRELY_MAPPED ? `ENTIRELY_MAPPED + ${fmt(v - ENTIRELY_MAPPED)}` : fmt(v);
}

export function atomicsLine(a: RmapAtomics, v610: boolean): string {
  if (!a.page && !a.large && !a.entire && !a.nr) return 'no atomics (plain stores on a new folio)';
  const parts = [
    `${fmt(a.page)} _mapcount`,
    ...(v610 ? [`${fmt(a.large)} _large_mapcount`] : []),
    ...(a.entire ? [`${fmt(a.entire)} _entire_mapcount`] : []),
    ...(a.nr ? [`${fmt(a.nr)} _nr_pages_mapped`] : []),
  ];
  return `${parts.join(' + ')} atomics`;
}

const KIND_WORD: Record<number, string> = {
  [FolioRmapOp.NewPtes]: 'new (PTEs)',
  [FolioRmapOp.NewPmd]: 'new (PMD)',
  [FolioRmapOp.AddPtes]: 'PTEs added',
  [FolioRmapOp.RemovePtes]: 'PTEs removed',
  [FolioRmapOp.DupPtes]: 'PTEs copied by fork',
  [FolioRmapOp.RemovePmd]: 'PMD removed',
  [FolioRmapOp.DupPmd]: 'PMD copied by fork',
};

/** the grid's columns for a folio of n pages: every page a cell, wide enough for its number when few */
const colsFor = (n: number) => (n <= 16 ? n : n <= 64 ? 16 : 64);

function Field({ name, value, note, testid }: { name: string; value: string; note?: string; testid?: string }) {
  return (
    <div className="lf-field" title={note}>
      <dt>{name}</dt>
      <dd className="num" data-testid={testid}>
        {value}
      </dd>
    </div>
  );
}

function PageStrip({ f, prev }: { f: FolioFocus; prev: number[] | null }) {
  const n = f.pages.length,
    cols = colsFor(n),
    big = n <= 64;
  /* every page touched (a whole-folio batch): the op line says so, an outline on each cell would only shout */
  const touched = new Set(f.touched.length < n ? f.touched : []);
  const shared = f.pages.filter((m) => m > 1).length,
    mapped = f.pages.filter((m) => m > 0).length;
  return (
    <div
      className={`lf-strip ${big ? 'big' : 'small'} ${f.entire ? 'pmd' : ''}`}
      style={{ gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))` }}
      role="img"
      data-testid="lf-pages"
      aria-label={`${n} pages: ${mapped} mapped by a PTE, ${shared} of them more than once${f.entire ? `; a PMD maps all ${n}` : ''}`}
    >
      {f.pages.map((m, i) => {
        const was = prev?.[i];
        const dir = was === undefined || was === m ? '' : m > was ? 'up' : 'down';
        return (
          <span
            key={i}
            className={`lf-page m${Math.min(m, 3)} ${touched.has(i) ? 'touched' : ''} ${dir}`}
            title={`page ${i}: _mapcount + 1 = ${m}${was !== undefined && was !== m ? ` (was ${was})` : ''}${touched.has(i) ? '; touched by this operation' : ''}`}
          >
            {big ? m : null}
          </span>
        );
      })}
    </div>
  );
}

/** one process's mappings of the folio as a bar over its pages: a PMD spans all, PTE runs where they map */
function MapRows({ f, program, fresh }: { f: FolioFocus; program: Program; fresh: boolean }) {
  const n = f.pages.length;
  const mms = [...new Set(f.maps.map((m) => m.mm))].sort((a, b) => a - b);
  if (!mms.length) {
    return (
      <p className="lf-note" data-testid="lf-unmapped">
        {fresh
          ? 'Just allocated: its counts are set, and its page-table entries are written next.'
          : `No page table maps this folio now${f.refcount ? ' (a reference is still held: it is being freed or waits in a pagevec)' : ''}.`}
      </p>
    );
  }
  return (
    <div className="lf-maps">
      {mms.map((mm) => {
        const runs = f.maps.filter((m) => m.mm === mm);
        const name = program.procs[mm]?.name ?? `mm ${mm}`;
        const pmd = runs.find((r) => r.pmd);
        const pteRuns = runs.filter((r) => !r.pmd);
        const ptes = pteRuns.reduce((s, r) => s + r.nr, 0);
        return (
          <div className="lf-map" key={mm} data-testid={`lf-map-${name}`}>
            <div className="lf-map-head">
              <b>{name}</b>{' '}
              <span className="muted">
                {pmd ? (
                  <>
                    one PMD at {hex(pmd.addr)}, {pmd.writable ? 'writable' : 'read-only'}
                  </>
                ) : null}
                {pmd && ptes ? '; ' : null}
                {ptes ? (
                  <>
                    {fmt(ptes)} PTE{ptes === 1 ? '' : 's'} from {hex(pteRuns[0].addr)}
                    {pteRuns.length > 1 ? ` in ${pteRuns.length} runs` : ''}
                    {pteRuns.every((r) => r.writable)
                      ? ', writable'
                      : pteRuns.some((r) => r.writable)
                        ? ''
                        : ', read-only'}
                  </>
                ) : null}
              </span>
            </div>
            <div className="lf-bar" aria-hidden>
              {runs.map((r, i) => (
                <span
                  key={i}
                  className={`lf-run ${r.pmd ? 'pmd' : r.writable ? 'pte rw' : 'pte'}`}
                  style={{ left: `${(100 * r.page) / n}%`, width: `${(100 * r.nr) / n}%` }}
                />
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}

function Shared({ f, v610 }: { f: FolioFocus; v610: boolean }) {
  const answer = (b: boolean) => (b ? 'shared' : 'not shared');
  return (
    <div className="lf-shared" role="group" aria-label="folio_likely_mapped_shared(), both kernels">
      <div className={`lf-rule ${!v610 ? 'active' : ''}`} data-testid="lf-shared-old">
        <span className="lf-rule-k">6.9</span>
        <span>
          the first page mapped {f.pages[0] + (f.entire ? f.entire : 0)}×: <b>{answer(f.sharedOld)}</b>
        </span>
        {!v610 ? <span className="lf-this">this run</span> : null}
      </div>
      <div className={`lf-rule ${v610 ? 'active' : ''}`} data-testid="lf-shared-new">
        <span className="lf-rule-k">6.10</span>
        <span>
          {fmt(f.mapcount)} mapping{f.mapcount === 1 ? '' : 's'} of {fmt(f.pages.length)} pages
          {f.entire ? ', a PMD among them' : ''}: <b>{answer(f.sharedNew)}</b>
        </span>
        {v610 ? <span className="lf-this">this run</span> : null}
      </div>
      {f.sharedOld !== f.sharedNew ? (
        <p className="lf-note warn">
          <b aria-hidden>≠</b> The two kernels disagree: 6.9 looks at the first page only.
        </p>
      ) : null}
    </div>
  );
}

function OpLine({ fo }: { fo: FoliosFrame }) {
  const { op, v610 } = fo;
  const kinds = Object.entries(op.kinds)
    .map(([k, n]) => `${fmt(n)} × ${KIND_WORD[Number(k)] ?? k}`)
    .join(', ');
  if (!op.rmaps && !op.remaps && !op.queued && !op.splits)
    return (
      <p className="lf-op muted" data-testid="lf-op">
        This operation changed no large folio's mappings.
      </p>
    );
  return (
    <div className="lf-op" data-testid="lf-op">
      {op.rmaps ? (
        <p>
          <b>This operation, all folios:</b> {kinds} — <span className="num">{atomicsLine(op.atomics, v610)}</span>
          {!v610 ? ' (6.9: no _large_mapcount)' : ''}.
        </p>
      ) : null}
      {op.remaps || op.queued || op.splits ? (
        <p>
          {op.remaps ? (
            <>
              {fmt(op.remaps)} PMD{op.remaps === 1 ? '' : 's'} remapped by PTEs.{' '}
            </>
          ) : null}
          {op.queued ? (
            <>
              {fmt(op.queued)} folio{op.queued === 1 ? '' : 's'} queued for a deferred split.{' '}
            </>
          ) : null}
          {op.splits ? (
            <>
              {fmt(op.splits)} folio{op.splits === 1 ? '' : 's'} split by the shrinker, {fmt(op.freed)} pages freed.
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

const FAULT_ALLOC = COUNTERS.indexOf('anon_fault_alloc'),
  THP_ALLOC = COUNTERS.indexOf('thp_fault_alloc');

function Census({ fo }: { fo: FoliosFrame }) {
  return (
    <p className="lf-census muted" data-testid="lf-census">
      {fmt(fo.census.large)} large folio{fo.census.large === 1 ? '' : 's'} ({fmt(fo.census.pages)} pages) ·{' '}
      {fmt(fo.census.pmdMapped)} PMD-mapped · {fmt(fo.census.queued)} queued for a deferred split
    </p>
  );
}

export function Folios({ frame, program }: ViewProps) {
  const fo = foliosOf(frame);
  const prev = useRef<{ head: number; pages: number[] } | null>(null);
  const f = fo?.focus ?? null;
  const before = f && prev.current && prev.current.head === f.head ? prev.current.pages : null;
  if (f) prev.current = { head: f.head, pages: f.pages };
  if (!fo) return <div className="placeholder">No folio data for this run.</div>;
  if (!f) {
    const ever = frame.counters[FAULT_ALLOC] > 0 || frame.counters[THP_ALLOC] > 0;
    return (
      <div className="lf" data-testid="lf-empty">
        <div className="placeholder">
          {ever ? (
            'No large folio in memory now: they were freed or split.'
          ) : (
            <>
              No large folio in memory yet. They come from <code>thp</code> or the <code>mthp</code> sizes (Tunables,{' '}
              <kbd>T</kbd>), on the first write to an anonymous mapping big enough to hold one.
            </>
          )}
        </div>
        <OpLine fo={fo} />
        <Census fo={fo} />
      </div>
    );
  }
  const nr = f.pages.length;
  const partly =
    f.nrPagesMapped % ENTIRELY_MAPPED > 0 &&
    f.nrPagesMapped % ENTIRELY_MAPPED < nr &&
    f.nrPagesMapped < ENTIRELY_MAPPED;
  return (
    /* a short panel scrolls the folio's details: focusable, so the keyboard can scroll it too */
    <div className="lf" data-testid="lf" tabIndex={0} role="group" aria-label={`Folio at pfn ${f.head}`}>
      <div className="lf-head">
        <b>Folio at pfn {fmt(f.head)}</b>
        <span className="lf-chip">
          order {f.order} · {size(f.order)} · {nr} pages
        </span>
        {f.entire ? (
          <span className="lf-chip pmd" data-testid="lf-pmd">
            PMD-mapped
          </span>
        ) : null}
        {partly ? <span className="lf-chip partly">partly mapped</span> : null}
        {f.queued ? (
          <span className="lf-chip queued" data-testid="lf-queued">
            deferred split queued
          </span>
        ) : null}
        <span className={`muted lf-why ${f.why === 'pointed' ? 'pointed' : ''}`} data-testid="lf-why">
          {f.why === 'pointed'
            ? 'the folio this beat points at'
            : f.why === 'now'
              ? 'the folio this event changed'
              : f.why === 'op'
                ? 'the first folio this operation changed'
                : 'the first large folio in memory'}
        </span>
      </div>
      <dl className="lf-fields">
        <Field
          name="refcount"
          value={fmt(f.refcount)}
          note="folio_ref_count(): a reference per PTE and per PMD mapping it, plus any pagevec's"
          testid="lf-refcount"
        />
        <Field
          name="folio_mapcount()"
          value={fmt(f.mapcount)}
          note="6.10 reads _large_mapcount; 6.9 adds _entire_mapcount and every page's _mapcount"
          testid="lf-mapcount"
        />
        <Field
          name={`_large_mapcount + 1${fo.v610 ? '' : ' (6.10)'}`}
          value={fmt(f.large)}
          note={
            fo.v610
              ? 'every PTE and PMD mapping the folio: one atomic per batch keeps it'
              : '6.9 has no such field: shown for comparison, no atomics counted'
          }
          testid="lf-large"
        />
        <Field
          name="_entire_mapcount + 1"
          value={fmt(f.entire)}
          note="PMD mappings of the whole folio"
          testid="lf-entire"
        />
        <Field
          name="_nr_pages_mapped"
          value={nrPagesMappedText(f.nrPagesMapped)}
          note="pages mapped by at least one PTE, plus ENTIRELY_MAPPED (0x800000) while a PMD maps the folio"
          testid="lf-nrmapped"
        />
      </dl>
      <div className="lf-bottom">
        <Shared f={f} v610={fo.v610} />
        <OpLine fo={fo} />
      </div>
      <div className="lf-section-t">
        Each page's <code>_mapcount + 1</code>
        {nr > 64 ? ' (hover a page for its count)' : ''}
        {f.entire ? (
          <>
            {' '}
            — a PMD mapping counts in <code>_entire_mapcount</code>, not in the pages
          </>
        ) : null}
      </div>
      <PageStrip f={f} prev={before} />
      <MapRows f={f} program={program} fresh={fo.fresh} />
      <div className="lf-legend" aria-hidden>
        <span>
          <i className="lf-run pmd sw" /> mapped by a PMD
        </span>
        <span>
          <i className="lf-run pte rw sw" /> by writable PTEs
        </span>
        <span>
          <i className="lf-run pte sw" /> by read-only PTEs
        </span>
        <span>
          <i className="lf-page m1 sw" /> page mapped once
        </span>
        <span>
          <i className="lf-page m2 sw" /> twice
        </span>
        <span>
          <i className="lf-page touched sw" /> touched by this operation
        </span>
      </div>
      <Census fo={fo} />
    </div>
  );
}

export const views: ViewComponents = {
  folio: Folios,
};

export { LARGE_FOLIOS };
