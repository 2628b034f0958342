/**
 * The tours: every scenarios/<group>/<name>.tour.yaml, bundled into the app
 * as the scenarios are, and what the store holds of one. The gallery's cards
 * come with the page (read at build time: web/gallery-plugin.ts); reading a
 * tour is ./tour-load.ts, loaded when one is first opened, with the texts
 * (./texts.ts), the YAML parser and the tour's validator.
 */
import type { Beat, Tour } from '../../wasm-core/ts/load/tour.js';
import type { TourCard } from './gallery-meta.js';

const raw = import.meta.glob('../../scenarios/**/*.tour.yaml', {
  query: '?tourcard',
  import: 'default',
  eager: true,
}) as Record<string, TourCard>;

export interface TourEntry {
  /** route name: group/name (the path under scenarios/ without .tour.yaml) */
  name: string;
  file: string;
  group: string;
  card: TourCard;
}

export const TOURS: TourEntry[] = Object.entries(raw)
  .map(([path, card]) => {
    const file = path.replace(/^(\.\.\/)+/, '');
    const name = file.replace(/^scenarios\//, '').replace(/\.tour\.yaml$/, '');
    return { name, file, group: name.split('/')[0], card };
  })
  .sort((a, b) => a.name.localeCompare(b.name));

/** a beat as the store holds it: its scenario's text with it */
export type TourBeat = Beat & { file: string; source: string };

export interface LoadedTour {
  name: string;
  file: string;
  /** its text, and whether it was edited on the page (shared by link as #tour-src=) */
  source: string;
  edited: boolean;
  title: string;
  about: string;
  beats: TourBeat[];
  /** an exercise's parameters and the seed that drew them (null: a talk, no params:) */
  params: Tour['params'];
}

/** whether a tour asks (an exercise) */
export const isExercise = (t: Pick<LoadedTour, 'beats'>) => t.beats.some((b) => b.ask);
