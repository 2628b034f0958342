/* The 2004 anticipatory prefault of anonymous memory (Christoph Lameter, V1). */
export default {
  id: 'prefault',
  title: 'Anticipatory prefault',
  /* the manifest: its place in the gallery, the patch it comes from, the kernels it compares, its core
     files (each opens with an essay on the mechanism) and native tests, and former names of its group */
  order: 5,
  seed: {
    author: 'Christoph Lameter',
    title: 'Anticipatory prefaulting in the page fault handler V1',
    date: '2004-12-08',
    kernel: '2.6.10-rc3 (never merged)',
  },
  kernels: ['2.6.10-rc3 (2004 patch)'],
  core: ['src/prefault.c'],
  tests: ['test/native/prefault.c'],
  aliases: [],
  tunables: [
    {
      key: 'anon_prefault',
      type: 'choice',
      choices: ['off', 'anticipatory'],
      default: 'off',
      quick: true,
      cEnum: 'mmsim_prefault_mode',
      cPrefix: 'MMSIM_PREFAULT_',
      kernel: '2.6.10-rc (2004 patch)',
      versions: { off: '2.6.10', anticipatory: '2004 prefault' },
      status: 'modelled',
      desc: "The 2004 anticipatory prefault for anonymous faults (V1, never merged): a fault where the task's last batch ended maps 2, 4, 8... pages up to the cap.",
    },
    {
      key: 'anon_prefault_cap',
      type: 'int',
      min: 1,
      max: 512,
      default: 14,
      unit: 'pages',
      quick: true,
      kernel: '2.6.10-rc (2004 patch)',
      status: 'modelled',
      desc: 'PAGEVEC_SIZE, the cap of one prefault batch (pages): 14 in 2.6.10 (16 in 2.6.9).',
    },
  ],
  enums: [
    {
      ts: 'PrefaultEnd',
      c: 'mmsim_prefault_end',
      prefix: 'MMSIM_PFEND_',
      doc: 'mmsim_anon_prefault.d: what ended the batch',
      members: [
        ['Miss', 0, 'no prediction hit: one page, the order reset'],
        ['Order', 1, '2^order pages, under the cap'],
        ['Cap', 2, 'the cap (PAGEVEC_SIZE)'],
        ['Vma', 3, 'the end of the VMA'],
        ['Pmd', 4, 'the end of the page table (a batch never crosses a PMD)'],
        ['Alloc', 5, 'an allocation failed part way: the batch shrank (the prediction already stored will miss)'],
        [
          'Present',
          6,
          "a present PTE (a read batch stops there: the model's choice, as later postings; V1 overwrote it)",
        ],
      ],
    },
  ],
  counters: [
    [
      'MODEL_PREFAULT_PAGES',
      'prefault_pages',
      { model: true, doc: 'pages the anticipatory prefault mapped in advance (beyond the faulting page)' },
    ],
    ['MODEL_PREFAULT_HITS', 'prefault_hits', { model: true, doc: 'faults at the predicted address (a batch mapped)' }],
  ],
  events: [
    [
      'ANON_PREFAULT',
      'mmsim_anon_prefault',
      'do_anonymous_page with the anticipatory prefault',
      [
        ['address', 'addr', 'the faulting address'],
        ['hit', 'bool', 'the prediction came true (a batch was mapped)'],
        ['order', 'u32', 'the order of the batch (2^order pages planned)'],
        ['mapped', 'u32', 'pages mapped', { unit: 'pages' }],
        ['end', 'u32', 'what ended the batch', { enum: 'PrefaultEnd', bits: 8 }],
        ['planned', 'u32', 'pages planned: the prediction stored is address + planned pages', { bits: 24 }],
      ],
    ],
  ],
  structs: [
    {
      name: 'prefault_state',
      doc: "one task's prediction (2004 V1: task_struct fields)",
      fields: [
        ['next_addr', 'u64', 'anon_fault_next_addr: the address predicted next'],
        ['order', 'u32', 'anon_fault_order'],
        ['alive', 'u32'],
      ],
    },
  ],
  exports: [
    [
      'int mmsim_prefault_state(const struct mmsim *sim, uint32_t task, struct mmsim_prefault_state *out)',
      "a task's prediction; MMSIM_EINVAL for no such task",
    ],
  ],
};
