/**
 * Large folios and their mapcount (6.10's _large_mapcount against 6.9;
 * THP and mTHP): the gallery group (scenarios/large-folios/), key figures and
 * jump targets. Its frame data (the folio in focus: each page's
 * _mapcount, the folio's counts, who maps it with which PTEs or PMD, what
 * this operation cost in atomics) is frame.ts, in the worker; its view is
 * views.tsx, listed in ../views.ts.
 */
import { SplitPmdWhy } from '../../../../wasm-core/ts/abi.js';
import type { MechanismDef } from '../types.js';

export const LARGE_FOLIOS = 'large-folios';

export const mechanism: MechanismDef = {
  id: LARGE_FOLIOS,
  title: 'Large folios',
  blurb:
    'THP and mTHP folios: who maps which page, and what each fork, unmap and COW costs in mapcount atomics (6.10 against 6.9).',
  /* the one-click sweep: the folio order (each mTHP size alone), every rmap atomic, 6.9 beside 6.10 */
  sweepKey: 'mthp',
  sweepY: 'rmap_atomics',
  sweepVersus: { large_mapcount: 'false' },
  figures: [
    { key: 'rmap_atomic_page_mapcount', label: '_mapcount atomics' },
    { key: 'rmap_atomic_large_mapcount', label: '_large_mapcount atomics' },
    { key: 'thp_split_pmd', label: 'PMD remaps' },
    { key: 'pgfault', label: 'Page faults' },
  ],
  teachingOrder: ['thp', 'walkthrough', 'fork', 'munmap', 'cow-byte', 'remap', 'false-negative'],
  hides: ['counters', 'steps'],
  grow: { address: 0.9, walk: 1.3, log: 0.9 },
  jumps: [
    {
      id: 'folio-rmap',
      label: 'Rmap',
      key: 'O',
      event: 'mmsim_folio_rmap',
      title: 'the next rmap operation on a large folio: one batch of PTEs, or a PMD, and the atomics it cost',
    },
    {
      id: 'folio-remap',
      label: 'Remap',
      key: 'V',
      event: 'mmsim_split_huge_pmd',
      title: 'the next PMD\u2192PTE remap: a THP\u2019s PMD replaced by 512 PTEs',
    },
    {
      id: 'folio-queued',
      label: 'Queued',
      key: 'Q',
      event: 'mmsim_deferred_split',
      title: 'the next folio left partly mapped: queued for a deferred split',
    },
  ],
  /* its own views (their components: ./views.tsx) */
  views: [
    {
      id: 'folio',
      title: 'Folio',
      description:
        'the large folio in focus: each page\u2019s mapcount, the folio\u2019s counts, who maps it, and what this operation cost in atomics',
      column: 'main',
      grow: 1.6,
      order: 5,
      fit: true,
    },
  ],
};

export const SPLIT_WHY: Record<number, string> = {
  [SplitPmdWhy.Zap]: 'an unmap of part of it',
  [SplitPmdWhy.Cow]: 'a write to a shared PMD',
  [SplitPmdWhy.Vma]: 'a VMA edge inside it',
};
