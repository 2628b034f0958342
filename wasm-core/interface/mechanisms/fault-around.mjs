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
  tests: [],
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
  ],
  counters: [
    ['MODEL_FAULT_AROUND_CALLS', 'fault_around_calls', { model: true, doc: 'do_fault_around() calls' }],
    ['MODEL_FAULT_AROUND_MAPPED', 'fault_around_mapped', { model: true, doc: 'neighbours map_pages mapped' }],
    ['MODEL_FAULT_AROUND_SKIPPED', 'fault_around_skipped', { model: true, doc: 'pages map_pages skipped' }],
    ['MODEL_READAHEAD_PAGES', 'readahead_pages', { model: true, doc: 'pages read by readahead and read-around' }],
  ],
  events: [],
};
