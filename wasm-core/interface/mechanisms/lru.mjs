/* The page-cache LRU under pressure: reclaim, writeback and fadvise(DONTNEED) (2.6.39, Minchan Kim). */
export default {
  id: 'lru',
  title: 'LRU and fadvise',
  seed: '003_cd405e1935ce943b.txt',
  tunables: [
    { key: 'fadvise_dontneed', type: 'choice', choices: ['deactivate', 'invalidate-only'], default: 'deactivate',
      cEnum: 'mmsim_fadvise_mode', cPrefix: 'MMSIM_FADVISE_', kernel: '2.6.39 / 2.6.38', status: 'later',
      desc: '2.6.39 deactivation of pages that could not be invalidated, or the 2.6.38 behaviour.' },
  ],
  counters: [],
  events: [],
};
