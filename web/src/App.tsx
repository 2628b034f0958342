import { LetterPanel } from './components/Letter.js';
import { lazy, Suspense, useEffect, useState } from 'react';
import { ExportDialog } from './components/Export.js';
import { Gallery } from './components/Gallery.js';
import { Help, Progress, Toast } from './components/Overlays.js';
import { Player } from './components/Player.js';
import { TunablesPanel } from './components/Tunables.js';
import { copyLink, installKeyboard } from './lib/keyboard.js';
import { Markdown } from './lib/markdown.js';
import { scenarioTitle, STAGE_TEXT } from './store/state.js';
import { dispatch, store, useStore } from './store/store.js';

/* CodeMirror is a third of the bundle: load it when the editor opens */
const Editor = lazy(() => import('./components/Editor.js').then((m) => ({ default: m.Editor })));

function Brand() {
  return (
    <a
      className="brand"
      href="./"
      onClick={(e) => {
        e.preventDefault();
        dispatch({ type: 'openGallery' });
      }}
      aria-label="mmplay: back to the gallery"
    >
      <span className="brand-mark" aria-hidden>
        <i style={{ background: 'var(--c-fault)' }} />
        <i style={{ background: 'var(--c-around)' }} />
        <i style={{ background: 'var(--c-around)' }} />
        <i style={{ background: 'var(--c-major)' }} />
      </span>
      mmplay
    </a>
  );
}

function TopBar({ onExport }: { onExport: () => void }) {
  const page = useStore((s) => s.page);
  const title = useStore(scenarioTitle);
  const edited = useStore((s) => s.scenario?.edited ?? false);
  const theme = useStore((s) => s.theme);
  const drawer = useStore((s) => s.drawer);
  const tour = useStore((s) => s.tour !== null);
  return (
    <header className="topbar">
      <Brand />
      {page === 'player' && (
        <>
          <button
            type="button"
            className="btn"
            onClick={() => dispatch({ type: 'openGallery' })}
            title="Back to the gallery (G)"
          >
            ← Scenarios
          </button>
          <h1 className="title" data-testid="scenario-title">
            {title}
            {edited && <span className="edited">edited</span>}
          </h1>
        </>
      )}
      <span className="spacer" />
      <div className="group">
        {page === 'player' && (
          <>
            <button
              type="button"
              className={`btn ${drawer === 'tunables' ? 'active' : ''}`}
              onClick={() => dispatch({ type: 'openDrawer', drawer: drawer === 'tunables' ? null : 'tunables' })}
              aria-pressed={drawer === 'tunables'}
              title="Tunables (T)"
            >
              Tunables
            </button>
            <button
              type="button"
              className={`btn ${drawer === 'editor' ? 'active' : ''}`}
              onClick={() => dispatch({ type: 'openDrawer', drawer: drawer === 'editor' ? null : 'editor' })}
              aria-pressed={drawer === 'editor'}
              title={tour ? 'Edit the tour (E)' : 'Edit the scenario (E)'}
              data-testid="open-editor"
            >
              Edit
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => copyLink(store)}
              title="Copy a link to this exact view (L)"
              data-testid="copy-link"
            >
              Copy link
            </button>
            <button
              type="button"
              className="btn"
              onClick={onExport}
              title="Counters, the event log, views as images, embed (X)"
              data-testid="open-export"
            >
              Export
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => dispatch({ type: 'setPresent', on: true })}
              title="Presenter mode: full screen, large caption (P)"
              data-testid="open-present"
            >
              Present
            </button>
          </>
        )}
        <button
          type="button"
          className="btn icon"
          onClick={() => dispatch({ type: 'setTheme', theme: theme === 'dark' ? 'light' : 'dark' })}
          aria-label={`Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme (D)`}
          title="Light / dark (D)"
        >
          {theme === 'dark' ? '☀' : '☾'}
        </button>
        <button
          type="button"
          className="btn icon"
          onClick={() => dispatch({ type: 'toggleHelp' })}
          aria-label="Keyboard shortcuts (?)"
          title="Keyboard (?)"
        >
          ?
        </button>
      </div>
    </header>
  );
}

function Drawer() {
  const drawer = useStore((s) => s.drawer);
  const tour = useStore((s) => s.tour !== null);
  if (!drawer) return null;
  const title =
    drawer === 'tunables'
      ? 'Kernel tunables'
      : drawer === 'about'
        ? 'About this scenario'
        : drawer === 'letter'
          ? 'Seed vs model: the letter beside the model'
          : tour
            ? 'Tour (YAML)'
            : 'Scenario (YAML)';
  return (
    <aside
      className={`drawer ${drawer === 'editor' || drawer === 'letter' ? 'wide' : ''}`}
      aria-labelledby="drawer-title"
      data-testid={`drawer-${drawer}`}
    >
      <div className="drawer-head">
        <h2 id="drawer-title">{title}</h2>
        <span className="spacer" />
        <button
          type="button"
          className="btn icon"
          onClick={() => dispatch({ type: 'openDrawer', drawer: null })}
          aria-label="Close (Esc)"
        >
          ✕
        </button>
      </div>
      <div className="drawer-body">
        {drawer === 'tunables' ? (
          <TunablesPanel />
        ) : drawer === 'about' ? (
          <About />
        ) : drawer === 'letter' ? (
          <LetterPanel />
        ) : (
          <Suspense fallback={<div className="loading">Loading the editor&hellip;</div>}>
            <Editor />
          </Suspense>
        )}
      </div>
    </aside>
  );
}

/** the scenario's story (markdown, never HTML) and the current caption in full */
function About() {
  const program = useStore((s) => s.program ?? null);
  const running = useStore((s) => s.running);
  const say = useStore((s) => s.frame?.say ?? null);
  const sc = program?.scenario ?? running;
  if (!sc) return <div className="loading">The scenario is being read&hellip;</div>;
  return (
    <div className="about" data-testid="about">
      <h3>{sc.name}</h3>
      <Markdown text={sc.about} />
      {say && (
        <>
          <h4>The caption now</h4>
          <p className="say">{say}</p>
        </>
      )}
      {sc.compare && (
        <p className="muted">
          Its natural comparison:{' '}
          {Object.entries(sc.compare)
            .map(([k, v]) => `${k} = ${v}`)
            .join(', ')}{' '}
          (the Compare button).
        </p>
      )}
    </div>
  );
}

export function App() {
  const page = useStore((s) => s.page);
  const opening = useStore((s) => s.opening);
  const present = useStore((s) => s.present);
  const embed = useStore((s) => s.embed);
  const blank = useStore((s) => s.blank);
  const fontScale = useStore((s) => s.fontScale);
  const beat = useStore((s) => (s.tour ? s.tour.index + 1 : undefined));
  const [exporting, setExporting] = useState(false);
  useEffect(() => installKeyboard(store, () => setExporting((x) => !x)), []);
  /*
   * presenter mode's type: 1rem is 18 px times the scale (A+, A−, &scale=), and no text is smaller than
   * that (every font-size is max(var(--text-min), …), the canvas's and SVG's labels included): a room reads
   * 18 px on a 1280x720 projector
   */
  useEffect(() => {
    const root = document.documentElement.style;
    root.fontSize = present ? `${STAGE_TEXT * fontScale}px` : '';
    if (present) root.setProperty('--text-min', `${STAGE_TEXT * fontScale}px`);
    else root.removeProperty('--text-min');
  }, [present, fontScale]);
  useEffect(() => {
    document.title = page === 'gallery' ? 'mmplay' : `${store.get().scenario?.name ?? 'edited scenario'} · mmplay`;
  }, [page]);
  return (
    <div
      className={`app ${page === 'player' ? 'fill' : ''} ${present ? 'present' : ''} ${embed ? 'embed' : ''}`}
      data-beat={beat}
    >
      {!present && !embed && <TopBar onExport={() => setExporting(true)} />}
      {page === 'player' ? (
        <Player />
      ) : opening ? (
        /* a link's scenario or tour on its way: nothing to look at for the few hundred ms its texts take */
        <main className="opening" aria-busy="true">
          <span className="visually-hidden" role="status">
            Opening…
          </span>
        </main>
      ) : (
        <Gallery />
      )}
      <Drawer />
      {exporting && page === 'player' && <ExportDialog onClose={() => setExporting(false)} />}
      {blank && (
        <div
          className="blank"
          data-testid="blank"
          onClick={() => dispatch({ type: 'toggleBlank' })}
          aria-label="Blank screen: press B or Esc to come back"
          role="dialog"
        />
      )}
      <Progress />
      <Help />
      <Toast />
    </div>
  );
}
