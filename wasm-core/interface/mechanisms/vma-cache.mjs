/* The per-thread VMA cache (3.15, Davidlohr Bueso) against the single mm->mmap_cache (3.14). */
export default {
  id: 'vma-cache',
  title: 'VMA cache',
  seed: '001_23caa608daf6b6b9.txt',
  tunables: [
    { key: 'vmacache', type: 'choice', choices: ['per-thread', 'mm-wide'], default: 'per-thread',
      cEnum: 'mmsim_vmacache_mode', cPrefix: 'MMSIM_VMACACHE_', kernel: '3.15 / 3.14', status: 'later',
      desc: '3.15 per-thread VMA cache (4 slots, seqnum invalidation) or the 3.14 single mm->mmap_cache.' },
  ],
  counters: [],
  events: [],
};
