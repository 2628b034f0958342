/**
 * A gallery card's facts from a scenario's text: its name, teaser (the
 * start of its about) and reference table. Read once, when the app is built (web/gallery-plugin.ts
 * turns each scenario file into its text and these facts), so that opening
 * the page parses no YAML: parsing the 70 shipped files took 150-200 ms of
 * the main thread on every load.
 */
import { parse } from 'yaml';
import { teaserOf } from './teaser.js';

export interface GalleryMeta {
  title: string | null;
  teaser: string;
  /** the scenario's reference data, if any: [x, y] points (e.g. a seed's benchmark table) */
  reference: { x: string; y: string; points: [number, number][] } | null;
}

/** the card's facts (the about itself is read from the scenario when it opens) */
export function galleryMeta(source: string): GalleryMeta {
  const meta: GalleryMeta = { title: null, teaser: '', reference: null };
  try {
    const doc = parse(source) as {
      name?: unknown;
      about?: unknown;
      reference?: { x?: unknown; y?: unknown; points?: unknown };
    };
    if (typeof doc?.name === 'string') meta.title = doc.name;
    if (typeof doc?.about === 'string') meta.teaser = teaserOf(doc.about);
    const r = doc?.reference;
    if (r && typeof r.x === 'string' && typeof r.y === 'string' && Array.isArray(r.points))
      meta.reference = {
        x: r.x,
        y: r.y,
        points: r.points.filter(
          (p): p is [number, number] => Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number',
        ),
      };
  } catch {
    /* shown as is; opening it reports the error */
  }
  return meta;
}

export interface TourCard {
  title: string;
  /** whether it asks (an exercise) */
  exercise: boolean;
  /** an exercise's level (Easy, Medium, Hard), from its about */
  level: string;
}

/** a tour's card in the gallery: its title, whether it asks, and its level */
export function tourCard(source: string): TourCard {
  return {
    title: /^title:\s*["']?(.*?)["']?\s*$/m.exec(source)?.[1] ?? '',
    exercise: /^\s+ask:/m.test(source),
    level: /^\s*(Easy|Medium|Hard)\./m.exec(source)?.[1] ?? '',
  };
}
