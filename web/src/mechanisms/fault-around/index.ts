/**
 * Fault-around (Linux 3.15): the gallery group, key figures and quick
 * tunables. Its frame data (the fault-around window, skipped pages and why,
 * the page cache behind a file mapping, readahead windows) comes from the
 * engine's frame; its views are the address space and the page-table walk.
 */
import { SkipReason } from '../../../../wasm-core/ts/abi.js';
import { size } from '../../lib/format.js';
import { jump, type MechanismDef } from '../types.js';

export const mechanism: MechanismDef = {
  id: 'fault-around',
  title: 'Fault-around',
  blurb:
    'On a read fault, map the neighbours already in the page cache too (->map_pages, fault_around_bytes; Linux 3.15).',
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
