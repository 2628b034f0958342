/** Page colours (Okabe & Ito, colour-blind safe), read from CSS variables so themes apply. */
import { CAUSE } from '../frames/types.js';

export interface Palette {
  empty: string;
  emptyLine: string;
  text: string;
  muted: string;
  panel: string;
  window: string;
  accent: string;
  /** a page in the page cache but not mapped here; a page under read I/O; the readahead window */
  cached: string;
  reading: string;
  ra: string;
  cause: string[];
}

export function readPalette(el: Element = document.documentElement): Palette {
  const cs = getComputedStyle(el);
  const v = (n: string) => cs.getPropertyValue(n).trim();
  const cause: string[] = [];
  cause[CAUSE.unknown] = v('--c-mapped');
  cause[CAUSE.fault] = v('--c-fault');
  cause[CAUSE.around] = v('--c-around');
  cause[CAUSE.major] = v('--c-major');
  cause[CAUSE.anon] = v('--c-anon');
  cause[CAUSE.zero] = v('--c-zero');
  cause[CAUSE.cow] = v('--c-cow');
  cause[CAUSE.huge] = v('--c-huge');
  cause[CAUSE.fork] = v('--c-fork');
  return {
    empty: v('--cell-empty'),
    emptyLine: v('--cell-empty-line'),
    text: v('--text'),
    muted: v('--muted'),
    panel: v('--panel-2'),
    window: v('--c-window'),
    accent: v('--accent'),
    cached: v('--c-cached'),
    reading: v('--c-major'),
    ra: v('--c-ra'),
    cause,
  };
}

export const CAUSE_LEGEND: { cause: number; label: string; short: string; css: string; glyph?: string }[] = [
  { cause: CAUSE.fault, label: 'mapped by the faulting access', short: 'faulting access', css: 'var(--c-fault)' },
  { cause: CAUSE.around, label: 'mapped by fault-around', short: 'fault-around', css: 'var(--c-around)' },
  {
    cause: CAUSE.major,
    label: 'major fault (read from disk)',
    short: 'major fault',
    css: 'var(--c-major)',
    glyph: 'dot',
  },
  { cause: CAUSE.anon, label: 'anonymous page', short: 'anonymous', css: 'var(--c-anon)' },
  { cause: CAUSE.zero, label: 'zero page', short: 'zero page', css: 'var(--c-zero)' },
  { cause: CAUSE.cow, label: 'private copy (COW)', short: 'private copy (COW)', css: 'var(--c-cow)' },
  { cause: CAUSE.huge, label: 'THP: one PMD maps 2 MiB', short: 'THP (PMD)', css: 'var(--c-huge)' },
  {
    cause: CAUSE.fork,
    label: 'a PTE fork copied from the parent (copy_present_pte)',
    short: 'copied by fork',
    css: 'var(--c-fork)',
  },
];
