/**
 * The LRU's events in one sentence each, linked to Linux 2.6.39's source
 * (the kernel this mechanism follows; several of its functions were
 * renamed or folded since: deactivate_page is deactivate_file_folio,
 * shrink_page_list shrink_folio_list...).
 */
import { EV, LRU_LISTS, LRU_TAIL, LruMove, NONE, PAGEVEC_SIZE, ShrinkVerdict, WbReason, InvalResult } from '../abi.js';
import { pageName, plural, type Described, type Describer } from './common.js';

const V = 'v2.6.39';
const W = 'v3.15'; /* workingset detection */

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

export const describer: Describer = (e, { task, file }) => {
  const page = (x: { page: number; pfn: number }) => pageName(x, file);
  switch (e.type) {
    case EV.mmsim_pagevec_add:
      return d(
        `${page(e)} queued in ${pvecName(e.pagevec)} (${e.nr} of ${PAGEVEC_SIZE}; the ${PAGEVEC_SIZE}th drains it)`,
        '__lru_cache_add',
        `pagevec +${e.nr}`,
      );
    case EV.mmsim_pagevec_drain:
      return d(
        `${pvecName(e.pagevec)} drained: ${plural(e.nr, 'page')} ${e.pagevec < 5 ? 'onto their list' : 'moved'}${e.why === 2 ? ' (a large folio never waits in a pagevec)' : e.why ? ' (lru_add_drain)' : ' (it was full)'}`,
        e.why === 1 ? 'lru_add_drain' : 'pagevec_lru_move_fn',
        `drain ${e.nr}`,
      );
    case EV.mmsim_lru_move: {
      const m = MOVE[e.why] ?? { why: '', fn: null };
      if (e.to === NONE) return d(`${page(e)} ${m.why}`, m.fn, 'isolate');
      return d(
        `${page(e)} to the ${end(e.to)} of ${list(e.to)}: ${m.why}`,
        m.fn,
        `${LRU_LISTS[e.to & 0xff]} ${end(e.to)}`,
      );
    }
    case EV.mm_vmscan_lru_isolate:
      return d(
        `reclaim (priority ${e.priority}) takes ${plural(e.taken, 'page')} off the tail of ${list(e.lru)}`,
        'isolate_lru_pages',
        `isolate ${e.taken}`,
      );
    case EV.mmsim_shrink_page:
      return d(
        `${page(e)}: ${VERDICT[e.verdict] ?? ''}${e.ptes ? ` (${plural(e.ptes, 'young PTE')})` : ''}`,
        e.verdict === ShrinkVerdict.Reclaimed
          ? '__remove_mapping'
          : e.verdict === ShrinkVerdict.Activate || e.verdict === ShrinkVerdict.Keep
            ? 'page_check_references'
            : 'shrink_page_list',
        e.verdict === ShrinkVerdict.Reclaimed ? 'reclaimed' : 'kept',
      );
    case EV.mm_vmscan_lru_shrink_inactive:
      return d(
        `reclaim scanned ${plural(e.scanned, 'page')} of the inactive ${e.file ? 'file' : 'anon'} list at priority ${e.priority}: ${e.reclaimed} reclaimed`,
        'shrink_inactive_list',
        `${e.reclaimed}/${e.scanned} reclaimed`,
      );
    case EV.mm_vmscan_lru_shrink_active:
      return d(
        `the inactive list was shorter than the active one: ${plural(e.taken, 'page')} of the active ${e.file ? 'file' : 'anon'} list aged to the inactive head (${e.rotated} were referenced)`,
        'shrink_active_list',
        `refill ${e.taken}`,
      );
    case EV.mm_vmscan_kswapd_wake:
      return d(
        `free memory at the low watermark (${e.free} pages, low ${e.low}): kswapd wakes`,
        'wakeup_kswapd',
        'kswapd wakes',
      );
    case EV.mm_vmscan_kswapd_sleep:
      return d(
        e.unreclaimable
          ? `kswapd sleeps: nothing left it can reclaim (all_unreclaimable)`
          : `kswapd sleeps: ${e.free} pages free, above the high watermark (${e.high})`,
        'kswapd_try_to_sleep',
        'kswapd sleeps',
      );
    case EV.mmsim_kswapd_pass:
      return d(
        `kswapd, priority ${e.priority}: scanned ${plural(e.scanned, 'page')}, ${e.reclaimed} reclaimed in this run; ${e.free} pages free`,
        'balance_pgdat',
        `kswapd prio ${e.priority}`,
      );
    case EV.mm_vmscan_direct_reclaim_begin:
      return d(
        `${task ? `${task}: ` : ''}free memory at the min watermark (${e.free} pages, min ${e.min}): the allocation reclaims itself (direct reclaim)`,
        'try_to_free_pages',
        'direct reclaim',
      );
    case EV.mm_vmscan_direct_reclaim_end:
      return d(
        `direct reclaim done: ${e.reclaimed} reclaimed of ${plural(e.scanned, 'page')} scanned`,
        'do_try_to_free_pages',
        `direct: ${e.reclaimed} reclaimed`,
      );
    case EV.mm_vmscan_writepage:
      return d(`${page(e)} is dirty at the tail: reclaim writes it out (PG_reclaim)`, 'pageout', 'pageout');
    case EV.mmsim_writeback_submit:
      return d(
        `writeback of ${file(e.file)} pages ${e.start}–${e.start + e.nr - 1} started (${WB[e.reason] ?? ''})`,
        e.reason === WbReason.Reclaim ? 'pageout' : 'write_cache_pages',
        `write ${e.start}+${e.nr}`,
      );
    case EV.mmsim_writeback_done:
      return d(
        `writeback of ${file(e.file)} pages ${e.start}–${e.start + e.nr - 1} done: PG_writeback cleared, PG_reclaim pages rotate`,
        'end_page_writeback',
        `written ${e.start}+${e.nr}`,
      );
    case EV.mmsim_fadvise_dontneed:
      return d(
        `${task}: fadvise(DONTNEED) of ${file(e.file)} pages ${e.start}–${e.end === NONE ? 'the end' : e.end}${e.flushed ? ', after starting writeback of its dirty pages' : ' (the disk is congested: no flush)'}`,
        'sys_fadvise64_64',
        'fadvise',
      );
    case EV.mmsim_invalidate_page:
      return d(
        `${page(e)} ${INVAL[e.result] ?? ''}${e.queued ? '; handed to deactivate_page()' : ''}`,
        e.result === InvalResult.Removed
          ? 'invalidate_inode_page'
          : e.queued
            ? 'deactivate_page'
            : 'invalidate_mapping_pages',
        e.result === InvalResult.Removed ? 'dropped' : 'kept',
      );
    case EV.mmsim_workingset_refault:
      return d(
        `${file(e.file)} page ${e.pgoff} comes back after reclaim: refault distance ${e.distance.toLocaleString('en-US')}${e.activate ? ', within the active list: activated' : ''}`,
        'workingset_refault',
        e.activate ? 'refault, activated' : 'refault',
        W,
      );
    case EV.mmsim_balance_dirty_pages:
      return d(
        `${task}: ${plural(e.dirty, 'dirty page')} (background threshold ${e.background}, dirty ${e.threshold})${e.written ? `: it writes ${e.written} back itself` : ''}`,
        'balance_dirty_pages',
        'balance dirty',
      );
    case EV.mmsim_file_read:
      return d(
        `${task} read ${plural(e.nr, 'page')} of ${file(e.file)} from page ${e.start}${e.missing ? `, ${e.missing} not in the page cache` : ', all cached'}`,
        'do_generic_file_read',
        `read ${e.nr}`,
      );
    case EV.mmsim_file_write:
      return d(
        `${task} wrote ${plural(e.nr, 'page')} of ${file(e.file)} from page ${e.start}${e.dirtied ? `, ${e.dirtied} newly dirty` : ''}`,
        'generic_perform_write',
        `write ${e.nr}`,
      );
    default:
      return null;
  }
};
