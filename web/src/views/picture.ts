/**
 * A view drawn as a picture (a question's on the worksheet) rather than live on the page: it outlines the
 * picture's own highlight rather than the beat on screen, shows the mapping it names, takes no clicks for
 * the page (no process chosen, no pages picked), and reads its colours from the picture's element (light,
 * for paper), not from the page's theme.
 */
import { createContext, useContext } from 'react';
import type { Highlight } from '../../../wasm-core/ts/load/tour.js';

export interface Picture {
  highlight: Highlight | null;
  /** the mapping the address space shows (a pick question's), by its name in the scenario */
  vma: string | null;
  /** the element whose CSS colours the picture is drawn in */
  root: HTMLElement;
}

export const PictureContext = createContext<Picture | null>(null);

/** the picture a view is drawn as, or null on the page */
export const usePicture = (): Picture | null => useContext(PictureContext);
