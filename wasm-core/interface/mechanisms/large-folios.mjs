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
      unit: 'bytes', kernel: '6.8', status: 'later',
      desc: 'Enabled anonymous mTHP sizes (6.8+ alloc_anon_folio); the header holds a bitmask of orders.' },
    { key: 'large_mapcount', type: 'bool', default: true, kernel: '6.10 / 6.9', status: 'later',
      desc: '6.10 _large_mapcount (O(1) folio_mapcount) or the 6.9 per-page rules.' },
  ],
  counters: [],
  events: [],
};
