/**
 * What a view is: its metadata (an id, a title, its column and share of it),
 * which the store, the URL and the controller use without React, and the
 * component that draws a Frame (../frames/types.ts), which only the page
 * imports. The shared views are listed in ./ids.ts and ./registry.ts; a
 * mechanism lists its own views' metadata in its index.ts and their
 * components in its views.tsx.
 */
import type { ComponentType } from 'react';
import type { Program } from '../../../wasm-core/ts/compile.js';
import type { Timeline } from '../engine/protocol.js';
import type { Frame } from '../frames/types.js';
import type { ViewId } from './meta.js';

export interface ViewProps {
  frame: Frame;
  program: Program;
  timeline: Timeline;
  prevCounters: number[] | null;
  theme: string;
  /** comparing, for a view that overlays both runs (ViewMeta.overlay): run B, and each run's label */
  other?: { frame: Frame; program: Program; timeline: Timeline; label: string } | null;
  label?: string;
}

export type { ViewId, ViewMeta } from './meta.js';

/** a mechanism's view components, by view id (its views.tsx) */
export type ViewComponents = Readonly<Record<ViewId, ComponentType<ViewProps>>>;
