/**
 * The LRU's events in one sentence each, linked to Linux 2.6.39's source
 * (the kernel this mechanism follows; several of its functions were
 * renamed or folded since: deactivate_page is deactivate_file_folio,
 * shrink_page_list shrink_folio_list...).
 */
import { EV, LRU_LISTS, LRU_TAIL, LruMove, NONE, PAGEVEC_SIZE, ShrinkVerdict, WbReason, InvalResult } from '../abi.js';
import { plural, type DescribeContext, type Described, type Describer, type SimEvent } from '../events.js';

const V = 'v2.6.39';
const W = 'v3.15'; /* workingset detection */

/** a page named from an LRU event's addr (file id + 1 << 32 | pgoff), or by its pfn when anonymous */
export function pageName(e: SimEvent, file: DescribeContext['file']): string {
  const hi = Math.floor(e.addr / 2 ** 32),
    lo = e.addr % 2 ** 32;
  return hi ? `${file(hi - 1)} page ${lo}` : `an anonymous page (pfn ${e.a})`;
}

const list = (l: number) => (l === NONE ? 'no list' : `the ${LRU_LISTS[l & 0xff].replace('_', ' ')} list`);
const end = (l: number) => (l & LRU_TAIL ? 'tail' : 'head');

const PVEC = ['inactive anon', 'active anon', 'inactive file', 'active file', 'unevictable'];
const pvecName = (p: number) =>
  p < 5 ? `the lru_add pagevec (bound for ${PVEC[p]})` : p === 5 ? 'the rotate pagevec' : 'the deactivate pagevec';

const MOVE: Record<number, { why: string; fn: string }> = {
  [LruMove.Isolate]: { why: 'taken off for scanning', fn: 'isolate_lru_pages' },
  [LruMove.Putback]: { why: 'kept by the scan', fn: 'putback_lru_pages' },
  [LruMove.Activate]: { why: 'referenced: activated by the scan', fn: 'shrink_page_list' },
  [LruMove.Deactivate]: { why: 'aged: the inactive list was short', fn: 'shrink_active_list' },
  [LruMove.DeactivateFile]: {
    why: 'fadvise could not drop it (dirty or under writeback): PG_reclaim set',
    fn: 'lru_deactivate_fn',
  },
  [LruMove.DeactivateClean]: {
    why: 'fadvise could not drop it (clean): first in line for reclaim',
    fn: 'lru_deactivate_fn',
  },
  [LruMove.Rotate]: {
    why: 'its writeback ended and it had PG_reclaim: first in line for reclaim',
    fn: 'pagevec_move_tail',
  },
};

const VERDICT: Record<number, string> = {
  [ShrinkVerdict.Reclaimed]: 'reclaimed: out of the page cache, a shadow entry left in its slot, freed',
  [ShrinkVerdict.Locked]: 'kept: locked (read I/O in flight)',
  [ShrinkVerdict.Writeback]: 'kept: under writeback',
  [ShrinkVerdict.Activate]: 'activated: referenced again',
  [ShrinkVerdict.Keep]: 'kept: mapped and its PTE young, PG_referenced set for another trip',
  [ShrinkVerdict.UnmapFail]: 'activated: a PTE turned young again as it was unmapped',
  [ShrinkVerdict.KeepDirty]: 'kept: dirty, only PG_referenced (writeback will clean it)',
  [ShrinkVerdict.Pageout]: 'written out (pageout) with PG_reclaim: it will rotate to the tail when the write ends',
  [ShrinkVerdict.Busy]: 'kept: someone else holds a reference (a pagevec, a reader)',
  [ShrinkVerdict.Anon]: 'activated: anonymous, and there is no swap',
};

const INVAL: Record<number, string> = {
  [InvalResult.Removed]: 'dropped from the page cache',
  [InvalResult.Locked]: 'skipped: locked (read I/O in flight), not deactivated either',
  [InvalResult.Dirty]: 'not dropped: dirty',
  [InvalResult.Writeback]: 'not dropped: under writeback',
  [InvalResult.Mapped]: 'not dropped: mapped by a process',
  [InvalResult.Busy]: 'not dropped: an extra reference (it sits in a pagevec)',
};

const WB: Record<number, string> = {
  [WbReason.Flush]: 'fadvise flushed the file',
  [WbReason.Background]: 'the flusher, over the background threshold',
  [WbReason.Fsync]: 'fsync',
  [WbReason.Reclaim]: 'reclaim (pageout)',
  [WbReason.Balance]: 'the writer itself, over dirty_ratio',
};

const d = (text: string, fn: string | null, label: string, version = V): Described => ({ text, fn, label, version });

export const describeLru: Describer = (e, { task, file }) => {
  const page = () => pageName(e, file);
  switch (e.type) {
    case EV.mmsim_pagevec_add:
      return d(
        `${page()} queued in ${pvecName(e.b)} (${e.c} of ${PAGEVEC_SIZE}; the ${PAGEVEC_SIZE}th drains it)`,
        '__lru_cache_add',
        `pagevec +${e.c}`,
      );
    case EV.mmsim_pagevec_drain:
      return d(
        `${pvecName(e.a)} drained: ${plural(e.b, 'page')} ${e.a < 5 ? 'onto their list' : 'moved'}${e.c === 2 ? ' (a large folio never waits in a pagevec)' : e.c ? ' (lru_add_drain)' : ' (it was full)'}`,
        e.c === 1 ? 'lru_add_drain' : 'pagevec_lru_move_fn',
        `drain ${e.b}`,
      );
    case EV.mmsim_lru_move: {
      const m = MOVE[e.d] ?? { why: '', fn: null };
      if (e.c === NONE) return d(`${page()} ${m.why}`, m.fn, 'isolate');
      return d(`${page()} to the ${end(e.c)} of ${list(e.c)}: ${m.why}`, m.fn, `${LRU_LISTS[e.c & 0xff]} ${end(e.c)}`);
    }
    case EV.mm_vmscan_lru_isolate:
      return d(
        `reclaim (priority ${e.d}) takes ${plural(e.c, 'page')} off the tail of ${list(e.a)}`,
        'isolate_lru_pages',
        `isolate ${e.c}`,
      );
    case EV.mmsim_shrink_page:
      return d(
        `${page()}: ${VERDICT[e.b] ?? ''}${e.c ? ` (${plural(e.c, 'young PTE')})` : ''}`,
        e.b === ShrinkVerdict.Reclaimed
          ? '__remove_mapping'
          : e.b === ShrinkVerdict.Activate || e.b === ShrinkVerdict.Keep
            ? 'page_check_references'
            : 'shrink_page_list',
        e.b === ShrinkVerdict.Reclaimed ? 'reclaimed' : 'kept',
      );
    case EV.mm_vmscan_lru_shrink_inactive:
      return d(
        `reclaim scanned ${plural(e.b, 'page')} of the inactive ${e.a ? 'file' : 'anon'} list at priority ${e.d}: ${e.c} reclaimed`,
        'shrink_inactive_list',
        `${e.c}/${e.b} reclaimed`,
      );
    case EV.mm_vmscan_lru_shrink_active:
      return d(
        `the inactive list was shorter than the active one: ${plural(e.b, 'page')} of the active ${e.a ? 'file' : 'anon'} list aged to the inactive head (${e.c} were referenced)`,
        'shrink_active_list',
        `refill ${e.b}`,
      );
    case EV.mm_vmscan_kswapd_wake:
      return d(
        `free memory at the low watermark (${e.a} pages, low ${e.b}): kswapd wakes`,
        'wakeup_kswapd',
        'kswapd wakes',
      );
    case EV.mm_vmscan_kswapd_sleep:
      return d(
        e.c
          ? `kswapd sleeps: nothing left it can reclaim (all_unreclaimable)`
          : `kswapd sleeps: ${e.a} pages free, above the high watermark (${e.b})`,
        'kswapd_try_to_sleep',
        'kswapd sleeps',
      );
    case EV.mmsim_kswapd_pass:
      return d(
        `kswapd, priority ${e.a}: scanned ${plural(e.c, 'page')}, ${e.b} reclaimed in this run; ${e.d} pages free`,
        'balance_pgdat',
        `kswapd prio ${e.a}`,
      );
    case EV.mm_vmscan_direct_reclaim_begin:
      return d(
        `${task ? `${task}: ` : ''}free memory at the min watermark (${e.a} pages, min ${e.b}): the allocation reclaims itself (direct reclaim)`,
        'try_to_free_pages',
        'direct reclaim',
      );
    case EV.mm_vmscan_direct_reclaim_end:
      return d(
        `direct reclaim done: ${e.a} reclaimed of ${plural(e.b, 'page')} scanned`,
        'do_try_to_free_pages',
        `direct: ${e.a} reclaimed`,
      );
    case EV.mm_vmscan_writepage:
      return d(`${page()} is dirty at the tail: reclaim writes it out (PG_reclaim)`, 'pageout', 'pageout');
    case EV.mmsim_writeback_submit:
      return d(
        `writeback of ${file(e.a)} pages ${e.b}–${e.b + e.c - 1} started (${WB[e.addr] ?? ''})`,
        e.addr === WbReason.Reclaim ? 'pageout' : 'write_cache_pages',
        `write ${e.b}+${e.c}`,
      );
    case EV.mmsim_writeback_done:
      return d(
        `writeback of ${file(e.a)} pages ${e.b}–${e.b + e.c - 1} done: PG_writeback cleared, PG_reclaim pages rotate`,
        'end_page_writeback',
        `written ${e.b}+${e.c}`,
      );
    case EV.mmsim_fadvise_dontneed:
      return d(
        `${task}: fadvise(DONTNEED) of ${file(e.a)} pages ${e.b}–${e.c === NONE ? 'the end' : e.c}${e.d ? ', after starting writeback of its dirty pages' : ' (the disk is congested: no flush)'}`,
        'sys_fadvise64_64',
        'fadvise',
      );
    case EV.mmsim_invalidate_page:
      return d(
        `${page()} ${INVAL[e.c] ?? ''}${e.d ? '; handed to deactivate_page()' : ''}`,
        e.c === InvalResult.Removed ? 'invalidate_inode_page' : e.d ? 'deactivate_page' : 'invalidate_mapping_pages',
        e.c === InvalResult.Removed ? 'dropped' : 'kept',
      );
    case EV.mmsim_workingset_refault:
      return d(
        `${file(e.a)} page ${e.b} comes back after reclaim: refault distance ${e.c.toLocaleString('en-US')}${e.d ? ', within the active list: activated' : ''}`,
        'workingset_refault',
        e.d ? 'refault, activated' : 'refault',
        W,
      );
    case EV.mmsim_balance_dirty_pages:
      return d(
        `${task}: ${plural(e.a, 'dirty page')} (background threshold ${e.b}, dirty ${e.c})${e.d ? `: it writes ${e.d} back itself` : ''}`,
        'balance_dirty_pages',
        'balance dirty',
      );
    case EV.mmsim_file_read:
      return d(
        `${task} read ${plural(e.c, 'page')} of ${file(e.a)} from page ${e.b}${e.d ? `, ${e.d} not in the page cache` : ', all cached'}`,
        'do_generic_file_read',
        `read ${e.c}`,
      );
    case EV.mmsim_file_write:
      return d(
        `${task} wrote ${plural(e.c, 'page')} of ${file(e.a)} from page ${e.b}${e.d ? `, ${e.d} newly dirty` : ''}`,
        'generic_perform_write',
        `write ${e.c}`,
      );
    default:
      return null;
  }
};
