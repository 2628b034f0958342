/**
 * The page-table walk of the current fault: PGD -> PUD -> PMD -> PTE, each
 * level's index and entry, whether it was present or allocated by this
 * fault; and the PTE page as a 512-slot grid showing which slots this fault
 * filled.
 */
import { PGT_LEVELS } from '../../../wasm-core/ts/abi.js';
import { fmt, hex } from '../lib/format.js';
import type { ViewProps } from './registry.js';

const SHIFT = ['bits 47-39', 'bits 38-30', 'bits 29-21', 'bits 20-12'];

export function PageTableWalk({ frame }: ViewProps) {
  const w = frame.walk;
  if (!w && frame.big) {
    return <div className="placeholder">A big run records no events, so there is no single fault to follow. Open a smaller scenario to watch walks.</div>;
  }
  if (!w) {
    return (
      <div className="placeholder">
        No page fault in this operation. Press <kbd>F</kbd> to jump to the next fault and see its walk.
      </div>
    );
  }
  let filled = 0, present = 0;
  for (let i = 0; i < 512; i++) {
    if (w.pte[i] & 4) filled++;
    if (w.pte[i] & 3) present++;
  }
  return (
    <div>
      <div className="walk" aria-label={`Page-table walk of ${hex(w.addr)}`}>
        {PGT_LEVELS.map((name, l) => {
          const allocated = l > 0 && w.allocated[l - 1];
          const ok = l === 0 ? true : w.present[l - 1];
          const leaf = l === 3;
          const entryPresent = w.present[l];
          return (
            <div className="lvl" key={name}>
              <h3>{name}</h3>
              <div className="idx">index {w.index[l]} <span title={SHIFT[l]}>({SHIFT[l]})</span></div>
              {ok ? (
                <>
                  <div className="ent" title={`entry ${w.index[l]} of the ${name} table at pfn ${w.tablePfn[l]}`}>
                    {entryPresent ? w.entry[l].replace(/^0x0+(?=.)/, '0x') : 'none'}
                  </div>
                  {allocated ? <span className="badge new">table allocated by this fault</span>
                    : <span className="badge present" title="the table page that holds this entry">in table pfn {fmt(w.tablePfn[l])}</span>}
                  {leaf && <div className="ent">{entryPresent ? 'maps the page' : 'not mapped yet'}</div>}
                </>
              ) : (
                <span className="badge none">no table yet</span>
              )}
            </div>
          );
        })}
      </div>
      <div className="pte-grid" role="img"
        aria-label={`The PTE page: ${present} of 512 entries present, ${filled} filled by this fault`}>
        {Array.from(w.pte, (s, i) => (
          <i key={i} className={`${s & 2 ? 'p2' : s & 1 ? 'p1' : ''} ${s & 4 ? 'new' : ''} ${s & 8 ? 'cur' : ''}`}
            title={`${hex(w.pteBase + i * 4096)}: ${s & 3 ? (s & 2 ? 'present, writable' : 'present, read-only') : 'none'}${s & 4 ? ', set by this fault' : ''}`} />
        ))}
      </div>
      <div className="pte-legend" aria-hidden>
        <span><i /> none</span><span><i className="p1" /> present, read-only</span><span><i className="p2" /> present, writable</span>
        <span><i className="new" /> set by this fault</span><span><i className="cur" /> the faulting address</span>
      </div>
      <div className="pte-caption">
        The PTE page {w.ptePfn ? <>(pfn {fmt(w.ptePfn)})</> : '(not allocated yet)'} maps {hex(w.pteBase)}–{hex(w.pteBase + 2 ** 21)}:{' '}
        <b>{present}</b> of 512 entries present, <b>{filled}</b> set by this fault.
      </div>
    </div>
  );
}
