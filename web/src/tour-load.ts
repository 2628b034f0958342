/**
 * A tour read: the loader's parseTour (its format and every error at
 * file:line:key), then what it names in the playground (its scenarios, the
 * jump keys its moments use, its views) checked at the beat's line against
 * what the playground has. Imported when a tour is first opened
 * (./controller.ts), by the editor and by the speaker's notes window.
 */
import { ScenarioErrors } from '../../wasm-core/ts/errors.js';
import { parseTour, type Tour } from '../../wasm-core/ts/load/tour.js';
import { jumpKeys } from './mechanisms/registry.js';
import { GALLERY } from './scenarios.js';
import { TEXTS } from './texts.js';
import { type LoadedTour, TOURS, type TourBeat } from './tours.js';
import { ALL_VIEW_IDS } from './views/ids.js';

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
    beats.push({ ...b, file: entry.file, source: TEXTS[entry.file] });
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
    return loadTour(TEXTS[e.file], e.file, e.name, seed);
  } catch (x) {
    return { error: x instanceof ScenarioErrors ? x.message : (x as Error).message };
  }
}
