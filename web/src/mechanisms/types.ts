/**
 * What a mechanism brings to the playground: its gallery group, its key
 * figures and quick tunables, how a tunable's values read, and its views.
 * Its quick tunables (shown next to the key figures) are those its interface
 * description marks `quick`. Each mechanism is a folder (web/src/mechanisms/<id>/) whose index.ts
 * exports one MechanismDef; registry.ts lists them, and the gallery, the
 * player's figures, the quick tunables and the URL derive from that list.
 */
import type { ViewDef } from '../views/registry.js';

export interface MechanismDef {
  /** the description's mechanism id (wasm-core/interface/mechanisms/<id>.mjs) and the scenarios/<id>/ folder */
  id: string;
  title: string;
  blurb: string;
  /** the counters shown as key figures, with their labels */
  figures: { key: string; label: string }[];
  /** the order of its scenarios in the gallery: the first is the one to try first */
  teachingOrder?: string[];
  /** a tunable value's label in the controls, when it says more than the value ("4 KiB · off") */
  valueLabel?: (key: string, value: number) => string | null;
  /** views of its own (the shared ones are in views/registry.ts) */
  views?: ViewDef[];
}
