/* Large folios and their mapcount (6.10 _large_mapcount, David Hildenbrand) against 6.9. */
export default {
  id: 'large-folios',
  title: 'Large folios',
  seed: '002_5fbf5eac29a528d4.txt',
  tunables: [
    {
      key: 'thp',
      type: 'choice',
      choices: ['never', 'madvise', 'always'],
      default: 'never',
      cEnum: 'mmsim_thp_mode',
      cPrefix: 'MMSIM_THP_',
      kernel: '6.10',
      status: 'modelled',
      quick: true,
      desc: 'PMD-size (2 MiB) anonymous THP on fault (do_huge_pmd_anonymous_page); madvise: only in madvise(MADV_HUGEPAGE) ranges.',
    },
    {
      key: 'mthp',
      field: 'mthp_orders',
      type: 'sizes',
      pow2: true,
      min: 16384,
      max: 1048576,
      default: [],
      unit: 'bytes',
      kernel: '6.8',
      status: 'modelled',
      desc: 'Enabled anonymous mTHP sizes (6.8+ alloc_anon_folio); the header holds a bitmask of orders.',
    },
    {
      key: 'large_mapcount',
      type: 'bool',
      default: true,
      kernel: '6.10 / 6.9',
      status: 'modelled',
      quick: true,
      desc: '6.10 _large_mapcount (O(1) folio_mapcount) or the 6.9 per-page rules.',
    },
  ],
  enums: [
    {
      ts: 'FolioRmapOp',
      c: 'mmsim_folio_rmap_op',
      prefix: 'MMSIM_FRMAP_',
      doc: 'mmsim_folio_rmap.b: which rmap operation (kernel-mechanisms.md §3.3)',
      members: [
        ['NewPtes', 0, 'folio_add_new_anon_rmap: a fresh folio mapped by its PTEs (plain stores, no atomics)'],
        ['NewPmd', 1, 'folio_add_new_anon_rmap: a fresh THP mapped by one PMD (plain stores)'],
        ['AddPtes', 2, 'folio_add_anon_rmap_ptes: pages mapped again by PTEs (the PMD->PTE remap)'],
        ['RemovePtes', 3, 'folio_remove_rmap_ptes: a batch of PTEs gone (zap, COW, reclaim)'],
        ['DupPtes', 4, 'folio_try_dup_anon_rmap_ptes: fork copied a batch of PTEs'],
        ['RemovePmd', 5, 'folio_remove_rmap_pmd: a PMD mapping gone (zap, remap)'],
        ['DupPmd', 6, 'folio_try_dup_anon_rmap_pmd: fork copied a PMD'],
      ],
    },
    {
      ts: 'SplitPmdWhy',
      c: 'mmsim_split_pmd_why',
      prefix: 'MMSIM_SPLITPMD_',
      doc: 'mmsim_split_huge_pmd.c: why a PMD mapping became 512 PTEs',
      members: [
        ['Zap', 0, 'munmap / madvise(DONTNEED) / exit covered only part of it'],
        ['Cow', 1, 'a write to a write-protected PMD that could not be reused (do_huge_pmd_wp_page falls back)'],
        ['Vma', 2, 'a VMA boundary moved inside it (vma_adjust_trans_huge)'],
      ],
    },
  ],
  counters: [
    ['THP_SPLIT_PMD', 'thp_split_pmd', { doc: 'PMD mappings split into PTE mappings (__split_huge_pmd)' }],
    [
      'THP_SPLIT_PAGE',
      'thp_split_page',
      { doc: 'large folios split into small ones (split_huge_page: the deferred split shrinker)' },
    ],
    [
      'THP_ZERO_PAGE_ALLOC',
      'thp_zero_page_alloc',
      { doc: 'the huge zero page set up (the first read fault of a THP range)' },
    ],
    [
      'NR_ANON_THPS',
      'nr_anon_transparent_hugepages',
      {
        gauge: true,
        doc: 'anonymous THPs mapped by a PMD somewhere, in THPs as /proc/vmstat prints it (the kernel keeps pages and divides by HPAGE_PMD_NR)',
      },
    ],
    [
      'THP_DEFERRED_SPLIT_PAGE',
      'thp_deferred_split_page',
      { doc: 'anon large folios queued for a deferred split (deferred_split_folio: partly unmapped)' },
    ],
    [
      'ANON_FAULT_ALLOC',
      'anon_fault_alloc',
      { doc: 'mTHP: anonymous large folios allocated on fault (the per-size sysfs stats, summed over sizes)' },
    ],
    [
      'ANON_FAULT_FALLBACK',
      'anon_fault_fallback',
      { doc: 'mTHP: an enabled order whose allocation failed on fault, falling back (summed over sizes)' },
    ],
    ['NR_DEFERRED_SPLIT', 'nr_deferred_split', { gauge: true, doc: 'folios on the deferred split queue' }],
    [
      'MODEL_RMAP_ATOMIC_PAGE_MAPCOUNT',
      'rmap_atomic_page_mapcount',
      { model: true, doc: "atomic read-modify-writes of a page's _mapcount (rmap, sections 3.3-3.4)" },
    ],
    [
      'MODEL_RMAP_ATOMIC_LARGE_MAPCOUNT',
      'rmap_atomic_large_mapcount',
      { model: true, doc: "atomic read-modify-writes of a folio's _large_mapcount (6.10+ only: once per batch)" },
    ],
    [
      'MODEL_RMAP_ATOMIC_ENTIRE_MAPCOUNT',
      'rmap_atomic_entire_mapcount',
      { model: true, doc: "atomic read-modify-writes of a folio's _entire_mapcount (PMD mappings)" },
    ],
    [
      'MODEL_FOLIO_MAPCOUNT_PAGES_VISITED',
      'folio_mapcount_pages_visited',
      {
        model: true,
        doc: "pages the 6.9 folio_mapcount() loop read (large_mapcount false; 6.10 reads one field): counted when a scenario asks for a folio's mapcount",
      },
    ],
    [
      'MODEL_RMAP_ATOMIC_NR_PAGES_MAPPED',
      'rmap_atomic_nr_pages_mapped',
      { model: true, doc: "atomic read-modify-writes of a folio's _nr_pages_mapped" },
    ],
  ],
  events: [
    [
      'FOLIO_RMAP',
      'mmsim_folio_rmap',
      "a large folio's mappings changed (large folios only): addr=the first page's pfn (of the c pages), a=head pfn, b=op (MMSIM_FRMAP_*), c=pages, d=atomics it made: _mapcount | _large_mapcount << 16 | _entire_mapcount << 20 | _nr_pages_mapped << 24",
    ],
    [
      'SET_PMD',
      'mmsim_set_pmd',
      "a PMD leaf set (a 2 MiB mapping): addr, a=head pfn (0: the huge zero page), b=mm, c=how (MMSIM_SET_*: Anon, Zero, Fork, Reuse), d=the entry's low 12 bits",
    ],
    [
      'PMD_CLEAR',
      'mmsim_pmd_clear',
      'a PMD leaf cleared (zap_huge_pmd): addr, a=head pfn (0: the huge zero page), b=mm, c=1 if the folio was freed',
    ],
    [
      'SPLIT_PMD',
      'mmsim_split_huge_pmd',
      'a PMD leaf remapped by a PTE table (__split_huge_pmd_locked): addr, a=head pfn (0: the huge zero page), b=mm, c=why (MMSIM_SPLITPMD_*), d=rmap atomics it cost',
    ],
    [
      'DEFERRED_SPLIT',
      'mmsim_deferred_split',
      'a partly unmapped anon large folio queued (deferred_split_folio): a=head pfn, b=order, c=pages still mapped',
    ],
    [
      'SPLIT_FOLIO',
      'mmsim_split_huge_page',
      'the deferred split shrinker split a folio (split_huge_page): a=head pfn, b=order, c=pages freed (unmapped ones), d=pages left',
    ],
  ],
  /* the view's queries (folio_query.c) */
  structs: [
    {
      name: 'folio_info',
      doc: 'one folio as the rmap sees it (fields +1 where the kernel biases them by -1)',
      fields: [
        ['head', 'u32', "the head page's pfn"],
        ['order', 'u32'],
        ['flags', 'u32', "the head page's PG_* bits"],
        ['refcount', 'i32'],
        ['mapcount', 'i32', 'folio_mapcount()'],
        ['large_mapcount', 'i32', '_large_mapcount + 1 (large folios; the model keeps it under 6.9 too, uncounted)'],
        ['entire_mapcount', 'i32', '_entire_mapcount + 1'],
        ['nr_pages_mapped', 'u32', 'as stored: PTE-mapped pages | ENTIRELY_MAPPED (0x800000)'],
        ['queued', 'u32', '1 on the deferred split queue'],
        ['shared_old', 'u32', "6.9 folio_likely_mapped_shared(): the first page's page_mapcount() > 1"],
        ['shared_new', 'u32', '6.10 folio_likely_mapped_shared()'],
        ['index', 'u32', "the head's index (anon: linear page index in its VMA)"],
      ],
    },
    {
      name: 'folio_map',
      doc: "a run of one folio's pages mapped in one mm by consecutive PTEs, or a PMD",
      fields: [
        ['addr', 'u64', "the first page's address"],
        ['mm', 'u32'],
        ['level', 'u32', 'MMSIM_PGT_PMD or MMSIM_PGT_PTE'],
        ['page', 'u32', "the first page's index in the folio"],
        ['nr', 'u32', 'pages'],
        ['bits', 'u32', "the first entry's low 12 bits"],
        ['reserved', 'u32'],
      ],
    },
    {
      name: 'folio_census',
      doc: 'the large folios in memory',
      fields: [
        ['large', 'u32', 'large folios allocated'],
        ['pmd_mapped', 'u32', 'of them mapped by a PMD somewhere'],
        ['queued', 'u32', 'on the deferred split queue'],
        ['pages', 'u32', 'pages in large folios'],
      ],
    },
  ],
  exports: [
    [
      'int mmsim_folio_info(const struct mmsim *sim, uint32_t pfn, struct mmsim_folio_info *out)',
      'the folio a page belongs to; MMSIM_EINVAL if the page is free or a page table',
    ],
    [
      'uint32_t mmsim_folio_pages(const struct mmsim *sim, uint32_t pfn, uint32_t *out, uint32_t max)',
      "each page's _mapcount + 1, for the folio of pfn; returns its pages",
    ],
    [
      'uint32_t mmsim_folio_maps(const struct mmsim *sim, uint32_t pfn, struct mmsim_folio_map *out, uint32_t max)',
      'where every mm maps the folio of pfn (PMDs, and PTEs in runs); returns how many runs',
    ],
    [
      'uint32_t mmsim_large_folios(const struct mmsim *sim, uint32_t *out, uint32_t max)',
      'the head pfns of the large folios, in pfn order; returns how many (at most max)',
    ],
    [
      'int mmsim_folio_census(const struct mmsim *sim, struct mmsim_folio_census *out)',
      'how many large folios there are, and how mapped',
    ],
    [
      'uint32_t mmsim_folio_joins(const struct mmsim *sim, uint32_t mm, uint32_t start_hi, uint32_t start_lo, uint32_t n, uint32_t *out, uint32_t max)',
      "for the address space's blocks: over n pages from start (hi:lo), bit i of out[i / 32] set when page i maps the page after page i - 1's in one large folio; returns the words written",
    ],
  ],
};
