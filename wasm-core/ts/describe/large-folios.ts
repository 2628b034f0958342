/**
 * Large folios' events in one sentence each: THP's PMD mappings, the
 * PMD->PTE remap, the deferred split, and every rmap operation on a large
 * folio with the atomics it cost (docs/kernel.md, "Large folios"; the 6.10
 * kernel, whose _large_mapcount the seed adds).
 */
import { EV, FolioRmapOp, SetHow, SplitPmdWhy } from '../abi.js';
import type { SimEventOf } from '../gen/events.js';
import { hex, plural, type Describer } from './common.js';

const V = 'v6.10';

/** the atomics an mmsim_folio_rmap made, by field */
export function rmapAtomics(e: SimEventOf<'mmsim_folio_rmap'>): {
  page: number;
  large: number;
  entire: number;
  nr: number;
} {
  return {
    page: e.mapcount_atomics,
    large: e.large_mapcount_atomics,
    entire: e.entire_mapcount_atomics,
    nr: e.nr_pages_mapped_atomics,
  };
}

export function atomicsText(e: SimEventOf<'mmsim_folio_rmap'>): string {
  const a = rmapAtomics(e);
  const parts = [
    a.page && `${a.page.toLocaleString('en-US')} _mapcount`,
    a.large && `${a.large} _large_mapcount`,
    a.entire && `${a.entire} _entire_mapcount`,
    a.nr && `${a.nr} _nr_pages_mapped`,
  ].filter(Boolean);
  return parts.length
    ? `${parts.join(' + ')} atomic${a.page + a.large + a.entire + a.nr === 1 ? '' : 's'}`
    : 'no atomics (plain stores)';
}

const RMAP: Record<number, { what: (n: number) => string; fn: string }> = {
  [FolioRmapOp.NewPtes]: {
    what: (n) => `a new folio mapped by its ${plural(n, 'PTE')}`,
    fn: 'folio_add_new_anon_rmap',
  },
  [FolioRmapOp.NewPmd]: { what: () => 'a new THP mapped by one PMD', fn: 'folio_add_new_anon_rmap' },
  [FolioRmapOp.AddPtes]: { what: (n) => `${plural(n, 'page')} mapped again by PTEs`, fn: 'folio_add_anon_rmap_ptes' },
  [FolioRmapOp.RemovePtes]: { what: (n) => `${plural(n, 'PTE')} removed as one batch`, fn: 'folio_remove_rmap_ptes' },
  [FolioRmapOp.DupPtes]: {
    what: (n) => `${plural(n, 'PTE')} copied by fork as one batch`,
    fn: 'folio_try_dup_anon_rmap_ptes',
  },
  [FolioRmapOp.RemovePmd]: { what: () => 'its PMD mapping removed', fn: 'folio_remove_rmap_pmd' },
  [FolioRmapOp.DupPmd]: { what: () => 'its PMD copied by fork', fn: 'folio_try_dup_anon_rmap_pmd' },
};

const RMAP_LABEL: Record<number, string> = {
  [FolioRmapOp.NewPtes]: 'rmap: new folio',
  [FolioRmapOp.NewPmd]: 'rmap: new THP',
  [FolioRmapOp.AddPtes]: 'rmap: PTEs added',
  [FolioRmapOp.RemovePtes]: 'rmap: PTEs removed',
  [FolioRmapOp.DupPtes]: 'rmap: fork copy',
  [FolioRmapOp.RemovePmd]: 'rmap: PMD removed',
  [FolioRmapOp.DupPmd]: 'rmap: fork copy (PMD)',
};

const WHY: Record<number, string> = {
  [SplitPmdWhy.Zap]: 'an unmap covers only part of it',
  [SplitPmdWhy.Cow]: 'a write to a PMD still shared (or the huge zero page) is handled 4 KiB at a time',
  [SplitPmdWhy.Vma]: 'a VMA edge moved inside it',
};

const HOW: Record<number, string> = {
  [SetHow.Anon]: 'a new THP, writable',
  [SetHow.Zero]: 'the huge zero page, read-only',
  [SetHow.Fork]: 'copied into the child at fork, write-protected in both',
  [SetHow.Reuse]: 'made writable in place (its only user)',
};

export const describer: Describer = (e, { task }) => {
  switch (e.type) {
    case EV.mmsim_folio_rmap: {
      const r = RMAP[e.op];
      if (!r) return null;
      return {
        text: `folio at pfn ${e.head}: ${r.what(e.nr)}${e.nr < 2 ** 9 && e.first_pfn !== e.head ? ` (from its page ${e.first_pfn - e.head})` : ''}; ${atomicsText(e)}`,
        fn: r.fn,
        label: RMAP_LABEL[e.op] ?? 'rmap',
        version: V,
      };
    }
    case EV.mmsim_set_pmd:
      return {
        text: `${task}: PMD for ${hex(e.address)} set: ${HOW[e.how] ?? 'a 2 MiB leaf'}${e.head ? ` (pfn ${e.head})` : ''}`,
        fn:
          e.how === SetHow.Fork
            ? 'copy_huge_pmd'
            : e.how === SetHow.Reuse
              ? 'do_huge_pmd_wp_page'
              : 'do_huge_pmd_anonymous_page',
        label: 'PMD set',
        version: V,
      };
    case EV.mmsim_pmd_clear:
      return {
        text: `PMD for ${hex(e.address)} cleared: ${e.head ? `the THP at pfn ${e.head}${e.freed ? ', freed with it' : ''}` : 'the huge zero page'}; its deposited table freed`,
        fn: 'zap_huge_pmd',
        label: 'PMD cleared',
        version: V,
      };
    case EV.mmsim_split_huge_pmd:
      return {
        text: `PMD for ${hex(e.address)} remapped by 512 PTEs (the deposited table): ${WHY[e.why] ?? ''}${e.head ? `; ${plural(e.atomics, 'rmap atomic')}` : ''}`,
        fn: '__split_huge_pmd_locked',
        label: 'PMD remap',
        version: V,
      };
    case EV.mmsim_deferred_split:
      return {
        text: `folio at pfn ${e.head} (order ${e.order}) partly mapped (${plural(e.mapped, 'page')} still mapped): queued for a deferred split`,
        fn: 'deferred_split_folio',
        label: 'deferred split',
        version: V,
      };
    case EV.mmsim_split_huge_page:
      return {
        text: `the deferred split shrinker split the folio at pfn ${e.head} (order ${e.order}): ${plural(e.left, 'small folio')} kept, ${plural(e.freed, 'unmapped page')} freed`,
        fn: 'split_huge_page_to_list_to_order',
        label: 'folio split',
        version: V,
      };
    default:
      return null;
  }
};
