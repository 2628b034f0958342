/**
 * The VMA cache's events in one sentence each (linked to Linux 3.15's
 * source: v6.1 removed the cache, so the kernel the rest links to has none).
 */
import { EV } from '../abi.js';
import { hex, plural, type Describer } from '../events.js';

const V = 'v3.15';

export const describeVmaCache: Describer = (e, { task }) => {
  switch (e.type) {
    case EV.mmsim_vmacache_find:
      return e.a
        ? {
            text: `${task}: find_vma(${hex(e.addr)}): cache hit in slot ${e.b} (VMA ${e.a})`,
            fn: 'vmacache_find',
            label: `vmacache hit ${e.b}`,
            version: V,
          }
        : e.c === 2
          ? {
              text: `${task}: find_vma(${hex(e.addr)}): cache miss: the task's seqnum was behind the mm's, so its 4 slots were flushed`,
              fn: 'vmacache_valid',
              label: 'vmacache flush',
              version: V,
            }
          : {
              text: `${task}: find_vma(${hex(e.addr)}): cache miss, walking the VMA tree`,
              fn: 'vmacache_find',
              label: 'vmacache miss',
              version: V,
            };
    case EV.mmsim_find_vma_walk:
      return {
        text: `VMA tree, depth ${e.b}: VMA ${e.a} ${e.c ? `ends above ${hex(e.addr)}: the candidate so far, go left` : `ends at or below ${hex(e.addr)}: go right`}`,
        fn: 'find_vma',
        label: `walk VMA ${e.a}`,
        version: V,
      };
    case EV.mmsim_vmacache_update:
      return {
        text: `cache slot ${e.b} now holds VMA ${e.a}${e.c ? ` (replacing VMA ${e.c})` : ''}`,
        fn: 'vmacache_update',
        label: `slot ${e.b} = VMA ${e.a}`,
        version: V,
      };
    case EV.mmsim_vmacache_invalidate:
      return e.c === 2
        ? {
            text: e.b
              ? `mm->mmap_cache handed to VMA ${e.b}, the one that absorbed the VMA it held`
              : 'mm->mmap_cache killed (a VMA was unmapped)',
            fn: e.b ? '__vma_unlink' : 'detach_vmas_to_be_unmapped',
            label: 'mmap_cache reset',
            version: V,
          }
        : {
            text: `the mm's vmacache_seqnum is now ${e.b}${e.c ? ": it wrapped, so every thread's slots are flushed" : ': each thread flushes its slots at its next lookup'}`,
            fn: 'vmacache_invalidate',
            label: `seqnum ${e.b}`,
            version: V,
          };
    case EV.mmsim_vmacache_flush_all:
      return {
        text: `vmacache_flush_all: the slots of ${plural(e.b, 'thread')} cleared`,
        fn: 'vmacache_flush_all',
        label: 'flush all',
        version: V,
      };
    default:
      return null;
  }
};
