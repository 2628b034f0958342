/**
 * The VMA cache's events in one sentence each (linked to Linux 3.15's
 * source: v6.1 removed the cache, so the kernel the rest links to has none).
 */
import { EV } from '../abi.js';
import { hex, plural, type Describer } from './common.js';

const V = 'v3.15';

export const describer: Describer = (e, { task }) => {
  switch (e.type) {
    case EV.mmsim_vmacache_find:
      return e.vma
        ? {
            text: `${task}: find_vma(${hex(e.address)}): cache hit in slot ${e.slot} (VMA ${e.vma})`,
            fn: 'vmacache_find',
            label: `vmacache hit ${e.slot}`,
            version: V,
          }
        : e.miss === 2
          ? {
              text: `${task}: find_vma(${hex(e.address)}): cache miss: the task's seqnum was behind the mm's, so its 4 slots were flushed`,
              fn: 'vmacache_valid',
              label: 'vmacache flush',
              version: V,
            }
          : {
              text: `${task}: find_vma(${hex(e.address)}): cache miss, walking the VMA tree`,
              fn: 'vmacache_find',
              label: 'vmacache miss',
              version: V,
            };
    case EV.mmsim_find_vma_walk:
      return {
        text: `VMA tree, depth ${e.depth}: VMA ${e.vma} ${e.candidate ? `ends above ${hex(e.address)}: the candidate so far, go left` : `ends at or below ${hex(e.address)}: go right`}`,
        fn: 'find_vma',
        label: `walk VMA ${e.vma}`,
        version: V,
      };
    case EV.mmsim_vmacache_update:
      return {
        text: `cache slot ${e.slot} now holds VMA ${e.vma}${e.old ? ` (replacing VMA ${e.old})` : ''}`,
        fn: 'vmacache_update',
        label: `slot ${e.slot} = VMA ${e.vma}`,
        version: V,
      };
    case EV.mmsim_vmacache_invalidate:
      return e.wrap === 2
        ? {
            text: e.seqnum
              ? `mm->mmap_cache handed to VMA ${e.seqnum}, the one that absorbed the VMA it held`
              : 'mm->mmap_cache killed (a VMA was unmapped)',
            fn: e.seqnum ? '__vma_unlink' : 'detach_vmas_to_be_unmapped',
            label: 'mmap_cache reset',
            version: V,
          }
        : {
            text: `the mm's vmacache_seqnum is now ${e.seqnum}${e.wrap ? ": it wrapped, so every thread's slots are flushed" : ': each thread flushes its slots at its next lookup'}`,
            fn: 'vmacache_invalidate',
            label: `seqnum ${e.seqnum}`,
            version: V,
          };
    case EV.mmsim_vmacache_flush_all:
      return {
        text: `vmacache_flush_all: the slots of ${plural(e.threads, 'thread')} cleared`,
        fn: 'vmacache_flush_all',
        label: 'flush all',
        version: V,
      };
    default:
      return null;
  }
};
