/**
 * The page-table walk of the current fault: PGD -> PUD -> PMD -> PTE, each
 * level's index and entry, whether it was present or allocated by this
 * fault; and the PTE page as a 512-slot grid showing which slots this fault
 * filled. Between faults it keeps the last fault, marked as such.
 */
import { PGT_LEVELS } from '../../../wasm-core/ts/abi.js';
import { fmt, hex } from '../lib/format.js';
import { dispatch } from '../store/store.js';
import type { ViewProps } from './types.js';
import { useBoxSize, type BoxSize } from './useBoxSize.js';
import { memo } from 'react';

/**
 * The 512 slots laid out to fill the space left: the column count (16 to
 * 128) that gives the largest square cells in that box.
 */
function pteLayout(box: BoxSize | null): { cols: number; cell: number; gap: number } {
  let best = { cols: 32, cell: 6, gap: 1 };
  if (!box) return best;
  let bestCell = -1;
  for (const cols of [16, 32, 64, 128]) {
    const rows = 512 / cols;
    const gap = Math.min(box.w / cols, box.h / rows) >= 10 ? 2 : 1;
    const cell = Math.floor(Math.min((box.w + gap) / cols - gap, (box.h + gap) / rows - gap));
    if (cell > bestCell) {
      bestCell = cell;
      best = { cols, cell: Math.max(2, Math.min(cell, 28)), gap };
    }
  }
  return best;
}

const SHIFT = ['bits 47-39', 'bits 38-30', 'bits 29-21', 'bits 20-12'];

export function PageTableWalk({ frame }: ViewProps) {
  const w = frame.walk;
  const [gridBox, box] = useBoxSize<HTMLDivElement>();
  if (!w && frame.big) {
    return (
      <div className="placeholder">
        A big run records no events, so there is no single fault to follow. Open a smaller scenario to watch walks.
      </div>
    );
  }
  if (!w) {
    return (
      <div className="placeholder">
        No page fault yet. Press <kbd>F</kbd> to jump to the next fault and see its walk.
      </div>
    );
  }
  const by = w.remap ? 'by this remap' : w.stale ? 'by that fault' : 'by this fault';
  const lay = pteLayout(box);
  let filled = 0,
    present = 0;
  for (let i = 0; i < 512; i++) {
    if (w.pte[i] & 4) filled++;
    if (w.pte[i] & 3) present++;
  }
  return (
    <div className={w.stale ? 'walk-wrap stale' : 'walk-wrap'}>
      <div className="walk-head">
        {w.remap ? (
          <>
            <span className="badge now">this remap</span>
            <span className="what">
              <b>{hex(w.addr)}</b>, event {fmt(w.faultEvent + 1)}: a PMD leaf remapped by PTEs
            </span>
          </>
        ) : w.stale ? (
          <>
            <span className="badge stale">last fault</span>
            <span
              className="what"
              title="No fault in this operation: the last one, walked in the page tables as they are now"
            >
              <b>{hex(w.addr)}</b>, event {fmt(w.faultEvent + 1)}: its tables as they are now
            </span>
            <button type="button" className="link" onClick={() => dispatch({ type: 'seek', cursor: w.faultEvent + 1 })}>
              Go to it
            </button>
          </>
        ) : (
          <>
            <span className="badge now">this fault</span>
            <span className="what">
              <b>{hex(w.addr)}</b>, event {fmt(w.faultEvent + 1)}
            </span>
          </>
        )}
      </div>
      <div className="walk" role="table" aria-label={`Page-table walk of ${hex(w.addr)}`}>
        {PGT_LEVELS.map((name, l) => {
          const allocated = l > 0 && w.allocated[l - 1];
          /* below a PMD leaf there is no PTE table: the PMD maps the 2 MiB itself */
          const underLeaf = l === 3 && w.leaf !== null;
          const ok = l === 0 ? true : w.present[l - 1] && !underLeaf;
          const entryPresent = w.present[l];
          return (
            <div className="lvl" key={name} role="row">
              <span className="lvl-name" role="rowheader">
                {name}
              </span>
              <span className="idx" role="cell" title={`${SHIFT[l]} of the address`}>
                [{w.index[l]}]
              </span>
              <span
                className="ent"
                role="cell"
                title={
                  ok
                    ? `entry ${w.index[l]} of the ${name} table at pfn ${fmt(w.tablePfn[l])}${l === 3 ? (entryPresent ? ': maps the page' : ': not mapped yet') : ''}`
                    : undefined
                }
              >
                {!ok ? '' : entryPresent ? w.entry[l].replace(/^0x0+(?=.)/, '0x') : 'none'}
              </span>
              <span role="cell">
                {underLeaf ? (
                  <span
                    className="badge leaf"
                    data-testid="walk-leaf-pte"
                    title="no PTE: the PMD entry above maps the page"
                  >
                    none: PMD maps it
                  </span>
                ) : l === 2 && w.leaf ? (
                  <span className="badge leaf" data-testid="walk-leaf" title="PSE set: a PMD leaf maps 2 MiB directly">
                    {w.leaf.zero ? 'leaf: huge zero page' : 'leaf: 2 MiB THP'}
                    {w.leaf.set ? ', new' : ''}
                  </span>
                ) : l === 2 && w.remapped ? (
                  <span
                    className="badge new"
                    data-testid="walk-remapped"
                    title="the PMD leaf here was replaced by a PTE table (the deposited one) in this step"
                  >
                    remapped: PTE table, pfn {fmt(w.tablePfn[3])}
                  </span>
                ) : !ok ? (
                  <span className="badge none">no table yet</span>
                ) : allocated ? (
                  <span
                    className="badge new"
                    title={`the ${name} table (pfn ${fmt(w.tablePfn[l])}) was allocated ${by}`}
                  >
                    new table, pfn {fmt(w.tablePfn[l])}
                  </span>
                ) : (
                  <span
                    className="badge present"
                    title={`the ${name} table page, pfn ${fmt(w.tablePfn[l])}, holds this entry`}
                  >
                    in pfn {fmt(w.tablePfn[l])}
                  </span>
                )}
              </span>
            </div>
          );
        })}
      </div>
      <div className="pte-caption" data-testid="walk-caption">
        {w.leaf ? (
          <>
            No PTE page: the PMD entry maps {hex(w.pteBase)}–{hex(w.pteBase + 2 ** 21)} itself,{' '}
            {w.leaf.zero ? 'the huge zero page, read-only' : 'one 2 MiB THP'} (a PTE table waits deposited beside it,
            for a remap).
          </>
        ) : (
          <>
            The PTE page {w.ptePfn ? <>(pfn {fmt(w.ptePfn)})</> : '(not allocated yet)'} maps {hex(w.pteBase)}–
            {hex(w.pteBase + 2 ** 21)}: <b>{present}</b> of 512 entries present, <b>{filled}</b> set {by}.
            {w.remapped ? (
              <>
                {' '}
                <b>Remapped in this step:</b> a PMD leaf was here; the deposited table took its place, 512 PTEs at once.
              </>
            ) : null}
          </>
        )}
      </div>
      <div className="pte-box" ref={gridBox}>
        <div
          className="pte-grid"
          role="img"
          style={{
            gridTemplateColumns: `repeat(${lay.cols}, ${lay.cell}px)`,
            gridAutoRows: `${lay.cell}px`,
            gap: `${lay.gap}px`,
          }}
          aria-label={
            w.leaf
              ? `No PTE page: one PMD maps all 512 pages${w.leaf.zero ? ' (the huge zero page)' : ' (a THP)'}`
              : `The PTE page: ${present} of 512 entries present, ${filled} filled ${by}`
          }
        >
          <PteSlots pte={w.pte} base={w.pteBase} by={by} />
        </div>
      </div>
      <div className="pte-legend" aria-hidden>
        <span>
          <i /> none
        </span>
        <span>
          <i className="p1" /> present, read-only
        </span>
        <span>
          <i className="p2" /> present, writable
        </span>
        <span>
          <i className="new" /> set {by}
        </span>
        <span>
          <i className="cur" /> the faulting address
        </span>
        {w.leaf ? (
          <span>
            <i className="p2 huge" /> under the PMD leaf
          </span>
        ) : null}
      </div>
    </div>
  );
}

/* the 512 slots, drawn again only when one changes (a step between two faults changes none) */
const PteSlots = memo(
  function PteSlots({ pte, base, by }: { pte: Uint8Array; base: number; by: string }) {
    return (
      <>
        {Array.from(pte, (s, i) => (
          <i
            key={i}
            className={`${s & 2 ? 'p2' : s & 1 ? 'p1' : ''} ${s & 4 ? 'new' : ''} ${s & 8 ? 'cur' : ''} ${s & 16 ? 'huge' : ''}`}
            title={`${hex(base + i * 4096)}: ${s & 3 ? (s & 2 ? 'present, writable' : 'present, read-only') : 'none'}${s & 4 ? `, set ${by}` : ''}`}
          />
        ))}
      </>
    );
  },
  (a, b) =>
    a.base === b.base && a.by === b.by && a.pte.length === b.pte.length && a.pte.every((v, i) => v === b.pte[i]),
);
