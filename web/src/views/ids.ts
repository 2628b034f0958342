/**
 * Which views exist and which show, without React (the store, the URL and
 * the controller use it; the worker never does): the shared views' metadata
 * here, each mechanism's in its module (MechanismDef.views), found through
 * the generated list of mechanisms.
 */
import { MECHANISM_DEFS } from '../gen/mechanisms.js';
import { mechanismOf } from '../mechanisms/registry.js';
import type { ViewId, ViewMeta } from './meta.js';

export type { ViewId, ViewMeta };

export const SHARED_VIEWS: readonly ViewMeta[] = [
  {
    id: 'address',
    title: 'Address space',
    description: 'VMAs and their pages; the fault-around window',
    column: 'main',
    grow: 1.75,
    fit: true,
    order: 10,
  },
  {
    id: 'counters',
    title: 'Counters',
    description: 'vmstat counters at the cursor and over the run',
    column: 'main',
    svg: true,
    wholeRun: true,
    order: 20,
  },
  {
    id: 'walk',
    title: 'Page-table walk',
    description: 'PGD, PUD, PMD and PTE of the current fault',
    column: 'side',
    grow: 2,
    fit: true,
    order: 30,
  },
  {
    id: 'log',
    title: 'Event log',
    description: 'what happened, one sentence per event',
    column: 'side',
    order: 40,
  },
  {
    id: 'steps',
    title: 'Steps',
    description: 'the scenario\u2019s steps',
    column: 'side',
    grow: 0.65,
    order: 50,
  },
];

/** the views of a gallery group's scenarios: the shared ones, then its mechanism's */
export function viewsFor(group: string | null | undefined): ViewMeta[] {
  const m = mechanismOf(group);
  return [...SHARED_VIEWS, ...(m.views ?? [])]
    .map((v) => (m.grow?.[v.id] !== undefined ? { ...v, grow: m.grow[v.id] } : v))
    .sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
}

/** every view id there is (a link may name any of them) */
export const ALL_VIEW_IDS: ViewId[] = [...SHARED_VIEWS, ...MECHANISM_DEFS.flatMap((m) => m.views ?? [])].map(
  (v) => v.id,
);

/**
 * Whether a view shows: the user's choice (views[id]) if any, else shown,
 * unless the group's mechanism hides it by default (MechanismDef.hides).
 */
export function isShown(views: Record<ViewId, boolean>, id: ViewId, group: string | null | undefined): boolean {
  return views[id] ?? !(mechanismOf(group).hides ?? []).includes(id);
}

/** the views shown for this group, in order */
export function shownViews(views: Record<ViewId, boolean>, group: string | null | undefined): ViewMeta[] {
  return viewsFor(group).filter((v) => isShown(views, v.id, group));
}

/** a scenario name's gallery group (its first folder) */
export const groupOf = (name: string | null | undefined): string | null => name?.split('/')[0] ?? null;
