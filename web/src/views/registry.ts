/**
 * The view registry: every panel the player can show. A mechanism's issue
 * adds its view here (VMA cache slots, LRU lists, folios...) and nothing
 * else changes: each view renders a Frame (events in, pixels out).
 */
import type { ComponentType } from 'react';
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { Frame, TimelineInfo } from '../../../wasm-core/ts/engine.js';
import type { ViewId } from '../store/state.js';
import { AddressSpace } from './AddressSpace.js';
import { Counters } from './Counters.js';
import { EventLog } from './EventLog.js';
import { PageTableWalk } from './PageTableWalk.js';
import { Steps } from './Steps.js';

export interface ViewProps {
  frame: Frame;
  program: Program;
  timeline: TimelineInfo;
  prevCounters: number[] | null;
  theme: string;
}

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
  component: ComponentType<ViewProps>;
}

export const VIEWS: ViewDef[] = [
  { id: 'address', title: 'Address space', description: 'VMAs and their pages; the fault-around window', column: 'main', grow: 1.75, fit: true, component: AddressSpace },
  { id: 'counters', title: 'Counters', description: 'vmstat counters at the cursor and over the run', column: 'main', svg: true, component: Counters },
  { id: 'walk', title: 'Page-table walk', description: 'PGD, PUD, PMD and PTE of the current fault', column: 'side', grow: 2, fit: true, component: PageTableWalk },
  { id: 'log', title: 'Event log', description: 'what happened, one sentence per event', column: 'side', component: EventLog },
  { id: 'steps', title: 'Steps', description: 'the scenario\u2019s steps', column: 'side', grow: 0.65, component: Steps },
];
