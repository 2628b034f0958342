/**
 * Events: decode the core's 32-byte records, and say in one plain sentence
 * what each means, with the kernel function that does it (linked to
 * version-pinned source on elixir.bootlin.com).
 */
import { EV, FAULT_FLAG, FaultKind, LRU_LISTS, OP_NAMES, PGT_LEVELS, SetHow, SKIP_REASONS, VM_FAULT } from './abi.js';
import { decodeEvent as decodeRecord, EVENT_FIELDS, type SimEvent } from './gen/events.js';
import type { Program } from './compile.js';
import { hex, pageName, plural, type Described } from './describe/common.js';
import { DESCRIBERS } from './gen/describers.js';

export type { SimEvent, SimEventOf } from './gen/events.js';

/** an event's own fields by name, as the description gives them (for exports) */
export function eventFields(e: SimEvent): Record<string, number | boolean> {
  const v = e as unknown as Record<string, number | boolean>;
  return Object.fromEntries(EVENT_FIELDS[e.type].map((f) => [f.name, v[f.name]]));
}

/** the record at byte `offset` of buf, decoded with its fields named (gen/events.ts) */
export function decodeEvent(buf: Uint8Array, offset: number, index: number): SimEvent {
  return decodeRecord(new DataView(buf.buffer, buf.byteOffset, buf.byteLength), offset, index);
}

export {
  elixir,
  hex,
  KERNEL_VERSION,
  plural,
  type DescribeContext,
  type Described,
  type Describer,
} from './describe/common.js';

const KIND_TEXT: Record<number, string> = {
  [FaultKind.AnonZero]: 'anonymous read: the shared zero page mapped read-only',
  [FaultKind.AnonNew]: 'anonymous write: a new zeroed page mapped',
  [FaultKind.FileAround]: 'resolved by fault-around (map_pages mapped the faulting page)',
  [FaultKind.FileRead]: 'resolved by ->fault and finish_fault (one page)',
  [FaultKind.FileCow]: 'private write: the page-cache page copied (COW)',
  [FaultKind.FileShared]: 'shared write: page dirtied and mapped writable',
  [FaultKind.WpReuse]: 'write-protect fault: the page made writable in place',
  [FaultKind.WpCopy]: 'write-protect fault: a private copy made',
  [FaultKind.WpShared]: 'write-protect fault on a shared mapping: page dirtied, made writable',
  [FaultKind.HugeAnon]: 'anonymous write: a 2 MiB THP mapped by one PMD',
  [FaultKind.HugeZero]: 'anonymous read: the huge zero page mapped by one read-only PMD',
  [FaultKind.HugeWpReuse]: 'write-protect fault on a THP: its only mapping made writable in place',
  [FaultKind.AnonPrefault]: 'a predicted anonymous fault: a batch mapped ahead (2004 prefault)',
};

const KIND_FN: Record<number, string> = {
  [FaultKind.AnonZero]: 'do_anonymous_page',
  [FaultKind.AnonNew]: 'do_anonymous_page',
  [FaultKind.FileAround]: 'do_read_fault',
  [FaultKind.FileRead]: 'do_read_fault',
  [FaultKind.FileCow]: 'do_cow_fault',
  [FaultKind.FileShared]: 'do_shared_fault',
  [FaultKind.WpReuse]: 'wp_page_reuse',
  [FaultKind.WpCopy]: 'wp_page_copy',
  [FaultKind.WpShared]: 'wp_page_shared',
  [FaultKind.HugeAnon]: 'do_huge_pmd_anonymous_page',
  [FaultKind.HugeZero]: 'do_huge_pmd_anonymous_page',
  [FaultKind.HugeWpReuse]: 'do_huge_pmd_wp_page',
  [FaultKind.AnonPrefault]: 'do_anonymous_page',
};

const SET_TEXT: Record<number, string> = {
  [SetHow.Fault]: 'by ->fault (the faulting page)',
  [SetHow.AroundSelf]: 'by map_pages (the faulting page itself)',
  [SetHow.Around]: 'by fault-around',
  [SetHow.Anon]: 'a new anonymous page',
  [SetHow.Zero]: 'the zero page',
  [SetHow.Cow]: 'a private copy',
  [SetHow.Reuse]: 'made writable in place',
  [SetHow.Fork]: 'copied at fork',
};

/** One sentence for an event, with names from the program. */
/**
 * What one fault did, told from the events of its operation before its
 * mm_fault_done (after the last page_fault_user, so a retry counts once):
 * the neighbours fault-around mapped and the pages it skipped, by reason.
 */
export function faultOutcome(before: SimEvent[]): {
  write: boolean;
  tried: boolean;
  neighbours: number;
  skipped: number[];
} {
  let from = before.length;
  while (from > 0 && before[from - 1].type !== EV.page_fault_user) from--;
  const fault = from > 0 ? before[from - 1] : null;
  let neighbours = 0;
  const skipped = SKIP_REASONS.map(() => 0);
  for (const e of before.slice(from)) {
    if (e.type === EV.mm_set_pte && e.how === SetHow.Around) neighbours++;
    else if (e.type === EV.mm_filemap_map_skip) skipped[e.reason]++;
  }
  return {
    write: fault?.type === EV.page_fault_user && (fault.error_code & 2) !== 0,
    tried: fault?.type === EV.page_fault_user && (fault.flags & FAULT_FLAG.TRIED) !== 0,
    neighbours,
    skipped,
  };
}

/* "fault-around mapped the page and 14 neighbours, 1 skipped: PG_readahead: left for ->fault" */
function outcomeText(kind: number, o: ReturnType<typeof faultOutcome>, ptes: number): string {
  const nskip = o.skipped.reduce((a, b) => a + b, 0);
  let text =
    kind === FaultKind.FileAround
      ? `fault-around mapped the page${o.neighbours ? ` and ${plural(o.neighbours, 'neighbour')}` : ''}`
      : `${KIND_TEXT[kind] ?? ''}${o.neighbours ? `; fault-around mapped ${plural(o.neighbours, 'neighbour')}` : ''}`;
  if (nskip) {
    const why = o.skipped
      .map((n, r) => [n, r])
      .filter(([n]) => n)
      .sort((x, y) => y[0] - x[0]);
    text += `, ${nskip} skipped${why.length === 1 ? `: ${SKIP_REASONS[why[0][1]]}` : ` (${why.map(([n, r]) => `${n} ${SKIP_REASONS[r]}`).join(', ')})`}`;
  }
  const huge = kind === FaultKind.HugeAnon || kind === FaultKind.HugeZero || kind === FaultKind.HugeWpReuse;
  if (huge) text += `; ${plural(ptes, 'page')} behind one PMD`;
  else if (kind !== FaultKind.FileAround && !o.neighbours && !nskip) text += `; ${plural(ptes, 'PTE')} set`;
  return text;
}

/**
 * One plain sentence for an event. `before`, the events of its operation
 * that precede it, lets a fault's last event sum the fault up.
 */
export function describeEvent(e: SimEvent, prog?: Program, before?: SimEvent[]): Described {
  const task = e.task !== null ? (prog?.tasks[e.task] ?? `task ${e.task}`) : '';
  const file = (i: number) => prog?.files[i] ?? `file ${i}`;
  switch (e.type) {
    case EV.mmsim_step: {
      const info = prog?.steps[e.pc];
      return { text: `Step ${e.pc + 1}: ${info?.summary ?? OP_NAMES[e.op]}`, fn: null, label: `step ${e.pc + 1}` };
    }
    case EV.mmsim_access: {
      const last = e.last;
      const what = e.write ? 'writes' : 'reads';
      return {
        text: `${task}: ${plural(e.count, e.write ? 'write' : 'read')} through present PTEs, no fault (${hex(e.address)}${e.count > 1 ? ` … ${hex(last)}` : ''})`,
        fn: null,
        label: `${e.count} ${what}, no fault`,
      };
    }
    case EV.page_fault_user: {
      const write = e.error_code & 2,
        present = e.error_code & 1,
        retry = e.attempt > 0,
        tried = e.flags & FAULT_FLAG.TRIED;
      const what = present
        ? `${write ? 'write' : 'read'} to a read-only PTE`
        : `${write ? 'write' : 'read'}, PTE not present`;
      /* a retry carries FAULT_FLAG_TRIED only if the first attempt was major (x86, per-VMA lock) */
      const how = retry ? (tried ? 'retried (FAULT_FLAG_TRIED) ' : 'retried ') : '';
      return {
        text: `${task}: ${how}page fault at ${hex(e.address)} (${what})`,
        fn: retry ? 'handle_mm_fault' : 'exc_page_fault',
        label: `${retry ? 'retry ' : ''}fault ${hex(e.address)}`,
      };
    }
    case EV.mm_fault_done: {
      if (e.kind === FaultKind.Retry)
        return {
          text: `VM_FAULT_RETRY${e.ret & VM_FAULT.MAJOR ? ' | VM_FAULT_MAJOR' : ''}: mmap_lock was dropped for I/O, so the fault is retried`,
          fn: 'filemap_fault',
          label: 'retry',
        };
      if (e.kind === FaultKind.Error)
        return {
          text: `fault failed (${e.ret & VM_FAULT.SIGBUS ? 'SIGBUS' : e.ret & VM_FAULT.OOM ? 'out of memory' : 'SIGSEGV'})`,
          fn: 'mm_account_fault',
          label: 'fault failed',
        };
      const major = e.ret & VM_FAULT.MAJOR;
      if (before) {
        /* mm_account_fault(): major if VM_FAULT_MAJOR or FAULT_FLAG_TRIED (a retry after a major first attempt) */
        const o = faultOutcome(before);
        const maj = major || o.tried;
        return {
          text: `${task}: ${o.write ? 'write' : 'read'} fault at ${hex(e.address)} done, ${maj ? 'major' : 'minor'}: ${outcomeText(e.kind, o, e.mapped)}`,
          fn: KIND_FN[e.kind] ?? 'handle_mm_fault',
          label: `${maj ? 'major' : 'minor'} fault, ${e.mapped} mapped`,
        };
      }
      return {
        text: `fault done, ${major ? 'major' : 'minor'}: ${KIND_TEXT[e.kind] ?? ''}; ${e.kind === FaultKind.HugeAnon || e.kind === FaultKind.HugeZero || e.kind === FaultKind.HugeWpReuse ? `${plural(e.mapped, 'page')} behind one PMD` : `${plural(e.mapped, 'PTE')} set`}`,
        fn: KIND_FN[e.kind] ?? 'handle_mm_fault',
        label: `${major ? 'major' : 'minor'} fault, ${e.mapped} mapped`,
      };
    }
    case EV.mm_pgtable_alloc:
      return {
        text: `allocated a ${PGT_LEVELS[e.level]} table (pfn ${e.pfn}) for ${hex(e.address)}`,
        fn: ['pgd_alloc', '__pud_alloc', '__pmd_alloc', '__pte_alloc'][e.level],
        label: `new ${PGT_LEVELS[e.level]} table`,
      };
    case EV.mm_pgtable_free:
      return {
        text: `freed the ${PGT_LEVELS[e.level]} table (pfn ${e.pfn}) that mapped ${hex(e.address)}`,
        fn: 'free_pgtables',
        label: `free ${PGT_LEVELS[e.level]} table`,
      };
    case EV.mm_filemap_map_pages:
      return {
        text: `fault-around: map what is ready of ${file(e.file)} pages ${e.start_pgoff}–${e.end_pgoff} (${e.end_pgoff - e.start_pgoff + 1} pages around page ${e.fault_pgoff})`,
        fn: 'do_fault_around',
        label: `window ${e.start_pgoff}–${e.end_pgoff}`,
      };
    case EV.mm_set_pte: {
      const rw = e.pte_flags & 2 ? 'writable' : 'read-only';
      const what = e.how === SetHow.Zero ? 'the zero page' : `page ${e.pgoff} (pfn ${e.pfn})`;
      return {
        text: `${hex(e.address)} → ${what}, ${rw}, ${SET_TEXT[e.how] ?? ''}`,
        fn:
          e.how === SetHow.Around || e.how === SetHow.AroundSelf
            ? 'filemap_map_pages'
            : e.how === SetHow.Zero || e.how === SetHow.Anon
              ? 'do_anonymous_page'
              : 'set_pte_range',
        label: `map ${e.how === SetHow.Zero ? 'zero page' : e.how === SetHow.Anon || e.how === SetHow.Cow ? 'anon page' : `page ${e.pgoff}`}`,
      };
    }
    case EV.mm_filemap_map_skip:
      return {
        text: `skipped page ${e.pgoff}: ${SKIP_REASONS[e.reason]}`,
        fn: 'next_uptodate_folio',
        label: `skip ${e.pgoff}`,
      };
    case EV.mm_filemap_fault:
      return {
        text: e.cached
          ? `->fault: page ${e.pgoff} of ${file(e.file)} is in the page cache`
          : `->fault: page ${e.pgoff} of ${file(e.file)} is not in the page cache: a major fault`,
        fn: 'filemap_fault',
        label: e.cached ? '->fault (cached)' : '->fault (major)',
      };
    case EV.page_cache_sync_ra:
      return {
        text: `readahead of ${file(e.file)}: ${plural(e.size, 'page')} from page ${e.start}${e.async_size ? `, the last ${e.async_size} ahead of the reader (PG_readahead goes on page ${e.start + e.size - e.async_size} if it is read now)` : ''}`,
        fn: 'do_sync_mmap_readahead',
        label: `readahead ${e.start}+${e.size}`,
      };
    case EV.page_cache_async_ra:
      return {
        text: `asynchronous readahead of ${file(e.file)}: the next window, ${plural(e.size, 'page')}, ${e.start}–${e.start + e.size - 1} (the PG_readahead page was reached)`,
        fn: 'page_cache_async_ra',
        label: `async readahead ${e.start}+${e.size}`,
      };
    case EV.mm_filemap_add_to_page_cache:
      return e.order
        ? {
            text: `pages ${e.pgoff}–${e.pgoff + (1 << e.order) - 1} of ${file(e.file)} added to the page cache as one order-${e.order} folio (pfn ${e.pfn}), locked until read`,
            fn: 'filemap_add_folio',
            label: `cache pages ${e.pgoff}+${1 << e.order}`,
          }
        : {
            text: `page ${e.pgoff} of ${file(e.file)} added to the page cache (pfn ${e.pfn}), locked until read`,
            fn: 'filemap_add_folio',
            label: `cache page ${e.pgoff}`,
          };
    case EV.mm_filemap_delete_from_page_cache:
      return e.order
        ? {
            text: `pages ${e.pgoff}–${e.pgoff + (1 << e.order) - 1} of ${file(e.file)} (an order-${e.order} folio) removed from the page cache`,
            fn: 'filemap_remove_folio',
            label: `uncache pages ${e.pgoff}+${1 << e.order}`,
          }
        : {
            text: `page ${e.pgoff} of ${file(e.file)} removed from the page cache`,
            fn: 'filemap_remove_folio',
            label: `uncache page ${e.pgoff}`,
          };
    case EV.mmsim_read_submit:
      return {
        text: `read I/O submitted: ${file(e.file)} pages ${e.start}–${e.start + e.nr - 1}`,
        fn: 'read_pages',
        label: `read ${e.start}+${e.nr}`,
      };
    case EV.mmsim_read_done:
      return {
        text: `read I/O complete: ${file(e.file)} pages ${e.start}–${e.start + e.nr - 1} uptodate and unlocked`,
        fn: 'folio_end_read',
        label: `read done ${e.start}+${e.nr}`,
      };
    case EV.mmsim_folio_wait:
      return {
        text: `${task} sleeps until page ${e.pgoff} of ${file(e.file)} is read`,
        fn: '__folio_lock',
        label: `wait for page ${e.pgoff}`,
      };
    case EV.mmsim_vma_add:
      return { text: `new VMA [${hex(e.vm_start)}, ${hex(e.vm_end)})`, fn: 'mmap_region', label: 'VMA added' };
    case EV.mmsim_vma_remove:
      return {
        text: `VMA [${hex(e.vm_start)}, ${hex(e.vm_end)}) removed`,
        fn: 'vms_complete_munmap_vmas',
        label: 'VMA removed',
      };
    case EV.mmsim_vma_split:
      return { text: `VMA split at ${hex(e.vm_end)}`, fn: '__split_vma', label: 'VMA split' };
    case EV.mmsim_vma_merge:
      return {
        text: `VMAs merged: [${hex(e.vm_start)}, ${hex(e.vm_end)})`,
        fn: 'vma_merge_existing_range',
        label: 'VMA merge',
      };
    case EV.mmsim_vma_flags:
      return {
        text: `VMA at ${hex(e.vm_start)} gets new flags (${hex(e.vm_flags)})`,
        fn: 'madvise_update_vma',
        label: 'VMA flags',
      };
    case EV.mmsim_pte_clear:
      return {
        text: `PTE for ${hex(e.address)} cleared (it mapped pfn ${e.pfn})`,
        fn: 'zap_pte_range',
        label: 'PTE cleared',
      };
    case EV.mmsim_zap_range:
      return {
        text: `unmapped ${e.cleared.toLocaleString('en-US')} ${e.cleared === 1 ? 'entry' : 'entries'} (PTEs; a THP's PMD counts one) in [${hex(e.start)}, ${hex(e.end)}), ${plural(e.freed, 'page')} freed`,
        fn: 'zap_pte_range',
        label: `zap ${e.cleared}`,
      };
    case EV.mm_page_alloc:
      return {
        text: `allocated pfn ${e.pfn}${e.order ? ` (order ${e.order})` : ''} for ${['the page cache', 'anonymous memory', 'a page table', 'the kernel'][e.use]}`,
        fn: '__alloc_pages',
        label: `alloc pfn ${e.pfn}`,
      };
    case EV.mm_page_free:
      return {
        text: `freed pfn ${e.pfn}${e.order ? ` (order ${e.order})` : ''}`,
        fn: '__free_pages',
        label: `free pfn ${e.pfn}`,
      };
    case EV.mm_lru_insertion:
      return {
        text: `${pageName(e, file)} put at the head of the ${LRU_LISTS[e.lru].replace('_', ' ')} list (its pagevec drained)`,
        fn: '____pagevec_lru_add_fn',
        label: `LRU add ${e.pfn}`,
        version: 'v2.6.39',
      };
    case EV.mm_lru_activate:
      return {
        text: `${pageName(e, file)} accessed a second time: activated, to the head of the ${LRU_LISTS[e.lru].replace('_', ' ')} list`,
        fn: 'activate_page',
        label: `activate ${e.pfn}`,
        version: 'v2.6.39',
      };
    case EV.mmsim_file_preload:
      return {
        text: `${file(e.file)}: ${plural(e.nr, 'page')} put in the page cache before step 1 (cached: all)`,
        fn: null,
        label: `${file(e.file)} cached`,
      };
    case EV.mmsim_fork:
      return {
        text: `fork: process ${prog?.procs[e.child]?.name ?? e.child} created from ${prog?.procs[e.parent]?.name ?? e.parent}`,
        fn: 'dup_mmap',
        label: 'fork',
      };
    case EV.mmsim_exit:
      return {
        text: `process ${prog?.procs[e.mm]?.name ?? e.mm} exits: all its mappings are unmapped`,
        fn: 'exit_mmap',
        label: 'exit',
      };
    case EV.mmsim_expect:
      return {
        text: e.pass
          ? `expect: all ${plural(e.checked, 'check')} pass`
          : `expect: ${e.failed} of ${plural(e.checked, 'check')} FAILED`,
        fn: null,
        label: e.pass ? 'expect ok' : 'expect FAILED',
      };
    case EV.mmsim_say:
      return { text: prog?.says[e.text] ?? '', fn: null, label: 'say' };
    case EV.mmsim_shmem_fault:
      return {
        text: e.found
          ? `->fault (shmem_fault): page ${e.pgoff} of ${file(e.file)} is in the page cache`
          : `->fault (shmem_fault): page ${e.pgoff} of ${file(e.file)} is a hole: a new zeroed page, no I/O`,
        fn: 'shmem_fault',
        label: e.found ? 'shmem_fault (cached)' : 'shmem_fault (new page)',
      };
    case EV.mmsim_pagecache_split:
      return {
        text: `the model split the order-${e.order} folio of ${file(e.file)} at page ${e.pgoff} into ${plural(1 << e.order, 'small folio')} before a path it has no large-folio rule for (Linux keeps it whole)`,
        fn: 'filemap_split_folio',
        label: `split pages ${e.pgoff}+${1 << e.order}`,
      };
    case EV.mmsim_readahead_mark:
      return e.set
        ? {
            text: `PG_readahead set on page ${e.pgoff} of ${file(e.file)}: reaching it starts the next readahead`,
            fn: 'page_cache_ra_unbounded',
            label: `mark page ${e.pgoff}`,
          }
        : {
            text: `PG_readahead cleared on page ${e.pgoff} of ${file(e.file)}`,
            fn: 'page_cache_async_ra',
            label: `unmark page ${e.pgoff}`,
          };
    case EV.mmsim_error:
      return { text: `the run stopped with an error (${e.error})`, fn: null, label: 'error' };
    default:
      for (const d of DESCRIBERS) {
        const r = d(e, { task, file, prog });
        if (r) return r;
      }
      return { text: e.name, fn: null, label: e.name };
  }
}
