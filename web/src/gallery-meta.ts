/**
 * A gallery card's facts from a scenario's text: its name, about and
 * reference table. Read once, when the app is built (web/gallery-plugin.ts
 * turns each scenario file into its text and these facts), so that opening
 * the page parses no YAML: parsing the 70 shipped files took 150-200 ms of
 * the main thread on every load.
 */
import { parse } from 'yaml';

export interface GalleryMeta {
  title: string | null;
  about: string;
  /** the scenario's reference data, if any: [x, y] points (e.g. a seed's benchmark table) */
  reference: { x: string; y: string; points: [number, number][] } | null;
}

export function galleryMeta(source: string): GalleryMeta {
  const meta: GalleryMeta = { title: null, about: '', reference: null };
  try {
    const doc = parse(source) as {
      name?: unknown;
      about?: unknown;
      reference?: { x?: unknown; y?: unknown; points?: unknown };
    };
    if (typeof doc?.name === 'string') meta.title = doc.name;
    if (typeof doc?.about === 'string') meta.about = doc.about;
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
