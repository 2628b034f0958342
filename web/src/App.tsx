import { lazy, Suspense, useEffect } from 'react';
import { Gallery } from './components/Gallery.js';
import { Help, Progress, Toast } from './components/Overlays.js';
import { Player } from './components/Player.js';
import { TunablesPanel } from './components/Tunables.js';
import { copyLink, installKeyboard } from './lib/keyboard.js';
import { scenarioTitle } from './store/state.js';
import { dispatch, store, useStore } from './store/store.js';

/* CodeMirror is a third of the bundle: load it when the editor opens */
const Editor = lazy(() => import('./components/Editor.js').then((m) => ({ default: m.Editor })));

function Brand() {
  return (
    <a className="brand" href="./" onClick={(e) => { e.preventDefault(); dispatch({ type: 'openGallery' }); }} aria-label="mmplay: back to the gallery">
      <span className="brand-mark" aria-hidden>
        <i style={{ background: 'var(--c-fault)' }} /><i style={{ background: 'var(--c-around)' }} />
        <i style={{ background: 'var(--c-around)' }} /><i style={{ background: 'var(--c-major)' }} />
      </span>
      mmplay
    </a>
  );
}

function TopBar() {
  const page = useStore((s) => s.page);
  const title = useStore(scenarioTitle);
  const edited = useStore((s) => s.scenario?.edited ?? false);
  const theme = useStore((s) => s.theme);
  const drawer = useStore((s) => s.drawer);
  return (
    <header className="topbar">
      <Brand />
      {page === 'player' && (
        <>
          <button className="btn" onClick={() => dispatch({ type: 'openGallery' })} title="Back to the gallery (G)">← Scenarios</button>
          <h1 className="title" data-testid="scenario-title">{title}{edited && <span className="edited">edited</span>}</h1>
        </>
      )}
      <span className="spacer" />
      <div className="group">
        {page === 'player' && (
          <>
            <button className={`btn ${drawer === 'tunables' ? 'active' : ''}`} onClick={() => dispatch({ type: 'openDrawer', drawer: drawer === 'tunables' ? null : 'tunables' })} aria-pressed={drawer === 'tunables'} title="Tunables (T)">Tunables</button>
            <button className={`btn ${drawer === 'editor' ? 'active' : ''}`} onClick={() => dispatch({ type: 'openDrawer', drawer: drawer === 'editor' ? null : 'editor' })} aria-pressed={drawer === 'editor'} title="Edit the scenario (E)" data-testid="open-editor">Edit</button>
            <button className="btn" onClick={() => copyLink(store)} title="Copy a link to this exact view (L)" data-testid="copy-link">Copy link</button>
          </>
        )}
        <button className="btn icon" onClick={() => dispatch({ type: 'setTheme', theme: theme === 'dark' ? 'light' : 'dark' })}
          aria-label={`Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme (D)`} title="Light / dark (D)">{theme === 'dark' ? '☀' : '☾'}</button>
        <button className="btn icon" onClick={() => dispatch({ type: 'toggleHelp' })} aria-label="Keyboard shortcuts (?)" title="Keyboard (?)">?</button>
      </div>
    </header>
  );
}

function Drawer() {
  const drawer = useStore((s) => s.drawer);
  if (!drawer) return null;
  const title = drawer === 'tunables' ? 'Kernel tunables' : 'Scenario (YAML)';
  return (
    <aside className={`drawer ${drawer === 'editor' ? 'wide' : ''}`} aria-labelledby="drawer-title" data-testid={`drawer-${drawer}`}>
      <div className="drawer-head">
        <h2 id="drawer-title">{title}</h2>
        <span className="spacer" />
        <button className="btn icon" onClick={() => dispatch({ type: 'openDrawer', drawer: null })} aria-label="Close (Esc)">✕</button>
      </div>
      <div className="drawer-body">
        {drawer === 'tunables' ? <TunablesPanel /> : <Suspense fallback={<div className="loading">Loading the editor&hellip;</div>}><Editor /></Suspense>}
      </div>
    </aside>
  );
}

export function App() {
  const page = useStore((s) => s.page);
  useEffect(() => installKeyboard(store), []);
  useEffect(() => { document.title = page === 'gallery' ? 'mmplay' : `${store.get().scenario?.name ?? 'edited scenario'} · mmplay`; }, [page]);
  return (
    <div className="app">
      <TopBar />
      {page === 'gallery' ? <Gallery /> : <Player />}
      <Drawer />
      <Progress />
      <Help />
      <Toast />
    </div>
  );
}
