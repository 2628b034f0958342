/**
 * The scenario editor: YAML in CodeMirror 6, checked as you type by the same
 * loader the CLI uses, errors shown at their line; Run (Ctrl+Enter) applies.
 * With a tour on screen it edits the tour instead: checked by the tour
 * loader (parseTour, then the playground's names), completed from its
 * schema, and Run shows the edited tour at the same beat (its link carries
 * the text, #tour-src=).
 * Completion (keys at every level, step kinds, tunables, enum values) and
 * hover documentation come from the loader's own JSON Schema
 * (scenarioJsonSchema(), via wasm-core/ts/schema/assist.ts). Scenario text
 * is never rendered as HTML: documentation is built with textContent.
 */
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState, Prec } from '@codemirror/state';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { EditorView, hoverTooltip, keymap } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef, useState } from 'react';
import { completionsAt, docAt, type Doc } from '../../../wasm-core/ts/schema/assist.js';
import { scenarioJsonSchema } from '../../../wasm-core/ts/load/schema.js';
import { tourJsonSchema } from '../../../wasm-core/ts/load/tour.js';
import { loadTour, tourIssues } from '../tour-load.js';
import './editor.css';
import { checkScenario } from '../controller.js';
import type { Issue } from '../store/state.js';
import { dispatch, store, useStore } from '../store/store.js';

/** the worker checks the text (a big paste must not freeze the page); [] when it compiles */
async function check(text: string, file: string): Promise<Issue[]> {
  return (await checkScenario(text, file)) ?? [];
}

/** completion and hover parse the text on the page: only for texts that parse in a few milliseconds */
const ASSIST_MAX_CHARS = 64 * 1024;

/** documentation as DOM: text only */
function docDom(d: Doc): HTMLElement {
  const box = document.createElement('div');
  box.className = 'mm-doc';
  const title = document.createElement('div');
  title.className = 'mm-doc-title';
  title.textContent = d.title;
  box.append(title);
  for (const line of d.lines) {
    const p = document.createElement('div');
    p.className = 'mm-doc-line';
    p.textContent = line;
    box.append(p);
  }
  return box;
}

const SCHEMA = scenarioJsonSchema();
const TOUR_SCHEMA = tourJsonSchema();

/** keys and values from the schema, for the key path at the cursor */
const completeFrom = (schema: typeof SCHEMA) => (ctx: CompletionContext) => complete(schema, ctx);
function complete(schema: typeof SCHEMA, ctx: CompletionContext): CompletionResult | null {
  const word = ctx.matchBefore(/[\w.*-]*/);
  if (!word || (word.from === word.to && !ctx.explicit) || ctx.state.doc.length > ASSIST_MAX_CHARS) return null;
  let options: ReturnType<typeof completionsAt>;
  try {
    options = completionsAt(schema, ctx.state.doc.toString(), ctx.pos);
  } catch {
    return null;
  }
  if (!options.length) return null;
  return {
    from: word.from,
    validFor: /^[\w.*-]*$/,
    options: options.map(
      (o): Completion => ({
        label: o.label,
        type: o.kind === 'key' ? 'property' : 'enum',
        detail: o.detail,
        apply: o.apply,
        info: o.doc ? () => docDom(o.doc!) : undefined,
      }),
    ),
  };
}

/** what the key under the pointer means: the schema's description, a tunable's generated documentation */
const hoverDoc = (schema: typeof SCHEMA) =>
  hoverTooltip((view, pos) => {
    if (view.state.doc.length > ASSIST_MAX_CHARS) return null;
    let d: ReturnType<typeof docAt>;
    try {
      d = docAt(schema, view.state.doc.toString(), pos);
    } catch {
      return null;
    }
    if (!d) return null;
    const doc = d.doc;
    return { pos: d.from, end: d.to, above: true, create: () => ({ dom: docDom(doc) }) };
  });

/**
 * Syntax colours from the page's theme (styles.css --syn-*), each at least
 * 4.5:1 on the editor's background in both themes: basicSetup's default
 * style is for light backgrounds only (45 nodes failed contrast in dark).
 */
const highlight = syntaxHighlighting(
  HighlightStyle.define([
    { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--syn-comment)', fontStyle: 'italic' },
    { tag: [tags.string, tags.special(tags.string), tags.content], color: 'var(--syn-string)' },
    { tag: [tags.number, tags.integer, tags.float], color: 'var(--syn-number)' },
    { tag: [tags.bool, tags.atom, tags.null, tags.keyword], color: 'var(--syn-atom)' },
    {
      tag: [tags.propertyName, tags.definition(tags.propertyName), tags.attributeName, tags.labelName],
      color: 'var(--syn-key)',
    },
    {
      tag: [tags.meta, tags.typeName, tags.tagName, tags.processingInstruction, tags.documentMeta],
      color: 'var(--syn-meta)',
    },
    { tag: [tags.punctuation, tags.separator, tags.bracket, tags.operator], color: 'var(--muted)' },
    { tag: tags.invalid, color: 'var(--bad)' },
  ]),
  { fallback: false },
);

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--panel)', color: 'var(--text)' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--panel-2)', color: 'var(--faint)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent-soft) 45%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--accent-soft)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--accent-soft)' },
});

/**
 * Run the editor's text: a scenario's (recorded again), or the tour's (shown again at the beat on screen,
 * as an edited tour, so that its link carries the text). A tour that does not load stays in the editor
 * with its errors listed; nothing typed is lost.
 */
function apply(text: string): void {
  const s = store.get();
  if (!s.tour) {
    dispatch({ type: 'setDraft', text });
    dispatch({ type: 'applyDraft' });
    return;
  }
  dispatch({ type: 'setTourDraft', text });
  if (tourIssues(text, s.tour.file).length) return;
  const tour = { ...loadTour(text, s.tour.file, s.tour.name, s.quiz?.seed), edited: true };
  const last = tour.beats.length - 1;
  dispatch({
    type: 'openTour',
    tour,
    index: Math.min(s.tour.index, last),
    range:
      s.tour.from > 0 || s.tour.to < s.tour.beats.length - 1
        ? [Math.min(s.tour.from, last), Math.min(s.tour.to, last)]
        : undefined,
    present: s.present,
    embed: s.embed,
    seed: s.quiz?.seed,
    teacher: s.quiz?.teacher,
    progress: s.quiz?.progress,
  });
  /* the drawer stays open on the tour's text (openTour closes drawers) */
  dispatch({ type: 'openDrawer', drawer: 'editor' });
}

export function Editor() {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const scenario = useStore((s) => s.scenario);
  /* a tour on screen: its text is what is edited */
  const tour = useStore((s) => s.tour);
  const mode = tour ? 'tour' : 'scenario';
  const draft = useStore((s) => (s.tour ? s.tourDraft : s.draft));
  const loadIssues = useStore((s) => (s.load.status === 'error' && !s.tour ? s.load.issues : null));
  const file = tour ? tour.file : (scenario?.file ?? 'scenario.yaml');
  const source = tour ? tour.source : scenario?.source;
  const [issues, setIssues] = useState<Issue[]>([]);

  useEffect(() => {
    if (!host.current) return;
    const setDraft = (text: string) =>
      dispatch(mode === 'tour' ? { type: 'setTourDraft', text } : { type: 'setDraft', text });
    const run = () => {
      apply(v.state.doc.toString());
      return true;
    };
    const s0 = store.get();
    const v = new EditorView({
      parent: host.current,
      doc: (s0.tour ? (s0.tourDraft ?? s0.tour.source) : (s0.draft ?? s0.scenario?.source)) ?? '',
      extensions: [
        basicSetup,
        yaml(),
        Prec.high(highlight),
        theme,
        /* no sideways scrolling: the drawer scrolls, the editor grows (a scroller of its own is a trap for the keyboard) */
        EditorView.lineWrapping,
        EditorState.languageData.of(() => [{ autocomplete: completeFrom(mode === 'tour' ? TOUR_SCHEMA : SCHEMA) }]),
        hoverDoc(mode === 'tour' ? TOUR_SCHEMA : SCHEMA),
        lintGutter(),
        /* before basicSetup's keymap, which binds Mod-Enter to a new line */
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run }])),
        /* after it: Escape first closes what CodeMirror has open (completions, search), then the drawer */
        keymap.of([
          {
            key: 'Escape',
            run: () => {
              dispatch({ type: 'openDrawer', drawer: null });
              return true;
            },
          },
        ]),
        linter(
          async (ev) => {
            const text = ev.state.doc.toString();
            const found = mode === 'tour' ? tourIssues(text, file) : await check(text, file);
            setIssues(found);
            return found.map((i): Diagnostic => {
              const line = ev.state.doc.line(Math.min(Math.max(i.line ?? 1, 1), ev.state.doc.lines));
              const from = Math.min(line.from + Math.max((i.col ?? 1) - 1, 0), line.to);
              return {
                from,
                to: Math.max(from + 1, line.to),
                severity: 'error',
                message: `${i.path ? `${i.path}: ` : ''}${i.message}`,
              };
            });
          },
          { delay: 250 },
        ),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) setDraft(u.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ 'aria-label': mode === 'tour' ? 'Tour YAML' : 'Scenario YAML' }),
      ],
    });
    view.current = v;
    return () => v.destroy();
  }, [file, mode]);

  const goto = (line: number | null) => {
    const v = view.current;
    if (!v || !line) return;
    const l = v.state.doc.line(Math.min(line, v.state.doc.lines));
    v.dispatch({ selection: { anchor: l.from }, scrollIntoView: true });
    v.focus();
  };
  const shown = issues.length ? issues : (loadIssues ?? []);
  const changed = draft !== null && draft !== source;
  return (
    <div>
      <div className="editor-wrap" ref={host} data-testid="editor" />
      <div style={{ display: 'flex', gap: 8, marginTop: 10, alignItems: 'center' }}>
        <button
          type="button"
          className="btn primary"
          onClick={() => apply(view.current?.state.doc.toString() ?? '')}
          disabled={issues.length > 0}
          data-testid="run-edited"
        >
          Run <span className="kbd">Ctrl+Enter</span>
        </button>
        <button
          type="button"
          className="btn"
          disabled={!changed}
          onClick={() => {
            const v = view.current;
            if (v && source !== undefined) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: source } });
          }}
        >
          Revert changes
        </button>
        <span style={{ color: 'var(--muted)', fontSize: '0.88rem' }}>
          {issues.length ? '' : changed ? 'Not run yet.' : 'Running this text.'}
        </span>
      </div>
      {shown.length > 0 && (
        <ul className="editor-errors" aria-live="polite" data-testid="editor-errors">
          {shown.map((i, k) => (
            <li key={k}>
              <span
                className="loc"
                role="link"
                tabIndex={0}
                onClick={() => goto(i.line)}
                onKeyDown={(e) => e.key === 'Enter' && goto(i.line)}
              >
                {i.line ? `line ${i.line}` : mode}
              </span>
              {i.path && (
                <>
                  {' '}
                  <code>{i.path}</code>:
                </>
              )}{' '}
              {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
