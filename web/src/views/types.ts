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
  /** comparing, for a view that overlays the runs (ViewMeta.overlay): B, C and D, each with its label */
  others?: RunOverlay[];
  /** run A's label, comparing */
  label?: string;
}

/** the runs' names, by slot: a and b while comparing, c and d when there are such runs */
export type RunLabels = { a: string; b: string; c?: string; d?: string };

/** a run beside A, drawn on A's axes */
export interface RunOverlay {
  slot: 'b' | 'c' | 'd';
  frame: Frame;
  program: Program;
  timeline: Timeline;
  label: string;
}

/** how each run's line is drawn on shared axes: A solid, B dashed, C dotted, D dash-dotted */
export const RUN_DASH: Readonly<Record<'a' | 'b' | 'c' | 'd', string | undefined>> = {
  a: undefined,
  b: '7 4',
  c: '2 3',
  d: '10 3 2 3',
};
export const RUN_STROKE_NAME = { a: 'solid', b: 'dashed', c: 'dotted', d: 'dash-dotted' } as const;

/** "A solid against B dashed, C dotted": the aria text for runs overlaid */
export const runsAgainst = (runs: readonly { key: string; label: string }[]): string =>
  runs.length > 1
    ? `, ${runs[0].label} solid against ${runs
        .slice(1)
        .map((r) => `${r.label} ${RUN_STROKE_NAME[r.key as 'b']}`)
        .join(', ')}`
    : '';

export type { ViewId, ViewMeta } from './meta.js';

/** a mechanism's view components, by view id (its views.tsx) */
export type ViewComponents = Readonly<Record<ViewId, ComponentType<ViewProps>>>;
