/**
 * What a mechanism brings to the playground: its gallery group, its key
 * figures and quick tunables, how a tunable's values read, and its views.
 * Its quick tunables (shown next to the key figures) are those its interface
 * description marks `quick`. Each mechanism is a folder (web/src/mechanisms/<id>/) whose index.ts
 * exports `mechanism`, one MechanismDef; the generated list (../gen/mechanisms.ts, from the
 * manifests) has them all, and the gallery, the player's figures, the quick tunables and the
 * URL derive from it.
 */
import type { EventName } from '../../../wasm-core/ts/abi.js';
import type { SimEvent, SimEventOf } from '../../../wasm-core/ts/events.js';
import type { FaultMark } from '../frames/types.js';
import type { ViewMeta } from '../views/meta.js';

/**
 * A place the cursor can jump to: just after each event of one type (and
 * kind: a filter on its fields). Its key jumps forward, Shift+key back; the
 * transport shows it as a button.
 */
export interface JumpDef {
  id: string;
  /** the button's label, short ("Fault": the button jumps to the next one) and the key, upper case (F) */
  label: string;
  key: string;
  /** the event type's name (events.ts EV), and which of those count */
  event: EventName;
  where?: (e: SimEvent) => boolean;
  /** what the button's tooltip says it finds */
  title: string;
}

/** a jump target whose filter sees its event's fields by name (jump({ event: 'mm_filemap_fault', where: (e) => !e.cached })) */
export function jump<N extends EventName>(
  def: Omit<JumpDef, 'event' | 'where'> & { event: N; where?: (e: SimEventOf<N>) => boolean },
): JumpDef {
  return def as unknown as JumpDef;
}

export interface MechanismDef {
  /** the description's mechanism id (wasm-core/interface/mechanisms/<id>.mjs) */
  id: string;
  title: string;
  blurb: string;
  /** the counters shown as key figures, with their labels */
  figures: { key: string; label: string }[];
  /** the counter a sweep of its tunables charts by default (pgfault when not given) */
  sweepY?: string;
  /** the one-click sweep's tunable, where it is not the group's first quick one (large folios: mthp, the order) */
  sweepKey?: string;
  /** the one-click sweep's second series: the same sweep with these set too (6.9's atomics beside 6.10's) */
  sweepVersus?: Record<string, string>;
  /** the order of its scenarios in the gallery: the first is the one to try first */
  teachingOrder?: string[];
  /** a tunable value's label in the controls, when it says more than the value ("4 KiB · off") */
  valueLabel?: (key: string, value: number) => string | null;
  /** jump targets of its own (the shared ones are in registry.ts) */
  jumps?: JumpDef[];
  /** shared views its scenarios open hidden (the user can show them): e.g. the page-table walk, where the walk is not the point */
  hides?: string[];
  /** a shared view's share of its column in this mechanism's scenarios, where its own views need the room */
  grow?: Record<string, number>;
  /** its own views' metadata (their components are its views.tsx, page side: the worker imports this file) */
  views?: ViewMeta[];
  /** the legend of the marks its frame provider puts on a fault (FrameProvider.fault), in file or anonymous mappings */
  marks?: { kind: FaultMark['kind']; label: string; title: string; file: boolean }[];
}
