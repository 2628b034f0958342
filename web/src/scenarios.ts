/**
 * The gallery: every scenario under scenarios/, bundled into the app (so a
 * static build works offline), grouped by mechanism (the first directory).
 * The cards' facts come with the page; the texts (./texts.ts) when the first
 * scenario is opened (sourceOf).
 */
import type { GalleryMeta } from './gallery-meta.js';
import { MECHANISM_DEFS } from './mechanisms/registry.js';

/* each file's card facts, read at build time (web/gallery-plugin.ts, src/gallery-meta.ts) */
const raw = import.meta.glob(['../../scenarios/**/*.{yaml,yml,json}', '!../../scenarios/**/*.tour.yaml'], {
  query: '?gallery',
  import: 'default',
  eager: true,
}) as Record<string, GalleryMeta>;

export interface GalleryEntry {
  /** route name: the path under scenarios/ without the extension */
  name: string;
  file: string;
  group: string;
  /** a sub-folder inside the group (e.g. 'seed'), or null */
  sub: string | null;
  title: string;
  /** the start of its about (web/src/teaser.ts) */
  teaser: string;
  /** the scenario's reference data, if any: [x, y] points (e.g. a seed's benchmark table) */
  reference: GalleryMeta['reference'];
}

/** the gallery's groups: the mechanisms, in registry order */
export const GROUPS: Record<string, { title: string; blurb: string; order: number }> = Object.fromEntries(
  MECHANISM_DEFS.map((m, i) => [m.id, { title: m.title, blurb: m.blurb, order: i + 1 }]),
);

export const SUBGROUPS: Record<string, string> = {
  seed: 'Reproductions of the patch series\u2019 benchmark tables',
};

/** a shipped file's text (`scenarios/...`): the texts' chunk is fetched with the first one asked for */
export async function sourceOf(file: string): Promise<string> {
  const text = (await import('./texts.js')).TEXTS[file];
  if (text === undefined) throw new Error(`no shipped file ${file}`);
  return text;
}

export const GALLERY: GalleryEntry[] = Object.entries(raw)
  .map(([path, meta]) => {
    const file = path.replace(/^(\.\.\/)+/, '');
    const name = file.replace(/^scenarios\//, '').replace(/\.(ya?ml|json)$/, '');
    const parts = name.split('/');
    const title = meta.title ?? name,
      reference = meta.reference;
    return {
      name,
      file,
      group: parts[0],
      sub: parts.length > 2 ? parts[1] : null,
      title,
      teaser: meta.teaser,
      reference,
    };
  })
  .sort(
    (a, b) =>
      (GROUPS[a.group]?.order ?? 99) - (GROUPS[b.group]?.order ?? 99) ||
      (a.sub ?? '').localeCompare(b.sub ?? '') ||
      ORDER(a) - ORDER(b) ||
      a.name.localeCompare(b.name, 'en', { numeric: true }),
  );

/* each mechanism's teaching order: the first card is the one to try first */
function ORDER(e: GalleryEntry): number {
  const first = MECHANISM_DEFS.find((m) => m.id === e.group)?.teachingOrder ?? [];
  const i = first.indexOf(e.name.split('/').pop()!);
  return i < 0 ? 100 : i;
}

export function findScenario(name: string): GalleryEntry | undefined {
  return GALLERY.find((e) => e.name === name);
}
