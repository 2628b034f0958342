/**
 * Fault-around (Linux 3.15): the gallery group, key figures, jumps and quick
 * tunables. Its marks on a fault (the window, skipped pages and why) come
 * from its frame provider (frame.ts) and are drawn by the shared address
 * space, whose legend names them (legend below); the page cache and the
 * readahead window behind a file mapping are the engine's, as they are
 * every mechanism's. Its views are the shared address space and page-table walk.
 */
import { SkipReason } from '../../../../wasm-core/ts/abi.js';
import { size } from '../../lib/format.js';
import { jump, type MechanismDef } from '../types.js';

export const FAULT_AROUND = 'fault-around';

export const mechanism: MechanismDef = {
  id: FAULT_AROUND,
  title: 'Fault-around',
  blurb:
    'On a read fault, map the neighbours already in the page cache too (->map_pages, fault_around_bytes; Linux 3.15).',
  marks: [
    { kind: 'range', label: 'window', title: 'the fault-around window of the current fault', file: true },
    {
      kind: 'cross',
      label: 'skipped',
      title: 'a page fault-around did not map: hover it (or inspect it with the keys) for why',
      file: true,
    },
  ],
  figures: [
    { key: 'pgfault', label: 'Page faults' },
    { key: 'pgmajfault', label: 'Major faults' },
    { key: 'nr_mapped', label: 'Pages mapped' },
    { key: 'touches', label: 'Pages touched' },
  ],
  teachingOrder: [
    'sequential',
    'random',
    'one-per-page-table',
    'unaligned',
    'partly-cached',
    'readahead-in-flight',
    'shared-write',
    'anonymous',
  ],
  jumps: [
    jump({
      id: 'major',
      label: 'Major',
      key: 'M',
      event: 'mm_filemap_fault',
      where: (e) => !e.cached,
      title: 'the next major fault: ->fault found the page not in the page cache',
    }),
    jump({
      id: 'skip',
      label: 'Skip',
      key: 'S',
      event: 'mm_filemap_map_skip',
      where: (e) => e.reason !== SkipReason.PtePresent,
      title: 'the next page fault-around skipped (not cached, locked, not uptodate, PG_readahead...)',
    }),
  ],
  valueLabel: (key, v) => {
    if (key !== 'fault_around_bytes') return null;
    const pages = v / 4096;
    return pages === 1 ? '4 KiB · off' : `${size(v)} · order ${Math.log2(pages)}`;
  },
};
