import { fmt } from '../lib/format.js';

/** what a big run is, in words: the player's note above the views, and the transport's tooltip */
export const bigRunNote = (work: number): string =>
  `A big run: ${fmt(work)} operations were simulated without recording events, so the views show the final state and aggregates (heat strips), not every page.`;
