/**
 * The view registry: every panel the player can show. The shared views are
 * listed here; a mechanism's own views (VMA cache slots, LRU lists,
 * folios...) are in its folder, listed in ../mechanisms/views.ts, and show
 * in its gallery group's scenarios. Each view renders a Frame (events in,
 * pixels out).
 */
import type { ComponentType } from 'react';
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { Frame } from '../../../wasm-core/ts/engine.js';
import type { Timeline } from '../engine/protocol.js';
import { MECHANISM_VIEWS } from '../mechanisms/views.js';
import { mechanismOf } from '../mechanisms/registry.js';
import { AddressSpace } from './AddressSpace.js';
import { Counters } from './Counters.js';
import { EventLog } from './EventLog.js';
import { PageTableWalk } from './PageTableWalk.js';
import { Steps } from './Steps.js';

export interface ViewProps {
  frame: Frame;
  program: Program;
  timeline: Timeline;
  prevCounters: number[] | null;
  theme: string;
  /** comparing, for a view that overlays both runs (ViewDef.overlay): run B, and each run's label */
  other?: { frame: Frame; program: Program; timeline: Timeline; label: string } | null;
  label?: string;
}

export type ViewId = string;

export interface ViewDef {
  id: ViewId;
  title: string;
  /** what the view shows, for its accessible description */
  description: string;
  column: 'main' | 'side';
  /** its share of its column's height (the panels of a column split it: sizes never follow the content) */
  grow?: number;
  /** the view sizes its drawing to the panel body (a flex column it fills) instead of scrolling */
  fit?: boolean;
  /** the view draws a chart in SVG (marked data-export): Export offers it as SVG too */
  svg?: boolean;
  /** its place in its column (the shared views are 10, 20, 30...; a mechanism's go between) */
  order?: number;
  /** comparing, draw once with both runs (ViewProps.other) instead of A and B side by side */
  overlay?: boolean;
  component: ComponentType<ViewProps>;
}

export const VIEWS: ViewDef[] = [
  {
    id: 'address',
    title: 'Address space',
    description: 'VMAs and their pages; the fault-around window',
    column: 'main',
    grow: 1.75,
    fit: true,
    order: 10,
    component: AddressSpace,
  },
  {
    id: 'counters',
    title: 'Counters',
    description: 'vmstat counters at the cursor and over the run',
    column: 'main',
    svg: true,
    order: 20,
    component: Counters,
  },
  {
    id: 'walk',
    title: 'Page-table walk',
    description: 'PGD, PUD, PMD and PTE of the current fault',
    column: 'side',
    grow: 2,
    fit: true,
    order: 30,
    component: PageTableWalk,
  },
  {
    id: 'log',
    title: 'Event log',
    description: 'what happened, one sentence per event',
    column: 'side',
    order: 40,
    component: EventLog,
  },
  {
    id: 'steps',
    title: 'Steps',
    description: 'the scenario\u2019s steps',
    column: 'side',
    grow: 0.65,
    order: 50,
    component: Steps,
  },
];

/** the views of a gallery group's scenarios: the shared ones, then its mechanism's */
export function viewsFor(group: string | null | undefined): ViewDef[] {
  const m = mechanismOf(group);
  return [...VIEWS, ...(MECHANISM_VIEWS[m.id] ?? [])]
    .map((v) => (m.grow?.[v.id] !== undefined ? { ...v, grow: m.grow[v.id] } : v))
    .sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
}

/** every view id there is (a link may name any of them) */
export const ALL_VIEW_IDS: ViewId[] = [...VIEWS, ...Object.values(MECHANISM_VIEWS).flat()].map((v) => v.id);

/**
 * Whether a view shows: the user's choice (views[id]) if any, else shown,
 * unless the group's mechanism hides it by default (MechanismDef.hides).
 */
export function isShown(views: Record<ViewId, boolean>, id: ViewId, group: string | null | undefined): boolean {
  return views[id] ?? !(mechanismOf(group).hides ?? []).includes(id);
}

/** the views shown for this group, in order */
export function shownViews(views: Record<ViewId, boolean>, group: string | null | undefined): ViewDef[] {
  return viewsFor(group).filter((v) => isShown(views, v.id, group));
}

/** a scenario name's gallery group (its first folder) */
export const groupOf = (name: string | null | undefined): string | null => name?.split('/')[0] ?? null;
