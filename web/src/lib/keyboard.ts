/** Keyboard control of the player (see the Help overlay for the list). */
import { urlFor } from '../controller.js';
import type { Store } from '../store/store.js';

/** copy a link to exactly what is on screen (built from the state, not from a URL that may lag) */
export function copyLink(store: Store): void {
  const href = new URL(urlFor(store.get()), location.href).href;
  history.replaceState(null, '', href);
  const done = () => store.dispatch({ type: 'toast', text: 'Link copied: it opens this exact view.' });
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(href).then(done, () => store.dispatch({ type: 'toast', text: href }));
  else store.dispatch({ type: 'toast', text: href });
}

export function installKeyboard(store: Store): () => void {
  const onKey = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement | null;
    if (t && (t.closest('input, textarea, select, [contenteditable=true], .cm-editor') || e.metaKey || e.ctrlKey || e.altKey)) return;
    const s = store.get();
    const d = store.dispatch;
    const player = s.page === 'player';
    const k = e.key;
    let handled = true;
    if (k === 'Escape') {
      if (s.help) d({ type: 'toggleHelp' });
      else if (s.drawer) d({ type: 'openDrawer', drawer: null });
      else if (s.enlarged) d({ type: 'enlarge', id: null });
      else handled = false;
    } else if (k === '?') d({ type: 'toggleHelp' });
    else if (k === 'd' || k === 'D') d({ type: 'setTheme', theme: s.theme === 'dark' ? 'light' : 'dark' });
    else if (!player) handled = false;
    else if (k === ' ' && !(t && t.closest('button'))) d({ type: 'togglePlay' });
    else if (k === 'ArrowRight') d(e.shiftKey ? { type: 'jump', kind: 'step', dir: 1 } : { type: 'step', delta: 1 });
    else if (k === 'ArrowLeft') d(e.shiftKey ? { type: 'jump', kind: 'step', dir: -1 } : { type: 'step', delta: -1 });
    else if (k === 'Home') d({ type: 'seek', cursor: 0 });
    else if (k === 'End') d({ type: 'seek', cursor: s.timeline?.nEvents ?? 0 });
    else if (k === 'f' || k === 'F') d({ type: 'jump', kind: 'fault', dir: e.shiftKey ? -1 : 1 });
    else if (k === 'm' || k === 'M') d({ type: 'jump', kind: 'major', dir: e.shiftKey ? -1 : 1 });
    else if (k === 't' || k === 'T') d({ type: 'openDrawer', drawer: s.drawer === 'tunables' ? null : 'tunables' });
    else if (k === 'e' || k === 'E') d({ type: 'openDrawer', drawer: s.drawer === 'editor' ? null : 'editor' });
    else if (k === 'l' || k === 'L') copyLink(store);
    else if (k === 'g' || k === 'G') d({ type: 'openGallery' });
    else handled = false;
    if (handled) e.preventDefault();
  };
  addEventListener('keydown', onKey);
  return () => removeEventListener('keydown', onKey);
}
