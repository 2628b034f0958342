/*
 * Fault-around (Linux 3.15, Kirill A. Shutemov, "mm: introduce
 * vm_ops->map_pages()"): on a read fault of a file page, also map the
 * neighbours already in the page cache. With it: the read-around and
 * readahead that fill the page cache on a major fault.
 */
export default {
  id: 'fault-around',
  title: 'Fault-around',
  /* the manifest: its place in the gallery, the patch it comes from, the kernels it compares, its core
     files (each opens with an essay on the mechanism) and native tests, and former names of its group */
  order: 1,
  seed: {
    author: 'Kirill A. Shutemov',
    title: 'mm: introduce vm_ops->map_pages()',
    date: '2014-04',
    kernel: '3.15',
    commit: '8c6e50b029',
  },
  kernels: ['3.15'],
  core: ['src/memory.c', 'src/filemap.c', 'src/readahead.c', 'src/shmem.c'],
  tests: ['test/native/fault-around.c'],
  aliases: [],
  tunables: [
    {
      key: 'fault_around_bytes',
      type: 'size',
      pow2: true,
      min: 4096,
      max: 2097152,
      default: 65536,
      unit: 'bytes',
      kernel: '3.15',
      versions: { 4096: '3.14', 65536: '3.15' },
      quick: true,
      status: 'modelled',
      desc: 'Fault-around window (power of two). 4096 turns fault-around off: the pre-3.15 baseline.',
    },
    {
      key: 'readahead_kb',
      type: 'int',
      min: 0,
      max: 65536,
      default: 128,
      unit: 'KiB',
      kernel: '6.19',
      quick: true,
      status: 'modelled',
      sweep: [0, 16, 32, 64, 128, 256, 512, 1024, 2048],
      desc: 'Read-around / readahead window for major faults and read (read_ahead_kb).',
    },
    {
      key: 'pagecache_large_folios',
      type: 'bool',
      default: true,
      kernel: '3.15-6.12 / 6.18',
      versions: { false: '2.6.38', true: '6.18' },
      status: 'modelled',
      desc: "Large folios in a disk file's page cache. false: order-0 folios only (every kernel before ext4's large folios in 6.16, and 6.18's ext4 with data=journal). true: 6.18's ext4: readahead grows each window's folio order by 2 (page_cache_ra_order), fault-around maps a large folio whole when it lies inside the VMA and one page table and ends before the file's last page, and finish_fault() maps the whole folio. tmpfs stays order-0 (huge=never).",
    },
  ],
  counters: [
    ['MODEL_FAULT_AROUND_CALLS', 'fault_around_calls', { model: true, doc: 'do_fault_around() calls' }],
    ['MODEL_FAULT_AROUND_MAPPED', 'fault_around_mapped', { model: true, doc: 'neighbours map_pages mapped' }],
    ['MODEL_FAULT_AROUND_SKIPPED', 'fault_around_skipped', { model: true, doc: 'pages map_pages skipped' }],
    ['MODEL_READAHEAD_PAGES', 'readahead_pages', { model: true, doc: 'pages read by readahead and read-around' }],
    [
      'MODEL_PAGECACHE_SPLITS',
      'pagecache_folio_splits',
      {
        model: true,
        doc: 'large page-cache folios the model split to order 0 before a path it has no large-folio rule for (write, a shared write fault, fadvise, truncate, reclaim); the kernel keeps them whole',
      },
    ],
  ],
  events: [
    [
      'PAGECACHE_SPLIT',
      'mmsim_pagecache_split',
      'the model split a large page-cache folio to order 0 before a path it has no large-folio rule for (the kernel keeps it whole)',
      [
        ['file', 'u32', 'the file'],
        ['pgoff', 'u32', "the folio's first file page"],
        ['head', 'u32', "the folio's head page frame"],
        ['order', 'u32', 'its order'],
      ],
    ],
  ],
};
