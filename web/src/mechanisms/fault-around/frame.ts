/**
 * Fault-around's frame provider (runs in the worker, with the engine): its
 * marks on the fault in progress. The window do_fault_around() handed
 * filemap_map_pages() (mm_filemap_map_pages) is a bracket, each page
 * map_pages skipped (mm_filemap_map_skip) a cross with its reason, and the
 * fault line says the window's file pages and how many were skipped. After
 * a VM_FAULT_RETRY the retry's window replaces the first attempt's. No
 * React here.
 */
import { EV, SKIP_REASONS } from '../../../../wasm-core/ts/abi.js';
import type { FaultMark, FaultNote, FrameProvider } from '../../frames/types.js';
import { FAULT_AROUND } from './index.js';

export const frames: FrameProvider = {
  id: FAULT_AROUND,
  fault(ops) {
    /* the last attempt's events: a retry starts again */
    let from = 0;
    ops.forEach((e, i) => {
      if (e.type === EV.page_fault_user && e.attempt > 0) from = i;
    });
    const marks: FaultMark[] = [],
      notes: FaultNote[] = [];
    let window: FaultMark | null = null,
      skipped = 0;
    for (const e of ops.slice(from))
      if (e.type === EV.mm_filemap_map_pages) {
        window = {
          kind: 'range',
          start: e.address,
          end: e.address + (e.end_pgoff - e.start_pgoff + 1) * 4096,
          title: 'inside the fault-around window',
        };
        notes.push({ text: `window pages ${e.start_pgoff}–${e.end_pgoff}` });
      } else if (e.type === EV.mm_filemap_map_skip) {
        skipped++;
        marks.push({
          kind: 'cross',
          start: e.address,
          end: e.address + 4096,
          lead: 'skipped by map_pages:',
          title: SKIP_REASONS[e.reason],
        });
      }
    if (window) marks.unshift(window);
    if (skipped) notes.push({ text: `${skipped} skipped` });
    return { marks, notes };
  },
};
