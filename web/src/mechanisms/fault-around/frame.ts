/**
 * Fault-around's frame provider (runs in the worker, with the engine): the
 * page cache behind each file mapping drawn page by page, and each file's
 * readahead window (struct file_ra_state). Straight from the core's queries
 * (mmsim_pagecache_states, mmsim_file_info): the engine has the core at the
 * frame's cursor, also between two events of a fault, so a page added, read
 * or marked PG_readahead shows from its event on. No React here.
 */
import type { Frame, FrameContext, FrameProvider } from '../../frames/types.js';

/** a file's readahead state: the last window, its last `async` pages ahead of the reader */
export interface FileView {
  id: number;
  nrpages: number;
  mmapMiss: number;
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

function fileViews({ sim, program }: FrameContext): FileView[] {
  return program.files.map((_, id) => {
    const fi = sim.fileInfo(id);
    const ra = fi.raSize ? { start: Number(fi.raStart), size: fi.raSize, async: fi.raAsyncSize } : null;
    return { id, nrpages: fi.nrpages, mmapMiss: fi.mmapMiss, ra };
  });
}

export const frames: FrameProvider = {
  id: FAULT_AROUND,
  frame(ctx: FrameContext): FaultAroundFrame {
    const cache: Record<string, Uint8Array> = {};
    /* the page cache behind each file VMA, page by page (PC.* | PC_READAHEAD) */
    for (const mm of ctx.mms)
      for (const v of mm.vmas)
        if (v.file !== null && v.pages)
          cache[cacheKey(mm.id, v.id)] = ctx.sim.pagecacheStates(v.file, v.pgoff, v.pages.length);
    return { files: fileViews(ctx), cache };
  },
};
