/**
 * The view components, page side: the shared views' here, each mechanism's
 * from its views.tsx (the generated list). Which views exist and show is
 * ./ids.ts, without React.
 */
import type { ComponentType } from 'react';
import { MECHANISM_VIEWS } from '../gen/views.js';
import { AddressSpace } from './AddressSpace.js';
import { Counters } from './Counters.js';
import { EventLog } from './EventLog.js';
import { PageTableWalk } from './PageTableWalk.js';
import { Steps } from './Steps.js';
import type { ViewId, ViewProps } from './types.js';

const SHARED: Record<ViewId, ComponentType<ViewProps>> = {
  address: AddressSpace,
  counters: Counters,
  walk: PageTableWalk,
  log: EventLog,
  steps: Steps,
};

const ALL: Record<ViewId, ComponentType<ViewProps>> = Object.assign({}, SHARED, ...MECHANISM_VIEWS);

/** the component that draws a view */
export function componentOf(id: ViewId): ComponentType<ViewProps> | undefined {
  return ALL[id];
}
