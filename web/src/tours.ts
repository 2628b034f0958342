/**
 * The tours: every scenarios/<group>/<name>.tour.yaml, bundled into the app
 * as the scenarios are. A tour is read by the loader's parseTour (its
 * format and every error at file:line:key); what it names in the
 * playground (its scenarios, the jump keys its moments use, its views) is
 * checked here, at the beat's line, against what the playground has.
 */
import { parseTour, type Beat, type Tour } from '../../wasm-core/ts/load/tour.js';
import { ScenarioErrors } from '../../wasm-core/ts/errors.js';
import { jumpKeys } from './mechanisms/registry.js';
import { GALLERY } from './scenarios.js';
import { ALL_VIEW_IDS } from './views/ids.js';

const raw = import.meta.glob('../../scenarios/**/*.tour.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export interface TourEntry {
  /** route name: group/name (the path under scenarios/ without .tour.yaml) */
  name: string;
  file: string;
  group: string;
  source: string;
}

export const TOURS: TourEntry[] = Object.entries(raw)
  .map(([path, source]) => {
    const file = path.replace(/^(\.\.\/)+/, '');
    const name = file.replace(/^scenarios\//, '').replace(/\.tour\.yaml$/, '');
    return { name, file, group: name.split('/')[0], source };
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

/** a tour's text, read and checked against what the playground has; throws ScenarioErrors (file:line:key) */
export function loadTour(source: string, file: string, name: string, seed?: number): LoadedTour {
  const t: Tour = parseTour(source, file, { seed });
  const errors: string[] = [];
  const err = (at: { line: number; col: number; path: string }, detail: string) =>
    errors.push(`${file}:${at.line}:${at.col}: ${at.path}: ${detail}`);
  const jumps = jumpKeys().map((j) => j.id);
  const beats: TourBeat[] = [];
  for (const b of t.beats) {
    const entry = GALLERY.find((g) => g.name === b.scenario);
    if (!entry) {
      err(b.where.scenario ?? b.where.beat, `there is no scenario '${b.scenario}' (scenarios are group/name)`);
      continue;
    }
    if (b.at.kind === 'jump' && !jumps.includes(b.at.jump))
      err(b.where.at ?? b.where.beat, `there is no jump '${b.at.jump}'; the jumps are ${jumps.join(', ')}`);
    for (const v of b.views ?? [])
      if (!ALL_VIEW_IDS.includes(v))
        err(b.where.views ?? b.where.beat, `there is no view '${v}'; the views are ${ALL_VIEW_IDS.join(', ')}`);
    if (b.ask?.explain && !ALL_VIEW_IDS.includes(b.ask.explain))
      err(b.ask.where, `explain: there is no view '${b.ask.explain}'; the views are ${ALL_VIEW_IDS.join(', ')}`);
    if (b.highlight?.kind === 'view' && !ALL_VIEW_IDS.includes(b.highlight.view))
      err(b.where.highlight ?? b.where.beat, `there is no view '${b.highlight.view}'`);
    beats.push({ ...b, file: entry.file, source: entry.source });
  }
  if (errors.length) throw new Error(errors.join('\n'));
  return { name, file, source, edited: false, title: t.title, about: t.about, beats, params: t.params };
}

/** a tour's problems as the editor lists them (line, column, key, what): [] when it loads */
export function tourIssues(
  source: string,
  file: string,
): { line: number | null; col: number | null; path: string; message: string }[] {
  try {
    loadTour(source, file, 'edited');
    return [];
  } catch (x) {
    const messages = x instanceof ScenarioErrors ? x.errors.map((e) => e.message) : (x as Error).message.split('\n');
    return messages.map((m) => {
      /* file:line:col: path: detail */
      const r = /^[^:]*:(\d+):(\d+): (?:([^:]+): )?(.*)$/s.exec(m);
      return r
        ? { line: Number(r[1]), col: Number(r[2]), path: r[3] ?? '', message: r[4] }
        : { line: null, col: null, path: '', message: m };
    });
  }
}

/** a shipped tour by its route name, or why not */
export function findTour(name: string, seed?: number): LoadedTour | { error: string } {
  const e = TOURS.find((t) => t.name === name);
  if (!e) return { error: `There is no tour '${name}'. The tours: ${TOURS.map((t) => t.name).join(', ')}.` };
  try {
    return loadTour(e.source, e.file, e.name, seed);
  } catch (x) {
    return { error: x instanceof ScenarioErrors ? x.message : (x as Error).message };
  }
}
