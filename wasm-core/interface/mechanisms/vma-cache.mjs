/* The per-thread VMA cache (3.15, Davidlohr Bueso) against the single mm->mmap_cache (3.14). */
export default {
  id: 'vma-cache',
  title: 'VMA cache',
  /* the manifest: its place in the gallery, the patch it comes from, the kernels it compares, its core
     files (each opens with an essay on the mechanism) and native tests, and former names of its group */
  order: 2,
  seed: {
    author: 'Davidlohr Bueso',
    title: 'mm: per-thread vma caching',
    date: '2014-04-07',
    kernel: '3.15',
    commit: '615d6e8756c8',
  },
  kernels: ['3.14', '3.15'],
  core: ['src/vmacache.c'],
  tests: ['test/native/vma-cache.c'],
  aliases: ['vmacache'],
  tunables: [
    {
      key: 'vmacache',
      type: 'choice',
      choices: ['per-thread', 'mm-wide', 'off'],
      default: 'off',
      cEnum: 'mmsim_vmacache_mode',
      cPrefix: 'MMSIM_VMACACHE_',
      kernel: '3.15 / 3.14 / 6.1',
      versions: { 'per-thread': '3.15', 'mm-wide': '3.14', off: '6.1' },
      status: 'modelled',
      quick: true,
      /* its values name the behaviour by themselves ('mm-wide'): a label may show one alone */
      readsAlone: true,
      desc: '3.15 per-thread VMA cache (4 slots, seqnum invalidation), the 3.14 single mm->mmap_cache, or off: no cache, every find_vma() walks the tree (the baseline of the letter\'s "up to 250%"; and Linux from 6.1, which removed the cache: its find_vma() walks the maple tree, drawn here as the rb-tree).',
    },
  ],
  counters: [
    [
      'MODEL_FIND_VMA_NODES',
      'find_vma_nodes',
      { model: true, doc: "VMAs find_vma()'s rb-tree walks visited: the work a miss costs (the letter's cycles)" },
    ],
  ],
  /* no kernel tracepoints exist for the cache: model events, named for the functions (mm/vmacache.c, 3.15) */
  events: [
    [
      'VMACACHE_FIND',
      'mmsim_vmacache_find',
      'find_vma() asked the cache',
      [
        ['address', 'addr', 'the address looked up'],
        ['vma', 'u32', 'the VMA the cache answered with (0: a miss)'],
        ['slot', 'u32', 'the slot that answered (MMSIM_NONE on a miss)'],
        ['miss', 'u32', "0 a hit; 1 not in the slots; 2 the seqnum did not match: the task's slots were flushed"],
        ['mm', 'u32', 'the address space'],
      ],
    ],
    [
      'FIND_VMA_WALK',
      'mmsim_find_vma_walk',
      'the rb-tree walk of a miss: one event per VMA visited',
      [
        ['address', 'addr', 'the address looked up'],
        ['vma', 'u32', 'the VMA visited'],
        ['depth', 'u32', 'its depth in the tree (0: the root)'],
        ['candidate', 'bool', 'vm_end > address: a candidate, the walk goes left'],
        ['mm', 'u32', 'the address space'],
      ],
    ],
    [
      'VMACACHE_UPDATE',
      'mmsim_vmacache_update',
      'vmacache_update() (3.14: mm->mmap_cache = vma)',
      [
        ['address', 'addr', 'the address looked up'],
        ['vma', 'u32', 'the VMA stored'],
        ['slot', 'u32', 'the slot written'],
        ['old', 'u32', 'the VMA it replaced (0: the slot was empty)'],
        ['mm', 'u32', 'the address space'],
      ],
    ],
    [
      'VMACACHE_INVALIDATE',
      'mmsim_vmacache_invalidate',
      'vmacache_invalidate(): a VMA left the tree',
      [
        ['mm', 'u32', 'the address space'],
        ['seqnum', 'u32', "the mm's seqnum after (3.14: mmap_cache after)"],
        ['wrap', 'u32', '1 the seqnum wrapped to 0 (vmacache_flush_all follows); 2 the 3.14 single slot was cleared'],
      ],
    ],
    [
      'VMACACHE_FLUSH_ALL',
      'mmsim_vmacache_flush_all',
      'vmacache_flush_all() on a seqnum wrap',
      [
        ['mm', 'u32', 'the address space'],
        ['threads', 'u32', 'threads whose slots were cleared'],
      ],
    ],
  ],
  /* the view's queries (mm/vmacache.c's state and the rb-tree find_vma walks), in vmacache.c */
  structs: [
    {
      name: 'vmacache_info',
      doc: "one task's cache and its mm's",
      fields: [
        ['mm', 'u32', 'process id'],
        ['seqnum', 'u32', "the task's vmacache_seqnum"],
        ['mm_seqnum', 'u32', "the mm's vmacache_seqnum"],
        ['mmap_cache', 'u32', "3.14's mm->mmap_cache (vma id, 0 none)"],
        ['slot', 'u32', "the task's four slots (vma id, 0 empty)", 4],
      ],
    },
    {
      name: 'vma_node',
      doc: "one node of an mm's VMA rb-tree",
      fields: [
        ['id', 'u32', 'vma id'],
        ['left', 'u32', 'vma id, 0 none'],
        ['right', 'u32', 'vma id, 0 none'],
        ['depth', 'u16', '0 at the root'],
        ['red', 'u16', '1 red, 0 black'],
      ],
    },
  ],
  exports: [
    [
      'int mmsim_vmacache_info(const struct mmsim *sim, uint32_t task, struct mmsim_vmacache_info *out)',
      "a task's four VMA-cache slots and seqnum, its mm's seqnum and mmap_cache; MMSIM_EINVAL for no such task",
    ],
    [
      'uint32_t mmsim_vma_tree(const struct mmsim *sim, uint32_t mm, uint32_t max_depth, struct mmsim_vma_node *out, uint32_t max)',
      "the mm's VMA rb-tree, breadth first from the root, nodes at most max_depth deep, at most max of them; returns how many",
    ],
  ],
};
