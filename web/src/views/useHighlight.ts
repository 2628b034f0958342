/**
 * What a tour's beat points at (a figure, a view, pages, a VMA, an LRU list), for the views that outline it:
 * a mechanism's views read it here, not from the store.
 */
import type { Highlight } from '../../../wasm-core/ts/load/tour.js';
import { useStore } from '../store/store.js';
import { usePicture } from './picture.js';

export function useHighlight<K extends Highlight['kind']>(kind: K): Extract<Highlight, { kind: K }> | null {
  const picture = usePicture();
  const page = useStore((s) => (s.highlight?.kind === kind ? (s.highlight as Extract<Highlight, { kind: K }>) : null));
  /* a picture outlines its own beat's highlight, not the one on screen */
  if (picture) return picture.highlight?.kind === kind ? (picture.highlight as Extract<Highlight, { kind: K }>) : null;
  return page;
}
