/**
 * The gallery: every scenario under scenarios/, bundled into the app (so a
 * static build works offline), grouped by mechanism (the first directory).
 */
import type { GalleryMeta } from './gallery-meta.js';
import { MECHANISM_DEFS } from './mechanisms/registry.js';

/* each file's text and its card's facts, read at build time (web/gallery-plugin.ts, src/gallery-meta.ts) */
const raw = import.meta.glob(['../../scenarios/**/*.{yaml,yml,json}', '!../../scenarios/**/*.tour.yaml'], {
  query: '?gallery',
  import: 'default',
  eager: true,
}) as Record<string, { source: string; meta: GalleryMeta }>;

export interface GalleryEntry {
  /** route name: the path under scenarios/ without the extension */
  name: string;
  file: string;
  group: string;
  /** a sub-folder inside the group (e.g. 'seed'), or null */
  sub: string | null;
  title: string;
  about: string;
  teaser: string;
  source: string;
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

/** the first sentences of `about`, about 80 to 180 characters, cut at a word if need be */
export function teaserOf(about: string): string {
  const plain = about
    .replace(/\*\*|`|\*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  /* a sentence ends at . ! or ? followed by a space, so "mechanisms.md," stays whole */
  const sentences = plain.match(/.+?(?:[.!?]+(?=\s|$)|$)/g) ?? [plain];
  let out = '';
  for (const sn of sentences) {
    if (out.length >= 80 && out.length + sn.length > 170) break;
    out += (out ? ' ' : '') + sn.trim();
  }
  if (out.length <= 180) return out;
  let cut = out.slice(0, 180);
  cut = cut.slice(0, cut.lastIndexOf(' '));
  /* never end inside a parenthesis */
  if (cut.lastIndexOf('(') > cut.lastIndexOf(')')) cut = cut.slice(0, cut.lastIndexOf('('));
  return `${cut.replace(/[\s,;:-]+$/, '')}…`;
}

/** the pgfault a scenario expects at its end (the seed tables' model value) */
export function expectedFaults(source: string): number | null {
  const all = [...source.matchAll(/pgfault:\s*(\d+)/g)];
  return all.length ? Number(all[all.length - 1][1]) : null;
}

export const GALLERY: GalleryEntry[] = Object.entries(raw)
  .map(([path, { source, meta }]) => {
    const file = path.replace(/^(\.\.\/)+/, '');
    const name = file.replace(/^scenarios\//, '').replace(/\.(ya?ml|json)$/, '');
    const parts = name.split('/');
    const title = meta.title ?? name,
      about = meta.about,
      reference = meta.reference;
    return {
      name,
      file,
      group: parts[0],
      sub: parts.length > 2 ? parts[1] : null,
      title,
      about,
      teaser: teaserOf(about),
      source,
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
