/* Large folios and their mapcount (6.10 _large_mapcount, David Hildenbrand) against 6.9. */
export default {
  id: 'large-folios',
  title: 'Large folios',
  seed: '002_5fbf5eac29a528d4.txt',
  tunables: [
    { key: 'thp', type: 'choice', choices: ['never', 'madvise', 'always'], default: 'never',
      cEnum: 'mmsim_thp_mode', cPrefix: 'MMSIM_THP_', kernel: '6.10', status: 'later',
      desc: 'PMD-size (2 MiB) anonymous THP on fault.' },
    { key: 'mthp', field: 'mthp_orders', type: 'sizes', pow2: true, min: 16384, max: 1048576, default: [],
      unit: 'bytes', kernel: '6.8', status: 'modelled',
      desc: 'Enabled anonymous mTHP sizes (6.8+ alloc_anon_folio); the header holds a bitmask of orders.' },
    { key: 'large_mapcount', type: 'bool', default: true, kernel: '6.10 / 6.9', status: 'modelled',
      desc: '6.10 _large_mapcount (O(1) folio_mapcount) or the 6.9 per-page rules.' },
  ],
  counters: [
    ['THP_DEFERRED_SPLIT_PAGE', 'thp_deferred_split_page', { doc: 'anon large folios queued for a deferred split (deferred_split_folio: partly unmapped)' }],
    ['ANON_FAULT_ALLOC', 'anon_fault_alloc', { doc: 'mTHP: anonymous large folios allocated on fault (the per-size sysfs stats, summed over sizes)' }],
    ['ANON_FAULT_FALLBACK', 'anon_fault_fallback', { doc: 'mTHP: an enabled order whose allocation failed on fault, falling back (summed over sizes)' }],
    ['NR_DEFERRED_SPLIT', 'nr_deferred_split', { gauge: true, doc: 'folios on the deferred split queue' }],
    ['MODEL_RMAP_ATOMIC_PAGE_MAPCOUNT', 'rmap_atomic_page_mapcount', { model: true, doc: 'atomic read-modify-writes of a page\'s _mapcount (rmap, sections 3.3-3.4)' }],
    ['MODEL_RMAP_ATOMIC_LARGE_MAPCOUNT', 'rmap_atomic_large_mapcount', { model: true, doc: 'atomic read-modify-writes of a folio\'s _large_mapcount (6.10+ only: once per batch)' }],
    ['MODEL_RMAP_ATOMIC_ENTIRE_MAPCOUNT', 'rmap_atomic_entire_mapcount', { model: true, doc: 'atomic read-modify-writes of a folio\'s _entire_mapcount (PMD mappings)' }],
    ['MODEL_FOLIO_MAPCOUNT_PAGES_VISITED', 'folio_mapcount_pages_visited', { model: true, doc: 'pages the 6.9 folio_mapcount() loop read (large_mapcount false; 6.10 reads one field): counted when a scenario asks for a folio\'s mapcount' }],
    ['MODEL_RMAP_ATOMIC_NR_PAGES_MAPPED', 'rmap_atomic_nr_pages_mapped', { model: true, doc: 'atomic read-modify-writes of a folio\'s _nr_pages_mapped' }],
  ],
  events: [],
};
