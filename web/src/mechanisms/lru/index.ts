/**
 * The page-cache LRU under pressure (2.6.39: reclaim, writeback and
 * fadvise(DONTNEED)'s deactivation, against 2.6.38): the gallery group
 * (scenarios/lru/), key figures and jump targets. Its frame data (the
 * lists, pagevecs, watermarks, kswapd, writeback, and this operation's
 * moves) is frame.ts, in the worker; its views (the lists, memory and
 * writeback, the page cache over the run) are views.tsx, listed in
 * ../views.ts.
 */
import { LruMove, ShrinkVerdict } from '../../../../wasm-core/ts/abi.js';
import { jump, type MechanismDef } from '../types.js';

export const LRU = 'lru';

const DEACTIVATIONS: number[] = [LruMove.Deactivate, LruMove.DeactivateFile, LruMove.DeactivateClean];

export const mechanism: MechanismDef = {
  id: LRU,
  title: 'LRU and fadvise',
  blurb: 'Reclaim, writeback and fadvise(DONTNEED): which pages go, and why (the LRU lists of Linux 2.6.39).',
  sweepY: 'pgmajfault',
  figures: [
    { key: 'pgmajfault', label: 'Major faults' },
    { key: 'pgscan', label: 'Pages scanned' },
    { key: 'pgsteal', label: 'Pages reclaimed' },
    { key: 'pgrotated', label: 'Rotated' },
  ],
  teachingOrder: [
    'backup-stress',
    'backup',
    'two-touch',
    'refill',
    'dirty-writeback',
    'mapped-page',
    'kswapd',
    'refault',
  ],
  /* the page-table walk is not the point here, the key figures carry the counters and the caption the step: the lists and memory need the room */
  hides: ['walk', 'counters', 'steps'],
  grow: { address: 0.8, 'lru-memory': 1.25, 'lru-residency': 1.45, log: 0.7 },
  jumps: [
    jump({
      id: 'lru-activate',
      label: 'Activation',
      key: 'U',
      event: 'mm_lru_activate',
      title: 'the next activation: a page accessed a second time goes to the active list',
    }),
    jump({
      id: 'lru-deactivate',
      label: 'Deactivation',
      key: 'N',
      event: 'mmsim_lru_move',
      where: (e) => DEACTIVATIONS.includes(e.why),
      title: 'the next deactivation: aged by reclaim, or handed over by fadvise',
    }),
    jump({
      id: 'lru-reclaim',
      label: 'Reclaim',
      key: 'R',
      event: 'mmsim_shrink_page',
      where: (e) => e.verdict === ShrinkVerdict.Reclaimed,
      title: 'the next page reclaim frees',
    }),
    jump({
      id: 'lru-refault',
      label: 'Refault',
      key: 'W',
      event: 'mmsim_workingset_refault',
      title: 'the next refault: a page read again where reclaim left its shadow',
    }),
  ],
  /* its own views (their components: ./views.tsx) */
  views: [
    {
      id: 'lru',
      title: 'LRU lists',
      description: 'the four LRU lists head to tail, the pagevecs, and what moved in this step, and why',
      column: 'main',
      grow: 2.2,
      order: 5,
      fit: true,
      svg: true,
    },
    {
      id: 'lru-memory',
      title: 'Memory and writeback',
      description: 'free pages against the watermarks, kswapd, dirty pages and the writes in flight',
      column: 'side',
      grow: 1.3,
      fit: true,
      order: 25,
    },
    {
      id: 'lru-residency',
      title: 'Over the run',
      description:
        'each file\u2019s pages in the page cache, or the LRU\u2019s counters, over the run, with kswapd\u2019s runs and the refaults',
      column: 'side',
      grow: 1.2,
      fit: true,
      svg: true,
      overlay: true,
      wholeRun: true,
      order: 35,
    },
  ],
};
