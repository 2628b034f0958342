/**
 * The 2004 anticipatory prefault of anonymous memory (Christoph Lameter's
 * V1, never merged), against what kernels do today (THP, mTHP): the
 * gallery group (scenarios/prefault/), key figures and jump targets. Its
 * frame data (each thread's prediction, the batch of the fault at the
 * cursor) and the pages-per-fault series are frame.ts, in the worker; its
 * views are views.tsx, listed in ../views.ts. The batch and the predicted
 * address are drawn in the shared address space (engine.ts FaultView).
 */
import { jump, type MechanismDef } from '../types.js';

export const PREFAULT = 'prefault';

export const mechanism: MechanismDef = {
  id: PREFAULT,
  title: 'Anticipatory prefault',
  blurb:
    'A fault where the last one ended maps 2, 4, 8, 14 pages at once: the 2004 prediction, against THP and mTHP today.',
  figures: [
    { key: 'pgfault', label: 'Page faults (traps)' },
    { key: 'prefault_hits', label: 'Predicted faults' },
    { key: 'prefault_pages', label: 'Pages mapped ahead' },
    { key: 'nr_anon_pages', label: 'Anonymous pages' },
  ],
  teachingOrder: ['sequential', 'random', 'threads', 'read', 'rss', 'today-thp', 'today-mthp'],
  hides: ['counters', 'steps'],
  grow: { address: 1.3, walk: 1.0, log: 0.8 },
  jumps: [
    jump({
      id: 'prefault-hit',
      label: 'Hit',
      key: 'K',
      event: 'mmsim_anon_prefault',
      where: (e) => e.hit,
      title: 'the next predicted fault: a batch of pages mapped at once',
    }),
    jump({
      id: 'prefault-miss',
      label: 'Miss',
      key: 'I',
      event: 'mmsim_anon_prefault',
      where: (e) => !e.hit,
      title: 'the next fault the prediction missed: one page, the order reset',
    }),
  ],
  /* its own views (their components: ./views.tsx) */
  views: [
    {
      id: 'prefault',
      title: 'Predictions',
      description: 'each thread\u2019s next guess, its order, and the batch of the fault at the cursor',
      column: 'main',
      grow: 0.9,
      order: 5,
      fit: true,
    },
    {
      id: 'prefault-pages',
      title: 'Pages per fault',
      description: 'the pages each fault mapped, over the run (every run when comparing)',
      column: 'side',
      grow: 1.1,
      /* the chart over its legend of one line per run (137 px at 1920x1080 cut its legend) */
      minRem: 14,
      fit: true,
      svg: true,
      overlay: true,
      wholeRun: true,
      order: 35,
    },
  ],
};
