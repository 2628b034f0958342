/**
 * The VMA cache (Linux 3.15's per-thread cache against 3.14's single
 * mm->mmap_cache): the gallery group (scenarios/vma-cache/), key figures and
 * jump targets. Its frame data (every thread's four slots and seqnum, the
 * mm's seqnum or mmap_cache, the rb-tree and the lookup at the cursor) is
 * frame.ts, in the worker; its views (the slots, the tree with a miss's
 * walk, the hit rate over the run) are views.tsx, listed in ../views.ts.
 */
import { jump, type MechanismDef } from '../types.js';

export const VMA_CACHE = 'vma-cache';

export const mechanism: MechanismDef = {
  id: VMA_CACHE,
  title: 'VMA cache',
  blurb: 'find_vma() answered from four slots per thread instead of one per process (vmacache; Linux 3.15).',
  sweepY: 'vmacache_find_hits',
  figures: [
    { key: 'vmacache_find_calls', label: 'find_vma calls' },
    { key: 'vmacache_find_hits', label: 'Cache hits' },
    { key: 'pgfault', label: 'Page faults' },
    { key: 'vmacache_full_flushes', label: 'Full flushes' },
  ],
  teachingOrder: [
    'ebizzy',
    'ebizzy-arena',
    'build',
    'boot',
    'single-thread',
    'invalidation',
    'hash-collision',
    'seqnum-wrap',
  ],
  /* the walk, the counters table and the steps make room for the cache's views (the figures above carry its counters) */
  hides: ['walk', 'counters', 'steps'],
  grow: { address: 1.4, log: 0.7 },
  jumps: [
    jump({
      id: 'vmacache-miss',
      label: 'Miss',
      key: 'C',
      event: 'mmsim_vmacache_find',
      where: (e) => e.vma === 0,
      title: 'the next VMA-cache miss: find_vma() walks the rb-tree',
    }),
    jump({
      id: 'vmacache-flush',
      label: 'Flush',
      key: 'H',
      event: 'mmsim_vmacache_find',
      where: (e) => e.miss === 2,
      title:
        'the next flush: a thread\u2019s seqnum is behind its mm\u2019s, its four slots are emptied and the lookup misses',
    }),
  ],
  /* its own views (their components: ./views.tsx) */
  views: [
    {
      id: 'vmacache',
      title: 'VMA cache',
      description: 'every thread\u2019s four slots (or the one mm->mmap_cache), the lookup at the cursor',
      column: 'main',
      grow: 1.5,
      order: 5,
      fit: true,
    },
    {
      id: 'vma-tree',
      title: 'VMA tree',
      description: 'the rb-tree find_vma() walks on a miss, with the path',
      column: 'side',
      grow: 1.4,
      fit: true,
      svg: true,
      overlay: true,
      order: 25,
    },
    {
      id: 'vmacache-rate',
      title: 'Hit rate',
      description: 'each thread\u2019s find_vma hit rate over the run',
      column: 'side',
      grow: 1.2,
      /* the chart's five ticks and the threads' legend (squeezed to 103 px at 1920x1080, its labels piled up) */
      minRem: 15,
      fit: true,
      svg: true,
      overlay: true,
      wholeRun: true,
      order: 35,
    },
  ],
};
