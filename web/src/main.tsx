/**
 * The page's entry: for a link that runs something, the engine worker starts
 * at once (its script and the core's compilation overlap the page's own
 * modules, engine/spawn.ts), and the shipped scenarios' texts (and a tour's
 * reader) start loading, which the controller would ask for only once the
 * page's modules had run; then the page (boot.tsx), which index.html
 * preloads beside this file (web/vite.config.ts).
 */
import { linkRuns, prestartWorker } from './engine/spawn.js';

if (linkRuns(location.search, location.hash)) {
  prestartWorker();
  /* the same modules the controller imports when it routes: loaded once, whoever asks first */
  void import('./texts.js');
  if (new URLSearchParams(location.search).has('tour')) void import('./tour-load.js');
}
void import('./boot.js');
