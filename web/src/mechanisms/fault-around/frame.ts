/**
 * Fault-around's frame provider (runs in the worker, with the engine): the
 * page cache behind each file mapping drawn page by page, and each file's
 * readahead window (struct file_ra_state). From the core's queries at the
 * operation boundary (mmsim_pagecache_states, mmsim_file_info), then what
 * the operation's events so far did to them. No React here.
 */
import { EV, PC, PC_READAHEAD, PC_STATE_MASK } from '../../../../wasm-core/ts/abi.js';
import type { Frame, FrameContext, FrameProvider } from '../../../../wasm-core/ts/engine.js';
import type { SimEvent } from '../../../../wasm-core/ts/events.js';

/** a file's readahead state: the last window, its last `async` pages ahead of the reader */
export interface FileView {
  id: number; nrpages: number; mmapMiss: number;
  ra: { start: number; size: number; async: number } | null;
}

export interface FaultAroundFrame {
  files: FileView[];
  /** per process and VMA id (`mm:vma`): the page cache behind each page, PC.* | PC_READAHEAD */
  cache: Record<string, Uint8Array>;
}

export const FAULT_AROUND = 'fault-around';

/** this mechanism's part of a frame (empty for a frame without it) */
export function faultAroundOf(frame: Frame): FaultAroundFrame {
  return (frame.mech[FAULT_AROUND] as FaultAroundFrame | undefined) ?? { files: [], cache: {} };
}

export const cacheKey = (mm: number, vma: number) => `${mm}:${vma}`;

function fileViews({ sim, program, partial }: FrameContext): FileView[] {
  return program.files.map((_, id) => {
    const fi = sim.fileInfo(id);
    let ra = fi.raSize ? { start: Number(fi.raStart), size: fi.raSize, async: fi.raAsyncSize } : null;
    for (const e of partial)
      /* d = 0: a small random read that leaves the readahead state alone */
      if ((e.type === EV.page_cache_sync_ra || e.type === EV.page_cache_async_ra) && e.a === id && e.d)
        ra = { start: e.b, size: e.c, async: e.d };
    return { id, nrpages: fi.nrpages, mmapMiss: fi.mmapMiss, ra };
  });
}

/**
 * The page cache behind a file VMA: the core's state, then what the
 * partial operation did to it (pages added and being read, reads done,
 * pages removed, PG_readahead set or cleared), from its events.
 */
function cacheView({ sim, program }: FrameContext, file: number, pgoff: number, n: number, partial: SimEvent[]): Uint8Array {
  const st = sim.pagecacheStates(file, pgoff, n);
  const tmpfs = program.scenario.files[file]?.fs === 'tmpfs';
  const at = (index: number) => index - pgoff;
  for (const e of partial) {
    if (e.a !== file) continue;
    if (e.type === EV.mm_filemap_add_to_page_cache) {
      const i = at(e.b);
      /* a tmpfs page is zeroed and uptodate at once; a disk page is locked until its read completes */
      if (i >= 0 && i < n) st[i] = tmpfs ? PC.uptodate : PC.reading;
    } else if (e.type === EV.mmsim_read_done) {
      for (let i = Math.max(0, at(e.b)); i < Math.min(n, at(e.b + e.c)); i++)
        if ((st[i] & PC_STATE_MASK) === PC.reading) st[i] = (st[i] & ~PC_STATE_MASK) | PC.uptodate;
    } else if (e.type === EV.mm_filemap_delete_from_page_cache) {
      const i = at(e.b);
      if (i >= 0 && i < n) st[i] = PC.none;
    } else if (e.type === EV.mmsim_readahead_mark) {
      const i = at(e.b);
      if (i >= 0 && i < n) st[i] = e.c ? st[i] | PC_READAHEAD : st[i] & ~PC_READAHEAD;
    }
  }
  return st;
}

export const faultAroundFrames: FrameProvider = {
  id: FAULT_AROUND,
  frame(ctx: FrameContext): FaultAroundFrame {
    const cache: Record<string, Uint8Array> = {};
    for (const mm of ctx.mms)
      for (const v of mm.vmas)
        if (v.file !== null && v.pages) cache[cacheKey(mm.id, v.id)] = cacheView(ctx, v.file, v.pgoff, v.pages.length, ctx.partial);
    return { files: fileViews(ctx), cache };
  },
};
