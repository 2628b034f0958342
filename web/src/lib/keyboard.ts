/**
 * Keyboard control of the player (the Help overlay lists the keys, from
 * KEYS below: one list for both).
 *
 * The rule: a shortcut works whenever the focus is not in a text field. A
 * focused <select>, slider, button or checkbox does not swallow the keys: the
 * arrows step, Space plays (a button or checkbox the keyboard focused keeps
 * Space and Enter, as users of a keyboard expect), and a control used with
 * the mouse hands the focus back to the page at once (handBack), so that the
 * next key press is the player's again. Widgets with a cursor of their own
 * (a list's rows, the address-space grid) keep ↑ ↓ (and the grid ← →) while
 * they have the focus; everything else still works there.
 */
import { notesUrl } from '../tourChannel.js';
import { urlFor } from '../controller.js';
import { jumpKeys } from '../mechanisms/registry.js';
import type { Store } from '../store/store.js';

/** put text on the clipboard and say so; where the clipboard is refused, show the text itself to copy by hand */
export function copyText(store: Store, text: string, said: string): void {
  const done = () => store.dispatch({ type: 'toast', text: said });
  if (navigator.clipboard?.writeText)
    navigator.clipboard.writeText(text).then(done, () => store.dispatch({ type: 'toast', text }));
  else store.dispatch({ type: 'toast', text });
}

/** copy a link to exactly what is on screen (built from the state, not from a URL that may lag) */
export function copyLink(store: Store): void {
  const href = new URL(urlFor(store.get()), location.href).href;
  history.replaceState(null, '', href);
  copyText(store, href, 'Link copied: it opens this exact view.');
}

/** [keys, what they do]: the Help overlay's list */
export const KEYS: [string, string][] = [
  ['Space', 'play / pause'],
  ['→  ←', 'one event forward / back'],
  ['Shift + →  ←', 'next / previous scenario step'],
  ['PageDown  PageUp', 'next / previous caption or step; in a tour, its next / previous beat (a clicker)'],
  ['Home  End', 'start / end'],
  ['P', 'presenter mode'],
  ['B', 'blank the screen (presenter mode)'],
  ['Z', "a tour's speaker notes, the next beat and a clock, in a second window"],
  ['+  \u2212', 'larger / smaller type (presenter mode)'],
  ['A', 'about this scenario'],
  ['Y', "the seed's letter beside the model (Seed vs model)"],
  ['T', 'tunables'],
  ['E', 'scenario editor (Ctrl+Enter runs it, Esc closes it)'],
  ['X', 'export'],
  ['L', 'copy a link to this view'],
  ['D', 'light / dark theme'],
  ['G', 'back to the gallery'],
  ['?', 'this help'],
  ['Esc', 'close, leave presenter mode, cancel a recording'],
];

/** a field that takes text: its keys are its own */
const TEXT =
  'textarea, [contenteditable=""], [contenteditable=true], .cm-editor, input:not([type]), ' +
  'input[type=text], input[type=search], input[type=number], input[type=email], input[type=url], input[type=password]';

/** controls whose activation keys (Space, Enter) are their own when the keyboard focused them */
const CONTROL = 'button, summary, a[href], [role=tab], input[type=checkbox], input[type=radio]';

/** composite widgets that move a cursor of their own with these keys while focused */
const OWN_KEYS: [string, string[]][] = [
  ['[data-rows]', ['ArrowUp', 'ArrowDown', 'Enter']],
  ['[data-grid-keys]', ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', '+', '-', '=', '_', '0', 'Enter']],
];

/**
 * A control used with the pointer gives the focus back: a clicked button, a
 * ticked checkbox, a dragged slider, an option chosen in a select.
 */
function handBack(): () => void {
  /*
   * At once, in the event's capture phase (the control's own handler still runs): a blur left to a
   * timer ran, on a loaded machine, only after the next key presses had found the focus still there.
   */
  const blurNow = (el: Element | null) => {
    if (el instanceof HTMLElement && el.closest('.app') && !el.closest('.cm-editor')) el.blur();
  };
  const onClick = (e: MouseEvent) => {
    /* detail 0: a click made with the keyboard (Enter, Space): the focus stays where the user put it */
    if (e.detail === 0) return;
    const el = (e.target as Element | null)?.closest(
      'button, [role=tab], input[type=checkbox], input[type=radio], summary',
    );
    if (el) blurNow(el);
  };
  const onPointerUp = (e: PointerEvent) => {
    const el = (e.target as Element | null)?.closest('input[type=range]');
    if (el) blurNow(el);
  };
  const onChange = (e: Event) => {
    const el = e.target as Element | null;
    if (el instanceof HTMLSelectElement) blurNow(el);
  };
  addEventListener('click', onClick, true);
  addEventListener('pointerup', onPointerUp, true);
  addEventListener('change', onChange, true);
  return () => {
    removeEventListener('click', onClick, true);
    removeEventListener('pointerup', onPointerUp, true);
    removeEventListener('change', onChange, true);
  };
}

/* the control or grid a pointer press focused last (until Tab moves the focus) */
let pointerFocused: Element | null = null;

/**
 * Whether a widget with keys of its own has the focus from a pointer: a click on the address space's
 * grid (to inspect a page, or to pan) leaves the arrows to stepping; Tab gives them to the grid.
 */
export const focusedByPointer = (el: Element) => el === pointerFocused;

export function installKeyboard(store: Store, onExport?: () => void): () => void {
  const onPointerDown = (e: PointerEvent) => {
    pointerFocused = (e.target as Element | null)?.closest(`${CONTROL}, [data-grid-keys]`) ?? null;
  };
  /* a Space the player took from a pointer-focused button: a button activates on the key's release (keyup) */
  let spaceTaken = false;
  const onKey = (e: KeyboardEvent) => {
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    if (t?.closest(TEXT)) return;
    const k = e.key;
    for (const [sel, keys] of OWN_KEYS) {
      const own = t?.closest(sel);
      if (own && keys.includes(k) && !(sel === '[data-grid-keys]' && own === pointerFocused)) return;
    }
    /*
     * A control the keyboard focused keeps activation: Space and Enter press a button, Space ticks a
     * box. One the pointer focused and that kept the focus (pressed, then released off it: no click
     * to hand it back) leaves Space to the player, and the key's release must not press it (onKeyUp).
     * (:focus-visible cannot tell them apart: Chromium turns it on at the first key press.)
     */
    if (k === 'Tab') pointerFocused = null;
    const control = t?.closest(CONTROL);
    if ((k === ' ' || k === 'Enter') && control && control !== pointerFocused) return;
    if (k === ' ' && control) spaceTaken = true;
    if (k === 'Enter') return;
    if (k === 'Tab') return;
    const s = store.get();
    const d = store.dispatch;
    const player = s.page === 'player';
    let handled = true;
    if (k === 'Escape') {
      if (s.help) d({ type: 'toggleHelp' });
      else if (s.blank) d({ type: 'toggleBlank' });
      else if (s.drawer) d({ type: 'openDrawer', drawer: null });
      else if (s.present && !s.embed) d({ type: 'setPresent', on: false });
      else if (s.enlarged) d({ type: 'enlarge', id: null });
      else if (s.load.status === 'running' || s.load.status === 'compiling') d({ type: 'cancelRun' });
      else handled = false;
    } else if (k === '?') d({ type: 'toggleHelp' });
    else if (k === 'd' || k === 'D') d({ type: 'setTheme', theme: s.theme === 'dark' ? 'light' : 'dark' });
    else if (!player) handled = false;
    /* a tour: PageDown/PageUp (what a clicker sends) walk its beats; the arrows still step within one */ else if (
      s.tour &&
      k === 'PageDown'
    )
      d({ type: 'gotoBeat', index: s.tour.index + 1 });
    else if (s.tour && k === 'PageUp') d({ type: 'gotoBeat', index: s.tour.index - 1 });
    else if (k === ' ') d({ type: 'togglePlay' });
    else if (k === 'ArrowRight') d(e.shiftKey ? { type: 'jump', kind: 'step', dir: 1 } : { type: 'step', delta: 1 });
    else if (k === 'ArrowLeft') d(e.shiftKey ? { type: 'jump', kind: 'step', dir: -1 } : { type: 'step', delta: -1 });
    else if (k === 'PageDown') d({ type: 'jump', kind: 'beat', dir: 1 });
    else if (k === 'PageUp') d({ type: 'jump', kind: 'beat', dir: -1 });
    else if (k === 'Home') d({ type: 'seek', cursor: 0 });
    else if (k === 'End') d({ type: 'seek', cursor: s.timeline?.nEvents ?? 0 });
    else if (k === 'p' || k === 'P') {
      if (!s.embed) d({ type: 'setPresent', on: !s.present });
    } else if (k === 'b' || k === 'B') d({ type: 'toggleBlank' });
    else if (k === '+' || k === '=') d({ type: 'stepFontScale', dir: 1 });
    else if (k === '-' || k === '_') d({ type: 'stepFontScale', dir: -1 });
    else if (s.embed) handled = jump(k, e.shiftKey);
    /* Z: the one letter no view takes (O is the folio view's next rmap operation) */ else if (
      (k === 'z' || k === 'Z') &&
      s.tour
    )
      window.open(`${notesUrl(s.tour.name)}&theme=${s.theme}`, 'mmplay-notes', 'width=960,height=720');
    else if (k === 'a' || k === 'A') d({ type: 'openDrawer', drawer: s.drawer === 'about' ? null : 'about' });
    else if (k === 't' || k === 'T') d({ type: 'openDrawer', drawer: s.drawer === 'tunables' ? null : 'tunables' });
    else if ((k === 'y' || k === 'Y') && s.program?.scenario.letter)
      d({ type: 'openDrawer', drawer: s.drawer === 'letter' ? null : 'letter' });
    else if (k === 'e' || k === 'E') d({ type: 'openDrawer', drawer: s.drawer === 'editor' ? null : 'editor' });
    else if (k === 'l' || k === 'L') copyLink(store);
    else if (k === 'x' || k === 'X') {
      if (onExport) onExport();
      else handled = false;
    } else if (k === 'g' || k === 'G') d({ type: 'openGallery' });
    else handled = jump(k, e.shiftKey);
    if (handled) e.preventDefault();
  };
  /* the jump targets' keys: F (fault), J (end of this fault), M, and the mechanisms' own */
  const jump = (k: string, shift: boolean): boolean => {
    const target = jumpKeys().find((j) => j.key === k.toUpperCase());
    if (!target) return false;
    store.dispatch({ type: 'jump', kind: target.id, dir: shift ? -1 : 1 });
    return true;
  };
  const onKeyUp = (e: KeyboardEvent) => {
    if (e.key === ' ' && spaceTaken) e.preventDefault();
    if (e.key === ' ') spaceTaken = false;
  };
  addEventListener('keydown', onKey);
  addEventListener('keyup', onKeyUp);
  addEventListener('pointerdown', onPointerDown, true);
  const undo = handBack();
  return () => {
    removeEventListener('keydown', onKey);
    removeEventListener('keyup', onKeyUp);
    removeEventListener('pointerdown', onPointerDown, true);
    undo();
  };
}
